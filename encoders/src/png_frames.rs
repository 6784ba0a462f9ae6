//! Frames as PNG files: a directory of one PNG per frame (`frame-00001.png`, ...), optionally
//! at a constant rate (a frame repeated as hard links until the next one starts, as a video
//! encoder reads them), and single screenshots. The directory is built beside its destination
//! and renamed into place when complete, so a failure leaves nothing half-written. The files
//! are compressed on every core ([`crate::compress_pool`]); the links to a frame are made once
//! its file is written.

use std::collections::VecDeque;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use crate::animator::{FrameSink, SinkStatus};
use crate::compress_pool::{Compress, Compression};
use crate::error::EncodeError;
use crate::format::OutputFormat;
use crate::pipeline::WholeImage;
use crate::raster::Canvas;
use crate::screen::RenderScreen;
use crate::summary::{EncodeOptions, EncodeSummary};
use crate::theme::Rgb;
use crate::timing::slots_until;

/// Writes each frame as a whole-image PNG.
pub struct PngFrames {
    /// First, so it is dropped (its threads joined) before the directory they write into.
    pool: Compression<FrameFile>,
    image: WholeImage,
    dest: PathBuf,
    temp: tempfile::TempDir,
    constant_fps: Option<u32>,
    /// Files named so far, frames and links (`frame-NNNNN.png` counts them).
    files: u32,
    /// Frames sent to be written.
    frames: u32,
    /// Frames whose files are written, and the last of them.
    written: u32,
    last: Option<PathBuf>,
    bytes: u64,
    /// Links still to make: the frame (1-based) they repeat, and the link's path.
    links: VecDeque<(u32, PathBuf)>,
    overwrite: bool,
}

impl std::fmt::Debug for PngFrames {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PngFrames")
            .field("dest", &self.dest)
            .field("frames", &self.frames)
            .finish_non_exhaustive()
    }
}

/// Writes a frame's PNG file, on any thread.
struct FrameFile;

impl Compress for FrameFile {
    type Job = (PathBuf, Canvas);
    type Done = Result<(PathBuf, u64), EncodeError>;
    type Compressor = ();

    fn compressor(&self) {}

    fn compress((): &mut (), (path, image): (PathBuf, Canvas)) -> Self::Done {
        let bytes = write_png(&image, &path)?;
        Ok((path, bytes))
    }
}

impl PngFrames {
    /// Frames of a `cols`×`rows` grid into directory `dest` (which must not exist unless
    /// `options.overwrite`). With `constant_fps`, a file per 1/fps slot.
    pub fn create(
        dest: &Path,
        cols: u16,
        rows: u16,
        options: &EncodeOptions,
        constant_fps: Option<u32>,
    ) -> Result<PngFrames, EncodeError> {
        let image = WholeImage::new(cols, rows, options)?;
        let parent = match dest.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let temp = tempfile::Builder::new()
            .prefix(".phux-frames-")
            .tempdir_in(&parent)
            .map_err(|e| EncodeError::io("create a temporary directory in", &parent, e))?;
        Ok(PngFrames {
            pool: Compression::start(&FrameFile, crate::compress_pool::threads()),
            image,
            dest: dest.to_path_buf(),
            temp,
            constant_fps,
            files: 0,
            frames: 0,
            written: 0,
            last: None,
            bytes: 0,
            links: VecDeque::new(),
            overwrite: options.overwrite,
        })
    }

    fn next_path(&mut self) -> PathBuf {
        self.files += 1;
        self.temp
            .path()
            .join(format!("frame-{:05}.png", self.files))
    }

    /// Repeats the last frame until `t` seconds (constant rate only): a link per slot, made
    /// now or once that frame's file is written.
    fn fill_until(&mut self, t: f64) -> Result<(), EncodeError> {
        let Some(fps) = self.constant_fps else {
            return Ok(());
        };
        if self.frames == 0 {
            return Ok(());
        }
        while u64::from(self.files) < slots_until(t, fps) {
            let path = self.next_path();
            self.links.push_back((self.frames, path));
        }
        self.make_links()
    }

    /// Files the frames written since the last call, and makes the links to them.
    fn written(&mut self, done: Vec<<FrameFile as Compress>::Done>) -> Result<(), EncodeError> {
        for frame in done {
            let (path, bytes) = frame?;
            self.written += 1;
            self.bytes += bytes;
            self.last = Some(path);
            // Before the next frame's file becomes the last.
            self.make_links()?;
        }
        Ok(())
    }

    /// Makes the pending links to the last frame written (those to earlier frames are made
    /// already: links are queued in frame order, and made as each frame is written).
    fn make_links(&mut self) -> Result<(), EncodeError> {
        while let Some((frame, link)) = self.links.front() {
            let Some(last) = self.last.as_ref().filter(|_| *frame == self.written) else {
                break;
            };
            std::fs::hard_link(last, link).map_err(|e| EncodeError::io("link", link, e))?;
            self.links.pop_front();
        }
        Ok(())
    }

    /// The finished directory's path.
    pub fn dest(&self) -> &Path {
        &self.dest
    }
}

impl FrameSink for PngFrames {
    fn max_fps(&self) -> u32 {
        self.constant_fps.unwrap_or(100)
    }

    fn add_frame(
        &mut self,
        start_secs: f64,
        screen: &RenderScreen,
    ) -> Result<SinkStatus, EncodeError> {
        // Repeating the last frame up to now is the same whether or not this one changed.
        self.fill_until(start_secs)?;
        // The thread that writes it gets its own copy.
        let Some(image) = self.image.draw(screen).cloned() else {
            return Ok(SinkStatus::Accepting);
        };
        let path = self.next_path();
        self.frames += 1;
        let done = self.pool.submit((path, image))?;
        self.written(done)?;
        Ok(SinkStatus::Accepting)
    }

    fn finish(mut self, end_secs: f64) -> Result<EncodeSummary, EncodeError> {
        if self.frames == 0 {
            return Err(EncodeError::NoFrames);
        }
        self.fill_until(end_secs)?;
        let done = self.pool.drain()?;
        self.written(done)?;
        if !self.links.is_empty() {
            return Err(EncodeError::Internal("a frame's links were never made"));
        }
        let image = self.image.image();
        let (width_px, height_px) = (image.width, image.height);
        if self.overwrite && std::fs::symlink_metadata(&self.dest).is_ok() {
            let removed = if self.dest.is_dir() {
                std::fs::remove_dir_all(&self.dest)
            } else {
                std::fs::remove_file(&self.dest)
            };
            removed.map_err(|e| EncodeError::io("replace", &self.dest, e))?;
        } else if std::fs::symlink_metadata(&self.dest).is_ok() {
            return Err(EncodeError::OutputExists(self.dest));
        }
        let temp = self.temp.keep();
        std::fs::rename(&temp, &self.dest)
            .map_err(|e| EncodeError::io("rename into place as", &self.dest, e))?;
        Ok(EncodeSummary {
            path: self.dest,
            format: OutputFormat::Apng,
            bytes: self.bytes,
            frames: self.frames,
            duration_ms: (end_secs.max(0.0) * 1000.0).round() as u64,
            width_px,
            height_px,
            truncated: false,
        })
    }
}

/// Writes `canvas` as an RGB PNG at `path`; returns its size.
pub fn write_png(canvas: &Canvas, path: &Path) -> Result<u64, EncodeError> {
    let file = std::fs::File::create(path).map_err(|e| EncodeError::io("create", path, e))?;
    let mut encoder = png::Encoder::new(BufWriter::new(file), canvas.width, canvas.height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Balanced);
    let mut writer = encoder.write_header()?;
    let rgb: Vec<u8> = canvas
        .pixels
        .iter()
        .flat_map(|p| {
            let Rgb(r, g, b) = Rgb::from_packed(*p);
            [r, g, b]
        })
        .collect();
    writer.write_image_data(&rgb)?;
    writer.finish()?;
    std::fs::metadata(path)
        .map(|m| m.len())
        .map_err(|e| EncodeError::io("stat", path, e))
}

/// One screen, framed as `options` say, as a still PNG at `path` (written beside it first and
/// renamed into place).
pub fn write_screenshot(
    screen: &RenderScreen,
    options: &EncodeOptions,
    path: &Path,
) -> Result<u64, EncodeError> {
    let mut image = WholeImage::new(screen.cols, screen.rows, options)?;
    image.draw(screen);
    write_still(image.image(), path, options.overwrite)
}

/// `image` as a still PNG at `path`, written beside it first and renamed into place (an
/// existing file is kept unless `overwrite`).
pub(crate) fn write_still(
    image: &Canvas,
    path: &Path,
    overwrite: bool,
) -> Result<u64, EncodeError> {
    let out = crate::output_file::OutputFile::create(path, overwrite)?;
    let temp_path = out.path().to_path_buf();
    write_png(image, &temp_path)?;
    out.persist()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::MetadataExt;

    #[test]
    fn constant_rate_frames_are_files_then_links_to_them_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let dest = dir.path().join("frames");
        let options = EncodeOptions::default();
        let sink = PngFrames::create(&dest, 20, 4, &options, Some(10)).unwrap();
        let summary = crate::test_support::three_screens_in_a_second(sink);
        assert_eq!(summary.frames, 3);
        let file = |n: u32| dest.join(format!("frame-{n:05}.png"));
        let inode = |n: u32| std::fs::metadata(file(n)).unwrap().ino();
        // One file a tenth of a second: "first" until 0.35 s (rounded to 4 slots), "second"
        // for one, "third" to the end.
        let shows = [1, 1, 1, 1, 5, 6, 6, 6, 6, 6];
        for (slot, frame) in (1..).zip(shows) {
            assert_eq!(inode(slot), inode(frame), "slot {slot} shows frame {frame}");
        }
        assert!(!file(11).exists());
        assert!(inode(1) != inode(5) && inode(5) != inode(6));
        let sizes: u64 = [1, 5, 6]
            .iter()
            .map(|&n| std::fs::metadata(file(n)).unwrap().len())
            .sum();
        assert_eq!(summary.bytes, sizes);
    }
}
