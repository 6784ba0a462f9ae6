//! What the writers' tests share: screens pushed through a writer the way a recording pushes
//! them, and the checks every writer must pass.

use crate::pipeline::{prepare, FramePipeline, FrameWriter};
use crate::screen::RenderScreen;

/// The grid of [`push_scrolling_log`]: columns, and rows.
const LOG_COLS: u16 = 60;
const LOG_ROWS: u16 = 20;

/// The framed image's size in pixels for [`push_scrolling_log`] with `options`: what a
/// writer under test is created for.
pub(crate) fn scrolling_log_size(options: &crate::EncodeOptions) -> (u32, u32) {
    let (_, compositor) = prepare(LOG_COLS, LOG_ROWS, options).unwrap();
    (compositor.image().width, compositor.image().height)
}

/// A scrolling, coloured log (a new colour with each new line, so a GIF's palette grows as
/// frames come) pushed through a pipeline around `writer`: whether it was cut at the limit.
pub(crate) fn push_scrolling_log<W: FrameWriter>(
    writer: W,
    options: &crate::EncodeOptions,
) -> bool {
    use crate::screen::CellColor;
    let (raster, compositor) = prepare(LOG_COLS, LOG_ROWS, options).unwrap();
    let transparent = options.keep_unchanged_transparent;
    let mut pipeline = FramePipeline::start(raster, compositor, transparent, writer).unwrap();
    let mut screen = RenderScreen::blank(LOG_COLS, LOG_ROWS);
    for frame in 0u8..40 {
        for row in 0..LOG_ROWS {
            let line = u16::from(frame) + row;
            let colour = CellColor::Palette(u8::try_from(line % 200 + 16).unwrap());
            let text = format!("{line:>5} GET /api/items/{} 200 {}ms", line * 37, line % 91);
            let text = format!("{text:<width$}", width = usize::from(LOG_COLS));
            screen.put_str(0, row, &text, colour, CellColor::Default);
        }
        pipeline
            .add_frame(f64::from(frame) / 10.0, &screen)
            .unwrap();
    }
    pipeline.finish(5.0).unwrap().truncated
}

/// Checks that a writer makes the same file on 1, 2 and 3 compression threads, whole and cut
/// at the byte limit (the frames prepared past it, and a GIF's colours they brought, dropped):
/// `scrolling_log(threads, max_bytes)` is the file [`push_scrolling_log`] made and whether it
/// was cut. Returns the whole file.
pub(crate) fn assert_threads_change_nothing(
    scrolling_log: impl Fn(usize, u64) -> (Vec<u8>, bool),
) -> Vec<u8> {
    let (alone, cut) = scrolling_log(1, u64::MAX);
    assert!(!cut);
    for threads in [2, 3] {
        assert!(
            scrolling_log(threads, u64::MAX).0 == alone,
            "{threads} threads"
        );
    }
    let limit = alone.len() as u64 / 3;
    let (cut_alone, cut) = scrolling_log(1, limit);
    assert!(cut && cut_alone.len() as u64 <= limit);
    assert!(scrolling_log(3, limit) == (cut_alone, true));
    alone
}

/// Three screens ("first" at 0 s, "second" at 0.35 s, "third" at 0.5 s) through `sink`, ended
/// at 1 s: what the constant-rate writers' slot tests feed them.
pub(crate) fn three_screens_in_a_second<S: crate::animator::FrameSink>(
    mut sink: S,
) -> crate::summary::EncodeSummary {
    use crate::screen::CellColor;
    let mut screen = RenderScreen::blank(20, 4);
    for (t, text) in [(0.0, "first"), (0.35, "second"), (0.5, "third")] {
        screen.put_str(0, 0, text, CellColor::Default, CellColor::Default);
        sink.add_frame(t, &screen).unwrap();
    }
    sink.finish(1.0).unwrap()
}

/// A GIF frame (its buffer LZW codes over a palette of at most 256 colours) decoded to its
/// indices, in row order (an interlaced frame's rows put back in place).
pub(crate) fn decoded_indices(frame: &gif::Frame<'_>) -> Vec<u8> {
    let mut file = Vec::new();
    {
        let mut encoder =
            gif::Encoder::new(&mut file, frame.width, frame.height, &[0; 768]).unwrap();
        encoder.write_lzw_pre_encoded_frame(frame).unwrap();
    }
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(file.as_slice()).unwrap();
    decoder.read_next_frame().unwrap().unwrap().buffer.to_vec()
}

/// A prompt typed at the top and a clock ticking at the bottom of an 80x24 screen, one step at
/// each of `times` (seconds): every frame after the first changes two places far apart, the
/// frames a writer once split into several images.
pub(crate) fn prompt_and_clock(times: &[f64]) -> Vec<(f64, RenderScreen)> {
    use crate::screen::CellColor;
    let mut screen = RenderScreen::blank(80, 24);
    screen.put_str(0, 0, "$", CellColor::Default, CellColor::Default);
    let mut screens = vec![(0.0, screen.clone())];
    for (i, &t) in times.iter().enumerate() {
        let typed = char::from(b'a' + u8::try_from(i % 26).unwrap());
        let x = 2 + u16::try_from(i % 70).unwrap();
        screen.put_str(
            x,
            0,
            &typed.to_string(),
            CellColor::Default,
            CellColor::Default,
        );
        let clock = format!("12:00:{:02}", i % 60);
        screen.put_str(72, 23, &clock, CellColor::Palette(2), CellColor::Default);
        screens.push((t, screen.clone()));
    }
    screens
}

/// `screens` through an [`crate::Animator`] at `fps` around `sink`, the last frame held `hold`.
pub(crate) fn animate<S: crate::animator::FrameSink>(
    sink: S,
    screens: &[(f64, RenderScreen)],
    fps: u32,
    hold: f64,
) -> crate::summary::EncodeSummary {
    let mut animator = crate::Animator::new(sink, fps);
    for (t, screen) in screens {
        animator.push(*t, screen).unwrap();
    }
    animator.finish(hold).unwrap()
}

/// What a GIF file holds, block by block: its image descriptors, its graphic control
/// extensions, and each control's delay in hundredths.
#[derive(Debug, Default)]
pub(crate) struct GifBlocks {
    pub(crate) images: usize,
    pub(crate) delays: Vec<u64>,
}

/// Walks `file`'s blocks as a decoder does (header, colour tables, extensions with their
/// sub-blocks, image descriptors with their data), counting images and control extensions.
pub(crate) fn gif_blocks(file: &[u8]) -> GifBlocks {
    let table = |flags: u8| {
        if flags & 0x80 != 0 {
            3 << ((flags & 7) + 1)
        } else {
            0
        }
    };
    let skip_sub_blocks = |mut at: usize| {
        while file[at] != 0 {
            at += 1 + usize::from(file[at]);
        }
        at + 1
    };
    assert_eq!(&file[..3], b"GIF");
    let mut at = 13 + table(file[10]);
    let mut blocks = GifBlocks::default();
    loop {
        match file[at] {
            0x21 if file[at + 1] == 0xF9 => {
                let delay = u16::from_le_bytes([file[at + 4], file[at + 5]]);
                blocks.delays.push(u64::from(delay));
                at = skip_sub_blocks(at + 2);
            }
            0x21 => at = skip_sub_blocks(at + 2),
            0x2C => {
                blocks.images += 1;
                at = skip_sub_blocks(at + 10 + table(file[at + 9]) + 1);
            }
            0x3B => return blocks,
            other => panic!("not a GIF block: {other:#x} at {at}"),
        }
    }
}

/// The `fcTL` chunks of an APNG: each frame's delay in ms, in file order.
pub(crate) fn apng_frame_delays(file: &[u8]) -> Vec<u64> {
    let mut delays = Vec::new();
    let mut at = 8;
    while at + 8 <= file.len() {
        let len = u32::from_be_bytes(file[at..at + 4].try_into().unwrap()) as usize;
        if &file[at + 4..at + 8] == b"fcTL" {
            let data = &file[at + 8..at + 8 + len];
            let num = u16::from_be_bytes([data[20], data[21]]);
            let den = u16::from_be_bytes([data[22], data[23]]);
            delays.push(u64::from(num) * 1000 / u64::from(den.max(1)));
        }
        at += 12 + len;
    }
    delays
}

/// The delays a frame of each of `starts` (seconds), the last ending at `end`, gets on a grid
/// of `ticks_per_second`: its start and end rounded on the one grid, so rounding errors carry
/// forward and the delays sum to the rounded end.
pub(crate) fn carried_forward_delays(starts: &[f64], end: f64, ticks_per_second: f64) -> Vec<u64> {
    let tick = |t: f64| crate::timing::units_at(t, ticks_per_second);
    let ends = starts.iter().skip(1).copied().chain([end]);
    starts
        .iter()
        .zip(ends)
        .map(|(&s, e)| tick(e) - tick(s))
        .collect()
}
