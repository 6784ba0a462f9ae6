//! `wait`: until text appears on a pane (a substring or a regex, matched against soft-wrap
//! joined logical lines), or until its screen settles. Driven by the pane's screen-changed
//! notices: subscribe, read once (the condition may already hold), then read again on each
//! notice, so a match is seen within milliseconds of the output that makes it. With `after`,
//! text is matched only against the output the pane wrote after a mark (rendered by the server
//! at the pane's width), never against what was already on the screen.

use std::time::{Duration, Instant};

use phux_core::documents::{ScreenState, Semantic};
use phux_core::error_code::ErrorCode;
use phux_core::ids::PaneId;
use phux_core::wire::{ClientMessage, ShellState, ShellStateOk};
use regex::Regex;

use crate::connection::Client;
use crate::error::ClientError;
use crate::screen::{get_screen, Change, ScreenFeed};
use crate::stop::Stop;

/// How long the screen must stay unchanged when no condition is given at all.
pub const DEFAULT_IDLE: Duration = Duration::from_millis(500);

/// Text to wait for.
#[derive(Debug, Clone)]
pub enum TextCondition {
    /// A substring of one logical line.
    Substring(String),
    /// A regex matched against one logical line at a time.
    Regex(Regex),
}

impl TextCondition {
    pub fn matches(&self, line: &str) -> bool {
        match self {
            TextCondition::Substring(text) => line.contains(text.as_str()),
            TextCondition::Regex(regex) => regex.is_match(line),
        }
    }
}

/// What to wait for, and how to read.
#[derive(Debug, Clone, Default)]
pub struct WaitSpec {
    /// Met when a logical line matches (checked before `idle`).
    pub text: Option<TextCondition>,
    /// Met when the screen has not changed for this long.
    pub idle: Option<Duration>,
    /// Ignore rows the engine marks as typed input (OSC 133), so the echo of a command line
    /// does not match.
    pub output_only: bool,
    /// The history window read with the viewport (`get_screen`'s `scrollback`).
    pub scrollback: Option<u32>,
    /// Give up after this long (`None`: never).
    pub timeout: Option<Duration>,
    /// Match text only in output written after a point.
    pub after: Option<After>,
    /// Ends the wait early, unmet, when pressed (an MCP client cancelling the call).
    pub stop: Option<Stop>,
}

/// Where "new" output starts for a text condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum After {
    /// The pane's mark when the wait began (`--new`).
    Start,
    /// A mark a verb reported (`--after MARK`).
    Mark(u64),
}

/// How a wait ended.
#[derive(Debug, Clone)]
pub struct WaitOutcome {
    /// The condition held (false: the timeout passed first).
    pub met: bool,
    /// The logical line the text condition matched.
    pub matched: Option<String>,
    /// The last screen read.
    pub screen: ScreenState,
    /// With `output_only`: whether any cell carried an OSC 133 mark on any read.
    pub saw_marks: bool,
    /// Screens read, notices received, and reads forced by the safety poll.
    pub reads: u64,
    pub notices: u64,
    pub safety_polls: u64,
}

/// Waits on `pane` as `spec` says. `client` is a request connection; the subscription opens
/// its own connection to the same server (through the hub for a satellite pane). The pane closing first is `pane_exited`; the server going
/// away, `server_disconnected`.
pub fn wait(
    client: &mut Client,
    pane: PaneId,
    spec: &WaitSpec,
) -> Result<WaitOutcome, ClientError> {
    let started = Instant::now();
    let give_up_at = spec.timeout.map(|t| started + t);
    let idle = match (&spec.text, spec.idle) {
        (None, None) => Some(DEFAULT_IDLE),
        (_, idle) => idle,
    };
    let read = |client: &mut Client| get_screen(client, pane, spec.scrollback, spec.output_only);
    // A condition that already holds needs no subscription at all.
    let first = read(client)?;
    let after = spec.after.map(|after| match after {
        After::Start => first.mark.unwrap_or(0),
        After::Mark(mark) => mark,
    });
    let matched = text_match(client, pane, spec, after, &first)?;
    if matched.is_some() {
        // Output matched after a mark may be newer than the screen read before it.
        let screen = match after {
            Some(_) => read(client)?,
            None => first,
        };
        return Ok(WaitOutcome {
            met: true,
            matched,
            saw_marks: has_marks(&screen),
            screen,
            reads: 1,
            notices: 0,
            safety_polls: 0,
        });
    }
    // Subscribe, then read again: a change between the first read and the subscription shows
    // in this read, and every later one comes with a notice.
    let mut feed = ScreenFeed::open(client, pane)?;
    let mut screen = read(client).map_err(|e| exited_if_gone(e, pane))?;
    let mut reads = 2;
    let mut saw_marks = has_marks(&first) || has_marks(&screen);
    let mut last_change = Instant::now();
    // `--after MARK --idle MS` with no text: the pane must have written after the mark before
    // its quiet counts (a key's redraw, not the screen as it stood).
    let wrote_since = |screen: &ScreenState| match (after, &spec.text) {
        (Some(mark), None) => screen.mark.is_some_and(|now| now > mark),
        _ => true,
    };
    loop {
        let matched =
            text_match(client, pane, spec, after, &screen).map_err(|e| exited_if_gone(e, pane))?;
        let settle_at = idle
            .filter(|_| wrote_since(&screen))
            .map(|idle| last_change + idle);
        let settled = settle_at.is_some_and(|at| Instant::now() >= at);
        if matched.is_some() || settled {
            if matched.is_some() && after.is_some() {
                // The output matched may be newer than this screen: show one that holds it.
                screen = read(client).map_err(|e| exited_if_gone(e, pane))?;
            }
            let mut done = outcome(true, screen, saw_marks, reads, &feed);
            done.matched = matched;
            return Ok(done);
        }
        let deadline = match (give_up_at, settle_at) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let change = feed.next_change_or_stop(deadline, spec.stop.as_ref())?;
        if spec.stop.as_ref().is_some_and(Stop::is_pressed) {
            return Ok(outcome(false, screen, saw_marks, reads, &feed));
        }
        match change {
            Change::Maybe => {
                let next = read(client).map_err(|e| exited_if_gone(e, pane))?;
                reads += 1;
                saw_marks |= has_marks(&next);
                if changed(&screen, &next) || (!wrote_since(&screen) && wrote_since(&next)) {
                    last_change = Instant::now();
                }
                screen = next;
            }
            Change::Deadline if give_up_at.is_some_and(|at| Instant::now() >= at) => {
                return Ok(outcome(false, screen, saw_marks, reads, &feed));
            }
            Change::Deadline => {}
            Change::Closed => return Err(pane_ended(pane, feed.ended)),
        }
    }
}

fn outcome(
    met: bool,
    screen: ScreenState,
    saw_marks: bool,
    reads: u64,
    feed: &ScreenFeed,
) -> WaitOutcome {
    WaitOutcome {
        met,
        matched: None,
        screen,
        saw_marks,
        reads,
        notices: feed.notices,
        safety_polls: feed.safety_polls,
    }
}

/// The first logical line the text condition matches: on the screen, or with `after` in the
/// program's output after that mark (what was typed, and its echo, left out by the server),
/// confirmed on the screen as it stands: the line reported is always a real line of the
/// screen or its history, never one composed from output drawn over another screen.
fn text_match(
    client: &mut Client,
    pane: PaneId,
    spec: &WaitSpec,
    after: Option<u64>,
    screen: &ScreenState,
) -> Result<Option<String>, ClientError> {
    let Some(text) = spec.text.as_ref() else {
        return Ok(None);
    };
    // Reported as the pattern saw it: the cursor's row keeps its blanks up to the cursor (a
    // `^>>> $` match reports `>>> `, not a trimmed text the pattern would not match).
    let Some(mark) = after else {
        let shown = searchable_lines(&to_cursor(screen), spec.output_only);
        return Ok(shown.into_iter().find(|l| text.matches(l)));
    };
    let new = output_since(client, pane, mark)?;
    let found: Vec<&String> = new.iter().filter(|l| text.matches(l)).collect();
    if found.is_empty() {
        return Ok(None);
    }
    // Confirmed on a screen read after the output was (the one read before may not show it
    // yet), deep enough to hold every line of it.
    let rows = u32::try_from(new.len())
        .unwrap_or(u32::MAX)
        .saturating_add(u32::from(screen.rows));
    let fresh = get_screen(
        client,
        pane,
        Some(rows.min(MAX_CONFIRM_ROWS)),
        spec.output_only,
    )?;
    let shown = searchable_lines(&to_cursor(&fresh), spec.output_only);
    Ok(confirmed(&found, &shown))
}

/// History rows read at most to find a matched line on the screen.
const MAX_CONFIRM_ROWS: u32 = 10_000;

/// The last line of `shown` (the screen's lines) holding one of the `found` lines of new
/// output.
fn confirmed(found: &[&String], shown: &[String]) -> Option<String> {
    found.iter().find_map(|line| {
        let line = line.trim_end();
        shown.iter().rev().find(|row| row.contains(line)).cloned()
    })
}

/// The screen with the cursor's row keeping its blanks up to the cursor, so a pattern ending
/// in them (`>>> `, a prompt waiting for input) matches the row the terminal shows.
pub fn to_cursor(screen: &ScreenState) -> ScreenState {
    let mut screen = screen.clone();
    if let Some(cursor) = screen.cursor {
        if let Some(row) = screen.lines.get_mut(usize::from(cursor.y)) {
            let width = row.chars().count();
            let x = usize::from(cursor.x);
            if width < x {
                row.extend(std::iter::repeat_n(' ', x - width));
            }
        }
    }
    screen
}

/// The pane's program output after `mark`, as lines (the last keeps its blanks up to the
/// cursor).
fn output_since(client: &mut Client, pane: PaneId, mark: u64) -> Result<Vec<String>, ClientError> {
    let state: ShellStateOk = client.request(ClientMessage::ShellState(ShellState {
        id: 0,
        pane,
        output_after: None,
        since_mark: Some(mark),
    }))?;
    Ok(state
        .since
        .map(|since| since.text.split('\n').map(str::to_owned).collect())
        .unwrap_or_default())
}

/// The pane went away while something was waiting on it: `pane_exited`, not `no_such_target`,
/// since the pane did exist when the wait began.
pub fn pane_closed(pane: PaneId) -> ClientError {
    pane_ended(pane, None)
}

/// `pane_closed`, naming how the pane's program ended when the stream heard it.
pub fn pane_ended(pane: PaneId, status: Option<i32>) -> ClientError {
    let message = match status {
        Some(status) => format!("{pane} exited with {status} while waiting"),
        None => format!("pane {pane} exited while waiting"),
    };
    ClientError::preflight(
        ErrorCode::PaneExited,
        message,
        format!("read its last screen with `phux snapshot {pane}`"),
    )
}

/// A read of a pane that was there when the wait began, answered `no_such_target`: it exited.
pub fn exited_if_gone(error: ClientError, pane: PaneId) -> ClientError {
    match error {
        ClientError::Server {
            code: ErrorCode::NoSuchTarget,
            ..
        } => pane_closed(pane),
        other => other,
    }
}

/// Whether the visible content moved (text, history, cursor); a notice alone is not a change.
fn changed(before: &ScreenState, after: &ScreenState) -> bool {
    before.lines != after.lines
        || before.scrollback != after.scrollback
        || before.cursor != after.cursor
        || before.cols != after.cols
        || before.rows != after.rows
}

fn has_marks(screen: &ScreenState) -> bool {
    screen
        .cells
        .as_ref()
        .is_some_and(|cells| cells.iter().any(|c| c.semantic.is_some()))
}

/// The logical lines a text condition is matched against: history and viewport joined across
/// soft wraps. With `output_only`, viewport rows holding typed input are left out first
/// (history rows carry no marks and stay).
pub fn searchable_lines(screen: &ScreenState, output_only: bool) -> Vec<String> {
    if !output_only {
        return screen.logical_lines();
    }
    let Some(cells) = screen.cells.as_ref() else {
        return screen.logical_lines();
    };
    let mut input_rows: Vec<u16> = cells
        .iter()
        .filter(|c| c.semantic == Some(Semantic::Input))
        .map(|c| c.row)
        .collect();
    input_rows.dedup();
    if input_rows.is_empty() {
        return screen.logical_lines();
    }
    screen
        .clone()
        .without_viewport_rows(&input_rows)
        .logical_lines()
}
