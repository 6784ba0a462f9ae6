//! `run`'s operation: runs a command line in a pane's shell and returns its RunResult. Giving up
//! at the time limit is `run_timed_out` (125), and so is every failure once the line was typed:
//! any status a child could produce would lie. The one exception is the pane's own program
//! ending under the command (a shell's `exit 4`): the failure then carries that program's
//! status (1 when it is 0: there is no result).

use std::time::Duration;

use phux_core::documents::RunResult;
use phux_core::error_code::ErrorCode;
use phux_core::exit_code::{mirror_child_exit, FAILURE, RUN_GAVE_UP};

use crate::failure::Failure;
use crate::run::{run as run_command, RunOutcome};
use crate::run_shell::shell_state;
use crate::stop::Stop;
use crate::target;
use crate::values::{connect, resolve_single_pane};
use crate::Context;

/// Run a shell command in a pane and mirror its exit code
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Give up after SECS seconds and exit 125, `run_timed_out` (0: never)
    pub timeout: Duration,
    /// Keep only the last N lines of the output (`truncated: true` when lines were cut)
    pub tail: Option<usize>,
    /// Write the whole output to FILE (the document names it as `output_file`); `output` then
    /// holds only the --tail lines, if given
    pub output: Option<std::path::PathBuf>,
    /// The pane, running a POSIX shell (sh, dash, bash, zsh)
    pub target: String,
    /// The command line, its words joined by spaces
    pub command: Vec<String>,
}

/// Runs the command `args` describe and returns its RunResult; giving up is `run_timed_out`
/// (125), and so is every failure once the line was typed; so is `stop` pressed (the MCP
/// adapter's cancellation). The verb and the MCP tool share it.
pub fn run_in_pane(
    args: RunOptions,
    context: &Context,
    stop: Option<&Stop>,
) -> Result<RunResult, Failure> {
    let command = args.command.join(" ");
    let selector = target::parse(&args.target)?;
    let mut client = connect(context)?;
    let pane = resolve_single_pane(&mut client, &selector)?;
    let timeout = (!args.timeout.is_zero()).then_some(args.timeout);
    let started = std::time::Instant::now();
    let outcome = run_command(&mut client, pane, &command, timeout, stop).map_err(|failure| {
        let reported = Failure::from(failure.error).naming_pane(pane, &args.target);
        if let Some(status) = failure.status.filter(|&status| status != 0) {
            // The pane's own program ended under the command (a shell's `exit 4`).
            reported.with_exit_code(mirror_child_exit(status))
        } else if failure.status.is_some() {
            // Ended with 0, it still left no result: a failure, never 0 with an error line.
            reported.with_exit_code(FAILURE)
        } else if failure.typed {
            // The command may be running: any status a child could produce would lie.
            reported.with_exit_code(RUN_GAVE_UP)
        } else {
            reported
        }
    })?;
    match outcome {
        RunOutcome::Completed(mut result) => {
            // Where the pane's output stands now the command is done: `wait --after` from here
            // sees only what comes next.
            result.mark = shell_state(&mut client, pane, None).ok().map(|s| s.mark);
            if let Some(path) = &args.output {
                result.output_file = Some(write_output(path, &result)?);
                result.output = match args.tail {
                    Some(_) => result.output,
                    None => String::new(),
                };
            }
            if let Some(n) = args.tail {
                let lines: Vec<&str> = result.output.lines().collect();
                if lines.len() > n {
                    result.output = lines[lines.len() - n..].join("\n");
                    result.truncated = true;
                }
            }
            Ok(result)
        }
        RunOutcome::TimedOut { .. } if stop.is_some_and(Stop::is_pressed) => {
            Err(stopped_waiting(&command, pane, started.elapsed()))
        }
        RunOutcome::TimedOut { .. } => Err(gave_up(&command, pane, args.timeout)),
    }
}

/// Writes the whole output to `path` and returns its absolute path. The command has run by
/// now: a file that cannot be written says what the command's exit code was.
fn write_output(path: &std::path::Path, result: &RunResult) -> Result<String, Failure> {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut text = result.output.clone();
    if !text.is_empty() {
        text.push('\n');
    }
    std::fs::write(&absolute, text).map_err(|e| {
        Failure::new(
            ErrorCode::InvalidArgument,
            format!(
                "{:?} finished with exit code {}, but its output could not be written to {}: {e}",
                result.command,
                result.exit_code,
                absolute.display()
            ),
            "give --output a path in a directory that exists and is writable",
        )
    })?;
    Ok(absolute.display().to_string())
}

/// `run_timed_out`, 125. The message names the limit given, not the time measured, so the
/// line is the same on every run.
fn gave_up(command: &str, pane: phux_core::ids::PaneId, timeout: Duration) -> Failure {
    Failure::new(
        ErrorCode::RunTimedOut,
        format!(
            "run gave up after --timeout {}s: {command:?} has not finished in {pane}",
            timeout.as_secs_f64()
        ),
        format!(
            "it may still be running: see `phux snapshot {pane}`, stop it with `phux signal {pane} interrupt`"
        ),
    )
    .with_exit_code(RUN_GAVE_UP)
}

/// `run_timed_out`, 125, for a run whose caller stopped waiting (the MCP adapter's cancellation)
/// before the limit: it says so, and how long it waited, never that the limit was reached.
fn stopped_waiting(command: &str, pane: phux_core::ids::PaneId, waited: Duration) -> Failure {
    Failure::new(
        ErrorCode::RunTimedOut,
        format!(
            "run stopped waiting after {:.1}s because the call was cancelled: {command:?} has not finished in {pane}",
            waited.as_secs_f64()
        ),
        format!(
            "it may still be running: see `phux snapshot {pane}`, stop it with `phux signal {pane} interrupt`"
        ),
    )
    .with_exit_code(RUN_GAVE_UP)
}
