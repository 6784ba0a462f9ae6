//! What a pane's shell has said through its OSC 133 marks: whether it marks at all, whether a
//! command is running, how many have finished, and the last one's exit code and output (the raw
//! bytes between its C and D marks, rendered on request). `run` reads this instead of typing
//! markers; `new` waits on it for the pane's first paint or first prompt.

use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use phux_core::engine::Terminal;

use super::osc_scan::Mark;

/// Output kept per command; beyond it the start is dropped and the result is `truncated`.
const CAPTURE_LIMIT: usize = 4 * 1024 * 1024;

/// The last finished command, as read.
#[derive(Debug, Clone, Default)]
pub struct Finished {
    pub exit_code: Option<i32>,
    pub bytes: Vec<u8>,
    pub truncated: bool,
}

/// The state of one pane's shell, as its marks tell it.
#[derive(Debug, Clone, Default)]
pub struct ShellView {
    pub marked: bool,
    pub running: bool,
    /// The prompt has been drawn to its end (B) since the last command.
    pub at_prompt: bool,
    pub finished: u64,
    pub last: Option<Finished>,
}

#[derive(Debug, Default)]
struct State {
    view: ShellView,
    capture: Option<Finished>,
    painted: bool,
    /// When the first prompt started (A), and whether a prompt has been drawn to its end (B).
    prompt_started: Option<Instant>,
    prompted: bool,
    /// The latest OSC 9;4 progress payload (without `9;`), for detection's `osc-progress`.
    progress: Option<String>,
}

/// Shared between the pane's core (which feeds it) and request threads (which read it).
#[derive(Debug, Default)]
pub struct ShellTrack {
    state: Mutex<State>,
    changed: Condvar,
}

impl ShellTrack {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// One PTY read and the marks found in it, each with the offset just past it.
    pub fn on_output(&self, bytes: &[u8], marks: &[(Mark, usize)]) {
        let mut state = self.lock();
        let first_paint = !state.painted;
        state.painted = true;
        let mut from = 0;
        for &(mark, end) in marks {
            if let Some(capture) = state.capture.as_mut() {
                append(capture, &bytes[from.min(end)..end]);
            }
            if let Some(payload) = mark.progress_payload() {
                // A progress report says nothing about the shell's prompt marks.
                state.progress = Some(payload);
                from = end;
                continue;
            }
            state.view.marked = true;
            match mark {
                Mark::PromptStart => {
                    state.prompt_started.get_or_insert_with(Instant::now);
                }
                Mark::InputStart => {
                    state.prompted = true;
                    state.view.at_prompt = true;
                }
                Mark::CommandStarted => {
                    state.view.running = true;
                    state.view.at_prompt = false;
                    state.capture = Some(Finished::default());
                }
                Mark::CommandFinished(exit_code) => {
                    state.view.running = false;
                    state.view.at_prompt = false;
                    state.view.finished += 1;
                    let mut done = state.capture.take().unwrap_or_default();
                    done.exit_code = exit_code;
                    state.view.last = Some(done);
                }
                Mark::Progress { .. } => {}
            }
            from = end;
        }
        if let Some(capture) = state.capture.as_mut() {
            append(capture, &bytes[from.min(bytes.len())..]);
        }
        if first_paint || state.prompt_started.is_some() || state.prompted {
            self.changed.notify_all();
        }
    }

    /// The latest OSC 9;4 progress payload without its `9;` (`4;3;`), empty when none was seen.
    pub fn progress(&self) -> String {
        self.lock().progress.clone().unwrap_or_default()
    }

    /// The view, with the last command only when more than `after` commands have finished.
    /// What the marks say now, `None` when the shell writes none (no copy of the last
    /// command's output, as [`view`](Self::view) makes).
    pub fn marks(&self) -> Option<phux_core::wire::SemanticMarks> {
        let state = self.lock();
        (state.view.marked).then_some(phux_core::wire::SemanticMarks {
            running: state.view.running,
            at_prompt: state.view.at_prompt,
        })
    }

    pub fn view(&self, after: Option<u64>) -> ShellView {
        let state = self.lock();
        let mut view = state.view.clone();
        if after.is_none_or(|n| view.finished <= n) {
            view.last = None;
        }
        view
    }

    /// Waits (up to `limit`) for the first output, or with `prompt` for the first prompt mark.
    pub fn wait_first(&self, prompt: bool, limit: Duration) {
        let deadline = Instant::now() + limit;
        let mut state = self.lock();
        while !(if prompt {
            state.prompted
        } else {
            state.painted
        }) {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return;
            }
            state = self
                .changed
                .wait_timeout(state, left)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }
}

fn append(capture: &mut Finished, bytes: &[u8]) {
    capture.bytes.extend_from_slice(bytes);
    if capture.bytes.len() > CAPTURE_LIMIT {
        let excess = capture.bytes.len() - CAPTURE_LIMIT;
        capture.bytes.drain(..excess);
        capture.truncated = true;
    }
}

/// The text a command's output shows on a terminal `cols` wide: its lines as the program
/// printed them (rows a long line soft-wrapped into are joined again), right-trimmed, without
/// trailing blank lines. (The marks inside are invisible.)
pub fn render(bytes: &[u8], cols: u16, rows: u16) -> String {
    rendered_lines(bytes, cols, rows, false).join("\n")
}

/// Like [`render`], but the line the cursor ends on keeps its blanks up to the cursor (a
/// prompt such as `>>> ` waiting for input), so a pattern may end in them.
pub fn render_to_cursor(bytes: &[u8], cols: u16, rows: u16) -> String {
    rendered_lines(bytes, cols, rows, true).join("\n")
}

fn rendered_lines(bytes: &[u8], cols: u16, rows: u16, to_cursor: bool) -> Vec<String> {
    let lines = bytes.iter().filter(|&&b| b == b'\n').count();
    let Ok(mut terminal) = Terminal::new(cols, rows, lines + usize::from(rows) + 1) else {
        return vec![String::from_utf8_lossy(bytes).into_owned()];
    };
    terminal.write(bytes);
    let history = terminal.scrollback_len();
    let mut text = terminal.scrollback_text(None, false);
    let mut wraps = terminal.scrollback_wraps(None);
    text.extend(terminal.viewport_lines());
    wraps.extend(terminal.viewport_wraps());
    let cursor = terminal.cursor();
    let cursor_row = history + usize::from(cursor.y);
    if to_cursor {
        if let Some(row) = text.get_mut(cursor_row) {
            let width = row.chars().count();
            let x = usize::from(cursor.x);
            if width < x {
                row.extend(std::iter::repeat_n(' ', x - width));
            }
        }
    }
    let last_written = text
        .iter()
        .rposition(|l| !l.trim_end().is_empty())
        .map_or(0, |i| i + 1);
    let keep = if to_cursor {
        last_written.max((cursor_row + 1).min(text.len()))
    } else {
        last_written
    };
    let mut joined: Vec<String> = Vec::new();
    let mut continues = false;
    for (index, row) in text.into_iter().take(keep).enumerate() {
        let keeps_blanks = to_cursor && index == cursor_row;
        let row = if keeps_blanks {
            row
        } else {
            row.trim_end().to_owned()
        };
        match joined.last_mut() {
            Some(line) if continues => {
                // The row before filled its width; its trailing blanks were part of the line.
                let width = line.chars().count() % usize::from(cols.max(1));
                if width != 0 && line.is_ascii() {
                    line.extend(std::iter::repeat_n(' ', usize::from(cols) - width));
                }
                line.push_str(&row);
            }
            _ => joined.push(row),
        }
        continues = wraps.get(index).copied().unwrap_or(false);
    }
    joined
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_between_c_and_d_is_kept_with_the_exit_code() {
        let track = ShellTrack::default();
        let chunk = b"\x1b]133;C\x07hello\r\n\x1b]133;D;3\x07$ ";
        let marks = super::super::osc_scan::OscScanner::default().feed_at(chunk);
        track.on_output(chunk, &marks);
        let view = track.view(Some(0));
        assert!(view.marked && !view.running);
        assert_eq!(view.finished, 1);
        let last = view.last.unwrap();
        assert_eq!(last.exit_code, Some(3));
        assert_eq!(&last.bytes, b"hello\r\n\x1b]133;D;3\x07");
        assert!(track.view(Some(1)).last.is_none());
    }
}

#[cfg(test)]
mod render_tests {
    use super::*;

    #[test]
    fn a_long_line_is_one_line_as_printed() {
        let line = "x".repeat(25);
        assert_eq!(
            render(format!("{line}\r\nend\r\n").as_bytes(), 10, 4),
            format!("{line}\nend")
        );
    }

    #[test]
    fn the_cursor_line_keeps_its_blanks_up_to_the_cursor() {
        assert_eq!(render_to_cursor(b"hi\r\n>>> ", 10, 4), "hi\n>>> ");
        assert_eq!(render(b"hi\r\n>>> ", 10, 4), "hi\n>>>");
    }
}
