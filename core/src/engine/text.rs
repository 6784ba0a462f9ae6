//! Text out of the grid: the viewport and the last N rows of history as trimmed lines, with or
//! without soft wraps joined, and each row's soft-wrap flag.

use super::abi::{
    self, GridRef, Point, PointCoordinate, PointValue, Selection, SelectionFormatOptions,
};
use super::terminal::Terminal;

/// Which part of the screen a row index counts in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Region {
    /// The active area (what the viewport shows when it is not scrolled back; phux never scrolls it).
    Active,
    /// History above the active area, oldest row first.
    History,
}

impl Region {
    fn tag(self) -> i32 {
        match self {
            Region::Active => abi::point_tag::ACTIVE,
            Region::History => abi::point_tag::HISTORY,
        }
    }
}

impl Terminal {
    pub(super) fn grid_ref(&self, region: Region, x: u16, y: u32) -> Option<GridRef> {
        let point = Point {
            tag: region.tag(),
            value: PointValue {
                coordinate: PointCoordinate { x, y },
                padding: 0,
            },
        };
        let mut out = GridRef {
            size: std::mem::size_of::<GridRef>(),
            node: std::ptr::null_mut(),
            x: 0,
            y: 0,
        };
        // SAFETY: valid handle; `out` is a sized GridRef the engine fills.
        let code = unsafe { (self.sym.ghostty_terminal_grid_ref)(self.ptr, point, &raw mut out) };
        (code == abi::result::SUCCESS && !out.node.is_null()).then_some(out)
    }

    /// Whole rows `first..=last` of `region` as a selection.
    pub(super) fn row_selection(&self, region: Region, first: u32, last: u32) -> Option<Selection> {
        let (cols, _) = self.size();
        let start = self.grid_ref(region, 0, first)?;
        let end = self.grid_ref(region, cols.saturating_sub(1), last)?;
        Some(Selection {
            size: std::mem::size_of::<Selection>(),
            start,
            end,
            rectangle: false,
        })
    }

    /// Rows `first..=last` of `region`, formatted as `emit` (an `abi::format` constant).
    pub(super) fn format_rows(
        &self,
        region: Region,
        first: u32,
        last: u32,
        emit: i32,
        unwrap: bool,
    ) -> Vec<u8> {
        let Some(selection) = self.row_selection(region, first, last) else {
            return Vec::new();
        };
        let options = SelectionFormatOptions {
            size: std::mem::size_of::<SelectionFormatOptions>(),
            emit,
            unwrap,
            trim: true,
            selection: &raw const selection,
        };
        let mut ptr: *mut u8 = std::ptr::null_mut();
        let mut len = 0usize;
        // SAFETY: the selection lives across the call; the output is copied then freed with
        // `ghostty_free(NULL, ...)` as the API requires.
        let code = unsafe {
            (self.sym.ghostty_terminal_selection_format_alloc)(
                self.ptr,
                std::ptr::null(),
                options,
                &raw mut ptr,
                &raw mut len,
            )
        };
        self.take_allocation(code, ptr, len)
    }

    /// Copies an engine allocation out and frees it.
    pub(super) fn take_allocation(&self, code: i32, ptr: *mut u8, len: usize) -> Vec<u8> {
        if code != abi::result::SUCCESS || ptr.is_null() {
            return Vec::new();
        }
        // SAFETY: the engine returned (ptr, len) from its allocator; freed right after copying.
        let bytes = unsafe { std::slice::from_raw_parts(ptr, len) }.to_vec();
        // SAFETY: as documented for every `*_alloc` output.
        unsafe { (self.sym.ghostty_free)(std::ptr::null(), ptr, len) };
        bytes
    }

    /// The viewport as right-trimmed lines, one per row (`unwrap == false`), or one per logical
    /// line with soft wraps joined (`unwrap == true`).
    pub fn viewport_text(&self, unwrap: bool) -> Vec<String> {
        let (_, rows) = self.size();
        let text = self.format_rows(
            Region::Active,
            0,
            u32::from(rows.saturating_sub(1)),
            abi::format::PLAIN,
            unwrap,
        );
        let mut lines = split_lines(&text);
        if !unwrap {
            lines.resize(usize::from(rows), String::new());
        }
        lines
    }

    /// The viewport, one right-trimmed line per row.
    pub fn viewport_lines(&self) -> Vec<String> {
        self.viewport_text(false)
    }

    /// The most recent `last` rows of history (all retained rows when `None`), oldest first.
    pub fn scrollback_text(&self, last: Option<usize>, unwrap: bool) -> Vec<String> {
        let total = self.scrollback_len();
        let count = last.map_or(total, |n| n.min(total));
        if count == 0 {
            return Vec::new();
        }
        let first = (total - count) as u32;
        let text = self.format_rows(
            Region::History,
            first,
            (total - 1) as u32,
            abi::format::PLAIN,
            unwrap,
        );
        let mut lines = split_lines(&text);
        if !unwrap {
            lines.resize(count, String::new());
        }
        lines
    }

    /// Whether each viewport row soft-wraps into the next.
    pub fn viewport_wraps(&self) -> Vec<bool> {
        let (_, rows) = self.size();
        (0..u32::from(rows))
            .map(|y| self.row_wraps(Region::Active, y))
            .collect()
    }

    /// Soft-wrap flags of the most recent `last` history rows (all when `None`), oldest first.
    pub fn scrollback_wraps(&self, last: Option<usize>) -> Vec<bool> {
        let total = self.scrollback_len();
        let count = last.map_or(total, |n| n.min(total));
        ((total - count)..total)
            .map(|y| self.row_wraps(Region::History, y as u32))
            .collect()
    }

    fn row_wraps(&self, region: Region, y: u32) -> bool {
        let Some(grid_ref) = self.grid_ref(region, 0, y) else {
            return false;
        };
        let mut row: abi::Row = 0;
        // SAFETY: `grid_ref` came from the engine just now; no mutation in between.
        if unsafe { (self.sym.ghostty_grid_ref_row)(&raw const grid_ref, &raw mut row) }
            != abi::result::SUCCESS
        {
            return false;
        }
        let mut wraps = false;
        // SAFETY: WRAP writes one bool.
        unsafe { (self.sym.ghostty_row_get)(row, abi::row_data::WRAP, (&raw mut wraps).cast()) };
        wraps
    }
}

fn split_lines(text: &[u8]) -> Vec<String> {
    if text.is_empty() {
        return Vec::new();
    }
    String::from_utf8_lossy(text)
        .split('\n')
        .map(|line| line.trim_end().to_string())
        .collect()
}
