//! Compressing a GIF frame, on any thread: of the ways its one image can be written (global or
//! local palette, unchanged pixels transparent or continuing runs, rows in order or
//! interlaced), the one whose quick codes are shortest, compressed again harder; on a large
//! image, of the ways a sample of it finds promising.

use std::borrow::Cow;

use crate::gif_encoder::frame_bytes;
use crate::gif_lzw;
use crate::gif_palette::IndexedFrame;
use crate::gif_way_sample;
use crate::raster::Rect;

/// Rectangles at least this tall are also tried interlaced (shorter ones gain nothing).
const MIN_INTERLACED_ROWS: u32 = 16;
/// An image at least this large compresses its two row orders on two threads at once; below it
/// a thread's start costs more than it saves.
const PARALLEL_MIN_PIXELS: u64 = 200_000;

/// A frame ready to compress: its one image, and the palette's length before and after it.
pub(crate) struct GifJob {
    pub(crate) image: ImageJob,
    /// The first frame of the output (searched hardest: it is what a still image shows).
    pub(crate) first: bool,
    pub(crate) palette: (usize, usize),
}

/// A frame's image: its rectangle, how long it is shown, and the ways it can be written.
pub(crate) struct ImageJob {
    pub(crate) rect: Rect,
    pub(crate) delay: u64,
    pub(crate) ways: (Way, Option<Way>),
}

/// An image indexed against the global palette, and against a local one when that may pay.
pub(crate) struct Way {
    pub(crate) global: IndexedFrame,
    pub(crate) local: Option<IndexedFrame>,
}

/// A compressed frame: its image block, and the palette's length before and after.
pub(crate) struct GifDone {
    pub(crate) frame: gif::Frame<'static>,
    pub(crate) palette: (usize, usize),
}

/// A compression thread's tables: one encoder, and a second for a large image's other row
/// order when the frame is compressed alone.
pub(crate) struct GifCompressor {
    lzw: gif_lzw::LzwEncoder,
    spare: gif_lzw::LzwEncoder,
    /// Whether a large image's two row orders go to two threads (when frames are not already
    /// compressed on every core).
    orders_at_once: bool,
}

impl GifCompressor {
    pub(crate) fn new(orders_at_once: bool) -> Self {
        GifCompressor {
            lzw: gif_lzw::LzwEncoder::default(),
            spare: gif_lzw::LzwEncoder::default(),
            orders_at_once,
        }
    }
}

/// `job`'s image, compressed.
pub(crate) fn compress_job(c: &mut GifCompressor, job: GifJob) -> GifDone {
    let GifJob {
        image,
        first,
        palette,
    } = job;
    let frame = compress_image(c, image, first);
    GifDone { frame, palette }
}

/// `image` as an LZW-compressed GIF frame: of the ways to write it, the one that compresses
/// best, compressed again harder. The second way is given the bytes of the first to beat, and
/// is left unfinished as soon as it cannot: the same choice, without finishing a loser (an
/// unfinished frame is never smaller than the one it had to beat). A large image after the
/// first frame is compressed whole only the ways a sample of it finds promising
/// ([`gif_way_sample`]).
fn compress_image(c: &mut GifCompressor, image: ImageJob, first: bool) -> gif::Frame<'static> {
    let ImageJob { rect, delay, ways } = image;
    let pixels = u64::from(rect.width) * u64::from(rect.height);
    if !first
        && pixels >= gif_way_sample::SAMPLE_FROM_PIXELS
        && rect.height as usize >= gif_way_sample::MIN_ROWS
    {
        return sampled_way(c, rect, delay, ways).compress_harder(&mut c.lzw, first);
    }
    let quick = quick_way(c, rect, delay, ways.0, None);
    let best = match ways.1 {
        Some(runs) => {
            let runs = quick_way(c, rect, delay, runs, Some(quick.bytes()));
            if runs.bytes() < quick.bytes() {
                runs
            } else {
                quick
            }
        }
        None => quick,
    };
    best.compress_harder(&mut c.lzw, first)
}

/// A large image written the best of the ways its sample finds promising, each quickly
/// compressed whole and given the best so far to beat.
fn sampled_way(
    c: &mut GifCompressor,
    rect: Rect,
    delay: u64,
    ways: (Way, Option<Way>),
) -> QuickFrame {
    let mut indexed = Vec::with_capacity(4);
    for way in [Some(ways.0), ways.1].into_iter().flatten() {
        indexed.push(way.global);
        indexed.extend(way.local);
    }
    let orders: &[bool] = if rect.height >= MIN_INTERLACED_ROWS {
        &[false, true]
    } else {
        &[false]
    };
    let candidates: Vec<gif_way_sample::Candidate<'_>> = (indexed.iter())
        .flat_map(|i| {
            orders
                .iter()
                .map(move |&interlaced| gif_way_sample::Candidate {
                    indexed: i,
                    interlaced,
                })
        })
        .collect();
    let (width, rows) = (rect.width as usize, rect.height as usize);
    let frame_of = |at: usize| {
        let mut frame = image_frame(rect, delay, indexed[at / orders.len()].clone());
        if orders[at % orders.len()] {
            frame.interlaced = true;
            frame.buffer = Cow::Owned(interlace(&frame.buffer, width));
        }
        frame
    };
    let mut promising = gif_way_sample::promising(&mut c.lzw, &candidates, width, rows).into_iter();
    let first = frame_of(promising.next().unwrap_or(0));
    let mut best = QuickFrame::compress(&mut c.lzw, first, None);
    for at in promising {
        best = shorter(after(&mut c.lzw, &best, frame_of(at), None), best);
    }
    best
}

/// `way` as a quickly compressed frame, left unfinished once it cannot take fewer than `beat`
/// bytes: its global indices, or its local ones when those take fewer.
fn quick_way(
    c: &mut GifCompressor,
    rect: Rect,
    delay: u64,
    way: Way,
    beat: Option<u64>,
) -> QuickFrame {
    let frame = lzw_frame(c, rect, delay, way.global, beat);
    // The narrower codes pay for the local palette on some frames and not others: keep the
    // smaller.
    let beat = Some(beat.map_or(frame.bytes(), |b| b.min(frame.bytes())));
    match way.local.map(|l| lzw_frame(c, rect, delay, l, beat)) {
        Some(local) if local.bytes() < frame.bytes() => local,
        _ => frame,
    }
}

/// `indexed` as the LZW-compressed GIF frame of `rect`, shown `delay` hundredths:
/// its rows in order or interlaced, whichever compresses better (rows eight apart are often
/// more alike than neighbours in text: the same line of a glyph row further down).
fn lzw_frame(
    c: &mut GifCompressor,
    rect: Rect,
    delay: u64,
    indexed: IndexedFrame,
    beat: Option<u64>,
) -> QuickFrame {
    let frame = image_frame(rect, delay, indexed);
    let Some(interlaced) = (rect.height >= MIN_INTERLACED_ROWS).then(|| gif::Frame {
        interlaced: true,
        buffer: Cow::Owned(interlace(&frame.buffer, rect.width as usize)),
        ..frame.clone()
    }) else {
        return QuickFrame::compress(&mut c.lzw, frame, beat);
    };
    let pixels = u64::from(rect.width) * u64::from(rect.height);
    shorter_order(
        (&mut c.lzw, &mut c.spare),
        frame,
        interlaced,
        beat,
        c.orders_at_once && pixels >= PARALLEL_MIN_PIXELS,
    )
}

/// The GIF frame of `rect`, shown `delay` hundredths, holding `indexed`'s indices (in row
/// order) for its buffer.
fn image_frame(rect: Rect, delay: u64, indexed: IndexedFrame) -> gif::Frame<'static> {
    gif::Frame {
        delay: u16::try_from(delay).unwrap_or(u16::MAX),
        dispose: gif::DisposalMethod::Keep,
        left: clamp_u16(rect.x),
        top: clamp_u16(rect.y),
        width: clamp_u16(rect.width),
        height: clamp_u16(rect.height),
        transparent: indexed.transparent,
        palette: indexed.local_palette,
        buffer: Cow::Owned(indexed.indices),
        ..gif::Frame::default()
    }
}

/// Of a frame in row order and the same frame interlaced, the one whose quick codes are
/// shorter (row order on a tie). `at_once`: both compressed together on two threads, the
/// interlaced one not given the other's bytes to beat; it may then run to its end where it
/// would have stopped, but the choice is the same, since one left unfinished is never the
/// shorter. Where no thread can be started, one after the other on this one.
fn shorter_order(
    (lzw, spare): (&mut gif_lzw::LzwEncoder, &mut gif_lzw::LzwEncoder),
    frame: gif::Frame<'static>,
    interlaced: gif::Frame<'static>,
    beat: Option<u64>,
    at_once: bool,
) -> QuickFrame {
    if !at_once {
        let frame = QuickFrame::compress(lzw, frame, beat);
        return shorter(after(lzw, &frame, interlaced, beat), frame);
    }
    // The helper takes the interlaced frame from here, so that it stays ours if it never runs.
    let pending = std::sync::Mutex::new(Some(interlaced));
    let take = || {
        pending
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
    };
    std::thread::scope(|scope| {
        let helper = std::thread::Builder::new().spawn_scoped(scope, || {
            take().map(|f| QuickFrame::compress(spare, f, beat))
        });
        let frame = QuickFrame::compress(lzw, frame, beat);
        let other = match helper {
            Ok(helper) => helper
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            Err(_) => None,
        };
        match other.or_else(|| take().map(|f| after(lzw, &frame, f, beat))) {
            Some(other) => shorter(other, frame),
            None => frame,
        }
    })
}

/// `frame` compressed after `first`, given the smaller of `beat` and `first`'s bytes to beat.
fn after(
    lzw: &mut gif_lzw::LzwEncoder,
    first: &QuickFrame,
    frame: gif::Frame<'static>,
    beat: Option<u64>,
) -> QuickFrame {
    let beat = Some(beat.map_or(first.bytes(), |b| b.min(first.bytes())));
    QuickFrame::compress(lzw, frame, beat)
}

/// `other` when its codes are shorter than `frame`'s, else `frame`.
fn shorter(other: QuickFrame, frame: QuickFrame) -> QuickFrame {
    if other.frame.buffer.len() < frame.frame.buffer.len() {
        other
    } else {
        frame
    }
}

/// A frame compressed quickly, with the indices it was compressed from: of the ways to write an
/// image, only the one that compresses best is compressed again, harder.
struct QuickFrame {
    frame: gif::Frame<'static>,
    indices: Vec<u8>,
    /// How the quick codes were made, but for their bytes (which are in `frame`).
    quick: gif_lzw::Compressed,
}

impl QuickFrame {
    /// `frame` (holding indices) with its buffer replaced by greedy codes
    /// ([`gif_lzw::LzwEncoder::compress_quick`]).
    /// They are left unfinished once the frame cannot take fewer than `beat` bytes.
    fn compress(
        lzw: &mut gif_lzw::LzwEncoder,
        mut frame: gif::Frame<'static>,
        beat: Option<u64>,
    ) -> QuickFrame {
        let indices = std::mem::take(&mut frame.buffer).into_owned();
        let limit = beat.map_or(usize::MAX, |b| longest_smaller_than(&frame, b));
        let mut quick = lzw.compress_quick(&indices, limit);
        frame.buffer = Cow::Owned(std::mem::take(&mut quick.bytes));
        QuickFrame {
            frame,
            indices,
            quick,
        }
    }

    fn bytes(&self) -> u64 {
        frame_bytes(&self.frame)
    }

    /// The frame with the shortest codes [`gif_lzw`] finds (searching hardest when it is the
    /// output's `first`).
    fn compress_harder(self, lzw: &mut gif_lzw::LzwEncoder, first: bool) -> gif::Frame<'static> {
        let QuickFrame {
            mut frame,
            indices,
            mut quick,
        } = self;
        quick.bytes = std::mem::take(&mut frame.buffer).into_owned();
        if !quick.finished {
            // Never chosen (it lost to the frame it had to beat); finished here all the same.
            quick = lzw.compress_quick(&indices, usize::MAX);
        }
        frame.buffer = Cow::Owned(lzw.compress_harder(&indices, quick, first));
        frame
    }
}

/// `pixels` (rows of `width`) in GIF's interlaced order.
fn interlace(pixels: &[u8], width: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(pixels.len());
    push_interlaced(&mut out, pixels, width);
    out
}

/// `pixels` (rows of `width`) in GIF's interlaced order, after what `out` holds: every eighth
/// row from the first, every eighth from the fifth, every fourth from the third, then every
/// other from the second.
pub(crate) fn push_interlaced(out: &mut Vec<u8>, pixels: &[u8], width: usize) {
    let rows: Vec<&[u8]> = pixels.chunks(width.max(1)).collect();
    for (first, step) in [(0, 8), (4, 8), (2, 4), (1, 2)] {
        for row in rows.iter().skip(first).step_by(step) {
            out.extend_from_slice(row);
        }
    }
}

/// The longest LZW buffer (minimum code size byte included) with which `frame` (its local
/// palette counted) takes fewer than `beat` bytes in the file; 0 when none does.
fn longest_smaller_than(frame: &gif::Frame<'_>, beat: u64) -> usize {
    let fixed = frame_bytes(&gif::Frame {
        buffer: Cow::Borrowed(&[0]),
        palette: frame.palette.clone(),
        ..gif::Frame::default()
    });
    // A buffer of `data + 1` bytes adds `data + ceil(data / 255)` (its sub-blocks) to
    // `fixed`: the largest `data` keeping the sum under `beat`.
    let Some(room) = beat.checked_sub(fixed + 1) else {
        return 0;
    };
    let mut data = room * 255 / 256;
    while data + 1 + (data + 1).div_ceil(255) <= room {
        data += 1;
    }
    while data > 0 && data + data.div_ceil(255) > room {
        data -= 1;
    }
    usize::try_from(data + 1).unwrap_or(usize::MAX)
}

fn clamp_u16(v: u32) -> u16 {
    u16::try_from(v).unwrap_or(u16::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_large_image_written_the_way_its_sample_chooses_decodes_to_its_pixels() {
        let (width, height) = (400u32, 400u32);
        let noise = |x: u32, y: u32| (x.wrapping_mul(2_654_435_761) ^ y.wrapping_mul(40_503)) >> 7;
        // Rows eight apart alike: the interlaced order puts them side by side. Every row the
        // same: both orders are the same indices, and a tie goes to rows in order.
        let pictures = [("rows eight apart", true), ("every row the same", false)];
        for (what, interlaced) in pictures {
            let row = |y: u32| if interlaced { y % 8 } else { 0 };
            let indices: Vec<u8> = (0..height)
                .flat_map(|y| (0..width).map(move |x| (x, y)))
                .map(|(x, y)| (noise(x, row(y)) % 16) as u8)
                .collect();
            let way = Way {
                global: IndexedFrame {
                    indices: indices.clone(),
                    local_palette: None,
                    transparent: None,
                    exact: true,
                },
                local: None,
            };
            let rect = Rect {
                x: 0,
                y: 0,
                width,
                height,
            };
            assert!(u64::from(width * height) >= gif_way_sample::SAMPLE_FROM_PIXELS);
            let image = ImageJob {
                rect,
                delay: 10,
                ways: (way, None),
            };
            let frame = compress_image(&mut GifCompressor::new(false), image, false);
            assert_eq!(frame.interlaced, interlaced, "{what}");
            assert!(
                crate::test_support::decoded_indices(&frame) == indices,
                "{what}"
            );
        }
    }

    #[test]
    fn the_longest_buffer_that_still_beats_a_size_is_exact() {
        // Ways of writing a frame stop once they cannot beat the best so far; one byte off
        // here and a winner would be cut short (or a loser finished for nothing).
        for palette in [None, Some(vec![0u8; 3 * 5])] {
            let frame = |len: usize| gif::Frame {
                buffer: Cow::Owned(vec![0; len]),
                palette: palette.clone(),
                ..gif::Frame::default()
            };
            for beat in [0, 10, 30, 31, 300, 540, 541, 542, 100_000] {
                let longest = longest_smaller_than(&frame(1), beat);
                if longest == 0 {
                    assert!(frame_bytes(&frame(1)) >= beat, "{beat}");
                    continue;
                }
                assert!(frame_bytes(&frame(longest)) < beat, "{beat}: {longest}");
                assert!(
                    frame_bytes(&frame(longest + 1)) >= beat,
                    "{beat}: {longest}"
                );
            }
        }
    }

    #[test]
    fn both_row_orders_at_once_choose_what_one_after_the_other_does() {
        // Frames of a few colours in bands, noise and stripes: sometimes row order is
        // shorter, sometimes the interlaced one; with no size to beat, one to beat that both
        // miss, and one only the shorter can.
        let (width, height) = (64usize, 48usize);
        let mut seed = 7u32;
        let mut noise = || {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            u8::try_from(seed >> 29).unwrap_or(0)
        };
        let kinds: Vec<Vec<u8>> = vec![
            (0..width * height)
                .map(|i| u8::try_from(i / width / 6 % 4).unwrap_or(0))
                .collect(),
            (0..width * height).map(|_| noise()).collect(),
            (0..width * height)
                .map(|i| u8::try_from(i / width % 2 * 3).unwrap_or(0))
                .collect(),
        ];
        let (mut lzw, mut spare) = (
            gif_lzw::LzwEncoder::default(),
            gif_lzw::LzwEncoder::default(),
        );
        for indices in kinds {
            let frame = gif::Frame {
                width: 64,
                height: 48,
                buffer: Cow::Owned(indices.clone()),
                ..gif::Frame::default()
            };
            let interlaced = gif::Frame {
                interlaced: true,
                buffer: Cow::Owned(interlace(&indices, width)),
                ..frame.clone()
            };
            let alone = shorter_order(
                (&mut lzw, &mut spare),
                frame.clone(),
                interlaced.clone(),
                None,
                false,
            );
            for beat in [None, Some(10), Some(alone.bytes()), Some(alone.bytes() + 1)] {
                let chosen = |at_once, lzw: &mut _, spare: &mut _| {
                    let q = shorter_order(
                        (lzw, spare),
                        frame.clone(),
                        interlaced.clone(),
                        beat,
                        at_once,
                    );
                    (q.frame.interlaced, q.frame.buffer.into_owned())
                };
                assert_eq!(
                    chosen(true, &mut lzw, &mut spare),
                    chosen(false, &mut lzw, &mut spare),
                    "{beat:?}"
                );
            }
        }
    }
}
