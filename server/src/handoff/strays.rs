//! Children the previous process image left that no one here waits for: a hub's satellite
//! links (`ssh`, `phux __remote-link`), a plugin hook still running. The exec kept them as this
//! process's children but not the handles that waited for them, so each would stay a zombie
//! once it ends. After adopting, every child that is neither a keeper nor a pane's program is
//! waited for on a thread of its own.

use std::collections::HashSet;

/// Waits for every child of this process not in `known`, each on its own thread.
pub fn reap_all_but(known: &HashSet<u32>) {
    for pid in children() {
        if known.contains(&pid) {
            continue;
        }
        let Some(child) = i32::try_from(pid)
            .ok()
            .and_then(rustix::process::Pid::from_raw)
        else {
            continue;
        };
        let spawned = std::thread::Builder::new()
            .name(format!("reap-{pid}"))
            .spawn(move || loop {
                match rustix::process::waitpid(Some(child), rustix::process::WaitOptions::empty()) {
                    Err(rustix::io::Errno::INTR) => continue,
                    _ => return,
                }
            });
        if let Err(e) = spawned {
            crate::log::line(&format!("upgrade: cannot wait for process {pid}: {e}"));
        }
    }
}

/// This process's children, from every thread's list.
fn children() -> Vec<u32> {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return Vec::new();
    };
    let mut pids = Vec::new();
    for task in tasks.flatten() {
        let text = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
        pids.extend(
            text.split_whitespace()
                .filter_map(|p| p.parse::<u32>().ok()),
        );
    }
    pids.sort_unstable();
    pids.dedup();
    pids
}
