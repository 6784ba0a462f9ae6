//! `phux config check [PATH] [--json]`: every problem in the config file and the plugin
//! manifests it names, one per line. 0 clean, 1 problems found (a bad value in well-formed TOML
//! is one), 2 could not check (the file is unreadable or not TOML: `invalid_config`).

use std::path::PathBuf;

use phux_core::config::file::{load, ConfigError};
use phux_core::config::manifest::{self, ManifestError};
use phux_core::config::paths::config_path;
use phux_core::documents::{ConfigCheckJson, ConfigProblem};
use phux_core::error_code::ErrorCode;
use phux_core::exit_code::{FAILURE, SUCCESS};

use crate::failure::{conclude, Failure, VerbResult};
use crate::output;

/// Check the config file and the plugin manifests it names
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The file to check [default: the config phux uses]
    #[arg(value_name = "PATH")]
    pub path: Option<PathBuf>,
    /// Print {schema_version, path, ok, problems} as JSON
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> i32 {
    conclude(args.json, execute(&args))
}

fn execute(args: &Args) -> VerbResult {
    let path = args.path.clone().unwrap_or_else(config_path);
    let loaded = match load(&path) {
        Ok(loaded) => loaded,
        // Well-formed TOML with a bad value: a problem of the file, reported as the others.
        Err(error @ ConfigError::BadValue { line, .. }) => {
            let problem = ConfigProblem {
                severity: "error".into(),
                file: path.display().to_string(),
                line: Some(line),
                message: error.to_string(),
            };
            report(args.json, &path, vec![problem]);
            return Ok(FAILURE);
        }
        Err(error) => return Err(cannot_check(error)),
    };
    if args.path.is_some() && !loaded.exists {
        return Err(Failure::new(
            ErrorCode::InvalidConfig,
            format!("cannot check {}: no such file", path.display()),
            "name a config file that exists (`phux config path` prints the one phux reads)"
                .to_string(),
        ));
    }
    let mut problems: Vec<ConfigProblem> = loaded
        .warnings
        .iter()
        .map(|w| ConfigProblem {
            severity: "warning".into(),
            file: w.file.display().to_string(),
            line: Some(w.line),
            message: w.message.clone(),
        })
        .collect();
    // The TUI reads [keybindings]; what it would ignore is a problem here too.
    let (_, ignored) = crate::tui::bindings::Bindings::from_config(&loaded.file.keybindings);
    problems.extend(ignored.into_iter().map(|message| ConfigProblem {
        severity: "warning".into(),
        file: path.display().to_string(),
        line: None,
        message,
    }));
    for entry in &loaded.file.plugins {
        match manifest::load(&entry.manifest_path(&path)) {
            // Keys the manifest format does not know: ignored, reported like the config's own.
            Ok(valid) => problems.extend(valid.warnings.iter().map(|w| ConfigProblem {
                severity: "warning".into(),
                file: w.file.display().to_string(),
                line: w.line,
                message: w.detail(),
            })),
            Err(ManifestError::Invalid { problems: found }) => {
                problems.extend(found.into_iter().map(|p| ConfigProblem {
                    severity: "error".into(),
                    file: p.file.display().to_string(),
                    line: p.line,
                    message: p.to_string(),
                }));
            }
            Err(error) => problems.push(ConfigProblem {
                severity: "error".into(),
                file: path.display().to_string(),
                line: None,
                message: error.to_string(),
            }),
        }
    }
    let ok = problems.is_empty();
    report(args.json, &path, problems);
    Ok(if ok { SUCCESS } else { FAILURE })
}

/// Prints the problems found (the document with `--json`, one line each otherwise).
fn report(json: bool, path: &std::path::Path, problems: Vec<ConfigProblem>) {
    let ok = problems.is_empty();
    if json {
        output::print_json(&ConfigCheckJson {
            schema_version: 1,
            path: path.display().to_string(),
            ok,
            problems,
        });
    } else if ok {
        output::print_line(&format!("{}: ok", path.display()));
    } else {
        for problem in &problems {
            let text = match (problem.severity.as_str(), problem.line) {
                ("error", _) => problem.message.clone(),
                (_, Some(line)) => format!("{}:{line}: {}", problem.file, problem.message),
                _ => format!("{}: {}", problem.file, problem.message),
            };
            output::print_line(&format!("{}: {text}", problem.severity));
        }
    }
}

fn cannot_check(error: ConfigError) -> Failure {
    Failure::new(ErrorCode::InvalidConfig, error.to_string(), error.remedy())
}
