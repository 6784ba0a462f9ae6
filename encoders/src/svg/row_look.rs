//! One row of the grid as SVG, drawn at the origin: rectangles for backgrounds other than the
//! theme's, text as `<tspan>` runs (one per style, each placed at its column and stretched to
//! its cells with `textLength`, so no font's advance makes the text drift off the grid), wide
//! glyphs and emoji each in a run of their own on their two columns (an emoji sequence printed
//! as parts, in one run over all of them), and box drawing as paths.
//! The cursor's cell is drawn the same way, on its own.

use crate::raster::{cell_colors, cursor_head};
use crate::screen::{CellAttrs, CellWidth, RenderScreen};
use crate::theme::{Rgb, Theme};

use super::drawn_glyphs::{is_drawn, DrawnRow};
use super::metrics::{number, SvgMetrics};
use super::style_sheet::{StyleSheet, TextStyle, TEXT_ATTRS};

/// Blank cells a run of text spans before a new run (placed at its column) is cheaper: a
/// run costs some 30 bytes of attributes, a blank cell one.
const LONGEST_GAP: u16 = 30;

/// A cell as it is painted: its grapheme, columns and resolved colours.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct PaintedCell {
    pub col: u16,
    pub text: String,
    /// 1, or 2 for a wide glyph.
    pub cols: u16,
    pub fg: Rgb,
    pub bg: Rgb,
    pub attrs: CellAttrs,
}

impl PaintedCell {
    /// Nothing is drawn for this cell on a window of background `bg`.
    pub fn is_empty_on(&self, bg: Rgb) -> bool {
        self.is_blank() && self.bg == bg && self.drawn_char().is_none()
    }

    /// A space no line crosses: it joins a run of any style.
    fn is_blank(&self) -> bool {
        self.text == " "
            && !self.attrs.contains(CellAttrs::UNDERLINE)
            && !self.attrs.contains(CellAttrs::STRIKETHROUGH)
            && !self.attrs.contains(CellAttrs::OVERLINE)
    }

    fn drawn_char(&self) -> Option<char> {
        let mut chars = self.text.chars();
        let ch = chars.next()?;
        (chars.next().is_none() && is_drawn(ch)).then_some(ch)
    }

    /// A one-column, one-character cell: it can share a run.
    fn is_simple(&self) -> bool {
        self.cols == 1 && self.text.chars().nth(1).is_none()
    }

    fn style(&self) -> TextStyle {
        TextStyle {
            fg: self.fg,
            attrs: CellAttrs(self.attrs.0 & TEXT_ATTRS.0),
        }
    }
}

/// The cells of row `y` as painted, the cursor left out.
pub(crate) fn row_cells(screen: &RenderScreen, y: u16, theme: &Theme) -> Vec<PaintedCell> {
    let mut cells = Vec::with_capacity(usize::from(screen.cols));
    let mut x = 0;
    while x < screen.cols {
        let Some(cell) = screen.cell(x, y) else {
            break;
        };
        // An emoji sequence printed as parts (a flag's letters, a ZWJ family) is set as one
        // run over the parts' columns, so the browser shapes it as the raster's colour font
        // draws it: one glyph in the first part's place.
        let joined = crate::emoji_join::may_start(cell)
            .then(|| crate::emoji_join::candidates(screen, x, y))
            .and_then(|found| found.into_iter().next())
            .filter(|(_, span)| x.checked_add(*span).is_some_and(|end| end <= screen.cols));
        let wide = cell.wide == CellWidth::Wide && x + 1 < screen.cols;
        let mut painted = painted(screen, x, y, theme, false);
        let span = match joined {
            Some((text, span)) => {
                painted.text = text;
                span
            }
            None if wide => 2,
            None => 1,
        };
        painted.cols = span;
        cells.push(painted);
        x += span;
    }
    cells
}

/// The cursor's cell as the raster formats draw it (inverted, or in the theme's cursor
/// colour), where it is: `None` when hidden.
pub(crate) fn cursor_cell(screen: &RenderScreen, theme: &Theme) -> Option<(u16, PaintedCell)> {
    let (x, y) = cursor_head(screen)?;
    screen.cell(x, y)?;
    let mut cell = painted(screen, x, y, theme, true);
    if screen.cell(x, y)?.wide == CellWidth::Wide && x + 1 < screen.cols {
        cell.cols = 2;
    }
    Some((y, cell))
}

fn painted(screen: &RenderScreen, x: u16, y: u16, theme: &Theme, cursor: bool) -> PaintedCell {
    let blank = crate::screen::RenderCell::blank();
    let cell = screen.cell(x, y).unwrap_or(&blank);
    let (fg, bg) = cell_colors(theme, cell, cursor);
    let text = match screen.grapheme(cell) {
        Some(grapheme) => grapheme.to_string(),
        None if cell.wide == CellWidth::SpacerTail || cell.text == '\0' => " ".into(),
        None => cell.text.to_string(),
    };
    PaintedCell {
        col: x,
        text,
        cols: 1,
        fg,
        bg,
        attrs: cell.attrs,
    }
}

/// A run of text being gathered.
struct Run {
    col: u16,
    cells: u16,
    style: TextStyle,
    text: String,
    /// Blank cells after the run, not yet in it.
    gap: u16,
    /// One grapheme over all its cells (wide, or more than one character).
    single: bool,
}

/// `cells` as SVG elements drawn from the row's origin. Backgrounds equal to `skip_bg` are
/// left to the window behind; `None` paints every cell's (the cursor covers what is under it).
pub(crate) fn fragment(
    cells: &[PaintedCell],
    metrics: &SvgMetrics,
    sheet: &mut StyleSheet,
    skip_bg: Option<Rgb>,
) -> String {
    let mut out = backgrounds(cells, metrics, sheet, skip_bg);
    let mut drawn = DrawnRow::default();
    // Each run's attributes and escaped text.
    let mut spans: Vec<(String, String)> = Vec::new();
    let mut run: Option<Run> = None;
    for cell in cells {
        if let Some(ch) = cell.drawn_char() {
            flush(&mut run, &mut spans, metrics, sheet);
            drawn.add(cell.col, ch, cell.cols == 2, sheet.fill(cell.fg));
            continue;
        }
        if cell.is_blank() {
            if let Some(r) = run.as_mut().filter(|r| !r.single) {
                r.gap += cell.cols;
                if r.gap > LONGEST_GAP {
                    flush(&mut run, &mut spans, metrics, sheet);
                }
            } else {
                flush(&mut run, &mut spans, metrics, sheet);
            }
            continue;
        }
        let joins = run.as_ref().is_some_and(|r| {
            !r.single
                && cell.is_simple()
                && r.style == cell.style()
                && r.col + r.cells + r.gap == cell.col
        });
        if joins {
            if let Some(r) = run.as_mut() {
                r.text.extend(std::iter::repeat_n(' ', usize::from(r.gap)));
                r.cells += r.gap + 1;
                r.gap = 0;
                r.text.push_str(&cell.text);
            }
            continue;
        }
        flush(&mut run, &mut spans, metrics, sheet);
        run = Some(Run {
            col: cell.col,
            cells: cell.cols,
            style: cell.style(),
            text: cell.text.clone(),
            gap: 0,
            single: !cell.is_simple(),
        });
    }
    flush(&mut run, &mut spans, metrics, sheet);
    let y = number(metrics.baseline);
    match spans.as_slice() {
        [] => {}
        // One run is the text element itself: `<text x=.. y=..>`, no `<tspan>`.
        [(attrs, text)] => out.push_str(&format!("<text{attrs} y=\"{y}\">{text}</text>")),
        runs => {
            out.push_str(&format!("<text y=\"{y}\">"));
            for (attrs, text) in runs {
                out.push_str(&format!("<tspan{attrs}>{text}</tspan>"));
            }
            out.push_str("</text>");
        }
    }
    if !drawn.is_empty() {
        out.push_str(&drawn.paths(metrics.cell_w, metrics.cell_h));
    }
    out
}

/// Rectangles for the runs of cells whose background is not `skip`.
fn backgrounds(
    cells: &[PaintedCell],
    metrics: &SvgMetrics,
    sheet: &mut StyleSheet,
    skip: Option<Rgb>,
) -> String {
    let mut out = String::new();
    let mut i = 0;
    while i < cells.len() {
        let (start, bg) = (cells[i].col, cells[i].bg);
        let mut end = start + cells[i].cols;
        i += 1;
        while i < cells.len() && cells[i].bg == bg && cells[i].col == end {
            end += cells[i].cols;
            i += 1;
        }
        if Some(bg) == skip {
            continue;
        }
        let x = u32::from(start) * metrics.cell_w;
        let width = u32::from(end - start) * metrics.cell_w;
        out.push_str(&format!(
            "<rect{} width=\"{width}\" height=\"{}\" class=\"{}\"/>",
            if x == 0 {
                String::new()
            } else {
                format!(" x=\"{x}\"")
            },
            metrics.cell_h,
            sheet.fill(bg)
        ));
    }
    out
}

fn flush(
    run: &mut Option<Run>,
    spans: &mut Vec<(String, String)>,
    metrics: &SvgMetrics,
    sheet: &mut StyleSheet,
) {
    let Some(r) = run.take() else {
        return;
    };
    let mut attrs = format!(" x=\"{}\"", u32::from(r.col) * metrics.cell_w);
    // One narrow character needs no stretching (and a reader counts it as one cell).
    if r.cells > 1 || r.text.chars().nth(1).is_some() {
        let length = u32::from(r.cells) * metrics.cell_w;
        attrs.push_str(&format!(" textLength=\"{length}\""));
    }
    if let Some(class) = sheet.text(r.style) {
        attrs.push_str(&format!(" class=\"{class}\""));
    }
    let mut text = String::new();
    escape_into(&r.text, &mut text);
    spans.push((attrs, text));
}

/// `text` as XML character data: markup escaped, and characters XML 1.0 forbids (C0 controls
/// but tab, line feed and carriage return; U+FFFE, U+FFFF) replaced by U+FFFD.
pub(crate) fn escape_into(text: &str, out: &mut String) {
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\t' | '\n' | '\r' => out.push(' '),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::screen::{CellColor, RenderCell};

    fn metrics() -> SvgMetrics {
        SvgMetrics {
            cell_w: 8,
            cell_h: 16,
            font_size: 13.33,
            baseline: 13.0,
            families: Vec::new(),
        }
    }

    fn row(screen: &RenderScreen) -> (String, StyleSheet) {
        let theme = Theme::default();
        let mut sheet = StyleSheet::new(theme.fg);
        let cells = row_cells(screen, 0, &theme);
        (
            fragment(&cells, &metrics(), &mut sheet, Some(theme.bg)),
            sheet,
        )
    }

    #[test]
    fn runs_break_at_styles_and_long_gaps_and_sit_on_their_columns() {
        let mut screen = RenderScreen::blank(30, 1);
        screen.put_str(0, 0, "$ ls  -la", CellColor::Default, CellColor::Default);
        screen.put_str(20, 0, "red", CellColor::Palette(1), CellColor::Default);
        let (svg, sheet) = row(&screen);
        assert_eq!(
            svg,
            "<text y=\"13\"><tspan x=\"0\" textLength=\"72\">$ ls  -la</tspan>\
             <tspan x=\"160\" textLength=\"24\" class=\"t0\">red</tspan></text>"
        );
        let mut one = RenderScreen::blank(30, 1);
        one.put_str(3, 0, "a<b", CellColor::Palette(1), CellColor::Default);
        assert_eq!(
            row(&one).0,
            "<text x=\"24\" textLength=\"24\" class=\"t0\" y=\"13\">a&lt;b</text>"
        );
        assert_eq!(sheet.rules(), [".t0{fill:#dd3c69}"]);
    }

    #[test]
    fn backgrounds_wide_glyphs_and_markup() {
        let mut screen = RenderScreen::blank(10, 1);
        screen.put_str(0, 0, "<a&", CellColor::Default, CellColor::Palette(4));
        *screen.cell_mut(4, 0).unwrap() = RenderCell {
            text: '世',
            wide: CellWidth::Wide,
            ..RenderCell::blank()
        };
        screen.cell_mut(5, 0).unwrap().wide = CellWidth::SpacerTail;
        screen.put_str(6, 0, "x", CellColor::Default, CellColor::Default);
        let (svg, _) = row(&screen);
        assert!(
            svg.starts_with("<rect width=\"24\" height=\"16\" class=\"f0\"/>"),
            "{svg}"
        );
        assert!(svg.contains(">&lt;a&amp;</tspan>"), "{svg}");
        assert!(
            svg.contains("<tspan x=\"32\" textLength=\"16\">世</tspan><tspan x=\"48\">x</tspan>"),
            "{svg}"
        );
    }

    #[test]
    fn an_emoji_sequence_printed_as_parts_is_one_run_over_their_columns() {
        let mut screen = RenderScreen::blank(10, 1);
        for (x, letter) in [(0, '🇯'), (2, '🇵')] {
            *screen.cell_mut(x, 0).unwrap() = RenderCell {
                text: letter,
                wide: CellWidth::Wide,
                ..RenderCell::blank()
            };
            screen.cell_mut(x + 1, 0).unwrap().wide = CellWidth::SpacerTail;
        }
        let (svg, _) = row(&screen);
        assert_eq!(svg, "<text x=\"0\" textLength=\"32\" y=\"13\">🇯🇵</text>");
    }

    #[test]
    fn the_cursor_is_the_cell_inverted() {
        let theme = Theme::default();
        let mut screen = RenderScreen::blank(4, 2);
        screen.put_str(0, 1, "ab", CellColor::Default, CellColor::Default);
        screen.cursor = Some(crate::screen::RenderCursor {
            x: 1,
            y: 1,
            visible: true,
        });
        let (y, cell) = cursor_cell(&screen, &theme).unwrap();
        assert_eq!((y, cell.col, cell.text.as_str()), (1, 1, "b"));
        assert_eq!((cell.fg, cell.bg), (theme.bg, theme.fg));
        screen.cursor.as_mut().unwrap().visible = false;
        assert!(cursor_cell(&screen, &theme).is_none());
    }

    #[test]
    fn forbidden_characters_are_replaced() {
        let mut out = String::new();
        escape_into("a\u{1}b\u{FFFF}", &mut out);
        assert_eq!(out, "a\u{FFFD}b\u{FFFD}");
    }
}
