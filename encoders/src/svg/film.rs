//! The recording as the SVG will hold it: every distinct row look once (a def), and for each
//! row, the cursor's look and the cursor's place, the states they take and when. Frames that
//! change nothing of it add nothing.

use std::collections::HashMap;

use crate::screen::RenderScreen;
use crate::theme::Theme;

use super::layer::{Change, Layer};
use super::metrics::SvgMetrics;
use super::row_look::{cursor_cell, fragment, row_cells, PaintedCell};
use super::style_sheet::StyleSheet;

/// A def's number; `None` in a layer is "nothing drawn" (a blank row, a hidden cursor).
pub(crate) type Def = Option<usize>;

/// The most defs a look's chain of `<use>`s goes through (each extends the one before).
const LONGEST_CHAIN: u8 = 12;

/// Upper bounds of what the document spends on each kind of change, in bytes, for the byte
/// limit: a keyframe (`99.9999%{translate:-99999999px}`), a strip's `<use>`, a def's
/// wrapper, a layer's animation (its wrapper, `style` and `@keyframes` head).
pub(crate) const KEYFRAME_BYTES: u64 = 44;
pub(crate) const USE_BYTES: u64 = 40;
pub(crate) const DEF_WRAPPER_BYTES: u64 = 20;
pub(crate) const ANIMATION_BYTES: u64 = 110;

/// The looks and timelines gathered so far.
#[derive(Debug)]
pub(crate) struct Film {
    pub theme: Theme,
    pub metrics: SvgMetrics,
    pub sheet: StyleSheet,
    /// Each look's full elements → its def.
    defs: HashMap<String, usize>,
    /// Each def's elements as written: the look, or a `<use>` of the look it extends and
    /// what it adds.
    bodies: Vec<String>,
    /// How many defs each def's chain of `<use>`s goes through.
    depths: Vec<u8>,
    /// Each row's timeline of looks.
    pub rows: Vec<Layer<Def>>,
    /// The cursor's look (the cell under it, inverted) and its place (column, row).
    pub cursor_look: Layer<Def>,
    pub cursor_place: Layer<(u16, u16)>,
    /// The cells each row was last built from: an unchanged row is not built again.
    last_cells: Vec<Vec<PaintedCell>>,
}

impl Film {
    pub fn new(theme: Theme, metrics: SvgMetrics, rows: u16) -> Film {
        Film {
            sheet: StyleSheet::new(theme.fg),
            theme,
            metrics,
            defs: HashMap::new(),
            bodies: Vec::new(),
            depths: Vec::new(),
            rows: (0..rows).map(|_| Layer::new()).collect(),
            cursor_look: Layer::new(),
            cursor_place: Layer::new(),
            last_cells: vec![Vec::new(); usize::from(rows)],
        }
    }

    /// Takes `screen` as the picture from `tick` on; returns whether anything changed and an
    /// upper bound of the bytes it adds to the document.
    pub fn show(&mut self, tick: u64, screen: &RenderScreen) -> (bool, u64) {
        let before = self.sheet.bytes() as u64;
        let mut bytes = 0;
        let mut changed = false;
        for y in 0..self.rows.len() {
            let Ok(row) = u16::try_from(y) else { break };
            let cells = row_cells(screen, row, &self.theme);
            let first = self.rows[y].changes().is_empty();
            if !first && cells == self.last_cells[y] {
                continue;
            }
            let look = fragment(&cells, &self.metrics, &mut self.sheet, Some(self.theme.bg));
            let base = self.rows[y].current().copied().flatten();
            let (def, def_bytes) = self.row_def(look, base, y, &cells);
            self.last_cells[y] = cells;
            let change = self.rows[y].show(tick, &def);
            bytes += def_bytes + cost(&self.rows[y], change);
            changed |= change != Change::None;
        }
        let cursor = cursor_cell(screen, &self.theme);
        let look = match &cursor {
            Some((_, cell)) => {
                let at_origin = PaintedCell {
                    col: 0,
                    ..cell.clone()
                };
                let look = fragment(&[at_origin], &self.metrics, &mut self.sheet, None);
                let (def, def_bytes) = self.def(look, None);
                bytes += def_bytes;
                def
            }
            None => None,
        };
        let change = self.cursor_look.show(tick, &look);
        bytes += cost(&self.cursor_look, change);
        changed |= change != Change::None;
        if let Some((y, cell)) = cursor {
            let change = self.cursor_place.show(tick, &(cell.col, y));
            bytes += cost(&self.cursor_place, change);
            changed |= change != Change::None;
        }
        (changed, bytes + (self.sheet.bytes() as u64 - before))
    }

    /// Where the film stands: what [`Film::rollback`] goes back to.
    pub fn mark(&self) -> FilmMark {
        FilmMark {
            rules: self.sheet.len(),
            defs: self.defs.len(),
            rows: self.rows.iter().map(Layer::mark).collect(),
            cursor_look: self.cursor_look.mark(),
            cursor_place: self.cursor_place.mark(),
        }
    }

    /// Undoes the frames shown since `mark`, as far as the document is concerned (the cells
    /// kept to skip unchanged rows are not restored: no frame is shown after a rollback).
    pub fn rollback(&mut self, mark: &FilmMark) {
        self.sheet.truncate(mark.rules);
        self.defs.retain(|_, n| *n < mark.defs);
        self.bodies.truncate(mark.defs);
        self.depths.truncate(mark.defs);
        for (layer, row_mark) in self.rows.iter_mut().zip(&mark.rows) {
            layer.truncate(*row_mark);
        }
        self.cursor_look.truncate(mark.cursor_look);
        self.cursor_place.truncate(mark.cursor_place);
    }

    /// The def of row `y`'s new look (`cells`, drawn as `look`). A look that only adds to the
    /// right of the row's look before (`base`) — a command being typed — is written as a
    /// `<use>` of that look and the cells added, not copied whole, up to [`LONGEST_CHAIN`].
    fn row_def(&mut self, look: String, base: Def, y: usize, cells: &[PaintedCell]) -> (Def, u64) {
        if look.is_empty() || self.defs.contains_key(&look) {
            return self.def(look, None);
        }
        let Some(base) = base.filter(|b| self.depths.get(*b).is_some_and(|d| *d < LONGEST_CHAIN))
        else {
            return self.def(look, None);
        };
        let before = &self.last_cells[y];
        let same = before.iter().zip(cells).take_while(|(a, b)| a == b).count();
        let bg = self.theme.bg;
        if same == 0 || !before[same..].iter().all(|c| c.is_empty_on(bg)) {
            return self.def(look, None);
        }
        let added = fragment(&cells[same..], &self.metrics, &mut self.sheet, Some(bg));
        let body = format!("<use href=\"#{}\"/>{added}", def_name(base));
        if body.len() >= look.len() {
            return self.def(look, None);
        }
        self.def(look, Some((base, body)))
    }

    /// The def drawing `look` (made now when new, with its bytes), written as `extends` says
    /// when given; `None` for an empty look.
    fn def(&mut self, look: String, extends: Option<(usize, String)>) -> (Def, u64) {
        if look.is_empty() {
            return (None, 0);
        }
        let next = self.defs.len();
        if let Some(&n) = self.defs.get(&look) {
            return (Some(n), 0);
        }
        let (body, depth) = match extends {
            Some((base, body)) => (body, self.depths.get(base).map_or(1, |d| d + 1)),
            None => (look.clone(), 0),
        };
        let bytes = body.len() as u64 + DEF_WRAPPER_BYTES;
        self.defs.insert(look, next);
        self.bodies.push(body);
        self.depths.push(depth);
        (Some(next), bytes)
    }

    /// Every def's elements, by number.
    pub fn defs(&self) -> &[String] {
        &self.bodies
    }
}

/// Where a film stood (see [`Film::mark`]).
#[derive(Debug)]
pub(crate) struct FilmMark {
    rules: usize,
    defs: usize,
    rows: Vec<(usize, usize)>,
    cursor_look: (usize, usize),
    cursor_place: (usize, usize),
}

/// An upper bound of what a change costs the document.
fn cost<K: Clone + Eq + std::hash::Hash>(layer: &Layer<K>, change: Change) -> u64 {
    let first_animated = layer.changes().len() == 2 && change != Change::None;
    let animation = if first_animated { ANIMATION_BYTES } else { 0 };
    match change {
        Change::None => 0,
        Change::Known => KEYFRAME_BYTES + animation,
        Change::New => KEYFRAME_BYTES + USE_BYTES + animation,
    }
}

/// The name of def `n`: letters only, as short as the count allows.
pub(crate) fn def_name(n: usize) -> String {
    const LETTERS: &[u8; 52] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let mut n = n;
    let mut name = Vec::new();
    loop {
        name.push(LETTERS[n % 52]);
        n /= 52;
        if n == 0 {
            break;
        }
        n -= 1;
    }
    name.reverse();
    String::from_utf8_lossy(&name).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::screen::CellColor;

    #[test]
    fn names_are_short_and_distinct() {
        let names: std::collections::HashSet<String> = (0..5000).map(def_name).collect();
        assert_eq!(names.len(), 5000);
        assert_eq!(def_name(0), "a");
        assert_eq!(def_name(52), "aa");
    }

    #[test]
    fn a_row_coming_back_reuses_its_def_and_an_unchanged_frame_changes_nothing() {
        let metrics = SvgMetrics {
            cell_w: 8,
            cell_h: 16,
            font_size: 13.33,
            baseline: 13.0,
            families: Vec::new(),
        };
        let mut film = Film::new(Theme::default(), metrics, 2);
        let mut a = RenderScreen::blank(5, 2);
        a.put_str(0, 0, "one", CellColor::Default, CellColor::Default);
        let mut b = a.clone();
        b.put_str(0, 1, "two", CellColor::Default, CellColor::Default);
        assert!(film.show(0, &a).0);
        assert!(!film.show(10, &a).0);
        assert!(film.show(20, &b).0);
        let (changed, bytes) = film.show(30, &a);
        assert!(changed);
        assert_eq!(bytes, KEYFRAME_BYTES, "a known look costs one keyframe");
        assert_eq!(film.defs().len(), 2);
        assert_eq!(film.rows[1].changes(), [(0, 0), (20, 1), (30, 0)]);
        assert_eq!(film.rows[1].states(), [None, Some(1)]);
    }
}
