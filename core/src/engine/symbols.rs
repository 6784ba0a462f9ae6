//! The table of libghostty-vt functions phux calls, resolved all at once when the library is
//! loaded so a missing symbol is refused up front, never discovered mid-session.

use super::abi::{
    Cell, FormatterPtr, FormatterTerminalOptions, GResult, GridRef, KeyEncoderPtr, KeyEventPtr,
    Point, Row, SelectionFormatOptions, SnapshotDecoderPtr, Style, TerminalPtr,
};
use std::ffi::{c_char, c_void};

macro_rules! symbol_table {
    ($( $field:ident : fn($($arg:ty),*) $(-> $ret:ty)? ; )*) => {
        /// Function pointers into the loaded library. They stay valid for as long as the
        /// `libloading::Library` they came from, which the `Engine` keeps for the process's life.
        #[derive(Clone, Copy)]
        pub struct Symbols {
            $( pub $field: unsafe extern "C" fn($($arg),*) $(-> $ret)?, )*
        }

        impl Symbols {
            /// Resolves every symbol; the first one missing is returned by name.
            ///
            /// # Safety
            /// The caller must keep `library` loaded for as long as the returned table is used,
            /// and the library must be the ABI described in `abi.rs` (checked by `abi_check.rs`).
            pub unsafe fn resolve(library: &libloading::Library) -> Result<Self, String> {
                Ok(Self {
                    $( $field: {
                        let name = concat!(stringify!($field), "\0");
                        let symbol: libloading::Symbol<unsafe extern "C" fn($($arg),*) $(-> $ret)?> =
                            // SAFETY: the signature matches the C declaration in the wheel's
                            // `_cdef.py`; the pointer is copied out and outlives no library.
                            unsafe { library.get(name.as_bytes()) }
                                .map_err(|_| stringify!($field).to_string())?;
                        *symbol
                    }, )*
                })
            }
        }
    };
}

symbol_table! {
    ghostty_type_json: fn() -> *const c_char;
    ghostty_build_info: fn(i32, *mut c_void) -> GResult;
    ghostty_free: fn(*const c_void, *mut u8, usize);
    ghostty_terminal_new: fn(*const c_void, *mut TerminalPtr, u16, u16) -> GResult;
    ghostty_terminal_free: fn(TerminalPtr);
    ghostty_terminal_reset: fn(TerminalPtr);
    ghostty_terminal_resize: fn(TerminalPtr, u16, u16, u32, u32) -> GResult;
    ghostty_terminal_set: fn(TerminalPtr, i32, *const c_void) -> GResult;
    ghostty_terminal_get: fn(TerminalPtr, i32, *mut c_void) -> GResult;
    ghostty_terminal_vt_write: fn(TerminalPtr, *const u8, usize);
    ghostty_terminal_grid_ref: fn(TerminalPtr, Point, *mut GridRef) -> GResult;
    ghostty_terminal_selection_format_alloc:
        fn(TerminalPtr, *const c_void, SelectionFormatOptions, *mut *mut u8, *mut usize) -> GResult;
    ghostty_grid_ref_cell: fn(*const GridRef, *mut Cell) -> GResult;
    ghostty_grid_ref_row: fn(*const GridRef, *mut Row) -> GResult;
    ghostty_grid_ref_style: fn(*const GridRef, *mut Style) -> GResult;
    ghostty_grid_ref_graphemes: fn(*const GridRef, *mut u32, usize, *mut usize) -> GResult;
    ghostty_cell_get: fn(Cell, i32, *mut c_void) -> GResult;
    ghostty_row_get: fn(Row, i32, *mut c_void) -> GResult;
    ghostty_formatter_terminal_new:
        fn(*const c_void, *mut FormatterPtr, TerminalPtr, FormatterTerminalOptions) -> GResult;
    ghostty_formatter_format_alloc: fn(FormatterPtr, *const c_void, *mut *mut u8, *mut usize) -> GResult;
    ghostty_formatter_free: fn(FormatterPtr);
    ghostty_terminal_compress: fn(TerminalPtr, i32, *mut i32) -> GResult;
    ghostty_snapshot_encode_alloc: fn(TerminalPtr, *const c_void, *mut *mut u8, *mut usize) -> GResult;
    ghostty_snapshot_decoder_new_buf: fn(*const c_void, *mut SnapshotDecoderPtr, *const u8, usize) -> GResult;
    ghostty_snapshot_decoder_decode: fn(SnapshotDecoderPtr, *mut TerminalPtr) -> GResult;
    ghostty_snapshot_decoder_free: fn(SnapshotDecoderPtr);
    ghostty_key_event_new: fn(*const c_void, *mut KeyEventPtr) -> GResult;
    ghostty_key_event_free: fn(KeyEventPtr);
    ghostty_key_event_set_action: fn(KeyEventPtr, i32);
    ghostty_key_event_set_key: fn(KeyEventPtr, i32);
    ghostty_key_event_set_mods: fn(KeyEventPtr, u16);
    ghostty_key_event_set_utf8: fn(KeyEventPtr, *const c_char, usize);
    ghostty_key_event_set_unshifted_codepoint: fn(KeyEventPtr, u32);
    ghostty_key_encoder_new: fn(*const c_void, *mut KeyEncoderPtr) -> GResult;
    ghostty_key_encoder_free: fn(KeyEncoderPtr);
    ghostty_key_encoder_setopt: fn(KeyEncoderPtr, i32, *const c_void);
    ghostty_key_encoder_setopt_from_terminal: fn(KeyEncoderPtr, TerminalPtr);
    ghostty_key_encoder_encode: fn(KeyEncoderPtr, KeyEventPtr, *mut c_char, usize, *mut usize) -> GResult;
}
