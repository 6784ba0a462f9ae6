//! The pane's occupant: the leader of the PTY's foreground process group, read from `/proc`
//! (`tpgid` of the pane's first process, then that leader's argv and `comm`).

use phux_core::agents::identity::occupant_names;

/// The foreground process group's leader and the names it goes by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Foreground {
    pub pid: u32,
    pub names: Vec<String>,
}

/// The foreground of the terminal `pid` (the pane's first process) controls, if it can be read.
pub fn foreground(pid: u32) -> Option<Foreground> {
    let (leader, argv) = foreground_argv(pid)?;
    let comm = std::fs::read_to_string(format!("/proc/{leader}/comm")).unwrap_or_default();
    Some(Foreground {
        pid: leader,
        names: occupant_names(&argv, comm.trim()),
    })
}

/// The foreground process group's leader of the terminal `pid` controls, and its argv.
pub fn foreground_argv(pid: u32) -> Option<(u32, Vec<String>)> {
    let leader = match tpgid(pid)? {
        group if group > 0 => u32::try_from(group).ok()?,
        _ => pid,
    };
    let cmdline = std::fs::read(format!("/proc/{leader}/cmdline")).ok()?;
    let argv = cmdline
        .split(|b| *b == 0)
        .filter(|a| !a.is_empty())
        .map(|a| String::from_utf8_lossy(a).into_owned())
        .collect();
    Some((leader, argv))
}

/// Field 8 of `/proc/PID/stat`: the foreground process group of the process's terminal.
fn tpgid(pid: u32) -> Option<i64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may hold spaces and parentheses: fields start after the last ')'.
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(5)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn our_own_process_has_a_readable_identity_or_none() {
        // A test runner may have no terminal (tpgid -1): then the process itself is read.
        let me = foreground(std::process::id()).expect("readable");
        assert!(!me.names.is_empty());
    }
}
