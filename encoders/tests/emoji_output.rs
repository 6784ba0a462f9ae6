//! Colour emoji in rendered frames: `samples/emoji.cast` (bash printing status lines, commit
//! subjects and file names with emoji) drawn with an installed colour font shows the emoji in
//! colour, not in the cell's foreground, in PNG stills and GIF frames alike, in both fonts.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on the unexpected

mod common;

use std::path::{Path, PathBuf};

use phux_encoders::font::color_emoji::ColorEmoji;
use phux_encoders::{
    render_cast, render_still, replay_until, screen_of, CellWidth, EncodeOptions, FontOptions,
    Rasterizer, RenderSettings, Rgb, StillFrame, Theme,
};

fn cast_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/emoji.cast")
}

/// Whether a colour emoji font is installed; under CI (`.ci/run` installs
/// `fonts-noto-color-emoji`) its absence fails the test instead of skipping it.
fn color_font() -> bool {
    if ColorEmoji::new(16, 16).available() {
        return true;
    }
    if std::env::var_os("CI").is_some_and(|v| !v.is_empty()) {
        panic!("no colour emoji font is installed, and under CI every test must run");
    }
    eprintln!("skipping: no colour emoji font (apt-get install fonts-noto-color-emoji)");
    false
}

fn options(font: FontOptions) -> EncodeOptions {
    EncodeOptions {
        font,
        ..EncodeOptions::default()
    }
}

fn fonts() -> [(&'static str, FontOptions); 2] {
    [
        ("smooth", FontOptions::smooth()),
        ("unifont", FontOptions::default()),
    ]
}

/// The pixel rectangles (x, y, width, height) of the last screen's wide cells showing `ch`.
fn cells_of(ch: char, font: &FontOptions) -> Vec<(u32, u32, u32, u32)> {
    let cast = phux_recorder::read_cast(cast_path()).unwrap();
    let (cols, rows) = (cast.header.cols, cast.header.rows);
    let screen = screen_of(&replay_until(&cast, None).unwrap(), cols, rows);
    let raster = Rasterizer::with_font(cols, rows, Theme::default(), 1, font).unwrap();
    let (cw, chh) = raster.cell_size();
    let mut out = Vec::new();
    for y in 0..rows {
        for x in 0..cols {
            let cell = screen.cell(x, y).unwrap();
            if cell.text == ch && cell.wide == CellWidth::Wide {
                out.push((u32::from(x) * cw, u32::from(y) * chh, 2 * cw, chh));
            }
        }
    }
    out
}

/// A pixel no mix of the theme's grey text and dark background can give: one channel far from
/// the others. A monochrome glyph has only blends of its cell's foreground and background.
fn colourful(p: Rgb) -> bool {
    let (lo, hi) = (p.0.min(p.1).min(p.2), p.0.max(p.1).max(p.2));
    hi - lo > 96
}

fn colourful_pixels(image: &[Rgb], width: u32, (x, y, w, h): (u32, u32, u32, u32)) -> usize {
    (y..y + h)
        .flat_map(|py| (x..x + w).map(move |px| image[(py * width + px) as usize]))
        .filter(|p| colourful(*p))
        .count()
}

fn read_png(path: &Path) -> (u32, Vec<Rgb>) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let bpp = info.color_type.samples();
    let pixels = buf[..info.buffer_size()]
        .chunks(bpp)
        .map(|p| Rgb(p[0], p[1], p[2]))
        .collect();
    (info.width, pixels)
}

/// How many frames of a GIF bring colours the global palette lacks. A frame may carry a local
/// table of fewer of the global colours because narrower codes make it smaller; only a table
/// with colours of its own says the global palette ran out.
fn frames_with_colours_of_their_own(path: &Path) -> usize {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options
        .read_info(std::fs::File::open(path).unwrap())
        .unwrap();
    let global: std::collections::HashSet<Vec<u8>> = decoder
        .global_palette()
        .unwrap_or_default()
        .chunks(3)
        .map(<[u8]>::to_vec)
        .collect();
    let mut n = 0;
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        if let Some(local) = &frame.palette {
            n += usize::from(local.chunks(3).any(|c| !global.contains(c)));
        }
    }
    n
}

#[test]
fn emoji_in_a_png_still_are_drawn_in_colour() {
    if !color_font() {
        return;
    }
    let cast = phux_recorder::read_cast(cast_path()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    for (name, font) in fonts() {
        let out = dir.path().join(format!("{name}.png"));
        render_still(&cast, &out, &options(font.clone()), true, StillFrame::Last).unwrap();
        let (width, image) = read_png(&out);
        for ch in ['✅', '🚀', '🐛'] {
            let cells = cells_of(ch, &font);
            assert!(!cells.is_empty(), "{ch} is on the last screen");
            for cell in cells {
                let n = colourful_pixels(&image, width, cell);
                assert!(n >= 8, "{name}: {ch} at {cell:?} has {n} colourful pixels");
            }
        }
    }
}

#[test]
fn emoji_in_gif_frames_are_drawn_in_colour_and_leave_the_palette_room() {
    if !color_font() {
        return;
    }
    let cast = phux_recorder::read_cast(cast_path()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    for (name, font) in fonts() {
        let out = dir.path().join(format!("{name}.gif"));
        let settings = RenderSettings {
            options: options(font.clone()),
            prefer_cast_theme: true,
            fps: 30,
            speed: 1.0,
            idle_limit: Some(2.0),
            last_frame_hold: 1.0,
        };
        render_cast(&cast, &out, &settings, &mut |_, _| {}).unwrap();
        let gif = common::decode_gif(&out);
        let image = gif.last_image();
        for cell in cells_of('🚀', &font) {
            let n = colourful_pixels(image, gif.width, cell);
            assert!(n >= 8, "{name}: 🚀 at {cell:?} has {n} colourful pixels");
        }
        // Every emoji of the session fits the one global palette beside the text's colours:
        // no frame needs a palette of its own.
        assert_eq!(frames_with_colours_of_their_own(&out), 0, "{name}");
    }
}

/// A cast whose program turned on grapheme clustering (mode 2027), so each of these is one
/// two-column cell: a flag, ZWJ sequences, skin tones, a keycap.
fn clustered_cast() -> phux_recorder::Cast {
    cast_printing("\x1b[?2027h🇯🇵 👩\u{200d}💻 👍🏽 1\u{fe0f}\u{20e3}")
}

/// A 20x2 recording whose program prints `text` at once.
fn cast_printing(text: &str) -> phux_recorder::Cast {
    phux_recorder::Cast {
        header: phux_recorder::Header::new(phux_recorder::CastVersion::V2, 20, 2),
        events: vec![phux_recorder::Event::new(
            0.1,
            phux_recorder::EventKind::Output(text.to_string()),
        )],
    }
}

#[test]
fn a_flag_a_zwj_sequence_a_skin_tone_and_a_keycap_are_each_the_fonts_one_glyph() {
    if !color_font() {
        return;
    }
    // Each drawn by a fresh source: emoji share colours, so a tile depends on those before it.
    let fresh = || ColorEmoji::new(16, 16);
    for (whole, first) in [
        ("🇯🇵", '🇯'),
        ("👩\u{200d}💻", '👩'),
        ("👍🏽", '👍'),
        ("1\u{fe0f}\u{20e3}", '1'),
    ] {
        let tile = fresh().sequence_tile(whole, 0).expect(whole);
        assert_ne!(
            Some(tile),
            fresh().tile(first, 0),
            "{whole} is not its first character"
        );
    }
    // End to end: the flag's cell shows Japan's flag, a red disc on white.
    let cell = cells_pixels(&clustered_cast(), &FontOptions::smooth(), 0, 2).into_iter();
    let (red, white) = cell.fold((0, 0), |(r, w), p| {
        let red = p.0 > 180 && p.1 < 100 && p.2 < 100;
        let white = p.0 > 220 && p.1 > 220 && p.2 > 220;
        (r + usize::from(red), w + usize::from(white))
    });
    assert!(
        red >= 4 && white >= 20,
        "{red} red and {white} white pixels"
    );
}

/// The same emoji printed the way most programs print them, without mode 2027: each part of a
/// sequence in wide cells of its own (a flag's two letters, the two people of a ZWJ sequence,
/// a hand and its skin tone).
fn unclustered_cast() -> phux_recorder::Cast {
    cast_printing("🇯🇵 👩\u{200d}💻 👍🏽")
}

/// The pixels of columns `x..x + w` of the first row of a still of `cast`.
fn cells_pixels(cast: &phux_recorder::Cast, font: &FontOptions, x: u32, w: u32) -> Vec<Rgb> {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("still.png");
    render_still(cast, &out, &options(font.clone()), true, StillFrame::Last).unwrap();
    let (width, image) = read_png(&out);
    let raster = Rasterizer::with_font(20, 2, Theme::default(), 1, font).unwrap();
    let (cw, ch) = raster.cell_size();
    (0..ch)
        .flat_map(|py| (x * cw..(x + w) * cw).map(move |px| (py, px)))
        .map(|(py, px)| image[(py * width + px) as usize])
        .collect()
}

#[test]
fn sequences_printed_without_clustering_are_the_fonts_one_glyph_and_their_other_cells_blank() {
    if !color_font() {
        return;
    }
    let (clustered, parts) = (clustered_cast(), unclustered_cast());
    for (name, font) in fonts() {
        // Clustered: 🇯🇵 at 0, 👩‍💻 at 3, 👍🏽 at 6. Unclustered: 🇯🇵 at 0 (🇵 at 2), 👩‍💻 at 5
        // (💻 at 7), 👍🏽 at 10 (🏽 at 12).
        for (whole_at, parts_at, rest_at) in [(0, 0, 2), (3, 5, 7), (6, 10, 12)] {
            assert!(
                cells_pixels(&parts, &font, parts_at, 2)
                    == cells_pixels(&clustered, &font, whole_at, 2),
                "{name}: the sequence at column {parts_at} is not the clustered one's glyph"
            );
            let rest = cells_pixels(&parts, &font, rest_at, 2);
            assert!(
                rest.iter().all(|p| *p == rest[0]),
                "{name}: the second part's cells at column {rest_at} are not blank"
            );
        }
    }
}
