//! `Terminal`: one libghostty-vt terminal, safe to use from one thread at a time (`Send`, not
//! `Sync`: every call on a terminal is serialized by its owner, the pane core).

use super::abi::{self, ColorRgb, GString, ModeConfig, TerminalPtr};
use super::callbacks::{self, CallbackState};
use super::error::EngineError;
use super::symbols::Symbols;
use std::ffi::c_void;

pub use super::callbacks::REPLY_BUFFER_CAP;

/// Scrollback bytes the engine needs per retained row, per column. Measured on this build: 9
/// keeps about 97% of the promised rows at 80 columns, 10 keeps 109% at 80 and 113% at 200
/// (see the `scrollback_budget_keeps_rows` test). Without a cap the engine keeps 10,000 bytes:
/// about one page.
const SCROLLBACK_BYTES_PER_CELL: usize = 10;

/// The engine drops history a page at a time (a page holds about 64k cells: some 800 rows at 80
/// columns), so a cap of exactly N rows keeps as few as N minus a page. One page more makes N
/// the floor; readers show at most N rows (and say `truncated` when more were dropped).
const SCROLLBACK_PAGE_CELLS: usize = 65_536;

/// The engine's history budget for `rows` rows of `cols` cells, in bytes, never past
/// [`MAX_HISTORY_BYTES`](crate::limits::MAX_HISTORY_BYTES): rows alone did not bound it
/// (`--history-limit 1000000` at 1000 columns passed 4 GB in 20 s).
pub fn scrollback_budget_bytes(rows: usize, cols: u16) -> usize {
    let cells = rows
        .max(1)
        .saturating_mul(usize::from(cols))
        .saturating_add(SCROLLBACK_PAGE_CELLS);
    cells
        .saturating_mul(SCROLLBACK_BYTES_PER_CELL)
        .min(crate::limits::MAX_HISTORY_BYTES)
}

/// How to create a terminal.
#[derive(Debug, Clone, Copy)]
pub struct TerminalOptions {
    pub cols: u16,
    pub rows: u16,
    /// Rows of history to keep; the engine's byte cap is derived from it and kept right on resize.
    pub scrollback_rows: usize,
    pub foreground: (u8, u8, u8),
    pub background: (u8, u8, u8),
}

impl TerminalOptions {
    pub fn new(cols: u16, rows: u16, scrollback_rows: usize) -> Self {
        Self {
            cols,
            rows,
            scrollback_rows,
            foreground: (0xd0, 0xd0, 0xd0),
            background: (0x12, 0x12, 0x12),
        }
    }
}

/// Cursor position in viewport coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Cursor {
    pub x: u16,
    pub y: u16,
    pub visible: bool,
}

/// A DEC private (or ANSI) mode number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mode {
    pub number: u16,
    pub ansi: bool,
}

impl Mode {
    pub const APPLICATION_CURSOR_KEYS: Mode = Mode {
        number: 1,
        ansi: false,
    };
    pub const CURSOR_VISIBLE: Mode = Mode {
        number: 25,
        ansi: false,
    };
    pub const MOUSE_X10: Mode = Mode {
        number: 9,
        ansi: false,
    };
    pub const MOUSE_NORMAL: Mode = Mode {
        number: 1000,
        ansi: false,
    };
    pub const CURSOR_BLINKING: Mode = Mode {
        number: 12,
        ansi: false,
    };
    pub const FOCUS_EVENTS: Mode = Mode {
        number: 1004,
        ansi: false,
    };
    pub const MOUSE_SGR: Mode = Mode {
        number: 1006,
        ansi: false,
    };
    pub const MOUSE_BUTTON_EVENT: Mode = Mode {
        number: 1002,
        ansi: false,
    };
    pub const MOUSE_ANY_EVENT: Mode = Mode {
        number: 1003,
        ansi: false,
    };
    pub const ALTERNATE_SCREEN: Mode = Mode {
        number: 1049,
        ansi: false,
    };
    pub const BRACKETED_PASTE: Mode = Mode {
        number: 2004,
        ansi: false,
    };
}

/// What happened during the writes since the last `take_notifications`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Notifications {
    pub bells: u32,
    pub title_changed: bool,
    pub pwd_changed: bool,
    pub dropped_reply_bytes: u64,
}

pub struct Terminal {
    pub(super) ptr: TerminalPtr,
    pub(super) sym: Symbols,
    callbacks: *mut CallbackState,
    scrollback_rows: usize,
    options: TerminalOptions,
    /// Counts the calls that changed what a snapshot holds (see `changes`).
    changes: u64,
}

// SAFETY: the engine terminal has no thread affinity; it only must not be used from two threads
// at once, which `&mut self` on every mutating call and the absence of `Sync` guarantee.
unsafe impl Send for Terminal {}

impl Terminal {
    /// A terminal of `cols`×`rows` keeping `scrollback_rows` rows of history.
    pub fn new(cols: u16, rows: u16, scrollback_rows: usize) -> Result<Self, EngineError> {
        Self::with_options(TerminalOptions::new(cols, rows, scrollback_rows))
    }

    pub fn with_options(options: TerminalOptions) -> Result<Self, EngineError> {
        let sym = *super::engine()?.symbols();
        let (cols, rows) = (options.cols.max(1), options.rows.max(1));
        let mut ptr: TerminalPtr = std::ptr::null_mut();
        // SAFETY: a null allocator selects the library's default; `ptr` receives the handle.
        let code =
            unsafe { (sym.ghostty_terminal_new)(std::ptr::null(), &raw mut ptr, cols, rows) };
        check("ghostty_terminal_new", code)?;
        Self::adopt(ptr, sym, options)
    }

    /// Wraps a fresh engine handle: installs callbacks, colours and the scrollback budget.
    pub(super) fn adopt(
        ptr: TerminalPtr,
        sym: Symbols,
        options: TerminalOptions,
    ) -> Result<Self, EngineError> {
        let state = Box::new(CallbackState::default());
        let mut terminal = Terminal {
            ptr,
            sym,
            callbacks: Box::into_raw(state),
            scrollback_rows: options.scrollback_rows,
            options,
            changes: 0,
        };
        terminal.install_callbacks()?;
        terminal.sync_size_and_budget()?;
        Ok(terminal)
    }

    fn install_callbacks(&mut self) -> Result<(), EngineError> {
        let userdata = self.callbacks.cast::<c_void>().cast_const();
        self.set_pointer(abi::opt::USERDATA, userdata)?;
        let write_pty: abi::WritePtyFn = callbacks::on_write_pty;
        let bell: abi::BellFn = callbacks::on_bell;
        let title: abi::TitleChangedFn = callbacks::on_title_changed;
        let pwd: abi::PwdChangedFn = callbacks::on_pwd_changed;
        let size: abi::SizeFn = callbacks::on_size;
        let xtversion: abi::XtversionFn = callbacks::on_xtversion;
        self.set_pointer(abi::opt::WRITE_PTY, write_pty as *const c_void)?;
        self.set_pointer(abi::opt::BELL, bell as *const c_void)?;
        self.set_pointer(abi::opt::TITLE_CHANGED, title as *const c_void)?;
        self.set_pointer(abi::opt::PWD_CHANGED, pwd as *const c_void)?;
        self.set_pointer(abi::opt::SIZE, size as *const c_void)?;
        self.set_pointer(abi::opt::XTVERSION, xtversion as *const c_void)?;
        let (fr, fg, fb) = self.options.foreground;
        let (br, bg, bb) = self.options.background;
        let foreground = ColorRgb {
            r: fr,
            g: fg,
            b: fb,
        };
        let background = ColorRgb {
            r: br,
            g: bg,
            b: bb,
        };
        self.set_pointer(abi::opt::COLOR_FOREGROUND, (&raw const foreground).cast())?;
        self.set_pointer(abi::opt::COLOR_BACKGROUND, (&raw const background).cast())
    }

    fn set_pointer(&mut self, option: i32, value: *const c_void) -> Result<(), EngineError> {
        // SAFETY: `option` is one of the constants verified by `abi_check.rs`, and `value` is what
        // that option expects (a callback, userdata, or a pointer to a value read immediately).
        let code = unsafe { (self.sym.ghostty_terminal_set)(self.ptr, option, value) };
        check("ghostty_terminal_set", code)
    }

    /// Keeps the size callback's answer and the scrollback byte cap in step with the grid.
    fn sync_size_and_budget(&mut self) -> Result<(), EngineError> {
        let (cols, rows) = self.size();
        // SAFETY: `callbacks` is live for `self`'s lifetime and not borrowed elsewhere now.
        if let Some(state) = unsafe { self.callbacks.as_mut() } {
            state.cols = cols;
            state.rows = rows;
        }
        let bytes = scrollback_budget_bytes(self.scrollback_rows, cols);
        self.set_pointer(abi::opt::SCROLLBACK_MAX_BYTES, (&raw const bytes).cast())
    }

    /// Feeds bytes from the program; query answers collect for `take_replies`.
    pub fn write(&mut self, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        self.changes += 1;
        // SAFETY: (ptr, len) describe `bytes`; callbacks only touch `self.callbacks`.
        unsafe { (self.sym.ghostty_terminal_vt_write)(self.ptr, bytes.as_ptr(), bytes.len()) }
    }

    /// Resizes with reflow; the scrollback byte cap follows the new width.
    pub fn resize(&mut self, cols: u16, rows: u16) -> Result<(), EngineError> {
        self.changes += 1;
        // SAFETY: plain values; 8×16 is the pixel cell size reported to programs.
        let code = unsafe {
            (self.sym.ghostty_terminal_resize)(self.ptr, cols.max(1), rows.max(1), 8, 16)
        };
        check("ghostty_terminal_resize", code)?;
        self.sync_size_and_budget()
    }

    /// Full reset (RIS).
    pub fn reset(&mut self) {
        self.changes += 1;
        // SAFETY: valid handle.
        unsafe { (self.sym.ghostty_terminal_reset)(self.ptr) }
    }

    /// How many times the terminal was changed (fed, resized, reset) since it was made: two
    /// snapshots taken at the same count are the same, so a snapshot can be taken early and
    /// kept while the count stands. Every call that changes the engine's state takes `&mut
    /// self` and counts here; compressing history changes how it is held, not what it holds.
    pub fn changes(&self) -> u64 {
        self.changes
    }

    pub fn scrollback_budget_rows(&self) -> usize {
        self.scrollback_rows
    }

    pub fn options(&self) -> TerminalOptions {
        self.options
    }

    pub(super) fn get<T: Copy>(&self, key: i32, mut out: T) -> Option<T> {
        // SAFETY: `key` is a verified constant whose output type the caller passes as `T`.
        let code = unsafe { (self.sym.ghostty_terminal_get)(self.ptr, key, (&raw mut out).cast()) };
        (code == abi::result::SUCCESS).then_some(out)
    }

    pub fn size(&self) -> (u16, u16) {
        (
            self.get(abi::data::COLS, 0u16).unwrap_or(0),
            self.get(abi::data::ROWS, 0u16).unwrap_or(0),
        )
    }

    pub fn cursor(&self) -> Cursor {
        Cursor {
            x: self.get(abi::data::CURSOR_X, 0u16).unwrap_or(0),
            y: self.get(abi::data::CURSOR_Y, 0u16).unwrap_or(0),
            visible: self.get(abi::data::CURSOR_VISIBLE, false).unwrap_or(true),
        }
    }

    fn get_string(&self, key: i32) -> Option<String> {
        let value = self.get(
            key,
            GString {
                ptr: std::ptr::null(),
                len: 0,
            },
        )?;
        if value.ptr.is_null() || value.len == 0 {
            return None;
        }
        // SAFETY: borrowed from the engine until the next mutating call; copied out at once.
        let bytes = unsafe { std::slice::from_raw_parts(value.ptr, value.len) };
        Some(String::from_utf8_lossy(bytes).into_owned())
    }

    /// The title set by OSC 0/2, if any.
    pub fn title(&self) -> Option<String> {
        self.get_string(abi::data::TITLE)
    }

    /// The working directory reported by OSC 7, if any.
    pub fn pwd(&self) -> Option<String> {
        self.get_string(abi::data::PWD)
    }

    pub fn mode(&self, mode: Mode) -> bool {
        let config = ModeConfig {
            mode: abi::mode_new(mode.number, mode.ansi),
            value: false,
        };
        self.get(abi::data::MODE, config).is_some_and(|c| c.value)
    }

    pub fn bracketed_paste(&self) -> bool {
        self.mode(Mode::BRACKETED_PASTE)
    }

    pub fn application_cursor_keys(&self) -> bool {
        self.mode(Mode::APPLICATION_CURSOR_KEYS)
    }

    pub fn alternate_screen(&self) -> bool {
        self.get(abi::data::ACTIVE_SCREEN, abi::screen::PRIMARY) == Some(abi::screen::ALTERNATE)
    }

    pub fn mouse_tracking(&self) -> bool {
        self.get(abi::data::MOUSE_TRACKING, false).unwrap_or(false)
    }

    /// Whether the cursor sits in an OSC 133 prompt (the shell is waiting for input).
    pub fn cursor_at_prompt(&self) -> bool {
        self.get(abi::data::CURSOR_AT_PROMPT, false)
            .unwrap_or(false)
    }

    /// Rows of history currently retained above the active area.
    pub fn scrollback_len(&self) -> usize {
        self.get(abi::data::SCROLLBACK_ROWS, 0usize).unwrap_or(0)
    }

    /// The engine's current scrollback byte cap.
    pub fn scrollback_byte_cap(&self) -> usize {
        self.get(abi::data::SCROLLBACK_MAX_BYTES, 0usize)
            .unwrap_or(0)
    }

    /// Query answers the program is waiting for; write them back to its PTY.
    pub fn take_replies(&mut self) -> Vec<u8> {
        // SAFETY: live for `self`, not borrowed during this call.
        unsafe { self.callbacks.as_mut() }
            .map(|s| std::mem::take(&mut s.replies))
            .unwrap_or_default()
    }

    /// Bells, title and pwd changes since the last call.
    pub fn take_notifications(&mut self) -> Notifications {
        // SAFETY: live for `self`, not borrowed during this call.
        let Some(state) = (unsafe { self.callbacks.as_mut() }) else {
            return Notifications::default();
        };
        let notes = Notifications {
            bells: state.bells,
            title_changed: state.title_changed,
            pwd_changed: state.pwd_changed,
            dropped_reply_bytes: state.dropped_reply_bytes,
        };
        state.bells = 0;
        state.title_changed = false;
        state.pwd_changed = false;
        state.dropped_reply_bytes = 0;
        notes
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        // SAFETY: the handle is freed exactly once, before the callback state it points at.
        unsafe { (self.sym.ghostty_terminal_free)(self.ptr) };
        // SAFETY: created by `Box::into_raw` in `adopt`, freed exactly once.
        drop(unsafe { Box::from_raw(self.callbacks) });
    }
}

pub(super) fn check(call: &'static str, code: i32) -> Result<(), EngineError> {
    if code == abi::result::SUCCESS {
        Ok(())
    } else {
        Err(EngineError::Call { call, code })
    }
}

#[cfg(test)]
mod budget_tests {
    use super::*;
    use crate::limits::{MAX_GRID_COLS, MAX_HISTORY_BYTES};

    /// `--history-limit 1000000` at 1000 columns let the engine keep 10 GB of history.
    #[test]
    fn the_history_budget_is_capped_in_bytes_at_any_row_limit_and_width() {
        assert_eq!(
            scrollback_budget_bytes(1_000_000, MAX_GRID_COLS),
            MAX_HISTORY_BYTES
        );
        assert_eq!(
            scrollback_budget_bytes(usize::MAX, u16::MAX),
            MAX_HISTORY_BYTES
        );
        // The default history at the widest grid still fits whole.
        let default_at_widest = scrollback_budget_bytes(10_000, MAX_GRID_COLS);
        assert!(default_at_widest < MAX_HISTORY_BYTES);
        assert_eq!(
            default_at_widest,
            (10_000 * usize::from(MAX_GRID_COLS) + SCROLLBACK_PAGE_CELLS)
                * SCROLLBACK_BYTES_PER_CELL
        );
    }
}
