//! Runs a tape's actions against its pane in real time: typing at `TypingSpeed`, keys through
//! the same key specs `send-keys` takes, sleeps as written, waits on the screen, and the
//! moments that shape the outputs (`Hide`, `Show`, `Screenshot`) noted on our clock.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use phux_client::screen::{get_screen, Change, ScreenFeed};
use phux_client::{pane, ClientError};

use super::parser::{Command, Setting, Step, WaitScope};
use super::plan::Settings;
use super::session::Session;

/// How often a sleep or a wait looks at the stop flag.
const STOP_POLL: Duration = Duration::from_millis(50);

/// A moment that changes what the outputs show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Moment {
    Hide,
    Show,
    Screenshot(PathBuf),
}

/// Why the run stopped early.
#[derive(Debug)]
pub enum RunError {
    Client(ClientError),
    /// A `Wait` that never matched: the step, what it waited for, how long, and the screen.
    WaitTimedOut {
        step: Box<Step>,
        pattern: String,
        scope: WaitScope,
        timeout: f64,
        screen: Vec<String>,
    },
    /// `Paste` with nothing copied.
    NothingCopied(Box<Step>),
    /// The shell exited while a step still had to run.
    PaneExited(Box<Step>),
    /// Ctrl-C (or SIGTERM, SIGHUP) during this step.
    Interrupted(Box<Step>),
}

impl From<ClientError> for RunError {
    fn from(e: ClientError) -> Self {
        RunError::Client(e)
    }
}

/// What happened when, on our clock.
pub struct Run {
    pub moments: Vec<(Instant, Moment)>,
    pub ended: Instant,
}

/// How long a step that finds the server gone waits for the pane's end to be read.
const PANE_END_PATIENCE: Duration = Duration::from_secs(1);

/// How long the shell gets to show its first output before the tape starts anyway.
const SHELL_READY: Duration = Duration::from_secs(10);

/// Runs `actions`; `on_step` is told before each one.
pub fn run(
    session: &mut Session,
    settings: &Settings,
    actions: &[Step],
    stop: &AtomicBool,
    on_step: &mut dyn FnMut(usize, &Step),
) -> Result<Run, RunError> {
    let mut typing_speed = settings.typing_speed;
    let mut clipboard: Option<String> = None;
    let mut moments = Vec::new();
    // The pane's output position just before the last input was written: a `Wait` after it
    // only counts a screen that output after that input reached.
    let mut last_input: Option<u64> = None;
    wait_for_first_output(session)?;
    let pane_end = session.pane_end();
    for (i, step) in actions.iter().enumerate() {
        on_step(i, step);
        let sleep = |secs: f64| -> Result<(), RunError> {
            if sleep_unless(secs, stop) {
                Err(RunError::Interrupted(Box::new(step.clone())))
            } else {
                Ok(())
            }
        };
        sleep(0.0)?;
        let pane = session.pane;
        let client = &mut session.input;
        // The pane is gone, or the tape's own server ended with it (its shell exited).
        let closed = |e: ClientError| match &e {
            ClientError::Server {
                code: phux_core::error_code::ErrorCode::NoSuchTarget,
                ..
            } => RunError::PaneExited(Box::new(step.clone())),
            ClientError::ServerDisconnected { .. } | ClientError::NoServer { .. }
                if pane_end.closed_within(PANE_END_PATIENCE) =>
            {
                RunError::PaneExited(Box::new(step.clone()))
            }
            _ => RunError::Client(e),
        };
        match &step.command {
            Command::Set(Setting::TypingSpeed(v)) => typing_speed = *v,
            Command::Type { text, speed } => {
                let pause = speed.unwrap_or(typing_speed);
                for c in text.chars() {
                    let mark =
                        pane::send_literal(client, pane, c.to_string(), &pane::operation_id())
                            .map_err(closed)?;
                    last_input = Some(mark);
                    sleep(pause)?;
                }
            }
            Command::Key { spec, speed, count } => {
                let pause = speed.unwrap_or(typing_speed);
                for _ in 0..*count {
                    let mark =
                        pane::send_keys(client, pane, vec![spec.clone()], &pane::operation_id())
                            .map_err(closed)?;
                    last_input = Some(mark);
                    sleep(pause)?;
                }
            }
            Command::Sleep(secs) => sleep(*secs)?,
            Command::Hide => moments.push((Instant::now(), Moment::Hide)),
            Command::Show => moments.push((Instant::now(), Moment::Show)),
            Command::Screenshot(path) => {
                moments.push((Instant::now(), Moment::Screenshot(path.clone())))
            }
            Command::Copy(text) => clipboard = Some(text.clone()),
            Command::Paste => {
                let text = clipboard
                    .clone()
                    .ok_or_else(|| RunError::NothingCopied(Box::new(step.clone())))?;
                let (mark, _) =
                    pane::paste(client, pane, text, &pane::operation_id()).map_err(closed)?;
                last_input = Some(mark);
            }
            Command::Wait {
                scope,
                timeout,
                pattern,
            } => {
                let pattern = pattern.as_deref().unwrap_or(&settings.wait_pattern);
                let timeout = timeout.unwrap_or(settings.wait_timeout);
                let target = WaitTarget {
                    scope: *scope,
                    pattern,
                    timeout,
                    after: last_input,
                };
                wait(session, step, &target, stop)?;
            }
            Command::Output(_)
            | Command::Require(_)
            | Command::Env(..)
            | Command::Set(_)
            | Command::Unsupported(_) => {}
        }
    }
    Ok(Run {
        moments,
        ended: Instant::now(),
    })
}

/// Sleeps `secs`, in short steps; true (at once) when the stop flag is raised.
fn sleep_unless(secs: f64, stop: &AtomicBool) -> bool {
    let secs = if secs.is_finite() { secs.max(0.0) } else { 0.0 };
    let until = Instant::now() + Duration::from_secs_f64(secs.min(86_400.0));
    loop {
        if stop.load(Ordering::Relaxed) {
            return true;
        }
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return false;
        }
        std::thread::sleep(left.min(STOP_POLL));
    }
}

/// Waits until the shell has drawn something (its prompt), so the first keys are not typed
/// into a program that is still starting.
fn wait_for_first_output(session: &mut Session) -> Result<(), RunError> {
    let deadline = Instant::now() + SHELL_READY;
    let mut feed = ScreenFeed::open(&session.input, session.pane)?;
    loop {
        let screen = get_screen(&mut session.input, session.pane, None, false)?;
        if screen.lines.iter().any(|l| !l.trim().is_empty()) {
            return Ok(());
        }
        match feed.next_change(Some(deadline))? {
            Change::Maybe => {}
            Change::Deadline | Change::Closed => return Ok(()),
        }
    }
}

/// What a `Wait` waits for.
struct WaitTarget<'a> {
    scope: WaitScope,
    pattern: &'a str,
    timeout: f64,
    /// The output position before the last input, if any was written: a screen that no
    /// output after it has reached is the screen from before that input (a prompt the shell
    /// has not yet answered a typed line under), and matches only once the timeout shows
    /// that nothing is coming.
    after: Option<u64>,
}

impl WaitTarget<'_> {
    fn matches(&self, regex: &regex::Regex, screen: &phux_core::documents::ScreenState) -> bool {
        match self.scope {
            WaitScope::Screen => regex.is_match(&screen.lines.join("\n")),
            WaitScope::Line => regex.is_match(cursor_line(screen)),
        }
    }

    /// Whether output written after the last input is on `screen` (a screen without a mark
    /// comes from no server of ours: taken as it is).
    fn reached(&self, screen: &phux_core::documents::ScreenState) -> bool {
        match (self.after, screen.mark) {
            (Some(after), Some(mark)) => mark > after,
            _ => true,
        }
    }
}

fn wait(
    session: &mut Session,
    step: &Step,
    target: &WaitTarget<'_>,
    stop: &AtomicBool,
) -> Result<(), RunError> {
    // The parser compiled every pattern already; a bad WaitPattern cannot reach here.
    // Multi-line: on the whole screen, `^` and `$` match at each line's start and end.
    let regex = regex::RegexBuilder::new(target.pattern)
        .multi_line(true)
        .build()
        .map_err(|e| {
            RunError::Client(ClientError::Preflight {
                code: phux_core::error_code::ErrorCode::InvalidArgument,
                message: e.to_string(),
                remedy: "fix the regex".into(),
            })
        })?;
    let deadline = Instant::now() + Duration::from_secs_f64(target.timeout.min(86_400.0));
    let mut feed = ScreenFeed::open(&session.input, session.pane)?;
    loop {
        let screen = get_screen(&mut session.input, session.pane, None, false)?;
        if target.reached(&screen) && target.matches(&regex, &screen) {
            return Ok(());
        }
        if stop.load(Ordering::Relaxed) {
            return Err(RunError::Interrupted(Box::new(step.clone())));
        }
        let tick = (Instant::now() + STOP_POLL).min(deadline);
        match feed.next_change(Some(tick))? {
            Change::Deadline if Instant::now() < deadline => {}
            Change::Maybe => {}
            Change::Closed => return Err(RunError::PaneExited(Box::new(step.clone()))),
            Change::Deadline => {
                // Matching at the end without output after the input: the input drew
                // nothing, and the screen it left matches.
                let last = get_screen(&mut session.input, session.pane, None, false)?;
                if target.matches(&regex, &last) {
                    return Ok(());
                }
                return Err(RunError::WaitTimedOut {
                    step: Box::new(step.clone()),
                    pattern: target.pattern.to_owned(),
                    scope: target.scope,
                    timeout: target.timeout,
                    screen: last.lines,
                });
            }
        }
    }
}

/// The line `Wait` reads: the cursor's, or the last non-blank one when the cursor's is blank.
fn cursor_line(screen: &phux_core::documents::ScreenState) -> &str {
    let at_cursor = screen
        .cursor
        .as_ref()
        .and_then(|c| screen.lines.get(usize::from(c.y)))
        .map(String::as_str)
        .filter(|l| !l.trim().is_empty());
    at_cursor
        .or_else(|| {
            screen
                .lines
                .iter()
                .rev()
                .find(|l| !l.trim().is_empty())
                .map(String::as_str)
        })
        .unwrap_or("")
}
