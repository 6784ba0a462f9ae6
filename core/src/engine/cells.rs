//! Per-cell reads: the grapheme, its width, its style (the nine SGR flags and fg/bg as default,
//! palette index or RGB) and its OSC 133 semantic mark.

use super::abi::{self, GridRef, StyleColor};
use super::terminal::Terminal;
use super::text::Region;

/// A cell colour as the terminal stores it, before a theme resolves it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize)]
pub enum CellColor {
    /// The theme's default foreground or background.
    #[default]
    Default,
    /// An index into the 256-colour palette (0–15 from the theme, 16–255 computed).
    Palette(u8),
    /// A direct 24-bit colour.
    Rgb(u8, u8, u8),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CellWidth {
    #[default]
    Narrow,
    /// The left half of a double-width glyph.
    Wide,
    /// The right half of a double-width glyph (no text of its own).
    SpacerTail,
    /// The last column of a row whose wide glyph wrapped to the next row.
    SpacerHead,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Semantic {
    #[default]
    Output,
    Input,
    Prompt,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
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

impl CellStyle {
    pub fn is_default(&self) -> bool {
        *self == CellStyle::default()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CellData {
    /// The grapheme cluster; empty for a blank cell or a spacer.
    pub text: String,
    pub width: CellWidth,
    pub style: CellStyle,
    pub semantic: Semantic,
}

impl CellData {
    /// A blank cell again, keeping the text buffer's memory.
    pub fn clear(&mut self) {
        self.text.clear();
        self.width = CellWidth::default();
        self.style = CellStyle::default();
        self.semantic = Semantic::default();
    }
}

impl Terminal {
    /// Every cell of viewport row `y`.
    pub fn viewport_row_cells(&self, y: u16) -> Vec<CellData> {
        self.row_cells(Region::Active, u32::from(y))
    }

    /// Every cell of viewport row `y`, written into `row` (resized to the width): the cells'
    /// text buffers already there are reused, so reading a screen again allocates nothing
    /// for the cells it had.
    pub fn viewport_row_cells_into(&self, y: u16, row: &mut Vec<CellData>) {
        let (cols, _) = self.size();
        row.resize_with(usize::from(cols), CellData::default);
        let Some(row_start) = self.grid_ref(Region::Active, 0, u32::from(y)) else {
            row.iter_mut().for_each(|cell| cell.clear());
            return;
        };
        for (x, cell) in row.iter_mut().enumerate() {
            let cell_ref = GridRef {
                x: row_start.x + x as u16,
                ..row_start
            };
            self.cell_into(&cell_ref, cell);
        }
    }

    /// Every cell of history row `y` (0 = oldest retained).
    pub fn history_row_cells(&self, y: usize) -> Vec<CellData> {
        self.row_cells(Region::History, y as u32)
    }

    /// One viewport cell.
    pub fn viewport_cell(&self, x: u16, y: u16) -> Option<CellData> {
        self.grid_ref(Region::Active, x, u32::from(y))
            .map(|r| self.cell_at(&r))
    }

    fn row_cells(&self, region: Region, y: u32) -> Vec<CellData> {
        let (cols, _) = self.size();
        let Some(row_start) = self.grid_ref(region, 0, y) else {
            return Vec::new();
        };
        (0..cols)
            .map(|x| {
                // A grid ref names a page node and a coordinate inside it; every cell of one row
                // lives in the same node, so only the column changes.
                let cell_ref = GridRef {
                    x: row_start.x + x,
                    ..row_start
                };
                self.cell_at(&cell_ref)
            })
            .collect()
    }

    fn cell_get<T: Copy>(&self, cell: abi::Cell, key: i32, mut out: T) -> T {
        // SAFETY: `key` is a verified constant whose output type is `T`.
        unsafe { (self.sym.ghostty_cell_get)(cell, key, (&raw mut out).cast()) };
        out
    }

    fn cell_at(&self, grid_ref: &GridRef) -> CellData {
        let mut data = CellData::default();
        self.cell_into(grid_ref, &mut data);
        data
    }

    /// The cell at `grid_ref`, written over `data` (its text buffer reused).
    fn cell_into(&self, grid_ref: &GridRef, data: &mut CellData) {
        data.clear();
        let mut cell: abi::Cell = 0;
        // SAFETY: `grid_ref` was produced by the engine for this terminal, with no mutation since.
        if unsafe { (self.sym.ghostty_grid_ref_cell)(grid_ref, &raw mut cell) }
            != abi::result::SUCCESS
        {
            return;
        }
        let width = match self.cell_get(cell, abi::cell_data::WIDE, abi::wide::NARROW) {
            abi::wide::WIDE => CellWidth::Wide,
            abi::wide::SPACER_TAIL => CellWidth::SpacerTail,
            abi::wide::SPACER_HEAD => CellWidth::SpacerHead,
            _ => CellWidth::Narrow,
        };
        let semantic = match self.cell_get(
            cell,
            abi::cell_data::SEMANTIC_CONTENT,
            abi::semantic::OUTPUT,
        ) {
            abi::semantic::INPUT => Semantic::Input,
            abi::semantic::PROMPT => Semantic::Prompt,
            _ => Semantic::Output,
        };
        let tag = self.cell_get(
            cell,
            abi::cell_data::CONTENT_TAG,
            abi::content_tag::CODEPOINT,
        );
        let mut style = if self.cell_get(cell, abi::cell_data::HAS_STYLING, false) {
            self.style_at(grid_ref)
        } else {
            CellStyle::default()
        };
        match tag {
            abi::content_tag::CODEPOINT => self.codepoint_text(cell, &mut data.text),
            abi::content_tag::CODEPOINT_GRAPHEME => self.grapheme_text(grid_ref, &mut data.text),
            abi::content_tag::BG_COLOR_PALETTE => {
                style.bg =
                    CellColor::Palette(self.cell_get(cell, abi::cell_data::COLOR_PALETTE, 0u8));
            }
            _ => {
                let rgb = self.cell_get(cell, abi::cell_data::COLOR_RGB, abi::ColorRgb::default());
                style.bg = CellColor::Rgb(rgb.r, rgb.g, rgb.b);
            }
        }
        data.width = width;
        data.style = style;
        data.semantic = semantic;
    }

    fn codepoint_text(&self, cell: abi::Cell, text: &mut String) {
        let codepoint = self.cell_get(cell, abi::cell_data::CODEPOINT, 0u32);
        if let Some(c) = char::from_u32(codepoint).filter(|_| codepoint != 0) {
            text.push(c);
        }
    }

    fn grapheme_text(&self, grid_ref: &GridRef, text: &mut String) {
        let mut buffer = [0u32; 32];
        let mut len = 0usize;
        // SAFETY: the buffer and its length are passed together; `len` receives the count.
        let code = unsafe {
            (self.sym.ghostty_grid_ref_graphemes)(
                grid_ref,
                buffer.as_mut_ptr(),
                buffer.len(),
                &raw mut len,
            )
        };
        if code != abi::result::SUCCESS {
            return;
        }
        text.extend(
            buffer[..len.min(buffer.len())]
                .iter()
                .filter_map(|&c| char::from_u32(c)),
        );
    }

    fn style_at(&self, grid_ref: &GridRef) -> CellStyle {
        let empty = StyleColor {
            tag: abi::color_tag::NONE,
            value: abi::StyleColorValue { padding: 0 },
        };
        let mut raw = abi::Style {
            size: std::mem::size_of::<abi::Style>(),
            fg_color: empty,
            bg_color: empty,
            underline_color: empty,
            bold: false,
            italic: false,
            faint: false,
            blink: false,
            inverse: false,
            invisible: false,
            strikethrough: false,
            overline: false,
            underline: 0,
        };
        // SAFETY: `raw` is a sized GhosttyStyle the engine fills.
        if unsafe { (self.sym.ghostty_grid_ref_style)(grid_ref, &raw mut raw) }
            != abi::result::SUCCESS
        {
            return CellStyle::default();
        }
        CellStyle {
            bold: raw.bold,
            faint: raw.faint,
            italic: raw.italic,
            underline: raw.underline != 0,
            blink: raw.blink,
            inverse: raw.inverse,
            invisible: raw.invisible,
            strikethrough: raw.strikethrough,
            overline: raw.overline,
            fg: color_of(raw.fg_color),
            bg: color_of(raw.bg_color),
        }
    }
}

fn color_of(color: StyleColor) -> CellColor {
    let bytes = color.value.padding.to_le_bytes();
    match color.tag {
        abi::color_tag::PALETTE => CellColor::Palette(bytes[0]),
        abi::color_tag::RGB => CellColor::Rgb(bytes[0], bytes[1], bytes[2]),
        _ => CellColor::Default,
    }
}
