//! Rasterizes on the caller's thread and encodes on a worker, so both cores work.
//!
//! The caller's side draws each screen, finds the changed rectangle and ships its pixels; the
//! worker holds one frame back until the next one's start time gives it a delay, folds frames
//! that changed no pixel into the previous one, and hands each to a [`FrameWriter`]: prepared
//! in order, compressed on the writer's compression threads (see [`crate::compress_pool`]),
//! committed in order.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::Arc;
use std::thread::JoinHandle;

use crate::animator::SinkStatus;
use crate::changed_bounds::changed_bounds;
use crate::compress_pool::{Compress, Compression};
use crate::error::EncodeError;
use crate::frame_chrome::Compositor;
use crate::raster::{Rasterizer, Rect};
use crate::screen::RenderScreen;

/// Frames in flight between the two threads; enough to keep the worker busy, small in memory.
const QUEUE_DEPTH: usize = 4;

/// A changed rectangle and its pixels (`0x00RRGGBB`, row-major).
#[derive(Debug, Clone)]
pub struct FramePatch {
    /// Where the pixels go.
    pub rect: Rect,
    /// `rect.width * rect.height` pixels.
    pub pixels: Vec<u32>,
    /// Which pixels differ from the image before; `None`: write them all as they are.
    pub changed: Option<Vec<bool>>,
}

impl FramePatch {
    /// Whether pixel `i` may be written as "unchanged" (transparent).
    pub fn unchanged(&self, i: usize) -> bool {
        self.changed
            .as_ref()
            .is_some_and(|c| c.get(i).is_some_and(|changed| !changed))
    }

    /// True when every pixel is known to equal the image before: the frame changes nothing.
    pub fn changes_nothing(&self) -> bool {
        self.changed.as_ref().is_some_and(|c| !c.contains(&true))
    }

    /// This patch cropped to the bounding box of its changed pixels (the whole patch when it
    /// has no changed-pixel mask, or nothing changed): one rectangle, however far apart its
    /// changes lie, so the frame is written as one picture.
    pub fn cropped_to_changes(self) -> FramePatch {
        let Some(bounds) = (self.changed.as_ref()).and_then(|c| changed_bounds(self.rect, c))
        else {
            return self;
        };
        if bounds == self.rect {
            return self;
        }
        self.inside(bounds)
    }

    /// The part of this patch inside `r` (which must lie inside its rectangle).
    fn inside(&self, r: Rect) -> FramePatch {
        let (dx, dy) = ((r.x - self.rect.x) as usize, (r.y - self.rect.y) as usize);
        let stride = self.rect.width as usize;
        let rows = (0..r.height as usize).map(|row| {
            let start = (dy + row) * stride + dx;
            start..start + r.width as usize
        });
        let mut pixels = Vec::with_capacity(r.width as usize * r.height as usize);
        let mut changed = self
            .changed
            .as_ref()
            .map(|_| Vec::with_capacity(pixels.capacity()));
        for span in rows {
            pixels.extend_from_slice(self.pixels.get(span.clone()).unwrap_or_default());
            if let (Some(out), Some(mask)) = (&mut changed, &self.changed) {
                out.extend_from_slice(mask.get(span).unwrap_or_default());
            }
        }
        FramePatch {
            rect: r,
            pixels,
            changed,
        }
    }
}

/// Whether a frame made it into the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fit {
    /// Written.
    Written,
    /// Not written: it would have pushed the file past the byte limit.
    WouldExceed,
}

/// What a writer reports when closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WriterTotals {
    /// File size.
    pub bytes: u64,
    /// Sum of written delays, in ms.
    pub duration_ms: u64,
}

/// A container format's encoder, run on the worker thread in three steps: what must be decided
/// in frame order (`prepare`: colours, timing), what any core may do in any order
/// ([`Compress::compress`]), and writing in frame order (`commit`).
pub trait FrameWriter: Compress + Send + 'static {
    /// Threads worth compressing on (below 2: the worker thread compresses as it goes).
    fn compression_threads(&self) -> usize;
    /// `patch`, shown from `start` to `end` seconds, as a job; called in frame order.
    fn prepare(
        &mut self,
        patch: FramePatch,
        start: f64,
        end: f64,
    ) -> Result<Self::Job, EncodeError>;
    /// Writes `done` unless it would exceed the limit; called in frame order, for every job
    /// prepared until one would exceed it.
    fn commit(&mut self, done: Self::Done) -> Result<Fit, EncodeError>;
    /// Closes the container and renames the file into place.
    fn finish(self) -> Result<WriterTotals, EncodeError>;
}

enum Message {
    Frame {
        start: f64,
        patch: Option<FramePatch>,
    },
    Finish {
        end: f64,
    },
}

/// What the worker returns once the file is finished.
#[derive(Debug)]
pub struct Finished {
    pub totals: WriterTotals,
    /// Frames written, each one image in the file (GIF: one image descriptor; APNG: one
    /// `fcTL`): what `frames` reports and what a decoder counts.
    pub frames: u32,
    /// Frames were dropped at the byte limit.
    pub truncated: bool,
}

type WorkerResult = Result<Finished, EncodeError>;

/// The rasterizer of a `cols`×`rows` grid and the compositor that frames it, as `options` say.
pub fn prepare(
    cols: u16,
    rows: u16,
    options: &crate::summary::EncodeOptions,
) -> Result<(Rasterizer, Compositor), EncodeError> {
    let raster = Rasterizer::with_font(cols, rows, options.theme, options.scale, &options.font)?;
    let (w, h) = (raster.canvas().width, raster.canvas().height);
    let compositor = Compositor::new(&options.chrome, &options.theme, w, h)?;
    Ok((raster, compositor))
}

/// A grid drawn and framed whole, for the writers of whole images (PNG files, a video's raw
/// frames, a screenshot).
pub struct WholeImage {
    raster: Rasterizer,
    compositor: Compositor,
}

impl WholeImage {
    /// A `cols`×`rows` grid, drawn and framed as `options` say.
    pub fn new(
        cols: u16,
        rows: u16,
        options: &crate::summary::EncodeOptions,
    ) -> Result<WholeImage, EncodeError> {
        let (raster, compositor) = prepare(cols, rows, options)?;
        Ok(WholeImage { raster, compositor })
    }

    /// Draws `screen`: the framed image, when a pixel of it changed.
    pub fn draw(&mut self, screen: &RenderScreen) -> Option<&crate::raster::Canvas> {
        let rect = self.raster.draw(screen)?;
        self.compositor.place(self.raster.canvas(), rect);
        Some(self.compositor.image())
    }

    /// The framed image as last drawn.
    pub fn image(&self) -> &crate::raster::Canvas {
        self.compositor.image()
    }
}

/// The caller's half: the rasterizer and the channel to the worker.
#[derive(Debug)]
pub struct FramePipeline {
    raster: Rasterizer,
    compositor: Compositor,
    transparent: bool,
    tx: Option<SyncSender<Message>>,
    worker: Option<JoinHandle<WorkerResult>>,
    full: Arc<AtomicBool>,
}

impl FramePipeline {
    /// Starts the worker thread around `writer`.
    pub fn start<W: FrameWriter>(
        raster: Rasterizer,
        compositor: Compositor,
        transparent: bool,
        writer: W,
    ) -> Result<Self, EncodeError> {
        let (tx, rx) = sync_channel(QUEUE_DEPTH);
        let full = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&full);
        let worker = std::thread::Builder::new()
            .name("phux-encode".into())
            .spawn(move || run_worker(writer, rx, &flag))
            .map_err(|e| EncodeError::io("start the compression thread for", "", e))?;
        Ok(FramePipeline {
            raster,
            compositor,
            transparent,
            tx: Some(tx),
            worker: Some(worker),
            full,
        })
    }

    /// Image size in pixels.
    pub fn size(&self) -> (u32, u32) {
        let c = self.compositor.image();
        (c.width, c.height)
    }

    /// Draws `screen` and queues its changed rectangle, shown from `start` seconds.
    pub fn add_frame(
        &mut self,
        start: f64,
        screen: &RenderScreen,
    ) -> Result<SinkStatus, EncodeError> {
        if self.full.load(Ordering::Acquire) {
            return Ok(SinkStatus::Full);
        }
        let patch = self.raster.draw(screen).map(|rect| {
            let placed = self.compositor.place(self.raster.canvas(), rect);
            FramePatch {
                rect: placed.rect,
                pixels: placed.pixels,
                changed: self.transparent.then_some(placed.changed),
            }
        });
        self.send(Message::Frame { start, patch })?;
        Ok(if self.full.load(Ordering::Acquire) {
            SinkStatus::Full
        } else {
            SinkStatus::Accepting
        })
    }

    /// Ends the animation at `end` seconds; returns the totals and whether it was truncated.
    /// Finishes the file and describes it: the part of `finish` both encoders share.
    pub fn finish_summary(
        self,
        end: f64,
        path: std::path::PathBuf,
        format: crate::format::OutputFormat,
    ) -> Result<crate::summary::EncodeSummary, EncodeError> {
        let (width_px, height_px) = self.size();
        let Finished {
            totals,
            frames,
            truncated,
        } = self.finish(end)?;
        Ok(crate::summary::EncodeSummary {
            path,
            format,
            bytes: totals.bytes,
            frames,
            duration_ms: totals.duration_ms,
            width_px,
            height_px,
            truncated,
        })
    }

    pub fn finish(mut self, end: f64) -> WorkerResult {
        self.send(Message::Finish { end })?;
        self.tx = None;
        self.join()
    }

    fn send(&mut self, message: Message) -> Result<(), EncodeError> {
        let sent = self.tx.as_ref().map(|tx| tx.send(message));
        match sent {
            Some(Ok(())) => Ok(()),
            // The worker hung up: it failed, and its error says why.
            _ => {
                self.tx = None;
                self.join().and(Err(EncodeError::WorkerDied))
            }
        }
    }

    fn join(&mut self) -> WorkerResult {
        let handle = self.worker.take().ok_or(EncodeError::WorkerDied)?;
        handle.join().map_err(|_| EncodeError::WorkerDied)?
    }
}

/// The worker loop: delays each frame until the next start is known, then prepares it, has it
/// compressed and writes it.
fn run_worker<W: FrameWriter>(
    mut writer: W,
    rx: Receiver<Message>,
    full: &AtomicBool,
) -> WorkerResult {
    let mut compression = Compression::start(&writer, writer.compression_threads());
    let mut held: Option<(f64, FramePatch)> = None;
    let mut frames = 0u32;
    // Frames prepared after the one that would exceed the limit are compressed already, or
    // about to be: they are dropped, like every frame after it.
    let mut commit = |writer: &mut W, done: Vec<W::Done>| -> Result<(), EncodeError> {
        for frame in done {
            if full.load(Ordering::Acquire) {
                break;
            }
            match writer.commit(frame)? {
                Fit::Written => frames += 1,
                Fit::WouldExceed => full.store(true, Ordering::Release),
            }
        }
        Ok(())
    };
    for message in rx {
        match message {
            Message::Frame {
                start,
                patch: Some(patch),
            } if !full.load(Ordering::Acquire) && !patch.changes_nothing() => {
                if let Some((held_start, held_patch)) = held.take() {
                    let job = writer.prepare(held_patch, held_start, start)?;
                    commit(&mut writer, compression.submit(job)?)?;
                }
                held = Some((start, patch));
            }
            // No pixel changed (the held frame simply lasts longer, however the screen got
            // there), or we are past the limit.
            Message::Frame { .. } => {}
            Message::Finish { end } => {
                if let (Some((start, patch)), false) = (held.take(), full.load(Ordering::Acquire)) {
                    let job = writer.prepare(patch, start, end.max(start))?;
                    commit(&mut writer, compression.submit(job)?)?;
                }
                commit(&mut writer, compression.drain()?)?;
                drop(compression);
                return Ok(Finished {
                    totals: writer.finish()?,
                    frames,
                    truncated: full.load(Ordering::Acquire),
                });
            }
        }
    }
    Err(EncodeError::WorkerDied)
}
