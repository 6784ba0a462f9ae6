//! A process named so that a reused pid is not mistaken for it: its pid and its start time
//! (clock ticks after boot, `/proc/PID/stat`'s 22nd field). A lease taken by `phux take` names
//! the process it was taken for, and ends when that process has died.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProcessIdentity {
    pub pid: u32,
    pub started: u64,
}

impl ProcessIdentity {
    /// `pid` as it runs now; `None` when there is no such process (or no `/proc`).
    pub fn of(pid: u32) -> Option<ProcessIdentity> {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        // The command name (field 2) is in parentheses and may hold spaces or ')': fields are
        // counted from the last ')'.
        let after_name = &stat[stat.rfind(')')? + 1..];
        let started = after_name.split_whitespace().nth(19)?.parse().ok()?;
        Some(ProcessIdentity { pid, started })
    }

    /// This process's parent (the shell or script that ran it).
    pub fn parent() -> Option<ProcessIdentity> {
        let ppid = std::os::unix::process::parent_id();
        (ppid > 1).then(|| ProcessIdentity::of(ppid)).flatten()
    }

    /// Whether the same process still runs (not a later one given its pid).
    pub fn is_alive(&self) -> bool {
        ProcessIdentity::of(self.pid).is_some_and(|now| now.started == self.started)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_running_process_is_alive_and_a_dead_one_is_not() {
        let me = ProcessIdentity::of(std::process::id()).expect("this process");
        assert!(me.is_alive());
        let reused = ProcessIdentity {
            started: me.started + 1,
            ..me
        };
        assert!(!reused.is_alive(), "another start time is another process");
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let identity = ProcessIdentity::of(child.id());
        child.wait().unwrap();
        if let Some(identity) = identity {
            assert!(!identity.is_alive(), "a reaped child is gone");
        }
    }
}
