//! Animated GIF output: one image per frame (the bounding box of what changed, unchanged pixels
//! transparent or their own colour), exact palettes, frames LZW-compressed on every
//! core (in the order they come, whatever order they finish in), and
//! the header written last so its global palette holds exactly the colours the frames use.
//! Until then the compressed frames go to an unnamed scratch file beside the output, not to
//! memory, so a recording of any length is encoded in the same few megabytes.

use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::animator::{FrameSink, SinkStatus};
use crate::compress_pool::Compress;
use crate::error::EncodeError;
use crate::format::OutputFormat;
use crate::gif_frame_compress::{compress_job, GifCompressor, GifDone, GifJob, ImageJob, Way};
use crate::gif_palette::{GlobalPalette, UNCHANGED};
use crate::output_file::OutputFile;
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
        let (max_bytes, size) = (options.max_bytes, (width, height));
        let writer = GifWriter::new(out, scratch, size, max_bytes)?;
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

    /// Hundredths: what a GIF's delays count.
    fn ticks_per_second(&self) -> u32 {
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
    /// Frames prepared so far (the first is written whole, every later one cropped to its
    /// changes).
    prepared: u64,
    /// The threads frames are compressed on.
    threads: usize,
}

impl GifWriter {
    fn new(
        out: OutputFile,
        scratch: File,
        (width, height): (u16, u16),
        max_bytes: u64,
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
            prepared: 0,
            threads: crate::compress_pool::threads(),
        })
    }
}

impl GifWriter {
    /// The ways `patch` can be written, indexed against the palette (which grows by the
    /// colours they bring): its pixels, or with its unchanged ones transparent, and then also
    /// [`Unchanged::ContinueRuns`] when some are.
    fn ways(&mut self, patch: &FramePatch) -> (Way, Option<Way>) {
        let Some(changed) = &patch.changed else {
            return (self.indexed(&patch.pixels, patch), None);
        };
        let transparent = self.indexed(&keyed(patch, Unchanged::Transparent), patch);
        let runs = (changed.contains(&false))
            .then(|| self.indexed(&keyed(patch, Unchanged::ContinueRuns), patch));
        (transparent, runs)
    }

    /// `pixels` (`patch`'s, some replaced by [`UNCHANGED`]) against the global palette, and
    /// against a local one when that narrows the codes.
    fn indexed(&mut self, pixels: &[u32], patch: &FramePatch) -> Way {
        let mut global = self.palette.index_frame(pixels);
        if !global.exact {
            // Past 256 colours the cube cannot keep "unchanged" apart: write real pixels.
            global = self.palette.index_frame(&patch.pixels);
        }
        let local = self.palette.compact(&global);
        Way { global, local }
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

impl Compress for GifWriter {
    type Job = GifJob;
    type Done = GifDone;
    type Compressor = GifCompressor;

    fn compressor(&self) -> GifCompressor {
        // With frames on every core already, a second thread per frame only costs.
        GifCompressor::new(self.threads < 2)
    }

    fn compress(c: &mut GifCompressor, job: GifJob) -> GifDone {
        compress_job(c, job)
    }
}

impl FrameWriter for GifWriter {
    /// Every core: LZW is most of a busy recording's time, and frames compress independently.
    fn compression_threads(&self) -> usize {
        self.threads
    }

    fn prepare(&mut self, patch: FramePatch, start: f64, end: f64) -> Result<GifJob, EncodeError> {
        let palette_before = self.palette.len();
        let delay = self.clock.peek(start, end);
        let first = self.prepared == 0;
        // One image a frame, however far apart its changes: a frame written as several images
        // shows, between them, screens that never were.
        let patch = if first {
            patch
        } else {
            patch.cropped_to_changes()
        };
        let image = ImageJob {
            rect: patch.rect,
            delay,
            ways: self.ways(&patch),
        };
        self.prepared += 1;
        Ok(GifJob {
            image,
            first,
            palette: (palette_before, self.palette.len()),
        })
    }

    fn commit(&mut self, done: GifDone) -> Result<Fit, EncodeError> {
        let GifDone { frame, palette } = done;
        let (palette_before, palette_after) = palette;
        let size = frame_bytes(&frame);
        let total = header_bytes(palette_after) + self.body_bytes + size + TRAILER;
        if total > self.max_bytes {
            // This frame's colours, and those of any prepared after it (never written either).
            self.palette.truncate(palette_before);
            if self.frames == 0 {
                return Err(EncodeError::MaxBytesTooSmall {
                    max_bytes: self.max_bytes,
                    needed: total,
                });
            }
            return Ok(Fit::WouldExceed);
        }
        self.body.write_lzw_pre_encoded_frame(&frame)?;
        self.clock.commit(u64::from(frame.delay));
        self.frames += 1;
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

/// Entries a colour table of `n` colours occupies once padded to a power of two (at least 2).
pub(crate) fn table_entries(n: usize) -> u64 {
    n.clamp(2, 256).next_power_of_two() as u64
}

/// Header bytes with a global palette of `n` colours.
fn header_bytes(n: usize) -> u64 {
    HEADER_FIXED + 3 * table_entries(n)
}

/// Bytes a pre-encoded frame takes in the file: its blocks, local palette and data sub-blocks.
pub(crate) fn frame_bytes(frame: &gif::Frame<'_>) -> u64 {
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

    /// The GIF of a scrolling, coloured log written with its frames compressed on `threads`
    /// threads, at most `max_bytes` long: its bytes and whether it was cut.
    fn scrolling_log(threads: usize, max_bytes: u64) -> (Vec<u8>, bool) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log.gif");
        let options = EncodeOptions::default();
        let (w, h) = crate::test_support::scrolling_log_size(&options);
        let out = OutputFile::create(&path, false).unwrap();
        let scratch = out.scratch().unwrap();
        let size = (u16::try_from(w).unwrap(), u16::try_from(h).unwrap());
        let mut writer = GifWriter::new(out, scratch, size, max_bytes).unwrap();
        writer.threads = threads;
        let cut = crate::test_support::push_scrolling_log(writer, &options);
        (std::fs::read(&path).unwrap(), cut)
    }

    #[test]
    fn frames_compressed_on_several_threads_make_the_file_one_thread_makes() {
        crate::test_support::assert_threads_change_nothing(scrolling_log);
    }

    #[test]
    fn every_frame_is_one_image_timed_on_a_carried_forward_grid() {
        // Pins issue 51: a frame whose changes lay far apart (here the prompt and the clock)
        // was written as several images, each shown 20 ms: screens that never were.
        use crate::test_support::{animate, carried_forward_delays, gif_blocks, prompt_and_clock};
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("steps.gif");
        // Steps whose times fall between hundredths: rounded one by one they would drift.
        let times: Vec<f64> = (1..=40)
            .map(|i| f64::from(i) * 0.0537 + 0.0011 * f64::from(i % 3))
            .collect();
        let screens = prompt_and_clock(&times);
        let encoder = GifEncoder::create(&path, 80, 24, &EncodeOptions::default()).unwrap();
        let summary = animate(encoder, &screens, 30, 1.0);
        let blocks = gif_blocks(&std::fs::read(&path).unwrap());
        assert_eq!(blocks.images, screens.len(), "one image descriptor a frame");
        assert_eq!(
            blocks.delays.len(),
            screens.len(),
            "one control block a frame"
        );
        assert_eq!(
            summary.frames as usize,
            screens.len(),
            "frames reported = decoded"
        );
        let starts: Vec<f64> = screens.iter().map(|(t, _)| *t).collect();
        let end = times[times.len() - 1] + 1.0;
        assert_eq!(blocks.delays, carried_forward_delays(&starts, end, 100.0));
        let played_ms: u64 = blocks.delays.iter().sum::<u64>() * 10;
        assert_eq!(played_ms, summary.duration_ms);
        assert!(
            (played_ms as f64 - end * 1000.0).abs() <= 10.0,
            "{played_ms}"
        );
        assert!(blocks.delays.iter().all(|&d| d >= 2), "{:?}", blocks.delays);
    }
}
