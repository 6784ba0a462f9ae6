//! The input model: one terminal screen as the rasterizer sees it, filled by whoever owns the engine.

/// How many columns a cell's glyph occupies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum CellWidth {
    /// An ordinary one-column cell.
    #[default]
    Narrow,
    /// The first column of a two-column glyph (CJK, most emoji); it draws over the next cell too.
    Wide,
    /// The second column of a wide glyph: drawn by the cell before it, never on its own.
    SpacerTail,
}

/// The engine's own colour type: the rasterizer resolves exactly what the terminal stores.
pub use phux_core::engine::CellColor;

/// SGR attributes of a cell, as a small bit set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CellAttrs(pub u16);

impl CellAttrs {
    /// No attribute set.
    pub const NONE: CellAttrs = CellAttrs(0);
    /// Bold: the glyph is emboldened (OR with itself shifted one pixel right).
    pub const BOLD: CellAttrs = CellAttrs(1 << 0);
    /// Faint: the foreground is blended halfway toward the background.
    pub const FAINT: CellAttrs = CellAttrs(1 << 1);
    /// Italic: the upper rows of the glyph are slanted right.
    pub const ITALIC: CellAttrs = CellAttrs(1 << 2);
    /// Underline (any style is drawn as a single line).
    pub const UNDERLINE: CellAttrs = CellAttrs(1 << 3);
    /// Blink: recorded but drawn steady.
    pub const BLINK: CellAttrs = CellAttrs(1 << 4);
    /// Inverse: foreground and background swap.
    pub const INVERSE: CellAttrs = CellAttrs(1 << 5);
    /// Invisible: the glyph is drawn in the background colour.
    pub const INVISIBLE: CellAttrs = CellAttrs(1 << 6);
    /// Strikethrough: a line through the middle of the cell.
    pub const STRIKETHROUGH: CellAttrs = CellAttrs(1 << 7);
    /// Overline: a line along the top of the cell.
    pub const OVERLINE: CellAttrs = CellAttrs(1 << 8);

    /// True when every bit of `other` is set in `self`.
    pub const fn contains(self, other: CellAttrs) -> bool {
        self.0 & other.0 == other.0
    }

    /// The union of two attribute sets.
    pub const fn union(self, other: CellAttrs) -> CellAttrs {
        CellAttrs(self.0 | other.0)
    }
}

impl std::ops::BitOr for CellAttrs {
    type Output = CellAttrs;
    fn bitor(self, rhs: CellAttrs) -> CellAttrs {
        self.union(rhs)
    }
}

impl std::ops::BitOrAssign for CellAttrs {
    fn bitor_assign(&mut self, rhs: CellAttrs) {
        *self = self.union(rhs);
    }
}

/// One cell of the grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RenderCell {
    /// The first codepoint of the cell's grapheme; `' '` for an empty cell.
    pub text: char,
    /// Whether this cell starts, continues or is an ordinary glyph.
    pub wide: CellWidth,
    /// Foreground colour.
    pub fg: CellColor,
    /// Background colour.
    pub bg: CellColor,
    /// SGR attributes.
    pub attrs: CellAttrs,
    /// When the cell's grapheme is more than `text` (a flag's two letters, a ZWJ sequence, a
    /// skin tone), its place in [`RenderScreen::clusters`] plus one; 0 when `text` is all of it.
    pub cluster: u32,
}

impl Default for RenderCell {
    fn default() -> Self {
        RenderCell::blank()
    }
}

impl RenderCell {
    /// An empty cell in default colours.
    pub const fn blank() -> RenderCell {
        RenderCell {
            text: ' ',
            wide: CellWidth::Narrow,
            fg: CellColor::Default,
            bg: CellColor::Default,
            attrs: CellAttrs::NONE,
            cluster: 0,
        }
    }

    /// A narrow cell showing `text` in default colours.
    pub const fn with_text(text: char) -> RenderCell {
        RenderCell {
            text,
            ..RenderCell::blank()
        }
    }
}

/// Where the cursor is, in cells, and whether it is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RenderCursor {
    /// Column, 0-based.
    pub x: u16,
    /// Row, 0-based.
    pub y: u16,
    /// Drawn only when true (DECTCEM).
    pub visible: bool,
}

/// A whole screen: `cols * rows` cells in row-major order plus the cursor.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RenderScreen {
    /// Width in cells.
    pub cols: u16,
    /// Height in cells.
    pub rows: u16,
    /// Row-major cells; a shorter vector is read as blank cells past its end.
    pub cells: Vec<RenderCell>,
    /// The cursor, if the engine reports one.
    pub cursor: Option<RenderCursor>,
    /// The graphemes of more than one character, whole, that cells' `cluster` points at.
    pub clusters: Vec<String>,
}

impl RenderScreen {
    /// A screen of blank cells with no cursor.
    pub fn blank(cols: u16, rows: u16) -> RenderScreen {
        RenderScreen {
            cols,
            rows,
            cells: vec![RenderCell::blank(); usize::from(cols) * usize::from(rows)],
            cursor: None,
            clusters: Vec::new(),
        }
    }

    /// The whole grapheme of `cell` when it is more than its `text`.
    pub fn grapheme(&self, cell: &RenderCell) -> Option<&str> {
        let i = usize::try_from(cell.cluster).ok()?.checked_sub(1)?;
        self.clusters.get(i).map(String::as_str)
    }

    /// The cell at (`x`, `y`), or `None` outside the grid or past the end of `cells`.
    pub fn cell(&self, x: u16, y: u16) -> Option<&RenderCell> {
        if x >= self.cols || y >= self.rows {
            return None;
        }
        self.cells
            .get(usize::from(y) * usize::from(self.cols) + usize::from(x))
    }

    /// Mutable access to the cell at (`x`, `y`).
    pub fn cell_mut(&mut self, x: u16, y: u16) -> Option<&mut RenderCell> {
        if x >= self.cols || y >= self.rows {
            return None;
        }
        self.cells
            .get_mut(usize::from(y) * usize::from(self.cols) + usize::from(x))
    }

    /// Writes `text` from (`x`, `y`) rightwards with the given colours, one narrow cell per char,
    /// clipped at the right edge. Meant for tests, examples and simple callers.
    pub fn put_str(&mut self, x: u16, y: u16, text: &str, fg: CellColor, bg: CellColor) {
        for (i, ch) in text.chars().enumerate() {
            let Ok(dx) = u16::try_from(i) else { return };
            let Some(cell) = self.cell_mut(x.saturating_add(dx), y) else {
                return;
            };
            *cell = RenderCell {
                text: ch,
                fg,
                bg,
                ..RenderCell::blank()
            };
        }
    }
}
