//! `run`'s view of the pane's shell: whether a shell is listening at all (refusing at once with
//! `target_not_shell` or `target_busy`), and, where the shell marks its commands with OSC 133
//! (phux's shell integration, or the user's own), a run that types only the command, as a person
//! would, and takes the exit code and the output from the command's end mark. Nothing of `run`
//! shows in the pane, its history or a recording but the command and its output.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use phux_core::documents::RunResult;
use phux_core::error_code::ErrorCode;
use phux_core::ids::PaneId;
use phux_core::wire::{ClientMessage, ForegroundProgram, ShellState, ShellStateOk};

use crate::connection::Client;
use crate::error::ClientError;
use crate::pane::{operation_id, send_literal};
use crate::run::ended;
use crate::run::{RunFailure, RunOutcome};
use crate::screen::{get_screen, Change, ScreenFeed};
use crate::stop::Stop;
use crate::wait::exited_if_gone;

/// Programs `run` may type into: shells, and the clients that carry a remote shell. Their
/// prompts are unmarked unless they say otherwise, so they get the printed-marker run.
const SHELLS: &[&str] = &[
    "sh",
    "dash",
    "bash",
    "zsh",
    "fish",
    "ksh",
    "ksh93",
    "mksh",
    "ash",
    "busybox",
    "yash",
    "posh",
    "tcsh",
    "csh",
    "ssh",
    "mosh-client",
];

/// How long a finished run waits for the next prompt's end mark before it reports anyway.
const PROMPT_GRACE: Duration = Duration::from_millis(500);

/// How `run` reaches the command's end in this pane.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    /// The shell marks its commands: type the command alone.
    Marked { finished: u64, program_path: String },
    /// No marks: bracket the command with printed markers, for this shell (its process name).
    Unmarked { shell: String },
}

/// Asks the server what the pane's shell is doing (`after`: include the last command once more
/// than that many have finished).
pub fn shell_state(
    client: &mut Client,
    pane: PaneId,
    after: Option<u64>,
) -> Result<ShellStateOk, ClientError> {
    client.request(ClientMessage::ShellState(ShellState {
        id: 0,
        pane,
        output_after: after,
        since_mark: None,
    }))
}

/// The shell in the pane's foreground when it runs a script (`sh long.sh`, `bash -c ...`)
/// rather than sitting at a prompt of its own; ssh's operand is a host, not a script.
pub fn script_in_foreground(state: &ShellStateOk) -> Option<&ForegroundProgram> {
    state.foreground.as_ref().filter(|f| {
        let remote = matches!(f.name.as_str(), "ssh" | "mosh-client");
        SHELLS.contains(&f.name.as_str()) && f.runs_script && !remote
    })
}

/// Where `run` may type, refusing at once when no shell is listening.
pub fn route(pane: PaneId, state: &ShellStateOk) -> Result<Route, ClientError> {
    let is_shell = |name: &str| SHELLS.contains(&name);
    if let Some(script) = script_in_foreground(state) {
        return Err(ClientError::preflight(
            ErrorCode::TargetBusy,
            format!(
                "{pane} is running a {} script (pid {}) in its foreground; nothing was typed",
                script.name, script.pid
            ),
            format!(
                "wait for it (`phux wait --idle 500 {pane}`) or interrupt it (`phux signal {pane} interrupt`)"
            ),
        ));
    }
    if let Some(foreground) = &state.foreground {
        if is_shell(&foreground.name) {
            // A shell (or ssh) started from the pane's shell: its prompt is the one listening.
            return Ok(Route::Unmarked {
                shell: foreground.name.clone(),
            });
        }
        return Err(not_shell(pane, &foreground.name, foreground.pid));
    }
    if !is_shell(&state.program) {
        return Err(not_shell(pane, &state.program, 0));
    }
    if !state.marked {
        if state.program == "fish" {
            // The printed-marker line is POSIX shell; fish reads it as an error.
            return Err(ClientError::preflight(
                ErrorCode::TargetNotShell,
                format!("{pane} runs fish without OSC 133 marks: `run` needs phux's shell integration there; nothing was typed"),
                format!("start the pane without PHUX_SHELL_INTEGRATION=0, or type with `phux send-keys {pane} ...`"),
            ));
        }
        return Ok(Route::Unmarked {
            shell: state.program.clone(),
        });
    }
    if state.running {
        return Err(ClientError::preflight(
            ErrorCode::TargetBusy,
            format!("the shell in {pane} is still running a command; nothing was typed"),
            format!(
                "wait for it (`phux wait --idle 500 {pane}`) or interrupt it (`phux signal {pane} interrupt`)"
            ),
        ));
    }
    Ok(Route::Marked {
        finished: state.commands_finished,
        program_path: state.program_path.clone(),
    })
}

fn not_shell(pane: PaneId, name: &str, pid: u32) -> ClientError {
    let which = if pid == 0 {
        format!("{pane} runs {name:?}")
    } else {
        format!("the foreground program of {pane} is {name:?} (pid {pid})")
    };
    ClientError::preflight(
        ErrorCode::TargetNotShell,
        format!("{which}, not a shell: `run` would type into it; nothing was typed"),
        format!(
            "type into it with `phux send-keys {pane} ...`, or end it first (`phux signal {pane} interrupt`)"
        ),
    )
}

/// Runs `command` in a marking shell: typed alone, finished when the shell's next D mark comes.
pub fn run_marked(
    client: &mut Client,
    pane: PaneId,
    command: &str,
    route: (u64, &str),
    timeout: Option<Duration>,
    stop: Option<&Stop>,
) -> Result<RunOutcome, RunFailure> {
    let before = |error| RunFailure {
        error,
        typed: false,
        status: None,
    };
    let (finished, program_path) = route;
    check_complete(command, program_path).map_err(before)?;
    let line = one_unit(command, program_path).map_err(before)?;
    let mut feed = ScreenFeed::open(client, pane).map_err(before)?;
    send_literal(client, pane, format!("{line}\r"), &operation_id()).map_err(before)?;
    crate::run::typed_now();
    let typed = |error| RunFailure {
        error: exited_if_gone(error, pane),
        typed: true,
        status: None,
    };
    let submitted = Instant::now();
    let give_up_at = timeout.map(|t| submitted + t);
    // The command's end mark comes just before the next prompt is drawn; the run ends with that
    // prompt on screen (or a moment later, for a prompt that marks only its start).
    let mut done: Option<(RunResult, Instant)> = None;
    loop {
        let wake = match (&done, give_up_at) {
            (Some((_, at)), Some(limit)) => Some((*at + PROMPT_GRACE).min(limit)),
            (Some((_, at)), None) => Some(*at + PROMPT_GRACE),
            (None, limit) => limit,
        };
        let change = match feed.next_change_or_stop(wake, stop) {
            Ok(change) => change,
            // The server may stop with its last pane: the end it pushed first says how.
            Err(error) => match feed.heard_end() {
                Some(status) => return Err(ended(pane, Some(status))),
                None => return Err(typed(error)),
            },
        };
        // Stopped: given up, as at the timeout.
        let change = if stop.is_some_and(Stop::is_pressed) {
            Change::Deadline
        } else {
            change
        };
        match change {
            Change::Maybe => {}
            Change::Deadline => {
                if let Some((result, _)) = done {
                    return Ok(RunOutcome::Completed(result));
                }
                let screen = get_screen(client, pane, None, false).map_err(typed)?;
                return Ok(RunOutcome::TimedOut {
                    elapsed: submitted.elapsed(),
                    screen: Box::new(screen),
                });
            }
            Change::Closed => return Err(ended(pane, feed.ended)),
        }
        // Once the command's end is in hand, only the prompt is still awaited: no output again.
        let after = done.is_none().then_some(finished);
        let state = match shell_state(client, pane, after) {
            Ok(state) => state,
            // The pane's program ended meanwhile: the feed hears how, next time round.
            Err(ClientError::Server {
                code: ErrorCode::PaneExited,
                ..
            }) => continue,
            Err(error) => return Err(typed(error)),
        };
        if let Some(last) = state.last_command {
            done.get_or_insert_with(|| {
                let result = RunResult {
                    command: command.to_owned(),
                    exit_code: last.exit_code.unwrap_or(0),
                    output: last.output,
                    duration_ms: u64::try_from(submitted.elapsed().as_millis()).unwrap_or(u64::MAX),
                    truncated: last.truncated,
                    mark: None,
                    output_file: None,
                };
                (result, Instant::now())
            });
        }
        if state.at_prompt {
            if let Some((result, _)) = done {
                return Ok(RunOutcome::Completed(result));
            }
        }
    }
}

/// `command` as the shell reads one command: a command of several lines is grouped (`{ ...
/// }` in POSIX shells, `begin ... end` in fish), so the shell runs every line before it marks
/// the command's end, and the exit code is the last line's. A shell phux cannot group for is
/// refused up front (`command_incomplete`): never half-run.
fn one_unit(command: &str, program_path: &str) -> Result<String, ClientError> {
    let command = command.trim_matches(|c| c == '\n' || c == '\r');
    if !command.contains('\n') {
        return Ok(command.to_owned());
    }
    let shell = std::path::Path::new(program_path)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    match shell {
        "bash" | "zsh" | "sh" | "dash" | "ksh" | "ksh93" | "mksh" | "ash" | "yash" | "posh" => {
            Ok(format!("{{ {command}\n}}"))
        }
        "fish" => Ok(format!("begin\n{command}\nend")),
        other => Err(ClientError::preflight(
            ErrorCode::CommandIncomplete,
            format!("{other:?} may run a command of several lines one line at a time, and `run` would report only the first; nothing was typed"),
            "join the lines with `;` or `&&`, or run them as a script (`sh -c '...'`)",
        )),
    }
}

/// Whether `command` could leave the shell waiting for more input (an open quote, a heredoc, a
/// compound command); plain words never can, and skip the check.
fn may_be_incomplete(command: &str) -> bool {
    const KEYWORDS: &[&str] = &[
        "if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case", "esac",
        "select", "function", "begin", "end", "switch",
    ];
    let plain = |c: char| c.is_alphanumeric() || " _./=:,+@%^-~".contains(c);
    !command.chars().all(plain) || command.split(' ').any(|w| KEYWORDS.contains(&w))
}

/// Refuses a command the pane's shell would not read as one complete line (`command_incomplete`),
/// checked by that shell's own parser (`-n`: read, do not run) before anything is typed.
fn check_complete(command: &str, program_path: &str) -> Result<(), ClientError> {
    if program_path.is_empty() || !may_be_incomplete(command) {
        return Ok(());
    }
    let output = Command::new(program_path)
        .args(["-n", "-c", command])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output();
    let Ok(output) = output else {
        return Ok(());
    };
    let stderr = String::from_utf8_lossy(&output.stderr);
    // Parsers accept a heredoc that runs to the end of the text (bash only warns), but typed
    // at a prompt it leaves the shell waiting for its end until `run` times out.
    let diagnostic = match (output.status.success(), open_heredoc(command)) {
        (_, Some(word)) => format!("the heredoc is never closed by a line `{word}`"),
        (true, None) => return Ok(()),
        (false, None) => stderr.lines().next().unwrap_or_default().trim().to_owned(),
    };
    Err(ClientError::preflight(
        ErrorCode::CommandIncomplete,
        format!("{command:?} does not parse as one command line ({diagnostic}); nothing was typed"),
        "close every quote, heredoc and block in the command (a heredoc's lines go in the same argument, separated by newlines)",
    ))
}

/// The delimiter of the first heredoc (`<<WORD`, `<<-WORD`, `<<'WORD'`) outside quotes that no
/// later line closes, if any.
fn open_heredoc(command: &str) -> Option<String> {
    let lines: Vec<&str> = command.lines().collect();
    for (index, line) in lines.iter().enumerate() {
        let mut quote: Option<char> = None;
        let chars: Vec<char> = line.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            match quote {
                Some(q) if c == q => quote = None,
                Some(_) => {}
                None if c == '\\' => i += 1,
                None if c == '\'' || c == '"' => quote = Some(c),
                None if c == '#' && (i == 0 || chars[i - 1].is_whitespace()) => break,
                None if c == '<' && chars.get(i + 1) == Some(&'<') => {
                    if chars.get(i + 2) == Some(&'<') {
                        i += 3; // a here-string
                        continue;
                    }
                    let rest: String = chars[i + 2..].iter().collect();
                    let strip_tabs = rest.starts_with('-');
                    let rest = rest.trim_start_matches('-').trim_start();
                    let word: String = rest
                        .chars()
                        .take_while(|c| !c.is_whitespace() && !";|&<>()".contains(*c))
                        .filter(|c| *c != '\'' && *c != '"' && *c != '\\')
                        .collect();
                    if !word.is_empty() {
                        let closed = lines[index + 1..].iter().any(|l| {
                            let l = if strip_tabs {
                                l.trim_start_matches('\t')
                            } else {
                                l
                            };
                            *l == word
                        });
                        if !closed {
                            return Some(word);
                        }
                    }
                    i += 2;
                    continue;
                }
                None => {}
            }
            i += 1;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_heredoc_without_its_closing_line_is_open() {
        assert_eq!(open_heredoc("cat <<EOF"), Some("EOF".into()));
        assert_eq!(
            open_heredoc("cat <<'END' > f\nx\nENDING"),
            Some("END".into())
        );
        assert_eq!(open_heredoc("cat <<EOF\nhi\nEOF"), None);
        assert_eq!(open_heredoc("cat <<-EOF\n\thi\n\tEOF"), None);
        assert_eq!(open_heredoc("echo 'a << b'"), None);
        assert_eq!(open_heredoc("cat <<< word"), None);
        assert_eq!(open_heredoc("echo hi # <<EOF"), None);
        for shell in ["/bin/sh", "/bin/bash"] {
            if std::path::Path::new(shell).exists() {
                let err = check_complete("cat <<EOF", shell).unwrap_err();
                assert!(err.to_string().contains("never closed"), "{shell}: {err}");
            }
        }
    }

    #[test]
    fn plain_commands_skip_the_parser() {
        assert!(!may_be_incomplete("true"));
        assert!(!may_be_incomplete("cargo test -p phux-core"));
        assert!(may_be_incomplete("echo 'open"));
        assert!(may_be_incomplete("cat <<EOF\nx\nEOF"));
        assert!(may_be_incomplete("for x in a b"));
    }

    #[test]
    fn an_open_quote_is_refused_by_the_shells_parser() {
        let err = check_complete("echo 'open", "/bin/sh").unwrap_err();
        assert!(err.to_string().contains("does not parse"), "{err}");
        check_complete("cat <<EOF\nhi\nEOF", "/bin/sh").unwrap();
    }
}
