//! `run`: first asks whether a shell is listening (see `run_shell`: refusals, and the traceless
//! run where the shell marks its commands with OSC 133). Where it does not, `run` types one line
//! into the shell that brackets COMMAND between two printed markers carrying a per-call nonce,
//! then follows the pane's screen-changed notices until the closing marker (with the child's
//! `$?`) appears. The output is the rows between the markers; when the opening marker has
//! scrolled out of the viewport it is looked for in the history.
//!
//! The line is built so its own echo can never look like a marker: the nonce and the words
//! are separate `printf` arguments, and the exit code is a `%d` in the echo, never digits. The
//! command goes to `command eval` as one quoted word (`command` keeps a syntax error from abandoning the whole line), so an open quote or heredoc in it ends in a
//! syntax error at once instead of leaving the shell waiting for more input.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::time::{Duration, Instant};

use phux_core::documents::{RunResult, ScreenState};
use phux_core::error_code::ErrorCode;
use phux_core::ids::PaneId;
use phux_core::wire::{ClaimRun, ClientMessage, ReleaseRun};

use crate::connection::Client;
use crate::error::ClientError;
use crate::pane::{operation_id, send_literal};
use crate::run_shell::{route, run_marked, shell_state, Route};
use crate::screen::{get_screen, Change, ScreenFeed};
use crate::stop::Stop;
use crate::wait::{exited_if_gone, pane_closed};

thread_local! {
    /// Told once a run on this thread has typed its command (a background run's caller waits
    /// for it, so its answer comes after the command is in the pane).
    static ON_TYPED: std::cell::RefCell<Option<crossbeam_channel::Sender<()>>> =
        const { std::cell::RefCell::new(None) };
}

/// Tells `typed` when a run on this thread has typed its command.
pub fn tell_when_typed(typed: crossbeam_channel::Sender<()>) {
    ON_TYPED.with(|slot| *slot.borrow_mut() = Some(typed));
}

/// The command is in the pane.
pub(crate) fn typed_now() {
    ON_TYPED.with(|slot| {
        if let Some(typed) = slot.borrow_mut().take() {
            let _ = typed.send(());
        }
    });
}

/// `run`'s default `--timeout`.
pub const DEFAULT_RUN_TIMEOUT: Duration = Duration::from_secs(600);

/// The two markers of one call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bracket {
    nonce: String,
}

impl Bracket {
    /// A bracket with a fresh nonce (random per call: two runs never share one).
    pub fn fresh() -> Bracket {
        let mut hasher = RandomState::new().build_hasher();
        hasher.write_u32(std::process::id());
        hasher.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        Bracket::with_nonce(&format!("{:012x}", hasher.finish() & 0xffff_ffff_ffff))
    }

    pub fn with_nonce(nonce: &str) -> Bracket {
        Bracket {
            nonce: nonce.to_owned(),
        }
    }

    /// The printed opening marker, at the end of its line.
    pub fn begin(&self) -> String {
        format!("PHUXrun{}BEGIN", self.nonce)
    }

    fn rc_prefix(&self) -> String {
        format!("PHUXrun{}RC=", self.nonce)
    }

    /// The line typed into `shell` (POSIX sh, bash, zsh, dash; its process name). The leading
    /// space keeps it out of the history of shells that ignore space-prefixed lines.
    pub fn line(&self, command: &str, shell: &str) -> String {
        let nonce = &self.nonce;
        let quoted = command.replace('\'', r"'\''");
        // A POSIX shell abandons the whole line on a syntax error in the special builtin `eval`
        // unless it is run through `command`; zsh's `command` runs external programs only, and
        // its `eval` returns an error without abandoning the line.
        let eval = if shell == "zsh" {
            "eval"
        } else {
            "command eval"
        };
        format!(
            " printf 'PHUXrun%sBEGIN\\n' {nonce}; {eval} '{quoted}'; printf '\\nPHUXrun%sRC=%d=END\\n' {nonce} $?"
        )
    }

    /// The exit code if `line` is the printed closing marker.
    pub fn exit_code_of(&self, line: &str) -> Option<i32> {
        let digits = line
            .trim_end()
            .strip_prefix(&self.rc_prefix())?
            .strip_suffix("=END")?;
        let unsigned = digits.strip_prefix('-').unwrap_or(digits);
        if unsigned.is_empty() || !unsigned.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        digits.parse().ok()
    }

    /// The exit code and output, if the closing marker is among `lines` (logical lines,
    /// oldest first). `None` for the output when the opening marker is not there.
    pub fn find(&self, lines: &[String]) -> Option<(i32, Option<String>)> {
        let (rc_at, code) = lines
            .iter()
            .enumerate()
            .rev()
            .find_map(|(i, line)| self.exit_code_of(line).map(|code| (i, code)))?;
        let begin = self.begin();
        let output = lines[..rc_at]
            .iter()
            // A multi-line command's continuation prompts (`> > `) are printed before it.
            .rposition(|line| line.trim_end().ends_with(&begin))
            .map(|begin_at| output_between(&lines[begin_at + 1..rc_at]));
        Some((code, output))
    }
}

/// The rows of the output, without the empty row the closing marker's leading newline adds
/// after output that ended with a newline.
fn output_between(rows: &[String]) -> String {
    let rows = match rows.split_last() {
        Some((last, rest)) if last.trim_end().is_empty() => rest,
        _ => rows,
    };
    rows.iter()
        .map(|row| row.trim_end())
        .collect::<Vec<_>>()
        .join("\n")
}

/// How a run ended.
#[derive(Debug, Clone)]
pub enum RunOutcome {
    Completed(RunResult),
    /// The timeout passed first; the command may still be running.
    TimedOut {
        elapsed: Duration,
        screen: Box<ScreenState>,
    },
}

/// A run that failed, and whether the command line had already been typed (after which the
/// command may be running, and `run` owes the caller a status no child produces).
#[derive(Debug)]
pub struct RunFailure {
    pub error: ClientError,
    pub typed: bool,
    /// The pane's program ended during the run with this status (a shell's `exit 4`): `run`
    /// exits with it.
    pub status: Option<i32>,
}

/// The pane's own program ended while a typed command ran: `pane_exited`, naming its status
/// when the pane's end was heard.
pub fn ended(pane: PaneId, status: Option<i32>) -> RunFailure {
    let message = match status {
        Some(status) => format!("{pane} exited with {status}"),
        None => format!("pane {pane} exited while waiting"),
    };
    RunFailure {
        error: ClientError::preflight(
            ErrorCode::PaneExited,
            message,
            format!("read its last screen with `phux snapshot {pane}`"),
        ),
        typed: true,
        status,
    }
}

/// Runs `command` in `pane`'s shell and waits (up to `timeout`; `None`: forever) for it.
/// `stop` pressed ends the wait as a timeout does (the command may go on running).
pub fn run(
    client: &mut Client,
    pane: PaneId,
    command: &str,
    timeout: Option<Duration>,
    stop: Option<&Stop>,
) -> Result<RunOutcome, RunFailure> {
    let before = |error| RunFailure {
        error,
        typed: false,
        status: None,
    };
    claim_slot(client, pane, command).map_err(before)?;
    let outcome = run_claimed(client, pane, command, timeout, stop);
    // The slot also goes with the connection; giving it back at once frees the pane for the
    // next run on a connection kept open (the MCP adapter's).
    let _: Result<serde_json::Value, _> =
        client.request(ClientMessage::ReleaseRun(ReleaseRun { id: 0, pane }));
    outcome
}

/// Takes the pane's one `run` slot on this connection (`target_busy` while another run holds
/// it). A server too old to know the slot has none to give: the run goes on without it.
fn claim_slot(client: &mut Client, pane: PaneId, command: &str) -> Result<(), ClientError> {
    let claimed: Result<serde_json::Value, ClientError> =
        client.request(ClientMessage::ClaimRun(ClaimRun {
            id: 0,
            pane,
            command: command.to_owned(),
        }));
    match claimed {
        Ok(_) => Ok(()),
        Err(ClientError::Server {
            code: ErrorCode::ServerTooOld,
            ..
        }) => Ok(()),
        Err(error) => Err(error),
    }
}

/// [`run`], once the pane's slot is held.
fn run_claimed(
    client: &mut Client,
    pane: PaneId,
    command: &str,
    timeout: Option<Duration>,
    stop: Option<&Stop>,
) -> Result<RunOutcome, RunFailure> {
    let before = |error| RunFailure {
        error,
        typed: false,
        status: None,
    };
    let state = shell_state(client, pane, None).map_err(before)?;
    let shell = match route(pane, &state).map_err(before)? {
        Route::Marked {
            finished,
            program_path,
        } => {
            return run_marked(
                client,
                pane,
                command,
                (finished, &program_path),
                timeout,
                stop,
            )
        }
        Route::Unmarked { shell } => shell,
    };
    let bracket = Bracket::fresh();
    let mut feed = ScreenFeed::open(client, pane).map_err(before)?;
    send_literal(
        client,
        pane,
        format!("{}\r", bracket.line(command, &shell)),
        &operation_id(),
    )
    .map_err(before)?;
    typed_now();
    let outcome = follow(client, &mut feed, pane, &bracket, command, timeout, stop);
    outcome.map_err(|error| match feed.heard_end() {
        // The pane's program ended under the command: that is how the run ended.
        Some(status) => ended(pane, Some(status)),
        None => RunFailure {
            error: exited_if_gone(error, pane),
            typed: true,
            status: None,
        },
    })
}

/// After the line was typed: reads on each change until the closing marker shows.
fn follow(
    client: &mut Client,
    feed: &mut ScreenFeed,
    pane: PaneId,
    bracket: &Bracket,
    command: &str,
    timeout: Option<Duration>,
    stop: Option<&Stop>,
) -> Result<RunOutcome, ClientError> {
    let submitted = Instant::now();
    let give_up_at = timeout.map(|t| submitted + t);
    loop {
        let change = feed.next_change_or_stop(give_up_at, stop)?;
        let change = if stop.is_some_and(Stop::is_pressed) {
            Change::Deadline
        } else {
            change
        };
        match change {
            Change::Maybe => {}
            Change::Deadline => {
                let screen = get_screen(client, pane, None, false)?;
                return Ok(RunOutcome::TimedOut {
                    elapsed: submitted.elapsed(),
                    screen: Box::new(screen),
                });
            }
            Change::Closed => return Err(pane_closed(pane)),
        }
        let screen = get_screen(client, pane, None, false)?;
        let Some((exit_code, output)) = bracket.find(&screen.logical_lines()) else {
            continue;
        };
        let duration_ms = u64::try_from(submitted.elapsed().as_millis()).unwrap_or(u64::MAX);
        let (output, truncated) = match output {
            Some(output) => (output, false),
            None => recover_from_history(client, pane, bracket)?,
        };
        return Ok(RunOutcome::Completed(RunResult {
            command: command.to_owned(),
            exit_code,
            output,
            duration_ms,
            truncated,
            mark: None,
            output_file: None,
        }));
    }
}

/// The opening marker scrolled out of the viewport: read all retained history. When it is
/// gone from there too, everything retained before the closing marker is the best answer, and
/// it is `truncated`.
fn recover_from_history(
    client: &mut Client,
    pane: PaneId,
    bracket: &Bracket,
) -> Result<(String, bool), ClientError> {
    let screen = get_screen(client, pane, Some(0), false)?;
    let lines = screen.logical_lines();
    match bracket.find(&lines) {
        Some((_, Some(output))) => Ok((output, false)),
        Some((_, None)) => {
            let rc_at = lines
                .iter()
                .rposition(|line| bracket.exit_code_of(line).is_some())
                .unwrap_or(lines.len());
            Ok((output_between(&lines[..rc_at]), true))
        }
        // The closing marker itself scrolled away between the two reads.
        None => Ok((String::new(), true)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(rows: &[&str]) -> Vec<String> {
        rows.iter().map(|r| (*r).to_owned()).collect()
    }

    #[test]
    fn the_typed_echo_never_looks_like_a_marker() {
        let bracket = Bracket::with_nonce("abc123");
        let echo = format!("$ {}", bracket.line("echo hi", "sh"));
        assert!(bracket.exit_code_of(&echo).is_none());
        assert!(!echo.contains(&bracket.begin()));
        assert_eq!(bracket.find(&lines(&[&echo])), None);
    }

    #[test]
    fn output_is_the_rows_between_the_markers() {
        let bracket = Bracket::with_nonce("n1");
        let screen = lines(&[
            "$ x",
            "PHUXrunn1BEGIN",
            "a",
            "b",
            "",
            "PHUXrunn1RC=42=END",
            "$",
        ]);
        assert_eq!(bracket.find(&screen), Some((42, Some("a\nb".to_owned()))));
    }

    #[test]
    fn continuation_prompts_before_the_opening_marker_are_not_output() {
        // dash prints `> ` for each line of a multi-line command before it runs.
        let bracket = Bracket::with_nonce("n1");
        let screen = lines(&["$ x", "> > PHUXrunn1BEGIN", "beta", "", "PHUXrunn1RC=0=END"]);
        assert_eq!(bracket.find(&screen), Some((0, Some("beta".to_owned()))));
    }

    #[test]
    fn output_without_a_final_newline_loses_nothing() {
        let bracket = Bracket::with_nonce("n1");
        let screen = lines(&["PHUXrunn1BEGIN", "a", "PHUXrunn1RC=0=END"]);
        assert_eq!(bracket.find(&screen), Some((0, Some("a".to_owned()))));
        let empty = lines(&["PHUXrunn1BEGIN", "PHUXrunn1RC=1=END"]);
        assert_eq!(bracket.find(&empty), Some((1, Some(String::new()))));
    }

    #[test]
    fn a_missing_begin_is_reported_as_such() {
        let bracket = Bracket::with_nonce("n1");
        assert_eq!(
            bracket.find(&lines(&["x", "PHUXrunn1RC=7=END"])),
            Some((7, None))
        );
    }

    #[test]
    fn another_nonce_is_not_ours() {
        let bracket = Bracket::with_nonce("n1");
        assert_eq!(bracket.exit_code_of("PHUXrunn2RC=0=END"), None);
        assert_eq!(bracket.exit_code_of("PHUXrunn1RC==END"), None);
        assert_eq!(bracket.exit_code_of("PHUXrunn1RC=%d=END"), None);
        assert_eq!(bracket.exit_code_of("PHUXrunn1RC=255=END  "), Some(255));
    }

    #[test]
    fn nonces_differ_per_call() {
        assert_ne!(Bracket::fresh(), Bracket::fresh());
    }
}
