//! `phux plugin ...`: the plugin registry in the config file (§4.5). These verbs never contact
//! a server and never run plugin code, except `install`/`update`, which run `[[build]]` steps.
//! One file per sub-verb; this module routes and holds what they share.

pub mod install;
pub mod link;
pub mod list;
pub mod toggle;
pub mod unlink;
pub mod update;
pub mod validate;

use clap::Subcommand;
use phux_core::documents::{PluginJson, PluginWrapJson, PLUGIN_SCHEMA_VERSION};

use crate::output;
use crate::registry::Plugin;

/// Register, check and install plugins (phux-plugin.toml manifests)
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub action: Action,
}

#[derive(Subcommand)]
pub enum Action {
    #[command(visible_alias = "ls")]
    List(list::Args),
    Link(link::Args),
    Unlink(unlink::Args),
    Enable(toggle::EnableArgs),
    Disable(toggle::DisableArgs),
    Validate(validate::Args),
    Install(install::Args),
    Update(update::Args),
}

pub fn run(args: Args) -> i32 {
    match args.action {
        Action::List(args) => list::run(args),
        Action::Link(args) => link::run(args),
        Action::Unlink(args) => unlink::run(args),
        Action::Enable(args) => toggle::run(&args.id, true, args.json),
        Action::Disable(args) => toggle::run(&args.id, false, args.json),
        Action::Validate(args) => validate::run(args),
        Action::Install(args) => install::run(args),
        Action::Update(args) => update::run(args),
    }
}

pub use phux_client::registry::registered;

/// `ID<TAB>enabled|disabled<TAB>VERSION<TAB>MANIFEST`.
pub fn prose_line(plugin: &PluginJson) -> String {
    format!(
        "{}\t{}\t{}\t{}",
        plugin.id,
        if plugin.enabled {
            "enabled"
        } else {
            "disabled"
        },
        plugin.version.as_deref().unwrap_or("-"),
        plugin.manifest_path
    )
}

/// Prints one plugin: the `{plugin}` wrapper with `--json`, else its prose line after `verb`.
pub fn print_wrapped(plugin: &Plugin, json: bool, verb: &str) {
    let document = PluginWrapJson {
        schema_version: PLUGIN_SCHEMA_VERSION,
        plugin: plugin.json(),
    };
    if json {
        output::print_json(&document);
    } else {
        output::print_line(&format!("{verb} {}", prose_line(&document.plugin)));
    }
}
