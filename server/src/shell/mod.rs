//! Shell integration: a pane whose program is a bare `bash`, `zsh` or `fish` (the default shell,
//! or one named alone) is started with phux's hooks injected, as modern terminals do, so it marks
//! its prompts, commands and exit codes (OSC 133) and its working directory (OSC 7). `run` then
//! types only the command and learns its end from the marks. bash reads an rc file that first
//! reads the user's own; zsh starts with a `ZDOTDIR` whose `.zshenv` restores the user's and reads
//! theirs; fish finds a vendor conf dir put first on `XDG_DATA_DIRS`, which it restores.
//! `PHUX_SHELL_INTEGRATION=0` (in the server's or the pane's environment) turns it off.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const BASH_RC: &str = include_str!("phux.bash");
const ZSH_ENV: &str = include_str!("zshenv.zsh");
const ZSH_HOOKS: &str = include_str!("phux.zsh");
const FISH_CONF: &str = include_str!("phux.fish");

/// The variable that turns injection off when it is `0`.
pub const SWITCH: &str = "PHUX_SHELL_INTEGRATION";

/// A shell phux knows how to integrate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shell {
    Bash,
    Zsh,
    Fish,
}

impl Shell {
    /// The shell `argv` starts, when it is a shell alone (no arguments to respect).
    pub fn of_argv(argv: &[String]) -> Option<Shell> {
        let [program] = argv else { return None };
        match Path::new(program).file_name()?.to_str()? {
            "bash" => Some(Shell::Bash),
            "zsh" => Some(Shell::Zsh),
            "fish" => Some(Shell::Fish),
            _ => None,
        }
    }
}

/// What a pane starts with instead: the program's arguments and extra environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Injected {
    pub argv: Vec<String>,
    pub env: Vec<(String, String)>,
}

/// The value `name` will have in the pane: the request's own entries win over the server's.
fn pane_var(name: &str, request_env: &[(String, String)]) -> Option<String> {
    request_env
        .iter()
        .rev()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.clone())
        .or_else(|| std::env::var(name).ok())
}

/// Whether the pane's environment turns integration off.
pub fn disabled(request_env: &[(String, String)]) -> bool {
    pane_var(SWITCH, request_env).is_some_and(|v| v.trim() == "0")
}

/// The argv and environment that start `argv` with integration, or `None` to start it as it is
/// (not an integrable shell alone, turned off, or the scripts could not be written).
pub fn inject(argv: &[String], request_env: &[(String, String)], dir: &Path) -> Option<Injected> {
    let shell = Shell::of_argv(argv)?;
    if disabled(request_env) {
        return None;
    }
    let root = installed(dir)?;
    let program = argv[0].clone();
    Some(match shell {
        Shell::Bash => Injected {
            argv: vec![
                program,
                "--rcfile".into(),
                root.join("bash/phux.bash").display().to_string(),
            ],
            env: Vec::new(),
        },
        Shell::Zsh => Injected {
            argv: vec![program],
            env: vec![
                (
                    "PHUX_USER_ZDOTDIR".into(),
                    pane_var("ZDOTDIR", request_env).unwrap_or_default(),
                ),
                ("ZDOTDIR".into(), root.join("zsh").display().to_string()),
            ],
        },
        Shell::Fish => {
            let user = pane_var("XDG_DATA_DIRS", request_env).unwrap_or_default();
            // An unset XDG_DATA_DIRS means these two; keep them after ours.
            let rest = if user.is_empty() {
                "/usr/local/share:/usr/share".to_owned()
            } else {
                user.clone()
            };
            Injected {
                argv: vec![program],
                env: vec![
                    ("PHUX_USER_XDG_DATA_DIRS".into(), user),
                    ("XDG_DATA_DIRS".into(), format!("{}:{rest}", root.display())),
                ],
            }
        }
    })
}

/// Writes the scripts under `dir` once per server; `None` if they cannot be written.
fn installed(dir: &Path) -> Option<PathBuf> {
    static ROOT: OnceLock<Option<PathBuf>> = OnceLock::new();
    ROOT.get_or_init(|| {
        let root = dir.join("shell-integration");
        match write_scripts(&root) {
            Ok(()) => Some(root),
            Err(e) => {
                eprintln!(
                    "phux: shell integration is off: cannot write {}: {e}",
                    root.display()
                );
                None
            }
        }
    })
    .clone()
}

fn write_scripts(root: &Path) -> std::io::Result<()> {
    let zsh_hooks = root.join("zsh/phux.zsh");
    let files = [
        (root.join("bash/phux.bash"), BASH_RC.to_owned()),
        (zsh_hooks.clone(), ZSH_HOOKS.to_owned()),
        (
            root.join("zsh/.zshenv"),
            ZSH_ENV.replace("@PHUX_ZSH_INTEGRATION@", &quoted(&zsh_hooks)),
        ),
        (
            root.join("fish/vendor_conf.d/phux.fish"),
            FISH_CONF.to_owned(),
        ),
    ];
    for (path, text) in files {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&path, text)?;
    }
    Ok(())
}

/// `path` as one single-quoted shell word.
fn quoted(path: &Path) -> String {
    format!("'{}'", path.display().to_string().replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| (*w).to_owned()).collect()
    }

    #[test]
    fn only_a_shell_alone_is_integrated() {
        assert_eq!(Shell::of_argv(&argv(&["/bin/bash"])), Some(Shell::Bash));
        assert_eq!(Shell::of_argv(&argv(&["zsh"])), Some(Shell::Zsh));
        assert_eq!(Shell::of_argv(&argv(&["/usr/bin/fish"])), Some(Shell::Fish));
        assert_eq!(Shell::of_argv(&argv(&["bash", "--norc"])), None);
        assert_eq!(Shell::of_argv(&argv(&["/bin/sh"])), None);
        assert_eq!(Shell::of_argv(&argv(&["dash"])), None);
    }

    #[test]
    fn zero_turns_it_off_from_the_pane_environment() {
        let env = vec![(SWITCH.to_owned(), "0".to_owned())];
        assert!(disabled(&env));
        assert_eq!(
            inject(&argv(&["bash"]), &env, Path::new("/nonexistent")),
            None
        );
    }
}
