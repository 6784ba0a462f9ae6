//! The smooth mode: TrueType coverage at a known size, pixels that are exactly blends of their
//! cell's colours, the fallback chain down to Unifont, bold/italic faces, lines that join.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on the unexpected

use std::collections::HashSet;
use std::path::Path;

use phux_encoders::font::smooth::{SmoothFont, TileStyle};
use phux_encoders::font::{discovery, options::FontMode};
use phux_encoders::{
    blend_levels, CellAttrs, CellColor, CellWidth, FontOptions, Rasterizer, RenderScreen, Theme,
};

const DEJAVU_DIR: &str = "/usr/share/fonts/truetype/dejavu";
const DEJAVU_MONO: &str = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf";

fn smooth(fonts: &[&str], size: f32) -> SmoothFont {
    let options = FontOptions {
        fonts: fonts.iter().map(|f| (*f).to_string()).collect(),
        size_px: Some(size),
        ..FontOptions::default()
    };
    let FontMode::Smooth(spec) = options.mode(1).unwrap() else {
        panic!("not smooth")
    };
    SmoothFont::new(&spec).unwrap()
}

/// Rows and columns holding any ink in a tile.
fn ink_box(levels: &[u8], width: u32) -> Option<(u32, u32, u32, u32)> {
    let mut b: Option<(u32, u32, u32, u32)> = None;
    for (i, l) in levels.iter().enumerate() {
        if *l > 0 {
            let (x, y) = (i as u32 % width, i as u32 / width);
            b = Some(match b {
                None => (x, y, x, y),
                Some((x0, y0, x1, y1)) => (x0.min(x), y0.min(y), x1.max(x), y1.max(y)),
            });
        }
    }
    b
}

/// Tests that read PHUX_FONT_DIRS point it at DejaVu (the only value any test here sets), and
/// say why they skip when DejaVu is not installed (`apt-get install fonts-dejavu-core`).
fn dejavu() -> bool {
    std::env::set_var("PHUX_FONT_DIRS", DEJAVU_DIR);
    let present = Path::new(DEJAVU_MONO).is_file();
    if !present {
        eprintln!("skipped: {DEJAVU_MONO} is missing (apt-get install fonts-dejavu-core)");
    }
    present
}

#[test]
fn a_known_glyph_at_a_known_size_has_the_fonts_cap_height_and_full_stems() {
    // JetBrains Mono: 1000 units per em, capital H 730 units tall, advance 600.
    let mut font = smooth(&[], 20.0);
    assert_eq!(font.cell_size(), (12, 28));
    let tile = font.tile('H', false, TileStyle::default());
    assert_eq!((tile.width, tile.height), (12, 28));
    let (x0, y0, x1, y1) = ink_box(&tile.levels, tile.width).unwrap();
    let height = y1 - y0 + 1;
    assert!(
        (14..=16).contains(&height),
        "cap height {height} px, 14.6 expected"
    );
    assert!(x0 >= 1 && x1 <= 10, "ink {x0}..={x1} inside the 12 px cell");
    let max = font.max_level();
    let full_per_row = |y: u32| {
        (0..tile.width)
            .filter(|x| tile.levels[(y * tile.width + x) as usize] == max)
            .count()
    };
    // A row through the upper half crosses the two stems at full coverage.
    assert!(full_per_row(y0 + 3) >= 2, "stems: {:?}", tile.levels);
    assert!(tile.levels.iter().all(|l| *l <= max));
    assert!(
        tile.levels.iter().any(|l| *l > 0 && *l < max),
        "antialiased edges"
    );
}

#[test]
fn every_pixel_of_a_smooth_frame_is_a_blend_of_its_own_cells_colours() {
    let theme = Theme::default();
    let mut s = RenderScreen::blank(12, 3);
    s.put_str(0, 0, "Hello, wörld", CellColor::Default, CellColor::Default);
    s.put_str(
        0,
        1,
        "red on blue",
        CellColor::Palette(1),
        CellColor::Palette(4),
    );
    s.put_str(
        0,
        2,
        "┌─中█▒ab",
        CellColor::Rgb(250, 200, 10),
        CellColor::Palette(0),
    );
    s.cell_mut(2, 2).unwrap().wide = CellWidth::Wide;
    s.cell_mut(3, 2).unwrap().wide = CellWidth::SpacerTail;
    s.cell_mut(6, 2).unwrap().attrs = CellAttrs::BOLD | CellAttrs::UNDERLINE;
    s.cell_mut(7, 2).unwrap().attrs = CellAttrs::ITALIC;
    let font = FontOptions::smooth();
    let mut r = Rasterizer::with_font(12, 3, theme, 1, &font).unwrap();
    r.draw(&s);
    let (cw, ch) = r.cell_size();
    let canvas = r.canvas();
    assert_eq!((canvas.width, canvas.height), (12 * cw, 3 * ch));
    let mut colours = HashSet::new();
    for cy in 0..3u16 {
        for cx in 0..12u16 {
            let cell = s.cell(cx, cy).unwrap();
            let cell = if cell.wide == CellWidth::SpacerTail {
                s.cell(cx - 1, cy).unwrap()
            } else {
                cell
            };
            let fg = theme.resolve_fg(cell.fg).packed();
            let bg = theme.resolve_bg(cell.bg).packed();
            let allowed: HashSet<u32> = blend_levels(fg, bg, 7).into_iter().collect();
            for y in 0..ch {
                for x in 0..cw {
                    let p = canvas
                        .pixel(u32::from(cx) * cw + x, u32::from(cy) * ch + y)
                        .unwrap()
                        .packed();
                    assert!(
                        allowed.contains(&p),
                        "cell {cx},{cy} pixel {x},{y}: {p:06x}"
                    );
                    colours.insert(p);
                }
            }
        }
    }
    assert!(colours.len() > 6, "antialiasing adds in-between colours");
}

#[test]
fn cjk_without_a_cjk_font_renders_unifont_ink_across_both_cells() {
    let mut font = smooth(&[], 14.0);
    let (cw, _) = font.cell_size();
    let tile = font.tile('中', true, TileStyle::default());
    assert_eq!(tile.width, 2 * cw);
    let (x0, _, x1, _) = ink_box(&tile.levels, tile.width).unwrap();
    assert!(x0 < cw && x1 >= cw, "ink spans both cells: {x0}..={x1}");
    // A code point no source has still shows a box, never a blank.
    let missing = font.tile('\u{10FFFD}', false, TileStyle::default());
    assert!(missing.levels.iter().any(|l| *l > 0));
}

#[test]
fn a_glyph_missing_from_the_first_font_comes_from_the_next() {
    if !dejavu() {
        return;
    }
    // JetBrains Mono has no snowman; DejaVu Sans Mono has.
    let style = TileStyle::default();
    let from_chain = smooth(&["JetBrains Mono", "DejaVu Sans Mono"], 16.0).tile('☃', false, style);
    let from_dejavu = smooth(&[DEJAVU_MONO], 16.0).tile('☃', false, style);
    let from_unifont = smooth(&[], 16.0).tile('☃', false, style);
    assert_eq!(
        from_chain.width, from_unifont.width,
        "cells follow the first font"
    );
    let ink =
        |t: &phux_encoders::font::smooth::CoverageTile| t.levels.iter().filter(|l| **l > 0).count();
    assert!(ink(&from_chain) > 20);
    assert_ne!(
        from_chain.levels, from_unifont.levels,
        "not the Unifont fallback"
    );
    // Unifont's pixels are all or nothing; an outline has in-between levels.
    let partial =
        |t: &phux_encoders::font::smooth::CoverageTile| t.levels.iter().any(|l| *l > 0 && *l < 7);
    assert!(partial(&from_chain) && partial(&from_dejavu) && !partial(&from_unifont));
}

#[test]
fn a_family_with_bold_and_italic_faces_uses_them() {
    if !dejavu() {
        return;
    }
    let family = discovery::resolve("DejaVu Sans Mono").unwrap();
    assert!(family.bold.is_some() && family.italic.is_some() && family.bold_italic.is_some());
    // The same family as a lone file has only its regular face: bold and italic synthesized.
    let mut faces = smooth(&["DejaVu Sans Mono"], 16.0);
    let mut file = smooth(&[DEJAVU_MONO], 16.0);
    let regular = TileStyle::default();
    assert_eq!(
        faces.tile('a', false, regular),
        file.tile('a', false, regular)
    );
    for style in [
        TileStyle {
            bold: true,
            ..regular
        },
        TileStyle {
            italic: true,
            ..regular
        },
        TileStyle {
            bold: true,
            italic: true,
            ..regular
        },
    ] {
        let real = faces.tile('a', false, style);
        let synthesized = file.tile('a', false, style);
        assert_ne!(real, synthesized, "{style:?}");
        assert_ne!(real, faces.tile('a', false, regular), "{style:?}");
    }
}

#[test]
fn bold_without_a_bold_face_is_thicker_and_italic_leans() {
    if !dejavu() {
        return;
    }
    let mut font = smooth(&[DEJAVU_MONO], 16.0);
    let regular = font.tile('l', false, TileStyle::default());
    let bold = font.tile(
        'l',
        false,
        TileStyle {
            bold: true,
            ..TileStyle::default()
        },
    );
    let sum = |t: &phux_encoders::font::smooth::CoverageTile| {
        t.levels.iter().map(|l| u32::from(*l)).sum::<u32>()
    };
    assert!(sum(&bold) > sum(&regular));
}

#[test]
fn underlines_and_box_drawing_join_across_cells() {
    let mut font = smooth(&[], 15.0);
    let (cw, ch) = font.cell_size();
    let max = font.max_level();
    let under = TileStyle {
        underline: true,
        ..TileStyle::default()
    };
    let tile = font.tile('g', false, under);
    let full_rows: Vec<u32> = (0..ch)
        .filter(|y| (0..cw).all(|x| tile.levels[(y * cw + x) as usize] == max))
        .collect();
    assert!(
        !full_rows.is_empty() && full_rows[0] > ch / 2,
        "{full_rows:?}"
    );
    let line = font.tile('─', false, TileStyle::default());
    let rows: Vec<u32> = (0..ch)
        .filter(|y| {
            line.levels[(y * cw) as usize] == max && line.levels[(y * cw + cw - 1) as usize] == max
        })
        .collect();
    assert!(!rows.is_empty(), "a horizontal line reaches both edges");
    let vert = font.tile('│', false, TileStyle::default());
    let cols: Vec<u32> = (0..cw)
        .filter(|x| {
            vert.levels[*x as usize] == max && vert.levels[((ch - 1) * cw + x) as usize] == max
        })
        .collect();
    assert!(!cols.is_empty(), "a vertical line reaches top and bottom");
}

#[test]
fn a_missing_font_names_itself_and_where_it_looked() {
    let e = discovery::resolve("No Such Family 42")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("No Such Family 42") && e.contains("searched"),
        "{e}"
    );
    let e = discovery::resolve("/nonexistent/font.ttf")
        .unwrap_err()
        .to_string();
    assert!(e.contains("/nonexistent/font.ttf"), "{e}");
    let not_a_font = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(not_a_font.path(), b"hello").unwrap();
    let e = discovery::resolve(&not_a_font.path().display().to_string())
        .unwrap_err()
        .to_string();
    assert!(e.contains("not a TrueType"), "{e}");
}

#[test]
fn size_line_height_and_letter_spacing_set_the_cell() {
    let options = FontOptions {
        size_px: Some(10.0),
        line_height: Some(2.0),
        letter_spacing: Some(2.0),
        ..FontOptions::default()
    };
    let r = Rasterizer::with_font(10, 5, Theme::default(), 2, &options).unwrap();
    // 20 px font at scale 2: advance 12 px, plus 4 px spacing; 40 px rows.
    assert_eq!(r.cell_size(), (16, 40));
    assert_eq!((r.canvas().width, r.canvas().height), (160, 200));
}
