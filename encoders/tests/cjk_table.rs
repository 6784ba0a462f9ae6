//! The box table at the end of `samples/corpus/cjk-80x24.cast` (CJK in its cells, colour in
//! two of them): each of its three vertical lines runs unbroken between the top border and the
//! bottom one in the last frame of the GIF and the APNG, in both fonts, as `phux rec` draws
//! them (padded). Issue 34 reported the bars lost in that frame: every pixel of them is there
//! (this test passes on the encoder as it was then); they are one pixel wide, and the image
//! viewer they were looked at with shrinks a 656-pixel-wide frame, which drops one-pixel
//! lines next to two-pixel CJK strokes. At 1:1 (a crop of the table) they show.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on the unexpected

mod common;

use std::path::Path;

use phux_encoders::{
    render_cast, replay_until, screen_of, EncodeOptions, FontOptions, FrameChrome, Rasterizer,
    RenderSettings, Rgb, DEFAULT_PADDING,
};

/// The table's corners: (column, row) of `┌` and `┘` on the cast's last screen.
fn table_corners(cast: &phux_recorder::Cast) -> ((u16, u16), (u16, u16)) {
    let (cols, rows) = (cast.header.cols, cast.header.rows);
    let screen = screen_of(&replay_until(cast, None).unwrap(), cols, rows);
    let find = |ch: char| {
        (0..rows)
            .rev()
            .flat_map(|y| (0..cols).map(move |x| (x, y)))
            .find(|&(x, y)| screen.cell(x, y).unwrap().text == ch)
            .unwrap()
    };
    (find('┌'), find('┘'))
}

#[test]
fn the_cjk_box_tables_vertical_bars_run_unbroken_in_the_last_frame() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/corpus");
    let cast = phux_recorder::read_cast(corpus.join("cjk-80x24.cast")).unwrap();
    let ((left, top), (right, bottom)) = table_corners(&cast);
    // The column of each vertical line: the borders and the one after the first column.
    let middle = left + 9;
    let dir = tempfile::tempdir().unwrap();
    let fonts = [
        ("smooth", FontOptions::smooth()),
        ("unifont", FontOptions::default()),
    ];
    for (name, font) in fonts {
        let raster = Rasterizer::with_font(80, 24, Default::default(), 1, &font).unwrap();
        let (cw, ch) = raster.cell_size();
        let options = EncodeOptions {
            font,
            chrome: FrameChrome {
                padding: DEFAULT_PADDING,
                ..FrameChrome::default()
            },
            ..EncodeOptions::default()
        };
        let settings = RenderSettings {
            options,
            prefer_cast_theme: true,
            fps: 30,
            speed: 1.0,
            idle_limit: Some(2.0),
            last_frame_hold: 1.0,
        };
        for fmt in ["gif", "png"] {
            let out = dir.path().join(format!("{name}.{fmt}"));
            render_cast(&cast, &out, &settings, &mut |_, _| {}).unwrap();
            let anim = if fmt == "gif" {
                common::decode_gif(&out)
            } else {
                common::decode_apng(&out)
            };
            let image = anim.last_image();
            let bg: Rgb = anim.pixel(image, 0, 0);
            let pad = DEFAULT_PADDING;
            // Every pixel row between the top border's row and the bottom one's.
            let (y0, y1) = (
                pad + u32::from(top + 1) * ch,
                pad + u32::from(bottom) * ch - 1,
            );
            for col in [left, middle, right] {
                let x0 = pad + u32::from(col) * cw;
                let unbroken =
                    (x0..x0 + cw).any(|x| (y0..=y1).all(|y| anim.pixel(image, x, y) != bg));
                assert!(
                    unbroken,
                    "{name} {fmt}: no unbroken line in column {col} between rows {top} and {bottom}"
                );
            }
        }
    }
}
