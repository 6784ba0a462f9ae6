//! Animated PNG output: truecolour RGB, millisecond timing, changed rectangles only, frames
//! deflated on every core ([`crate::apng_frame`]) and streamed to the file in order, with
//! `acTL`'s frame count patched at the end.

use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use crate::animator::{FrameSink, SinkStatus};
use crate::apng_frame::{self, delay_fraction_ms, ApngPiece, CompressedPiece};
use crate::compress_pool::Compress;
use crate::error::EncodeError;
use crate::format::OutputFormat;
use crate::output_file::OutputFile;
use crate::patch_split::{SplitLimits, MAX_PIECES};
use crate::pipeline::{Fit, FramePatch, FramePipeline, FrameWriter, WriterTotals};
use crate::screen::RenderScreen;
use crate::summary::{EncodeOptions, EncodeSummary};
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
    actl_offset: u64,
    bytes: u64,
    frames: u32,
    /// The next chunk sequence number (`fcTL` and `fdAT` share one count).
    sequence: u32,
    max_bytes: u64,
    clock: DelayClock,
    /// RGBA, with unchanged pixels at alpha 0 blended over the frame before.
    alpha: bool,
    /// Write far-apart changes as separate rectangles.
    split: bool,
    /// Frames prepared so far (the first is never split).
    prepared: u64,
    /// The threads frames are compressed on.
    threads: usize,
}

/// A frame ready to compress: its pieces, and how long it shows in all.
pub(crate) struct ApngJob {
    pieces: Vec<ApngPiece>,
    shown_ms: u64,
    alpha: bool,
}

/// A compressed frame, or why it could not be.
pub(crate) type ApngDone = Result<(Vec<CompressedPiece>, u64), EncodeError>;

impl ApngWriter {
    fn create(
        mut out: OutputFile,
        width: u32,
        height: u32,
        max_bytes: u64,
        (alpha, split): (bool, bool),
    ) -> Result<Self, EncodeError> {
        let spool = Spool::default();
        let mut encoder = apng_frame::png_encoder(spool.clone(), width, height, alpha);
        encoder.validate_sequence(false);
        encoder.set_animated(PLACEHOLDER_FRAMES, 0)?;
        // The header only: the frames are compressed and framed by `apng_frame`.
        let png = encoder.write_header()?;
        let header = spool.take();
        drop(png);
        let actl_offset = find_chunk(&header, b"acTL")
            .ok_or(EncodeError::Internal("the png writer wrote no acTL chunk"))?;
        out.file()
            .write_all(&header)
            .map_err(|e| out.write_error(e))?;
        Ok(ApngWriter {
            out,
            actl_offset,
            bytes: header.len() as u64,
            frames: 0,
            sequence: 0,
            max_bytes,
            clock: DelayClock::new(1000),
            alpha,
            split: alpha && split,
            prepared: 0,
            threads: crate::compress_pool::threads(),
        })
    }
}

impl ApngWriter {
    /// The pieces `patch` is written as when it is shown for `delay` ms: several rectangles
    /// only when each can be shown [`LEAD_DELAY_MS`], never for the first frame (the default
    /// image covers the whole canvas).
    fn split(&self, patch: &FramePatch, delay: u64) -> Option<Vec<FramePatch>> {
        if !self.split || self.prepared == 0 {
            return None;
        }
        let fits = usize::try_from(delay / LEAD_DELAY_MS).unwrap_or(MAX_PIECES);
        patch.pieces(SplitLimits {
            max_pieces: fits.clamp(1, MAX_PIECES),
            min_gap: MIN_GAP_PIXELS,
        })
    }
}

impl Compress for ApngWriter {
    type Job = ApngJob;
    type Done = ApngDone;
    type Compressor = ();

    fn compressor(&self) {}

    fn compress((): &mut (), job: ApngJob) -> ApngDone {
        let ApngJob {
            pieces,
            shown_ms,
            alpha,
        } = job;
        let pieces = (pieces.into_iter())
            .map(|piece| apng_frame::compress(piece, alpha))
            .collect::<Result<Vec<_>, _>>()?;
        Ok((pieces, shown_ms))
    }
}

impl FrameWriter for ApngWriter {
    /// Every core: deflate is most of a busy recording's time, and frames compress apart.
    fn compression_threads(&self) -> usize {
        self.threads
    }

    fn prepare(&mut self, patch: FramePatch, start: f64, end: f64) -> Result<ApngJob, EncodeError> {
        let delay = self.clock.peek(start, end);
        let split = self.split(&patch, delay);
        let pieces = split.as_deref().unwrap_or(std::slice::from_ref(&patch));
        // The leading pieces flash by; the last one carries the rest of the frame's delay.
        let lead = LEAD_DELAY_MS * (pieces.len() as u64 - 1);
        let mut shown_ms = 0;
        let pieces = (pieces.iter().enumerate())
            .map(|(i, piece)| {
                let delay_ms = if i + 1 == pieces.len() {
                    delay - lead
                } else {
                    LEAD_DELAY_MS
                };
                shown_ms += delay_fraction_ms(delay_ms);
                ApngPiece::new(piece, delay_ms, self.alpha)
            })
            .collect();
        self.prepared += 1;
        Ok(ApngJob {
            pieces,
            shown_ms,
            alpha: self.alpha,
        })
    }

    fn commit(&mut self, done: ApngDone) -> Result<Fit, EncodeError> {
        let (pieces, shown_ms) = done?;
        let mut chunks = Vec::new();
        let mut sequence = self.sequence;
        for (i, piece) in pieces.iter().enumerate() {
            // The first image is the one every viewer shows, animated or not: IDAT.
            let first = self.frames == 0 && i == 0;
            apng_frame::append_chunks(&mut chunks, piece, first, &mut sequence);
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
        self.sequence = sequence;
        self.clock.commit(shown_ms);
        Ok(Fit::Written)
    }

    fn finish(self) -> Result<WriterTotals, EncodeError> {
        self.finish_file()
    }
}

impl ApngWriter {
    fn finish_file(mut self) -> Result<WriterTotals, EncodeError> {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The APNG of a scrolling log written with its frames compressed on `threads` threads, at
    /// most `max_bytes` long: its bytes and whether it was cut.
    fn scrolling_log(threads: usize, max_bytes: u64) -> (Vec<u8>, bool) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log.png");
        let options = EncodeOptions::default();
        let (w, h) = crate::test_support::scrolling_log_size(&options);
        let out = OutputFile::create(&path, false).unwrap();
        let levers = (true, true);
        let mut writer = ApngWriter::create(out, w, h, max_bytes, levers).unwrap();
        writer.threads = threads;
        let cut = crate::test_support::push_scrolling_log(writer, &options);
        (std::fs::read(&path).unwrap(), cut)
    }

    #[test]
    fn frames_compressed_on_several_threads_make_the_file_one_thread_makes() {
        let alone = crate::test_support::assert_threads_change_nothing(scrolling_log);
        // Every frame decodes, in order, from the one image: sequence numbers and all.
        let decoder = png::Decoder::new(std::io::Cursor::new(&alone));
        let mut reader = decoder.read_info().unwrap();
        let frames = reader.info().animation_control().unwrap().num_frames;
        let mut buffer = vec![0; reader.output_buffer_size().unwrap()];
        for _ in 0..frames {
            reader.next_frame(&mut buffer).unwrap();
        }
        assert!(frames > 20, "{frames} frames");
    }

    #[test]
    fn actl_chunk_carries_the_count_and_its_crc() {
        let chunk = actl_chunk(3);
        assert_eq!(&chunk[8..12], &[0, 0, 0, 3]);
        let crc = crc32fast::hash(&chunk[4..16]);
        assert_eq!(&chunk[16..], &crc.to_be_bytes());
    }
}
