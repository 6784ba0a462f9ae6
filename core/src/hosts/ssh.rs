//! Which ssh program reaches a host: `$PHUX_SSH` (a program and its options, split on
//! whitespace, e.g. `ssh -F ~/.ssh/fleet_config`), else `ssh`.

/// The ssh program and the options it is always given.
pub fn ssh_program() -> (String, Vec<String>) {
    let configured = std::env::var("PHUX_SSH")
        .ok()
        .filter(|s| !s.trim().is_empty());
    split(configured.as_deref().unwrap_or("ssh"))
}

fn split(text: &str) -> (String, Vec<String>) {
    let mut words = text.split_whitespace().map(str::to_owned);
    let program = words.next().unwrap_or_else(|| "ssh".to_owned());
    (program, words.collect())
}

#[cfg(test)]
mod tests {
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
