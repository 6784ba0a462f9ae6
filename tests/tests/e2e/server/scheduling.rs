//! Scheduling hints (`phux_core::sched_slice`): the server's and an attached client's threads
//! ask for short scheduler slices, so that a keystroke's way through them never waits a timer
//! tick behind a flood, while a pane's program runs with the kernel's default. Skipped, with the
//! reason, on kernels without per-thread slices (before Linux 6.12).

use std::time::Duration;

use phux_core::sched_slice::{on_a_short_sliced_thread, slice_of, SHORT};
use phux_tests::outer_screen::AttachedTui;
use phux_tests::{threads_of, wait_until, TestServer};

fn kernel_grants_slices() -> bool {
    on_a_short_sliced_thread(|| {})
}

/// The processes `pid` started (the panes' keepers, for a server; a program, for a keeper).
fn children_of(pid: u32) -> Vec<u32> {
    threads_of(pid)
        .iter()
        .filter_map(|(tid, _)| {
            std::fs::read_to_string(format!("/proc/{pid}/task/{tid}/children")).ok()
        })
        .flat_map(|list| {
            list.split_whitespace()
                .filter_map(|p| p.parse().ok())
                .collect::<Vec<u32>>()
        })
        .collect()
}

fn assert_all_short(pid: u32, what: &str) {
    let threads = threads_of(pid);
    assert!(threads.len() > 1, "{what} runs threads");
    for (tid, name) in threads {
        assert_eq!(
            slice_of(tid),
            Some(SHORT),
            "{what}'s thread {name} ({tid}) asks for a short slice"
        );
    }
}

#[test]
fn the_server_asks_for_short_slices_and_a_panes_program_keeps_the_default() {
    if !kernel_grants_slices() {
        return;
    }
    let server = TestServer::start();
    server.new_session("s", &["sleep", "600"]);
    let pid = server.server_pid();
    let mut program = None;
    wait_until("the pane's program runs", Duration::from_secs(10), || {
        // The programs run under the server's keepers.
        let programs = children_of(pid).into_iter().flat_map(children_of);
        program = programs.into_iter().find(|child| {
            std::fs::read_to_string(format!("/proc/{child}/cmdline"))
                .is_ok_and(|cmdline| cmdline.split('\0').take(2).eq(["sleep", "600"]))
        });
        program.is_some()
    });
    assert_all_short(pid, "the server");
    let program = i32::try_from(program.unwrap()).unwrap();
    let slice = slice_of(program).expect("the program is a normal thread");
    assert_ne!(slice, SHORT, "the program keeps the kernel's default slice");
}

#[test]
fn an_attached_client_asks_for_short_slices() {
    if !kernel_grants_slices() {
        return;
    }
    let server = TestServer::start();
    server.new_session("s", &[]);
    let tui = AttachedTui::start(&server, &["attach", "s"], 80, 24);
    wait_until("the client draws", Duration::from_secs(10), || {
        tui.shows("[s]")
    });
    assert_all_short(tui.pid(), "the client");
}
