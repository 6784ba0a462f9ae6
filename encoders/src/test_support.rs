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
