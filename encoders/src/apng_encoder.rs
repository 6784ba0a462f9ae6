//! Animated PNG output: truecolour RGB, millisecond timing, changed rectangles only, streamed to
//! the file with `acTL`'s frame count patched at the end.

use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use crate::animator::{FrameSink, SinkStatus};
use crate::error::EncodeError;
use crate::format::OutputFormat;
use crate::output_file::OutputFile;
use crate::patch_split::{SplitLimits, MAX_PIECES};
use crate::pipeline::{Fit, FramePatch, FramePipeline, FrameWriter, WriterTotals};
use crate::screen::RenderScreen;
use crate::summary::{EncodeOptions, EncodeSummary};
use crate::theme::Rgb;
use crate::timing::DelayClock;

/// The `IEND` chunk: length 0, type, CRC.
const IEND: [u8; 12] = [0, 0, 0, 0, b'I', b'E', b'N', b'D', 0xAE, 0x42, 0x60, 0x82];
/// The fewest unchanged pixels between two changes for them to be written as separate
/// rectangles (the best of 512 to 16384 on the sample casts, measured with
/// `cargo run --release -p phux-encoders --example size_bench`).
const MIN_GAP_PIXELS: u64 = 2048;
/// How long each but the last rectangle of a split frame is shown, in ms: browsers show
/// delays of 10 ms and less as 100 ms, which would slow the animation down.
const LEAD_DELAY_MS: u64 = 20;
/// Frame count announced before the real one is known; patched in `finish`.
const PLACEHOLDER_FRAMES: u32 = 0x7FFF_FFFF;

/// Encodes screens as an animated PNG; feed it through an [`crate::Animator`].
#[derive(Debug)]
pub struct ApngEncoder {
    pipeline: FramePipeline,
    path: PathBuf,
}

impl ApngEncoder {
    /// Prepares a `cols`×`rows` APNG at `path` (written to a temp file, renamed on finish).
    pub fn create(
        path: &Path,
        cols: u16,
        rows: u16,
        options: &EncodeOptions,
    ) -> Result<ApngEncoder, EncodeError> {
        let (raster, compositor) = crate::pipeline::prepare(cols, rows, options)?;
        let (w, h) = (compositor.image().width, compositor.image().height);
        let out = OutputFile::create(path, options.overwrite)?;
        let alpha = options.keep_unchanged_transparent;
        let levers = (alpha, options.split_far_changes);
        let writer = ApngWriter::create(out, w, h, options.max_bytes, levers)?;
        Ok(ApngEncoder {
            pipeline: FramePipeline::start(raster, compositor, alpha, writer)?,
            path: path.to_path_buf(),
        })
    }
}

impl FrameSink for ApngEncoder {
    /// 100 frames per second: more is wasted on a terminal and costs bytes.
    fn max_fps(&self) -> u32 {
        100
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
            .finish_summary(end_secs, self.path, OutputFormat::Apng)
    }
}

/// Collects what the `png` writer produces so each frame's size is known before it reaches
/// the file.
#[derive(Clone, Default)]
struct Spool(Arc<Mutex<Vec<u8>>>);

impl Spool {
    fn lock(&self) -> MutexGuard<'_, Vec<u8>> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn take(&self) -> Vec<u8> {
        std::mem::take(&mut *self.lock())
    }
}

impl Write for Spool {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.lock().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The worker-side APNG writer.
struct ApngWriter {
    out: OutputFile,
    png: png::Writer<Spool>,
    spool: Spool,
    actl_offset: u64,
    bytes: u64,
    frames: u32,
    max_bytes: u64,
    clock: DelayClock,
    rgb: Vec<u8>,
    /// RGBA, with unchanged pixels at alpha 0 blended over the frame before.
    alpha: bool,
    /// Write far-apart changes as separate rectangles.
    split: bool,
}

impl ApngWriter {
    fn create(
        mut out: OutputFile,
        width: u32,
        height: u32,
        max_bytes: u64,
        (alpha, split): (bool, bool),
    ) -> Result<Self, EncodeError> {
        let spool = Spool::default();
        let mut encoder = png::Encoder::new(spool.clone(), width, height);
        encoder.set_color(if alpha {
            png::ColorType::Rgba
        } else {
            png::ColorType::Rgb
        });
        encoder.set_depth(png::BitDepth::Eight);
        // Balanced: ~3x smaller than Fast on terminal frames for ~1 ms/frame on the worker.
        encoder.set_compression(png::Compression::Balanced);
        encoder.validate_sequence(false);
        encoder.set_animated(PLACEHOLDER_FRAMES, 0)?;
        let png = encoder.write_header()?;
        let header = spool.take();
        let actl_offset = find_chunk(&header, b"acTL")
            .ok_or(EncodeError::Internal("the png writer wrote no acTL chunk"))?;
        out.file()
            .write_all(&header)
            .map_err(|e| out.write_error(e))?;
        Ok(ApngWriter {
            out,
            png,
            spool,
            actl_offset,
            bytes: header.len() as u64,
            frames: 0,
            max_bytes,
            clock: DelayClock::new(1000),
            rgb: Vec::new(),
            alpha,
            split: alpha && split,
        })
    }

    /// Sets the next frame's rectangle, timing and operations on the `png` writer.
    fn prepare(&mut self, patch: &FramePatch, delay_ms: u64) -> Result<(), EncodeError> {
        let r = patch.rect;
        self.png.reset_frame_position()?;
        self.png.set_frame_dimension(r.width, r.height)?;
        self.png.set_frame_position(r.x, r.y)?;
        let (num, den) = delay_fraction(delay_ms);
        self.png.set_frame_delay(num, den)?;
        self.png.set_dispose_op(png::DisposeOp::None)?;
        self.rgb.clear();
        if self.alpha {
            let see_through = (0..patch.pixels.len()).any(|i| patch.unchanged(i));
            self.png.set_blend_op(if see_through {
                png::BlendOp::Over
            } else {
                png::BlendOp::Source
            })?;
            self.rgb
                .extend(patch.pixels.iter().enumerate().flat_map(|(i, p)| {
                    if patch.unchanged(i) {
                        return [0, 0, 0, 0];
                    }
                    let Rgb(r, g, b) = Rgb::from_packed(*p);
                    [r, g, b, 255]
                }));
        } else {
            self.png.set_blend_op(png::BlendOp::Source)?;
            self.rgb.extend(patch.pixels.iter().flat_map(|p| {
                let Rgb(r, g, b) = Rgb::from_packed(*p);
                [r, g, b]
            }));
        }
        Ok(())
    }
}

impl ApngWriter {
    /// The pieces `patch` is written as when it is shown for `delay` ms: several rectangles
    /// only when each can be shown [`LEAD_DELAY_MS`], never for the first frame (the default
    /// image covers the whole canvas).
    fn split(&self, patch: &FramePatch, delay: u64) -> Option<Vec<FramePatch>> {
        if !self.split || self.frames == 0 {
            return None;
        }
        let fits = usize::try_from(delay / LEAD_DELAY_MS).unwrap_or(MAX_PIECES);
        patch.pieces(SplitLimits {
            max_pieces: fits.clamp(1, MAX_PIECES),
            min_gap: MIN_GAP_PIXELS,
        })
    }
}

impl FrameWriter for ApngWriter {
    fn write(&mut self, patch: &FramePatch, start: f64, end: f64) -> Result<Fit, EncodeError> {
        let delay = self.clock.peek(start, end);
        let split = self.split(patch, delay);
        let pieces = split.as_deref().unwrap_or(std::slice::from_ref(patch));
        // The leading pieces flash by; the last one carries the rest of the frame's delay.
        let lead = LEAD_DELAY_MS * (pieces.len() as u64 - 1);
        let mut chunks = Vec::new();
        let mut shown = 0;
        for (i, piece) in pieces.iter().enumerate() {
            let piece_delay = if i + 1 == pieces.len() {
                delay - lead
            } else {
                LEAD_DELAY_MS
            };
            self.prepare(piece, piece_delay)?;
            self.png.write_image_data(&self.rgb)?;
            chunks.extend(self.spool.take());
            shown += delay_fraction_ms(piece_delay);
        }
        let total = self.bytes + chunks.len() as u64 + IEND.len() as u64;
        if total > self.max_bytes {
            if self.frames == 0 {
                return Err(EncodeError::MaxBytesTooSmall {
                    max_bytes: self.max_bytes,
                    needed: total,
                });
            }
            return Ok(Fit::WouldExceed);
        }
        self.out
            .file()
            .write_all(&chunks)
            .map_err(|e| self.out.write_error(e))?;
        self.bytes += chunks.len() as u64;
        self.frames += u32::try_from(pieces.len()).unwrap_or(u32::MAX);
        self.clock.commit(shown);
        Ok(Fit::Written)
    }

    fn finish(mut self) -> Result<WriterTotals, EncodeError> {
        if self.frames == 0 {
            return Err(EncodeError::NoFrames);
        }
        let actl = actl_chunk(self.frames);
        let offset = self.actl_offset;
        let file = self.out.file();
        let written = file
            .write_all(&IEND)
            .and_then(|()| file.seek(SeekFrom::Start(offset)))
            .and_then(|_| file.write_all(&actl))
            .and_then(|()| file.flush());
        written.map_err(|e| self.out.write_error(e))?;
        let duration_ms = self.clock.total_units();
        let bytes = self.out.persist()?;
        Ok(WriterTotals { bytes, duration_ms })
    }
}

/// The offset of chunk `kind`'s length field in a PNG byte stream.
fn find_chunk(png: &[u8], kind: &[u8; 4]) -> Option<u64> {
    let mut at = 8; // the signature
    while at + 8 <= png.len() {
        let len = u32::from_be_bytes(png.get(at..at + 4)?.try_into().ok()?) as usize;
        if png.get(at + 4..at + 8)? == kind {
            return Some(at as u64);
        }
        at += 12 + len;
    }
    None
}

/// A whole `acTL` chunk (length, type, data, CRC) for `frames` frames looping forever.
fn actl_chunk(frames: u32) -> [u8; 20] {
    let mut chunk = [0u8; 20];
    chunk[..4].copy_from_slice(&8u32.to_be_bytes());
    chunk[4..8].copy_from_slice(b"acTL");
    chunk[8..12].copy_from_slice(&frames.to_be_bytes());
    chunk[12..16].copy_from_slice(&0u32.to_be_bytes());
    let crc = crc32fast::hash(&chunk[4..16]);
    chunk[16..].copy_from_slice(&crc.to_be_bytes());
    chunk
}

/// A delay in ms as `fcTL`'s 16-bit fraction: ms/1000 when it fits, coarser units beyond 65 s.
fn delay_fraction(ms: u64) -> (u16, u16) {
    for (den, per) in [(1000u16, 1u64), (100, 10), (10, 100), (1, 1000)] {
        let v = (ms + per / 2) / per;
        if let Ok(num) = u16::try_from(v) {
            return (num, den);
        }
    }
    (u16::MAX, 1)
}

/// The delay actually encoded for `ms`, in ms (differs from `ms` only past 65.5 s).
fn delay_fraction_ms(ms: u64) -> u64 {
    let (num, den) = delay_fraction(ms);
    u64::from(num) * 1000 / u64::from(den)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_use_milliseconds_until_they_do_not_fit() {
        assert_eq!(delay_fraction(33), (33, 1000));
        assert_eq!(delay_fraction(65_535), (65_535, 1000));
        assert_eq!(delay_fraction(70_000), (7_000, 100));
        assert_eq!(delay_fraction_ms(70_004), 70_000);
    }

    #[test]
    fn actl_chunk_carries_the_count_and_its_crc() {
        let chunk = actl_chunk(3);
        assert_eq!(&chunk[8..12], &[0, 0, 0, 3]);
        let crc = crc32fast::hash(&chunk[4..16]);
        assert_eq!(&chunk[16..], &crc.to_be_bytes());
    }
}
