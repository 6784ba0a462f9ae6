//! `ScreenState` v3: `phux snapshot --json`, `phux wait --json`, and the `get_screen` reply (§4.2).

use serde::{Deserialize, Serialize};

use crate::documents::is_false;
use crate::ids::PaneId;

pub const SCREEN_SCHEMA_VERSION: u32 = 3;

/// `truncated_reason` when a scrollback or tail window cut rows.
pub const TRUNCATED_ROW_WINDOW: &str = "row_window";
/// `truncated_reason` when the history asked for has lost its oldest rows to the pane's
/// history limit (`new --history-limit`, 10000 rows by default).
pub const TRUNCATED_HISTORY_LIMIT: &str = "history_limit";

/// Viewport-relative cursor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cursor {
    pub x: u16,
    pub y: u16,
    pub visible: bool,
}

/// Which rows soft-wrap into the next one, per array. A wrapped last scrollback row continues
/// into `lines[0]`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct SoftWrap {
    pub lines: Vec<u32>,
    pub scrollback: Vec<u32>,
}

/// The OSC 133 mark of a cell; output is the default and is not reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Semantic {
    Input,
    Prompt,
}

/// A colour, tagged so "terminal default" differs from "explicitly black".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CellColor {
    #[default]
    Default,
    Palette {
        index: u8,
    },
    Rgb {
        r: u8,
        g: u8,
        b: u8,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct CellStyle {
    pub bold: bool,
    pub faint: bool,
    pub italic: bool,
    pub underline: bool,
    pub blink: bool,
    pub inverse: bool,
    pub invisible: bool,
    pub strikethrough: bool,
    pub overline: bool,
    pub fg: CellColor,
    pub bg: CellColor,
}

/// A cell with a non-default style or an OSC 133 mark; `row` indexes `lines`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CellInfo {
    pub col: u16,
    pub row: u16,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub semantic: Option<Semantic>,
    pub style: CellStyle,
}

/// A pane's screen. Optional keys are omitted when unset, so an older consumer sees the shape
/// it knows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScreenState {
    pub schema_version: u32,
    pub pane: PaneId,
    pub cols: u16,
    pub rows: u16,
    pub cursor: Option<Cursor>,
    /// Viewport rows, right-trimmed.
    pub lines: Vec<String>,
    /// History, oldest first; empty unless requested.
    #[serde(default)]
    pub scrollback: Vec<String>,
    /// Sparse styled/marked cells, only when requested.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cells: Option<Vec<CellInfo>>,
    /// Absent: the producer says nothing about wrapping. Present and empty: nothing wraps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub soft_wrap: Option<SoftWrap>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub truncated: bool,
    /// A string, not an enum, so an unknown future reason still deserializes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub truncated_reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The pane's output position when the screen was read (opaque; `wait --after MARK`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mark: Option<u64>,
    /// The question the pane is asking, until it is answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ask: Option<crate::state_view::PendingAsk>,
    /// Who holds the pane's input lease (`phux take`), if anyone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lease: Option<crate::state_view::LeaseView>,
}

impl ScreenState {
    /// A viewport-only screen with every optional key unset.
    pub fn new(pane: PaneId, cols: u16, rows: u16, lines: Vec<String>) -> Self {
        ScreenState {
            schema_version: SCREEN_SCHEMA_VERSION,
            pane,
            cols,
            rows,
            cursor: None,
            lines,
            scrollback: Vec::new(),
            cells: None,
            soft_wrap: None,
            truncated: false,
            truncated_reason: None,
            title: None,
            mark: None,
            ask: None,
            lease: None,
        }
    }
}
