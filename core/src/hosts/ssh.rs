//! Which ssh program reaches a host: `$PHUX_SSH`, else `[defaults] ssh` of the config file,
//! else `ssh`; a program and its options, split on whitespace (`ssh -F ~/.ssh/fleet_config`).

use std::path::Path;

/// The ssh program and the options it is always given.
pub fn ssh_program(config: Option<&Path>) -> (String, Vec<String>) {
    let configured = std::env::var("PHUX_SSH")
        .ok()
        .filter(|s| !s.trim().is_empty())
        .or_else(|| config.and_then(configured_ssh));
    split(configured.as_deref().unwrap_or("ssh"))
}

/// `[defaults] ssh` of the config file at `path`, if it is set to a non-empty string.
fn configured_ssh(path: &Path) -> Option<String> {
    // The config file, read as every reader of it does (bounded, a regular file).
    let text = crate::config::file::read_text(path).ok()??;
    let document = text.parse::<toml_edit::DocumentMut>().ok()?;
    let ssh = document.get("defaults")?.get("ssh")?.as_str()?;
    (!ssh.trim().is_empty()).then(|| ssh.to_owned())
}

fn split(text: &str) -> (String, Vec<String>) {
    let mut words = text.split_whitespace().map(str::to_owned);
    let program = words.next().unwrap_or_else(|| "ssh".to_owned());
    (program, words.collect())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_config_names_an_ssh() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(&path, "[defaults]\nssh = \"ssh -F /f\"\n").unwrap();
        assert_eq!(super::configured_ssh(&path).as_deref(), Some("ssh -F /f"));
        std::fs::write(&path, "[defaults]\nshell = \"/bin/sh\"\n").unwrap();
        assert_eq!(super::configured_ssh(&path), None);
    }

    #[test]
    fn options_follow_the_program() {
        assert_eq!(
            super::split("ssh -F /x/config"),
            (
                "ssh".to_owned(),
                vec!["-F".to_owned(), "/x/config".to_owned()]
            )
        );
    }
}
