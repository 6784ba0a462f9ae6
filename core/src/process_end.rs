//! How a process ended, in words a person reads: `exited with 3`, `was killed by SIGHUP`. The
//! signal numbers are Linux's (the only platform phux runs on).

/// The name of Linux signal `number` (`SIGHUP` for 1), if it is one of the standard ones.
pub fn signal_name(number: i32) -> Option<&'static str> {
    const NAMES: [&str; 31] = [
        "SIGHUP",
        "SIGINT",
        "SIGQUIT",
        "SIGILL",
        "SIGTRAP",
        "SIGABRT",
        "SIGBUS",
        "SIGFPE",
        "SIGKILL",
        "SIGUSR1",
        "SIGSEGV",
        "SIGUSR2",
        "SIGPIPE",
        "SIGALRM",
        "SIGTERM",
        "SIGSTKFLT",
        "SIGCHLD",
        "SIGCONT",
        "SIGSTOP",
        "SIGTSTP",
        "SIGTTIN",
        "SIGTTOU",
        "SIGURG",
        "SIGXCPU",
        "SIGXFSZ",
        "SIGVTALRM",
        "SIGPROF",
        "SIGWINCH",
        "SIGIO",
        "SIGPWR",
        "SIGSYS",
    ];
    let index = usize::try_from(number.checked_sub(1)?).ok()?;
    NAMES.get(index).copied()
}

/// A signal as a person reads it: `SIGHUP`, or `signal 40` for one without a standard name.
pub fn signal_words(number: i32) -> String {
    signal_name(number).map_or_else(|| format!("signal {number}"), str::to_owned)
}

/// How a program ended, as a verb phrase: `exited with 42`, `was killed by SIGKILL`, or
/// `exited` when its status is unknown.
pub fn ending(exit_code: Option<i32>, signal: Option<i32>) -> String {
    match (exit_code, signal) {
        (_, Some(signal)) => format!("was killed by {}", signal_words(signal)),
        (Some(code), None) => format!("exited with {code}"),
        (None, None) => "exited".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endings_read_as_words() {
        assert_eq!(ending(None, Some(1)), "was killed by SIGHUP");
        assert_eq!(ending(None, Some(9)), "was killed by SIGKILL");
        assert_eq!(ending(None, Some(31)), "was killed by SIGSYS");
        assert_eq!(ending(None, Some(40)), "was killed by signal 40");
        assert_eq!(ending(Some(3), None), "exited with 3");
        assert_eq!(ending(None, None), "exited");
        assert_eq!(signal_name(0), None);
        assert_eq!(signal_name(-1), None);
    }
}
