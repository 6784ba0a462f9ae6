//! `phux config show [--json]`: the config in effect: each `[defaults]` key with the value phux
//! uses (the file's, else the built-in default), the keybindings, the plugins and the hosts.

use phux_core::config::defaults::{CwdInheritance, Defaults, WindowSize};
use phux_core::config::ConfigFile;
use phux_core::documents::ConfigShowJson;
use phux_core::exit_code::SUCCESS;

use crate::failure::{conclude, VerbResult};
use crate::output;
use crate::registry;

/// Print the config in effect (the file's values over the built-in defaults)
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Only the built-in defaults, ignoring the file
    #[arg(long)]
    pub default: bool,
    /// Print it as JSON
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> i32 {
    conclude(args.json, execute(&args))
}

fn execute(args: &Args) -> VerbResult {
    let mut loaded = registry::load_config()?;
    for warning in &loaded.warnings {
        output::warn(&warning.to_string());
    }
    if args.default {
        loaded.file = ConfigFile::default();
    }
    loaded.file.defaults = effective(&loaded.file.defaults);
    if args.json {
        output::print_json(&ConfigShowJson {
            schema_version: 1,
            path: loaded.path.display().to_string(),
            exists: loaded.exists,
            config: loaded.file,
        });
    } else {
        let source = match (args.default, loaded.exists) {
            (true, _) => "built-in defaults",
            (false, true) => "values in effect",
            (false, false) => "built-in defaults (no file)",
        };
        output::print_line(&format!("# {}: {source}", loaded.path.display()));
        output::print_line(prose(&loaded.file).trim_end());
    }
    Ok(SUCCESS)
}

/// The config as TOML, leaving out the tables it does not have.
fn prose(file: &ConfigFile) -> String {
    let mut table = match toml::Table::try_from(file) {
        Ok(table) => table,
        Err(_) => return String::new(),
    };
    table.retain(|_, value| match value {
        toml::Value::Array(items) => !items.is_empty(),
        toml::Value::Table(entries) => !entries.is_empty(),
        _ => true,
    });
    toml::to_string(&table).unwrap_or_default()
}

/// Every key filled: the file's value, else what phux uses without one.
pub fn effective(file: &Defaults) -> Defaults {
    let shell = file
        .shell
        .clone()
        .unwrap_or_else(phux_core::config::defaults::default_shell);
    Defaults {
        shell: Some(shell),
        term: Some(file.term_or_default().to_string()),
        history_limit: Some(file.history_limit.unwrap_or(10_000)),
        window_size: Some(file.window_size.unwrap_or(WindowSize::Smallest)),
        cwd_inheritance: Some(
            file.cwd_inheritance
                .unwrap_or(CwdInheritance::InheritFocused),
        ),
        session_name_template: Some(
            file.session_name_template
                .clone()
                .unwrap_or_else(|| "default".into()),
        ),
        idle_limit: Some(
            file.idle_limit
                .unwrap_or(phux_client::verbs::rec::DEFAULT_IDLE_LIMIT),
        ),
        fps: Some(file.fps.unwrap_or(30)),
        theme: file.theme.clone(),
        scale: Some(file.scale.unwrap_or(1)),
        max_bytes: Some(file.max_bytes.unwrap_or(phux_encoders::DEFAULT_MAX_BYTES)),
        flight_bytes: Some(
            file.flight_bytes
                .unwrap_or(phux_server::flight::DEFAULT_FLIGHT_BYTES),
        ),
        font: Some(file.font.clone().unwrap_or_else(|| "JetBrains Mono".into())),
        font_size: Some(file.font_size.unwrap_or(14.0)),
        line_height: Some(file.line_height.unwrap_or(1.4)),
        letter_spacing: Some(file.letter_spacing.unwrap_or(0.0)),
    }
}
