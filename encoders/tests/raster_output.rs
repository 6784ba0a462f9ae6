//! What the rasterizer draws: wide glyphs, seamless lines, attributes, cursor, scale.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on the unexpected

use phux_encoders::{
    CellAttrs, CellColor, CellWidth, Rasterizer, RenderCell, RenderCursor, RenderScreen, Rgb, Theme,
};

const FG: Rgb = Rgb(200, 200, 200);
const BG: Rgb = Rgb(10, 20, 30);

fn theme() -> Theme {
    Theme {
        fg: FG,
        bg: BG,
        ..Theme::default()
    }
}

fn draw(screen: &RenderScreen, scale: u8) -> Rasterizer {
    let mut r = Rasterizer::new(screen.cols, screen.rows, theme(), scale).unwrap();
    r.draw(screen);
    r
}

/// Foreground pixels of the cell-sized box at pixel (`x0`, `y0`), `w`×16.
fn fg_pixels(r: &Rasterizer, x0: u32, y0: u32, w: u32, fg: Rgb) -> Vec<(u32, u32)> {
    let c = r.canvas();
    let mut out = Vec::new();
    for y in y0..y0 + 16 {
        for x in x0..x0 + w {
            if c.pixel(x, y) == Some(fg) {
                out.push((x - x0, y - y0));
            }
        }
    }
    out
}

#[test]
fn cjk_wide_glyph_spans_sixteen_pixels() {
    let mut s = RenderScreen::blank(4, 1);
    s.cells[1] = RenderCell {
        wide: CellWidth::Wide,
        ..RenderCell::with_text('中')
    };
    s.cells[2] = RenderCell {
        wide: CellWidth::SpacerTail,
        ..RenderCell::blank()
    };
    let r = draw(&s, 1);
    let px = fg_pixels(&r, 8, 0, 16, FG);
    let (min, max) = px
        .iter()
        .fold((99, 0), |(a, b), (x, _)| (a.min(*x), b.max(*x)));
    assert!(min < 4 && max > 11, "ink spans {min}..={max}");
    assert!(px.iter().any(|(x, _)| *x >= 8), "ink in the spacer cell");
}

#[test]
fn box_drawing_lines_are_seamless_across_cells() {
    let mut s = RenderScreen::blank(3, 3);
    for x in 0..3 {
        s.put_str(x, 1, "─", CellColor::Default, CellColor::Default);
    }
    for y in 0..3 {
        s.put_str(
            1,
            y,
            if y == 1 { "┼" } else { "│" },
            CellColor::Default,
            CellColor::Default,
        );
    }
    let r = draw(&s, 1);
    let c = r.canvas();
    let row: Vec<bool> = (0..24).map(|x| c.pixel(x, 16 + 7) == Some(FG)).collect();
    assert!(
        row.iter().all(|on| *on),
        "horizontal line has a gap: {row:?}"
    );
    let col: Vec<bool> = (0..48).map(|y| c.pixel(8 + 3, y) == Some(FG)).collect();
    assert!(col.iter().all(|on| *on), "vertical line has a gap: {col:?}");
}

#[test]
fn braille_and_blocks_are_exact_colours() {
    let mut s = RenderScreen::blank(3, 1);
    s.put_str(
        0,
        0,
        "⣿▒█",
        CellColor::Rgb(1, 2, 3),
        CellColor::Rgb(4, 5, 6),
    );
    let r = draw(&s, 1);
    for y in 0..16 {
        for x in 0..24 {
            let p = r.canvas().pixel(x, y).unwrap();
            assert!(p == Rgb(1, 2, 3) || p == Rgb(4, 5, 6));
        }
    }
    assert_eq!(
        fg_pixels(&r, 16, 0, 8, Rgb(1, 2, 3)).len(),
        128,
        "full block"
    );
    assert_eq!(
        fg_pixels(&r, 8, 0, 8, Rgb(1, 2, 3)).len(),
        64,
        "medium shade"
    );
}

#[test]
fn inverse_invisible_and_faint_resolve_to_single_exact_colours() {
    let mut s = RenderScreen::blank(3, 1);
    let cell = |attrs| RenderCell {
        fg: CellColor::Rgb(200, 0, 0),
        bg: CellColor::Rgb(0, 0, 100),
        attrs,
        ..RenderCell::with_text('M')
    };
    s.cells = vec![
        cell(CellAttrs::INVERSE),
        cell(CellAttrs::INVISIBLE),
        cell(CellAttrs::FAINT),
    ];
    let r = draw(&s, 1);
    let c = r.canvas();
    assert_eq!(
        c.pixel(0, 0),
        Some(Rgb(200, 0, 0)),
        "inverse background is the old fg"
    );
    assert!(
        !fg_pixels(&r, 0, 0, 8, Rgb(0, 0, 100)).is_empty(),
        "inverse glyph in old bg"
    );
    assert!(
        fg_pixels(&r, 8, 0, 8, Rgb(0, 0, 100)).len() == 128,
        "invisible: all background"
    );
    let faint = fg_pixels(&r, 16, 0, 8, Rgb(100, 0, 50));
    assert!(!faint.is_empty(), "faint glyph is the midpoint colour");
}

#[test]
fn underline_strikethrough_overline_and_bold() {
    let mut s = RenderScreen::blank(2, 1);
    s.cells[0] = RenderCell {
        attrs: CellAttrs::UNDERLINE | CellAttrs::STRIKETHROUGH | CellAttrs::OVERLINE,
        ..RenderCell::with_text(' ')
    };
    s.cells[1] = RenderCell {
        attrs: CellAttrs::BOLD,
        ..RenderCell::with_text('l')
    };
    let r = draw(&s, 1);
    let lines: Vec<u32> = fg_pixels(&r, 0, 0, 8, FG).iter().map(|p| p.1).collect();
    assert_eq!(lines.len(), 24);
    assert!(lines.iter().all(|y| [0, 8, 14].contains(y)), "{lines:?}");
    let mut plain = s.clone();
    plain.cells[1].attrs = CellAttrs::NONE;
    let thin = fg_pixels(&draw(&plain, 1), 8, 0, 8, FG).len();
    let bold = fg_pixels(&r, 8, 0, 8, FG).len();
    assert!(bold > thin, "bold {bold} vs plain {thin}");
}

#[test]
fn visible_cursor_is_an_inverse_block_and_hidden_cursor_is_not_drawn() {
    let mut s = RenderScreen::blank(2, 1);
    s.cursor = Some(RenderCursor {
        x: 1,
        y: 0,
        visible: true,
    });
    let r = draw(&s, 1);
    assert_eq!(fg_pixels(&r, 8, 0, 8, FG).len(), 128);
    s.cursor = Some(RenderCursor {
        x: 1,
        y: 0,
        visible: false,
    });
    assert!(fg_pixels(&draw(&s, 1), 8, 0, 8, FG).is_empty());
}

#[test]
fn a_theme_s_cursor_colour_fills_the_cursor_cell() {
    let orange = Rgb(0xff, 0x88, 0x00);
    let mut s = RenderScreen::blank(2, 1);
    s.put_str(1, 0, "A", CellColor::Default, CellColor::Default);
    s.cursor = Some(RenderCursor {
        x: 1,
        y: 0,
        visible: true,
    });
    let mut r = Rasterizer::new(
        2,
        1,
        Theme {
            cursor: Some(orange),
            ..theme()
        },
        1,
    )
    .unwrap();
    r.draw(&s);
    let block = fg_pixels(&r, 8, 0, 8, orange).len();
    let glyph = fg_pixels(&r, 8, 0, 8, BG).len();
    assert_eq!(
        block + glyph,
        128,
        "the cell is the cursor colour and the glyph in the background"
    );
    assert!(glyph > 10, "the glyph shows through: {glyph}");
    assert!(
        fg_pixels(&r, 0, 0, 8, orange).is_empty(),
        "only the cursor's cell"
    );
}

#[test]
fn missing_glyph_draws_a_visible_box() {
    let mut s = RenderScreen::blank(1, 1);
    s.put_str(0, 0, "\u{10FFFD}", CellColor::Default, CellColor::Default);
    assert!(fg_pixels(&draw(&s, 1), 0, 0, 8, FG).len() > 20);
}

#[test]
fn scale_multiplies_every_pixel() {
    let s = {
        let mut s = RenderScreen::blank(2, 1);
        s.put_str(0, 0, "Aj", CellColor::Default, CellColor::Default);
        s
    };
    let one = draw(&s, 1);
    let three = draw(&s, 3);
    assert_eq!((three.canvas().width, three.canvas().height), (48, 48));
    for y in 0..48 {
        for x in 0..48 {
            assert_eq!(three.canvas().pixel(x, y), one.canvas().pixel(x / 3, y / 3));
        }
    }
}

#[test]
fn redrawing_the_same_screen_reports_no_change_and_one_cell_a_small_box() {
    let mut s = RenderScreen::blank(10, 4);
    let mut r = Rasterizer::new(10, 4, theme(), 2).unwrap();
    let full = r.draw(&s).unwrap();
    assert_eq!((full.width, full.height), (160, 128));
    assert!(r.draw(&s).is_none());
    s.put_str(4, 2, "x", CellColor::Default, CellColor::Default);
    let small = r.draw(&s).unwrap();
    assert!(small.x >= 64 && small.x + small.width <= 80, "{small:?}");
    assert!(small.y >= 64 && small.y + small.height <= 96, "{small:?}");
}
