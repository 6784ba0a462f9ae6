//! The outer terminal the person looks at: raw mode while attached (restored however the
//! client ends), its size, the alternate screen, and the modes the client mirrors from the
//! focused pane so keys arrive encoded as that pane's program expects.

use std::io::Write;
use std::os::fd::{AsFd, BorrowedFd};

use rustix::termios::{self, OptionalActions, Termios};

/// Raw mode and the alternate screen, undone on drop.
pub struct OuterTerminal {
    saved: Termios,
    modes: MirroredModes,
}

/// Modes of the focused pane the outer terminal is put in too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MirroredModes {
    pub app_cursor: bool,
    pub bracketed_paste: bool,
    pub focus_events: bool,
}

const ENTER: &str = "\x1b[?1049h\x1b[H\x1b[2J";
const LEAVE: &str = "\x1b[?2026l\x1b[0m\x1b[?1l\x1b[?2004l\x1b[?1004l\x1b[0 q\x1b[?25h\x1b[?1049l";

fn stdin() -> BorrowedFd<'static> {
    rustix::stdio::stdin()
}

/// Whether stdin and stdout are both terminals (attach needs both).
pub fn is_tty() -> bool {
    termios::isatty(stdin()) && termios::isatty(std::io::stdout())
}

/// The outer terminal's size (cols, rows); 80x24 when it cannot be read.
pub fn size() -> (u16, u16) {
    termios::tcgetwinsize(std::io::stdout())
        .ok()
        .filter(|w| w.ws_col > 0 && w.ws_row > 0)
        .map_or((80, 24), |w| (w.ws_col, w.ws_row))
}

impl OuterTerminal {
    pub fn enter() -> std::io::Result<OuterTerminal> {
        let fd = stdin();
        let saved = termios::tcgetattr(fd)?;
        let mut raw = saved.clone();
        raw.make_raw();
        termios::tcsetattr(fd, OptionalActions::Now, &raw)?;
        let outer = OuterTerminal {
            saved,
            modes: MirroredModes::default(),
        };
        write_all(ENTER.as_bytes());
        write_all(crate::mouse::ENABLE.as_bytes());
        Ok(outer)
    }

    /// The modes the outer terminal is in now.
    pub fn modes(&self) -> MirroredModes {
        self.modes
    }

    /// Puts the outer terminal in `wanted`; returns the bytes that did it (for a recording
    /// they are not needed: they change input only).
    pub fn mirror(&mut self, wanted: MirroredModes) {
        let mut out = String::new();
        let pairs = [
            (self.modes.app_cursor, wanted.app_cursor, 1),
            (self.modes.bracketed_paste, wanted.bracketed_paste, 2004),
            (self.modes.focus_events, wanted.focus_events, 1004),
        ];
        for (now, want, mode) in pairs {
            if now != want {
                out.push_str(&format!("\x1b[?{mode}{}", if want { 'h' } else { 'l' }));
            }
        }
        self.modes = wanted;
        if !out.is_empty() {
            write_all(out.as_bytes());
        }
    }
}

impl Drop for OuterTerminal {
    fn drop(&mut self) {
        write_all(LEAVE.as_bytes());
        write_all(crate::mouse::DISABLE.as_bytes());
        let _ = termios::tcsetattr(stdin().as_fd(), OptionalActions::Now, &self.saved);
    }
}

/// Writes to stdout, ignoring a closed terminal (the client is ending then anyway).
pub fn write_all(bytes: &[u8]) {
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(bytes);
    let _ = stdout.flush();
}
