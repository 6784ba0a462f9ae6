//! The one exit-code table: the process statuses every verb may return, and its `--help` text.

/// Success (also `--help` / `--version`, even when stdout is a closed pipe).
pub const SUCCESS: i32 = 0;
/// Failure: no server, no such target, the verb failed.
pub const FAILURE: i32 = 1;
/// Usage error, or the server refused.
pub const USAGE: i32 = 2;
/// Unanswerable: the selector was resolved against a partial fleet; retrying is right.
pub const PARTIAL_VIEW: i32 = 3;
/// `wait` (and `watch`, `agent wait`, `agent prompt --wait`, `agent start`) timed out.
pub const WAIT_TIMEOUT: i32 = 124;
/// `run` (and `config run`) gave up; 124 stays free for a child that really exited 124.
pub const RUN_GAVE_UP: i32 = 125;

/// Every code of the table with its meaning, in ascending order. `EXIT_CODE_TABLE_HELP` renders
/// exactly these rows (a test keeps the two in step).
pub const EXIT_CODES: [(i32, &str); 6] = [
    (SUCCESS, "success"),
    (
        FAILURE,
        "failure: no server, no such target, or the verb failed",
    ),
    (USAGE, "usage error, or the server refused"),
    (
        PARTIAL_VIEW,
        "partial view: a satellite was unreachable, retry",
    ),
    (WAIT_TIMEOUT, "wait/watch timed out"),
    (
        RUN_GAVE_UP,
        "run gave up (otherwise run mirrors the child's code, 0..=255)",
    ),
];

/// The exit-code section shown by `phux --help`.
pub const EXIT_CODE_TABLE_HELP: &str = "\
Exit codes:
  0    success
  1    failure: no server, no such target, or the verb failed
  2    usage error, or the server refused
  3    partial view: a satellite was unreachable, retry
  124  wait/watch timed out
  125  run gave up (otherwise run mirrors the child's code, 0..=255)
";

/// The status `run` exits with for a child that exited with `code`: the child's own code,
/// clamped into what a process status can carry.
pub fn mirror_child_exit(code: i32) -> i32 {
    code.clamp(0, 255)
}
