//! Animated GIF output: changed rectangles only, exact palettes, LZW on the worker thread, and
//! the header written last so its global palette holds exactly the colours the frames use.
//! Until then the compressed frames go to an unnamed scratch file beside the output, not to
//! memory, so a recording of any length is encoded in the same few megabytes.

use std::borrow::Cow;
use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::animator::{FrameSink, SinkStatus};
use crate::error::EncodeError;
use crate::format::OutputFormat;
use crate::gif_lzw;
use crate::gif_palette::{GlobalPalette, IndexedFrame, UNCHANGED};
use crate::output_file::OutputFile;
use crate::patch_split::{SplitLimits, MAX_PIECES};
use crate::pipeline::{Fit, FramePatch, FramePipeline, FrameWriter, WriterTotals};
use crate::screen::RenderScreen;
use crate::summary::{EncodeOptions, EncodeSummary};
use crate::timing::DelayClock;

/// The loop extension after the palette (an animation's; a still image has none).
const LOOP_EXTENSION: u64 = 19;
/// Bytes of everything but the palette in the header: screen descriptor and loop extension.
const HEADER_FIXED: u64 = 13 + LOOP_EXTENSION;
/// The graphic control extension before each frame (its delay; a still image has none).
const CONTROL_EXTENSION: u64 = 8;
/// Graphic control extension plus image descriptor, per frame.
const FRAME_FIXED: u64 = CONTROL_EXTENSION + 10;
/// The trailer byte.
const TRAILER: u64 = 1;
/// The fewest unchanged pixels between two changes for them to be written as separate
/// rectangles (the best of 512 to 16384 on the sample casts, measured with
/// `cargo run --release -p phux-encoders --example size_bench`).
const MIN_GAP_PIXELS: u64 = 1024;
/// Rectangles at least this tall are also tried interlaced (shorter ones gain nothing).
const MIN_INTERLACED_ROWS: u32 = 16;
/// How long each but the last rectangle of a split frame is shown, in hundredths: the shortest
/// delay browsers honour (Chromium and Firefox show 0 and 1 as 10, which would slow the
/// animation down), and too short to see the half-drawn frame.
const LEAD_DELAY: u64 = 2;

/// Encodes screens as an animated GIF; feed it through an [`crate::Animator`].
#[derive(Debug)]
pub struct GifEncoder {
    pipeline: FramePipeline,
    path: PathBuf,
}

impl GifEncoder {
    /// Prepares a `cols`×`rows` GIF at `path` (written to a temp file, renamed on finish).
    pub fn create(
        path: &Path,
        cols: u16,
        rows: u16,
        options: &EncodeOptions,
    ) -> Result<GifEncoder, EncodeError> {
        let (raster, compositor) = crate::pipeline::prepare(cols, rows, options)?;
        let (w, h) = (compositor.image().width, compositor.image().height);
        let too_big = || EncodeError::BadDimensions {
            width: w.into(),
            height: h.into(),
            max: u64::from(u16::MAX),
        };
        let width = u16::try_from(w).map_err(|_| too_big())?;
        let height = u16::try_from(h).map_err(|_| too_big())?;
        let out = OutputFile::create(path, options.overwrite)?;
        let scratch = out.scratch()?;
        let split = options.keep_unchanged_transparent && options.split_far_changes;
        let (max_bytes, size) = (options.max_bytes, (width, height));
        let writer = GifWriter::new(out, scratch, size, max_bytes, split)?;
        Ok(GifEncoder {
            pipeline: FramePipeline::start(
                raster,
                compositor,
                options.keep_unchanged_transparent,
                writer,
            )?,
            path: path.to_path_buf(),
        })
    }
}

impl FrameSink for GifEncoder {
    /// 50: GIF delays count hundredths, and browsers slow down delays under 2/100 s.
    fn max_fps(&self) -> u32 {
        50
    }

    fn add_frame(
        &mut self,
        start_secs: f64,
        screen: &RenderScreen,
    ) -> Result<SinkStatus, EncodeError> {
        self.pipeline.add_frame(start_secs, screen)
    }

    fn finish(self, end_secs: f64) -> Result<EncodeSummary, EncodeError> {
        self.pipeline
            .finish_summary(end_secs, self.path, OutputFormat::Gif)
    }
}

/// The worker-side GIF writer: compressed frames go to the scratch file as they come, and are
/// copied behind the header once the palette is final.
struct GifWriter {
    out: OutputFile,
    width: u16,
    height: u16,
    max_bytes: u64,
    palette: GlobalPalette,
    /// A GIF stream into the scratch file; only its frame blocks are kept.
    body: gif::Encoder<BufWriter<File>>,
    /// Where the frame blocks start in the scratch file (after its own throwaway header).
    body_start: u64,
    frames: u32,
    body_bytes: u64,
    clock: DelayClock,
    /// Write far-apart changes as separate rectangles.
    split: bool,
    lzw: gif_lzw::LzwEncoder,
}

impl GifWriter {
    fn new(
        out: OutputFile,
        scratch: File,
        (width, height): (u16, u16),
        max_bytes: u64,
        split: bool,
    ) -> Result<Self, EncodeError> {
        // Any global palette will do for the throwaway header: frames without a local palette
        // are accepted only when there is one.
        let mut body = gif::Encoder::new(BufWriter::new(scratch), width, height, &[0; 6])?;
        body.set_repeat(gif::Repeat::Infinite)?;
        let body_start = header_bytes(2);
        Ok(GifWriter {
            out,
            width,
            height,
            max_bytes,
            palette: GlobalPalette::default(),
            body,
            body_start,
            frames: 0,
            body_bytes: 0,
            clock: DelayClock::new(100),
            split,
            lzw: gif_lzw::LzwEncoder::default(),
        })
    }
}

impl GifWriter {
    /// The pieces `patch` is written as when it is shown for `delay` hundredths: several
    /// rectangles only when each can be shown [`LEAD_DELAY`], never for the first frame.
    fn split(&self, patch: &FramePatch, delay: u64) -> Option<Vec<FramePatch>> {
        if !self.split || self.frames == 0 {
            return None;
        }
        let fits = usize::try_from(delay / LEAD_DELAY).unwrap_or(MAX_PIECES);
        patch.pieces(SplitLimits {
            max_pieces: fits.clamp(1, MAX_PIECES),
            min_gap: MIN_GAP_PIXELS,
        })
    }

    /// One piece as an LZW-compressed GIF frame shown for `delay` hundredths: of the ways to
    /// write its unchanged pixels, the one that compresses best.
    fn encode(&mut self, patch: &FramePatch, delay: u64) -> gif::Frame<'static> {
        let quick = self.quick_encode(patch, delay);
        quick.compress_harder(&mut self.lzw)
    }

    /// [`GifWriter::encode`]'s choice, made on quickly compressed frames. Each way after the
    /// first is given the bytes of the best so far to beat, and is left unfinished as soon as
    /// it cannot: the same choice, without finishing the losers (an unfinished frame is never
    /// smaller than the one it had to beat).
    fn quick_encode(&mut self, patch: &FramePatch, delay: u64) -> QuickFrame {
        let Some(changed) = &patch.changed else {
            return self.encode_pixels(patch, delay, &patch.pixels, None);
        };
        let transparent = keyed(patch, Unchanged::Transparent);
        let transparent = self.encode_pixels(patch, delay, &transparent, None);
        if !changed.contains(&false) {
            return transparent;
        }
        let runs = keyed(patch, Unchanged::ContinueRuns);
        let runs = self.encode_pixels(patch, delay, &runs, Some(transparent.bytes()));
        if runs.bytes() < transparent.bytes() {
            runs
        } else {
            transparent
        }
    }

    /// `pixels` (`patch`'s, some replaced by [`UNCHANGED`]) as a GIF frame, left unfinished
    /// once it cannot take fewer than `beat` bytes.
    fn encode_pixels(
        &mut self,
        patch: &FramePatch,
        delay: u64,
        pixels: &[u32],
        beat: Option<u64>,
    ) -> QuickFrame {
        let mut indexed = self.palette.index_frame(pixels);
        if !indexed.exact {
            // Past 256 colours the cube cannot keep "unchanged" apart: write real pixels.
            indexed = self.palette.index_frame(&patch.pixels);
        }
        let compact = self.palette.compact(&indexed);
        let frame = lzw_frame(&mut self.lzw, patch, delay, indexed, beat);
        // The narrower codes pay for the local palette on some frames and not others: keep
        // the smaller.
        let beat = Some(beat.map_or(frame.bytes(), |b| b.min(frame.bytes())));
        match compact.map(|c| lzw_frame(&mut self.lzw, patch, delay, c, beat)) {
            Some(local) if local.bytes() < frame.bytes() => local,
            _ => frame,
        }
    }
}

/// How a frame's unchanged pixels are written; either way the composed image is the same.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unchanged {
    /// All as the transparent index: long runs of it where little changed.
    Transparent,
    /// As their own colour where that continues the run before them (the background around a
    /// redrawn glyph stays one run), as the transparent index otherwise.
    ContinueRuns,
}

/// `patch`'s pixels with its unchanged ones written as `how` says.
fn keyed(patch: &FramePatch, how: Unchanged) -> Vec<u32> {
    let mut previous = UNCHANGED;
    (patch.pixels.iter().enumerate())
        .map(|(i, &p)| {
            let keep = !patch.unchanged(i) || (how == Unchanged::ContinueRuns && previous == p);
            previous = if keep { p } else { UNCHANGED };
            previous
        })
        .collect()
}

/// `indexed` as the LZW-compressed GIF frame of `patch`'s rectangle, shown `delay` hundredths:
/// its rows in order or interlaced, whichever compresses better (rows eight apart are often
/// more alike than neighbours in text: the same line of a glyph row further down).
fn lzw_frame(
    lzw: &mut gif_lzw::LzwEncoder,
    patch: &FramePatch,
    delay: u64,
    indexed: IndexedFrame,
    beat: Option<u64>,
) -> QuickFrame {
    let frame = gif::Frame {
        delay: u16::try_from(delay).unwrap_or(u16::MAX),
        dispose: gif::DisposalMethod::Keep,
        left: clamp_u16(patch.rect.x),
        top: clamp_u16(patch.rect.y),
        width: clamp_u16(patch.rect.width),
        height: clamp_u16(patch.rect.height),
        transparent: indexed.transparent,
        palette: indexed.local_palette,
        buffer: Cow::Owned(indexed.indices),
        ..gif::Frame::default()
    };
    let interlaced = (patch.rect.height >= MIN_INTERLACED_ROWS).then(|| gif::Frame {
        interlaced: true,
        buffer: Cow::Owned(interlace(&frame.buffer, patch.rect.width as usize)),
        ..frame.clone()
    });
    let frame = QuickFrame::compress(lzw, frame, beat);
    let beat = Some(beat.map_or(frame.bytes(), |b| b.min(frame.bytes())));
    match interlaced.map(|other| QuickFrame::compress(lzw, other, beat)) {
        Some(other) if other.frame.buffer.len() < frame.frame.buffer.len() => other,
        _ => frame,
    }
}

/// A frame compressed quickly, with the indices it was compressed from: of the ways to write a
/// piece, only the one that compresses best is compressed again, harder.
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

    /// The frame with the shortest codes [`gif_lzw`] finds.
    fn compress_harder(self, lzw: &mut gif_lzw::LzwEncoder) -> gif::Frame<'static> {
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
        frame.buffer = Cow::Owned(lzw.compress_harder(&indices, quick));
        frame
    }
}

/// `pixels` (rows of `width`) in GIF's interlaced order: every eighth row from the first,
/// every eighth from the fifth, every fourth from the third, then every other from the second.
fn interlace(pixels: &[u8], width: usize) -> Vec<u8> {
    let rows: Vec<&[u8]> = pixels.chunks(width.max(1)).collect();
    let mut out = Vec::with_capacity(pixels.len());
    for (first, step) in [(0, 8), (4, 8), (2, 4), (1, 2)] {
        for row in rows.iter().skip(first).step_by(step) {
            out.extend_from_slice(row);
        }
    }
    out
}

impl FrameWriter for GifWriter {
    fn write(&mut self, patch: &FramePatch, start: f64, end: f64) -> Result<Fit, EncodeError> {
        let palette_before = self.palette.len();
        let delay = self.clock.peek(start, end);
        let split = self.split(patch, delay);
        let pieces = split.as_deref().unwrap_or(std::slice::from_ref(patch));
        // The leading pieces flash by; the last one carries the rest of the frame's delay.
        let lead = LEAD_DELAY * (pieces.len() as u64 - 1);
        let frames: Vec<gif::Frame<'static>> = (pieces.iter().enumerate())
            .map(|(i, piece)| {
                let last = i + 1 == pieces.len();
                self.encode(piece, if last { delay - lead } else { LEAD_DELAY })
            })
            .collect();
        let size: u64 = frames.iter().map(frame_bytes).sum();
        let total = header_bytes(self.palette.len()) + self.body_bytes + size + TRAILER;
        if total > self.max_bytes {
            self.palette.truncate(palette_before);
            if self.frames == 0 {
                return Err(EncodeError::MaxBytesTooSmall {
                    max_bytes: self.max_bytes,
                    needed: total,
                });
            }
            return Ok(Fit::WouldExceed);
        }
        for frame in &frames {
            self.body.write_lzw_pre_encoded_frame(frame)?;
            self.clock.commit(u64::from(frame.delay));
            self.frames += 1;
        }
        self.body_bytes += size;
        Ok(Fit::Written)
    }

    fn finish(mut self) -> Result<WriterTotals, EncodeError> {
        if self.frames == 0 {
            return Err(EncodeError::NoFrames);
        }
        let scratch_error = |e: std::io::Error| EncodeError::io("read back", "the scratch file", e);
        let mut scratch = self
            .body
            .into_inner()?
            .into_inner()
            .map_err(|e| scratch_error(e.into_error()))?;
        // A still image (one frame) is shown once and for good: it needs neither the loop
        // extension nor its frame's delay, 27 bytes a one-screen GIF is better without.
        let still = self.frames == 1;
        let skipped = if still { CONTROL_EXTENSION } else { 0 };
        scratch
            .seek(SeekFrom::Start(self.body_start))
            .map_err(scratch_error)?;
        let mut introducer = [0u8; 2];
        scratch.read_exact(&mut introducer).map_err(scratch_error)?;
        if introducer != [0x21, 0xF9] {
            return Err(EncodeError::Internal(
                "the first frame does not start with its control extension",
            ));
        }
        scratch
            .seek(SeekFrom::Start(self.body_start + skipped))
            .map_err(scratch_error)?;
        let palette = self.palette.rgb_bytes();
        let (width, height) = (self.width, self.height);
        let file = BufWriter::new(self.out.file());
        let mut encoder = gif::Encoder::new(file, width, height, &palette)?;
        if !still {
            encoder.set_repeat(gif::Repeat::Infinite)?;
        }
        let body_bytes = self.body_bytes - skipped;
        let copied = std::io::copy(&mut (&mut scratch).take(body_bytes), encoder.get_mut());
        if copied.map_err(scratch_error)? != body_bytes {
            return Err(EncodeError::Internal(
                "the scratch file is shorter than its frames",
            ));
        }
        let mut file = encoder.into_inner()?;
        let flushed = file.flush();
        drop(file);
        flushed.map_err(|e| self.out.write_error(e))?;
        // The byte limit relies on predicting sizes; refuse a file where the prediction was off.
        let loop_extension = if still { LOOP_EXTENSION } else { 0 };
        let expected = header_bytes(self.palette.len()) - loop_extension + body_bytes + TRAILER;
        let position = self.out.file().stream_position();
        if position.map_err(|e| self.out.write_error(e))? != expected {
            return Err(EncodeError::Internal(
                "GIF size accounting disagrees with the file",
            ));
        }
        let duration_ms = self.clock.total_units() * 10;
        let bytes = self.out.persist()?;
        Ok(WriterTotals { bytes, duration_ms })
    }
}

fn clamp_u16(v: u32) -> u16 {
    u16::try_from(v).unwrap_or(u16::MAX)
}

/// Entries a colour table of `n` colours occupies once padded to a power of two (at least 2).
fn table_entries(n: usize) -> u64 {
    n.clamp(2, 256).next_power_of_two() as u64
}

/// Header bytes with a global palette of `n` colours.
fn header_bytes(n: usize) -> u64 {
    HEADER_FIXED + 3 * table_entries(n)
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

/// Bytes a pre-encoded frame takes in the file: its blocks, local palette and data sub-blocks.
fn frame_bytes(frame: &gif::Frame<'_>) -> u64 {
    let local = frame
        .palette
        .as_ref()
        .map_or(0, |p| 3 * table_entries(p.len() / 3));
    let data = frame.buffer.len().saturating_sub(1) as u64;
    FRAME_FIXED + local + 1 + data + data.div_ceil(255) + 1
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
