//! A fault injected for real at a phase of the hand-off: with `PHUX_FAULT_AT=SIDE:PHASE`
//! (`old:manifest`, `new:panes started`, ... as the upgrade's log lines name the phases), the
//! process kills itself with SIGKILL when that phase ends: no unwinding, no goodbye, what a
//! `kill -9` or the OOM killer does at that moment. The tests use it to show that no phase of
//! an upgrade can lose a pane; nothing else sets it.

use std::sync::OnceLock;

/// `PHUX_FAULT_AT`, read once.
fn wanted() -> Option<&'static str> {
    static WANTED: OnceLock<Option<String>> = OnceLock::new();
    WANTED
        .get_or_init(|| {
            std::env::var("PHUX_FAULT_AT")
                .ok()
                .filter(|v| !v.is_empty())
        })
        .as_deref()
}

/// Kills this process if the fault is asked for at `side:phase`.
pub fn at(side: &str, phase: &str) {
    let Some(wanted) = wanted() else {
        return;
    };
    if wanted.split_once(':') != Some((side, phase)) {
        return;
    }
    crate::log::line(&format!(
        "PHUX_FAULT_AT={wanted}: killing this process (SIGKILL) at the end of that phase"
    ));
    let _ = rustix::process::kill_process(rustix::process::getpid(), rustix::process::Signal::KILL);
    // SIGKILL cannot be caught; should it not have been delivered yet, nothing goes on.
    loop {
        std::thread::park();
    }
}
