//! The C ABI of libghostty-vt (Ghostty 6467b1dab, as shipped in `pyghostty==0.1.3`): the
//! `#[repr(C)]` structs we pass across the boundary and the enum values we use, as plain
//! integer constants. Every item here is checked against the library's own
//! `ghostty_type_json()` before first use (see `abi_check.rs`).

#![allow(dead_code)]

use std::ffi::c_void;

pub type GResult = i32;
pub type TerminalPtr = *mut c_void;
pub type FormatterPtr = *mut c_void;
pub type SnapshotDecoderPtr = *mut c_void;
pub type KeyEventPtr = *mut c_void;
pub type KeyEncoderPtr = *mut c_void;
pub type Cell = u64;
pub type Row = u64;

/// `GhosttyResult` values.
pub mod result {
    pub const SUCCESS: i32 = 0;
    pub const OUT_OF_MEMORY: i32 = -1;
    pub const INVALID_VALUE: i32 = -2;
    pub const OUT_OF_SPACE: i32 = -3;
    pub const NO_VALUE: i32 = -4;
}

/// `GhosttyTerminalOption` values.
pub mod opt {
    pub const USERDATA: i32 = 0;
    pub const WRITE_PTY: i32 = 1;
    pub const BELL: i32 = 2;
    pub const XTVERSION: i32 = 4;
    pub const TITLE_CHANGED: i32 = 5;
    pub const SIZE: i32 = 6;
    pub const COLOR_FOREGROUND: i32 = 11;
    pub const COLOR_BACKGROUND: i32 = 12;
    pub const PWD_CHANGED: i32 = 25;
    pub const SCROLLBACK_MAX_BYTES: i32 = 27;
}

/// `GhosttyTerminalData` values.
pub mod data {
    pub const COLS: i32 = 1;
    pub const ROWS: i32 = 2;
    pub const CURSOR_X: i32 = 3;
    pub const CURSOR_Y: i32 = 4;
    pub const ACTIVE_SCREEN: i32 = 6;
    pub const CURSOR_VISIBLE: i32 = 7;
    pub const KITTY_KEYBOARD_FLAGS: i32 = 8;
    pub const MOUSE_TRACKING: i32 = 11;
    pub const TITLE: i32 = 12;
    pub const PWD: i32 = 13;
    pub const TOTAL_ROWS: i32 = 14;
    pub const SCROLLBACK_ROWS: i32 = 15;
    pub const SCROLLBACK_MAX_BYTES: i32 = 34;
    pub const MODE: i32 = 37;
    pub const CURSOR_AT_PROMPT: i32 = 39;
}

/// `GhosttyPointTag` values.
pub mod point_tag {
    pub const ACTIVE: i32 = 0;
    pub const VIEWPORT: i32 = 1;
    pub const SCREEN: i32 = 2;
    pub const HISTORY: i32 = 3;
}

/// `GhosttyFormatterFormat` values.
pub mod format {
    pub const PLAIN: i32 = 0;
    pub const VT: i32 = 1;
    pub const HTML: i32 = 2;
}

/// `GhosttyCellData` values.
pub mod cell_data {
    pub const CODEPOINT: i32 = 1;
    pub const CONTENT_TAG: i32 = 2;
    pub const WIDE: i32 = 3;
    pub const HAS_TEXT: i32 = 4;
    pub const HAS_STYLING: i32 = 5;
    pub const SEMANTIC_CONTENT: i32 = 9;
    pub const COLOR_PALETTE: i32 = 10;
    pub const COLOR_RGB: i32 = 11;
}

/// `GhosttyCellContentTag` values.
pub mod content_tag {
    pub const CODEPOINT: i32 = 0;
    pub const CODEPOINT_GRAPHEME: i32 = 1;
    pub const BG_COLOR_PALETTE: i32 = 2;
    pub const BG_COLOR_RGB: i32 = 3;
}

/// `GhosttyCellWide` values.
pub mod wide {
    pub const NARROW: i32 = 0;
    pub const WIDE: i32 = 1;
    pub const SPACER_TAIL: i32 = 2;
    pub const SPACER_HEAD: i32 = 3;
}

/// `GhosttyCellSemanticContent` values.
pub mod semantic {
    pub const OUTPUT: i32 = 0;
    pub const INPUT: i32 = 1;
    pub const PROMPT: i32 = 2;
}

/// `GhosttyRowData` values.
pub mod row_data {
    pub const WRAP: i32 = 1;
    pub const WRAP_CONTINUATION: i32 = 2;
}

/// `GhosttyStyleColorTag` values.
pub mod color_tag {
    pub const NONE: i32 = 0;
    pub const PALETTE: i32 = 1;
    pub const RGB: i32 = 2;
}

/// `GhosttyTerminalScreen` values.
pub mod screen {
    pub const PRIMARY: i32 = 0;
    pub const ALTERNATE: i32 = 1;
}

/// `GhosttyTerminalCompressionMode` and `GhosttyTerminalCompressionResult` values.
pub mod compression {
    pub const INCREMENTAL: i32 = 0;
    pub const FULL: i32 = 1;
    pub const UNSUPPORTED: i32 = 0;
    pub const PENDING: i32 = 1;
    pub const COMPLETE: i32 = 2;
}

/// `GhosttyKey` values (the physical keys `send-keys` names), `GhosttyKeyAction` and
/// `GhosttyKeyEncoderOption` values, and the `GhosttyMods` bits.
pub mod key {
    pub const UNIDENTIFIED: i32 = 0;
    pub const DIGIT_0: i32 = 6;
    pub const A: i32 = 20;
    pub const BACKSPACE: i32 = 53;
    pub const ENTER: i32 = 58;
    pub const SPACE: i32 = 63;
    pub const TAB: i32 = 64;
    pub const DELETE: i32 = 68;
    pub const END: i32 = 69;
    pub const HOME: i32 = 71;
    pub const INSERT: i32 = 72;
    pub const PAGE_DOWN: i32 = 73;
    pub const PAGE_UP: i32 = 74;
    pub const ARROW_DOWN: i32 = 75;
    pub const ARROW_LEFT: i32 = 76;
    pub const ARROW_RIGHT: i32 = 77;
    pub const ARROW_UP: i32 = 78;
    pub const ESCAPE: i32 = 120;
    pub const F1: i32 = 121;
    pub const F12: i32 = 132;

    pub const ACTION_PRESS: i32 = 1;

    pub const OPT_ALT_ESC_PREFIX: i32 = 3;

    pub const MODS_SHIFT: u16 = 1 << 0;
    pub const MODS_CTRL: u16 = 1 << 1;
    pub const MODS_ALT: u16 = 1 << 2;
}

/// `GhosttyBuildInfo` values.
pub mod build_info {
    pub const OPTIMIZE: i32 = 4;
    pub const VERSION_STRING: i32 = 5;
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct GString {
    pub ptr: *const u8,
    pub len: usize,
}

#[repr(C)]
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct ColorRgb {
    pub r: u8,
    pub g: u8,
    pub b: u8,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct StyleColorValue {
    pub padding: u64,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct StyleColor {
    pub tag: i32,
    pub value: StyleColorValue,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct Style {
    pub size: usize,
    pub fg_color: StyleColor,
    pub bg_color: StyleColor,
    pub underline_color: StyleColor,
    pub bold: bool,
    pub italic: bool,
    pub faint: bool,
    pub blink: bool,
    pub inverse: bool,
    pub invisible: bool,
    pub strikethrough: bool,
    pub overline: bool,
    pub underline: i32,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct GridRef {
    pub size: usize,
    pub node: *mut c_void,
    pub x: u16,
    pub y: u16,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct PointCoordinate {
    pub x: u16,
    pub y: u32,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct PointValue {
    pub coordinate: PointCoordinate,
    pub padding: u64,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct Point {
    pub tag: i32,
    pub value: PointValue,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct Selection {
    pub size: usize,
    pub start: GridRef,
    pub end: GridRef,
    pub rectangle: bool,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct SelectionFormatOptions {
    pub size: usize,
    pub emit: i32,
    pub unwrap: bool,
    pub trim: bool,
    pub selection: *const Selection,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct FormatterScreenExtra {
    pub size: usize,
    pub cursor: bool,
    pub style: bool,
    pub hyperlink: bool,
    pub protection: bool,
    pub kitty_keyboard: bool,
    pub charsets: bool,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct FormatterTerminalExtra {
    pub size: usize,
    pub palette: bool,
    pub modes: bool,
    pub scrolling_region: bool,
    pub tabstops: bool,
    pub pwd: bool,
    pub keyboard: bool,
    pub screen: FormatterScreenExtra,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct FormatterTerminalOptions {
    pub size: usize,
    pub emit: i32,
    pub unwrap: bool,
    pub trim: bool,
    pub extra: FormatterTerminalExtra,
    pub selection: *const Selection,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct ModeConfig {
    pub mode: u16,
    pub value: bool,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct SizeReportSize {
    pub rows: u16,
    pub columns: u16,
    pub cell_width: u32,
    pub cell_height: u32,
}

/// `ghostty_mode_new` is a static inline function in the C header, so its packing lives here.
pub fn mode_new(number: u16, ansi: bool) -> u16 {
    (number & 0x7FFF) | (u16::from(ansi) << 15)
}

pub type WritePtyFn = unsafe extern "C" fn(TerminalPtr, *mut c_void, *const u8, usize);
pub type BellFn = unsafe extern "C" fn(TerminalPtr, *mut c_void);
pub type TitleChangedFn = unsafe extern "C" fn(TerminalPtr, *mut c_void);
pub type PwdChangedFn = unsafe extern "C" fn(TerminalPtr, *mut c_void);
pub type SizeFn = unsafe extern "C" fn(TerminalPtr, *mut c_void, *mut SizeReportSize) -> bool;
pub type XtversionFn = unsafe extern "C" fn(TerminalPtr, *mut c_void) -> GString;
