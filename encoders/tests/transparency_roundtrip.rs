//! The size levers change bytes, never pictures: every sample cast rendered with unchanged
//! pixels written as transparent (GIF's transparent index, APNG's alpha 0 blended over) and
//! each frame cropped to the bounding box of its changes decodes, composed frame by frame, to
//! exactly the frames rendered without them, one image per frame shown for the same time,
//! with and without a frame around the grid, in the bitmap and the antialiased font, and the
//! file is no larger.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

mod common;

use common::{decode_apng, decode_gif, encode, Animation};
use phux_encoders::{
    render_cast, CellColor, EncodeOptions, FontOptions, FrameChrome, RenderScreen, RenderSettings,
    Rgb, WindowBar,
};
use std::path::{Path, PathBuf};

fn samples() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples");
    let mut casts: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cast"))
        .collect();
    casts.sort();
    assert!(casts.len() >= 3, "the samples are there");
    casts
}

fn render(cast: &Path, out: &Path, levers: bool, chrome: FrameChrome, font: &FontOptions) -> u64 {
    let cast = phux_recorder::read_cast(cast).unwrap();
    let settings = RenderSettings {
        options: EncodeOptions {
            max_bytes: u64::MAX,
            chrome,
            font: font.clone(),
            keep_unchanged_transparent: levers,
            ..EncodeOptions::default()
        },
        prefer_cast_theme: true,
        fps: 30,
        speed: 1.0,
        idle_limit: Some(2.0),
        last_frame_hold: 1.0,
    };
    render_cast(&cast, out, &settings, &mut |_, _| {})
        .unwrap()
        .bytes
}

/// `trick` shows what `plain` shows, frame for frame: the same size, the same number of
/// images, each the same composed picture for the same time. (The levers never write a frame
/// as more than one image: a frame written as several shows, between them, screens that
/// never were.)
fn assert_same_pictures(plain: &Animation, trick: &Animation, what: &str) {
    assert_eq!(
        (plain.width, plain.height),
        (trick.width, trick.height),
        "{what}"
    );
    assert_eq!(plain.total_ms(), trick.total_ms(), "{what}: length");
    assert_eq!(plain.frames.len(), trick.frames.len(), "{what}: frames");
    for (i, (p, t)) in plain.frames.iter().zip(&trick.frames).enumerate() {
        assert_eq!(p.delay_ms, t.delay_ms, "{what}: delay of frame {i}");
        assert!(p.image == t.image, "{what}: frame {i} differs");
    }
}

fn framed() -> FrameChrome {
    FrameChrome {
        padding: 8,
        margin: 6,
        margin_fill: Some(Rgb(0x67, 0x4e, 0xff)),
        window_bar: Some(WindowBar::Colorful),
        border_radius: 10,
        ..FrameChrome::default()
    }
}

/// The frame and font combinations every sample is rendered in.
fn looks() -> [(&'static str, FrameChrome, FontOptions); 3] {
    [
        ("bare", FrameChrome::default(), FontOptions::default()),
        ("framed", framed(), FontOptions::default()),
        ("smooth framed", framed(), FontOptions::smooth()),
    ]
}

#[test]
fn every_gif_frame_equals_the_frame_rendered_without_the_levers() {
    let dir = tempfile::tempdir().unwrap();
    for cast in samples() {
        for (label, chrome, font) in looks() {
            let plain = dir.path().join("plain.gif");
            let trick = dir.path().join("trick.gif");
            let plain_bytes = render(&cast, &plain, false, chrome, &font);
            let trick_bytes = render(&cast, &trick, true, chrome, &font);
            let what = format!("{} {label} gif", cast.display());
            assert_same_pictures(&decode_gif(&plain), &decode_gif(&trick), &what);
            assert!(
                trick_bytes <= plain_bytes,
                "{what}: {trick_bytes} > {plain_bytes}"
            );
        }
    }
}

#[test]
fn corpus_gifs_of_whole_screen_redraws_equal_the_frames_rendered_without_the_levers() {
    // Frames past 64K pixels take the encoder's other paths (a lookahead trial, ways of
    // writing a frame left unfinished once they lose): vim's split redraws the whole screen.
    let dir = tempfile::tempdir().unwrap();
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/corpus");
    for name in ["vim-80x24.cast", "cjk-80x24.cast"] {
        let cast = corpus.join(name);
        let font = FontOptions::smooth();
        let plain = dir.path().join("plain.gif");
        let trick = dir.path().join("trick.gif");
        render(&cast, &plain, false, FrameChrome::default(), &font);
        render(&cast, &trick, true, FrameChrome::default(), &font);
        let (plain, trick) = (decode_gif(&plain), decode_gif(&trick));
        assert!(
            u64::from(trick.width) * u64::from(trick.height) > 1 << 16,
            "{name}"
        );
        assert_same_pictures(&plain, &trick, name);
    }
}

#[test]
fn every_apng_frame_equals_the_frame_rendered_without_the_levers() {
    let dir = tempfile::tempdir().unwrap();
    for cast in samples() {
        for (label, chrome, font) in looks() {
            let plain = dir.path().join("plain.png");
            let trick = dir.path().join("trick.png");
            render(&cast, &plain, false, chrome, &font);
            render(&cast, &trick, true, chrome, &font);
            let what = format!("{} {label} apng", cast.display());
            assert_same_pictures(&decode_apng(&plain), &decode_apng(&trick), &what);
        }
    }
}

/// A prompt typed at the top and a clock ticking at the bottom of an 80x24 screen.
/// Each step types one character and ticks the clock's last digit.
fn prompt_and_clock() -> Vec<(f64, RenderScreen)> {
    let mut screen = RenderScreen::blank(80, 24);
    let green = CellColor::Palette(2);
    screen.put_str(0, 0, "$", CellColor::Default, CellColor::Default);
    screen.put_str(72, 23, "12:00:00", green, CellColor::Default);
    let mut screens = vec![(0.0, screen.clone())];
    for (i, typed) in "ls-la!".chars().enumerate() {
        let x = 2 + u16::try_from(i).unwrap();
        screen.put_str(
            x,
            0,
            &typed.to_string(),
            CellColor::Default,
            CellColor::Default,
        );
        screen.put_str(79, 23, &(i + 1).to_string(), green, CellColor::Default);
        screens.push(((i + 1) as f64 * 0.5, screen.clone()));
    }
    screens
}

#[test]
fn far_apart_changes_are_one_image_spanning_both_never_a_torn_frame() {
    // Pins issue 51: a frame whose changes lay far apart was written as one image per change,
    // the first shown 20 ms, so viewers saw the new prompt beside the old clock.
    let dir = tempfile::tempdir().unwrap();
    let screens = prompt_and_clock();
    for (ext, decode) in [
        ("gif", decode_gif as fn(&Path) -> Animation),
        ("png", decode_apng),
    ] {
        let (plain, trick) = (
            dir.path().join(format!("plain.{ext}")),
            dir.path().join(format!("trick.{ext}")),
        );
        let options = |transparent| EncodeOptions {
            keep_unchanged_transparent: transparent,
            ..EncodeOptions::default()
        };
        let whole = encode(&plain, &screens, &options(false), 30, 1.0);
        let cropped = encode(&trick, &screens, &options(true), 30, 1.0);
        let (plain, trick) = (decode(&plain), decode(&trick));
        assert_same_pictures(&plain, &trick, ext);
        // The blank start, then each step as one image from the prompt down to the clock,
        // shown for the step's whole half second.
        assert_eq!(trick.frames.len(), 1 + 6, "{ext}");
        assert_eq!(cropped.frames, 1 + 6, "{ext}: frames reported = decoded");
        for step in &trick.frames[1..] {
            assert!(
                step.y < 16 && step.y + step.height > 23 * 16,
                "{ext}: one image spans the prompt and the clock"
            );
            assert!(step.width < 80 * 8, "{ext}: cropped to the changed columns");
        }
        let delays: Vec<u64> = trick.frames[..6].iter().map(|f| f.delay_ms).collect();
        assert_eq!(delays, vec![500; 6], "{ext}: every step its own time");
        // APNG pays a fourth byte a pixel for its alpha, which this sparse a change does not
        // earn back (docs/encoders.md); GIF's transparent index costs nothing.
        if ext == "gif" {
            assert!(
                cropped.bytes < whole.bytes,
                "{ext}: {} >= {}",
                cropped.bytes,
                whole.bytes
            );
        }
    }
}

#[test]
fn a_gif_frame_with_unchanged_pixels_carries_a_transparent_index() {
    let dir = tempfile::tempdir().unwrap();
    let cast = samples()
        .into_iter()
        .find(|p| p.ends_with("shell.cast"))
        .unwrap();
    let out = dir.path().join("t.gif");
    render(
        &cast,
        &out,
        true,
        FrameChrome::default(),
        &FontOptions::default(),
    );
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options
        .read_info(std::fs::File::open(&out).unwrap())
        .unwrap();
    let mut with_index = 0;
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        if let Some(t) = frame.transparent {
            with_index += 1;
            assert!(frame.buffer.contains(&t));
        }
    }
    assert!(with_index > 0, "some frame uses the transparent index");
}

/// How many of the GIF's frames are stored interlaced.
fn interlaced_frames(path: &Path) -> usize {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options
        .read_info(std::fs::File::open(path).unwrap())
        .unwrap();
    let mut count = 0;
    // The frame `read_next_frame` returns is already deinterlaced (and says so).
    while let Some(info) = decoder.next_frame_info().unwrap() {
        count += usize::from(info.interlaced);
        let mut pixels = vec![0; decoder.buffer_size()];
        decoder.read_into_buffer(&mut pixels).unwrap();
    }
    count
}

#[test]
fn interlaced_gif_frames_decode_to_the_pictures_the_apng_shows() {
    // The APNG is never interlaced: an independent picture of the same screens.
    let dir = tempfile::tempdir().unwrap();
    let mut interlaced = 0;
    for cast in samples() {
        let (gif, png) = (dir.path().join("a.gif"), dir.path().join("a.png"));
        let padded = FrameChrome {
            padding: phux_encoders::DEFAULT_PADDING,
            ..FrameChrome::default()
        };
        render(&cast, &gif, true, padded, &FontOptions::smooth());
        render(&cast, &png, true, padded, &FontOptions::smooth());
        interlaced += interlaced_frames(&gif);
        let (gif, png) = (decode_gif(&gif), decode_apng(&png));
        let last = |a: &Animation| a.frames.last().unwrap().image.clone();
        assert!(
            last(&gif) == last(&png),
            "{}: last pictures differ",
            cast.display()
        );
    }
    assert!(interlaced > 0, "some frames compress better interlaced");
}
