//! Repaints: the VT byte stream that redraws this terminal's screen on a fresh terminal of the
//! same size (a new observer's or a recording's first frame), and an HTML rendering.

use super::abi::{self, FormatterScreenExtra, FormatterTerminalExtra, FormatterTerminalOptions};
use super::terminal::Terminal;
use super::text::Region;

impl Terminal {
    /// VT bytes that reproduce the active screen (contents, styles, cursor, modes; not the palette, so a player keeps its own theme) on
    /// a reset terminal of the same size. History is not included.
    pub fn vt_repaint(&self) -> Vec<u8> {
        let mut bytes = self.format_screen(abi::format::VT, true);
        // The engine ends the OSC 7 it writes for the working directory with a NUL before the
        // string terminator; a NUL has no place in a repaint (nor in a cast's JSON).
        bytes.retain(|&b| b != 0);
        bytes
    }

    /// The active screen as HTML.
    pub fn html(&self) -> String {
        String::from_utf8_lossy(&self.format_screen(abi::format::HTML, false)).into_owned()
    }

    fn format_screen(&self, emit: i32, extras: bool) -> Vec<u8> {
        let (_, rows) = self.size();
        let Some(selection) =
            self.row_selection(Region::Active, 0, u32::from(rows.saturating_sub(1)))
        else {
            return Vec::new();
        };
        let options = FormatterTerminalOptions {
            size: std::mem::size_of::<FormatterTerminalOptions>(),
            emit,
            unwrap: false,
            trim: false,
            extra: terminal_extra(extras),
            selection: &raw const selection,
        };
        let mut formatter: abi::FormatterPtr = std::ptr::null_mut();
        // SAFETY: options and selection live across the call; the formatter is freed below.
        let code = unsafe {
            (self.sym.ghostty_formatter_terminal_new)(
                std::ptr::null(),
                &raw mut formatter,
                self.ptr,
                options,
            )
        };
        if code != abi::result::SUCCESS || formatter.is_null() {
            return Vec::new();
        }
        let mut ptr: *mut u8 = std::ptr::null_mut();
        let mut len = 0usize;
        // SAFETY: valid formatter; the allocation is taken and freed by `take_allocation`.
        let code = unsafe {
            (self.sym.ghostty_formatter_format_alloc)(
                formatter,
                std::ptr::null(),
                &raw mut ptr,
                &raw mut len,
            )
        };
        let bytes = self.take_allocation(code, ptr, len);
        // SAFETY: created above, freed once.
        unsafe { (self.sym.ghostty_formatter_free)(formatter) };
        bytes
    }
}

fn terminal_extra(on: bool) -> FormatterTerminalExtra {
    FormatterTerminalExtra {
        size: std::mem::size_of::<FormatterTerminalExtra>(),
        palette: false,
        modes: on,
        scrolling_region: on,
        tabstops: on,
        pwd: on,
        keyboard: on,
        screen: FormatterScreenExtra {
            size: std::mem::size_of::<FormatterScreenExtra>(),
            cursor: on,
            style: true,
            hyperlink: true,
            protection: on,
            kitty_keyboard: on,
            charsets: on,
        },
    }
}
