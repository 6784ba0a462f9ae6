//! Animated PNG output: truecolour RGB, millisecond timing, one image (`fcTL`) per frame: the
//! bounding box of what changed, unchanged pixels at alpha 0 blended over; frames
//! deflated on every core ([`crate::apng_frame`]) and streamed to the file in order, with
//! `acTL`'s frame count patched at the end.

use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use crate::animator::{FrameSink, SinkStatus};
use crate::apng_frame::{self, delay_fraction_ms, ApngImage, CompressedImage};
use crate::compress_pool::Compress;
use crate::error::EncodeError;
use crate::format::OutputFormat;
use crate::output_file::OutputFile;
use crate::pipeline::{Fit, FramePatch, FramePipeline, FrameWriter, WriterTotals};
use crate::screen::RenderScreen;
use crate::summary::{EncodeOptions, EncodeSummary};
use crate::timing::DelayClock;

/// The `IEND` chunk: length 0, type, CRC.
const IEND: [u8; 12] = [0, 0, 0, 0, b'I', b'E', b'N', b'D', 0xAE, 0x42, 0x60, 0x82];
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
        let writer = ApngWriter::create(out, w, h, options.max_bytes, alpha)?;
        Ok(ApngEncoder {
            pipeline: FramePipeline::start(raster, compositor, alpha, writer)?,
            path: path.to_path_buf(),
        })
    }
}

impl FrameSink for ApngEncoder {
    /// 50 frames per second: no frame is shorter than 20 ms, which browsers honour (they
    /// show a GIF's shorter delays as 100 ms, and some treat APNG's alike).
    fn max_fps(&self) -> u32 {
        50
    }

    /// Milliseconds: what the delays are written in.
    fn ticks_per_second(&self) -> u32 {
        1000
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
    /// Frames prepared so far (the first is written whole: the default image covers the whole
    /// canvas; every later one is cropped to its changes).
    prepared: u64,
    /// The threads frames are compressed on.
    threads: usize,
}

/// A frame ready to compress: its one image.
pub(crate) struct ApngJob {
    image: ApngImage,
    alpha: bool,
}

/// A compressed frame, or why it could not be.
pub(crate) type ApngDone = Result<CompressedImage, EncodeError>;

impl ApngWriter {
    fn create(
        mut out: OutputFile,
        width: u32,
        height: u32,
        max_bytes: u64,
        alpha: bool,
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
            prepared: 0,
            threads: crate::compress_pool::threads(),
        })
    }
}

impl Compress for ApngWriter {
    type Job = ApngJob;
    type Done = ApngDone;
    type Compressor = ();

    fn compressor(&self) {}

    fn compress((): &mut (), job: ApngJob) -> ApngDone {
        apng_frame::compress(job.image, job.alpha)
    }
}

impl FrameWriter for ApngWriter {
    /// Every core: deflate is most of a busy recording's time, and frames compress apart.
    fn compression_threads(&self) -> usize {
        self.threads
    }

    fn prepare(&mut self, patch: FramePatch, start: f64, end: f64) -> Result<ApngJob, EncodeError> {
        let delay = self.clock.peek(start, end);
        // One image a frame, however far apart its changes: a frame written as several images
        // shows, between them, screens that never were.
        let patch = if self.prepared == 0 {
            patch
        } else {
            patch.cropped_to_changes()
        };
        self.prepared += 1;
        Ok(ApngJob {
            image: ApngImage::new(&patch, delay, self.alpha),
            alpha: self.alpha,
        })
    }

    fn commit(&mut self, done: ApngDone) -> Result<Fit, EncodeError> {
        let image = done?;
        let mut chunks = Vec::new();
        let mut sequence = self.sequence;
        // The first image is the one every viewer shows, animated or not: IDAT.
        let first = self.frames == 0;
        apng_frame::append_chunks(&mut chunks, &image, first, &mut sequence);
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
        self.frames += 1;
        self.sequence = sequence;
        self.clock.commit(delay_fraction_ms(image.delay_ms));
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
        let mut writer = ApngWriter::create(out, w, h, max_bytes, true).unwrap();
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
    fn every_frame_is_one_fctl_timed_on_a_carried_forward_grid() {
        // Pins issue 51: a frame whose changes lay far apart was written as several fcTLs,
        // each but the last shown 20 ms: screens that never were.
        use crate::test_support::{animate, apng_frame_delays, carried_forward_delays};
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("steps.png");
        let times: Vec<f64> = (1..=40)
            .map(|i| f64::from(i) * 0.0537 + 0.00037 * f64::from(i % 3))
            .collect();
        let screens = crate::test_support::prompt_and_clock(&times);
        let encoder = ApngEncoder::create(&path, 80, 24, &EncodeOptions::default()).unwrap();
        let summary = animate(encoder, &screens, 30, 1.0);
        let file = std::fs::read(&path).unwrap();
        let delays = apng_frame_delays(&file);
        assert_eq!(delays.len(), screens.len(), "one fcTL a frame");
        assert_eq!(
            summary.frames as usize,
            screens.len(),
            "frames reported = decoded"
        );
        let decoder = png::Decoder::new(std::io::Cursor::new(&file));
        let reader = decoder.read_info().unwrap();
        let announced = reader.info().animation_control().unwrap().num_frames;
        assert_eq!(announced as usize, screens.len());
        let starts: Vec<f64> = screens.iter().map(|(t, _)| *t).collect();
        let end = times[times.len() - 1] + 1.0;
        assert_eq!(delays, carried_forward_delays(&starts, end, 1000.0));
        assert_eq!(delays.iter().sum::<u64>(), summary.duration_ms);
        assert!(delays.iter().all(|&d| d >= 20), "{delays:?}");
    }

    #[test]
    fn a_frame_shorter_than_20_ms_merges_into_the_next() {
        // Steps 10 ms apart, asked for at 100 fps: every frame still lasts 20 ms or more, and
        // the file as long as the steps.
        use crate::test_support::{animate, apng_frame_delays};
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("fast.png");
        let times: Vec<f64> = (1..=30).map(|i| f64::from(i) * 0.01).collect();
        let screens = crate::test_support::prompt_and_clock(&times);
        let encoder = ApngEncoder::create(&path, 80, 24, &EncodeOptions::default()).unwrap();
        let summary = animate(encoder, &screens, 100, 0.5);
        let delays = apng_frame_delays(&std::fs::read(&path).unwrap());
        assert!(delays.iter().all(|&d| d >= 20), "{delays:?}");
        assert_eq!(delays.len(), summary.frames as usize);
        assert!(delays.len() < screens.len());
        assert_eq!(delays.iter().sum::<u64>(), 800);
    }

    #[test]
    fn actl_chunk_carries_the_count_and_its_crc() {
        let chunk = actl_chunk(3);
        assert_eq!(&chunk[8..12], &[0, 0, 0, 3]);
        let crc = crc32fast::hash(&chunk[4..16]);
        assert_eq!(&chunk[16..], &crc.to_be_bytes());
    }
}
