//! Frames as PNG files: a directory of one PNG per frame (`frame-00001.png`, ...), optionally
//! at a constant rate (a frame repeated as hard links until the next one starts, as a video
//! encoder reads them), and single screenshots. The directory is built beside its destination
//! and renamed into place when complete, so a failure leaves nothing half-written.

use std::io::BufWriter;
use std::path::{Path, PathBuf};

use crate::animator::{FrameSink, SinkStatus};
use crate::error::EncodeError;
use crate::format::OutputFormat;
use crate::frame_chrome::Compositor;
use crate::raster::{Canvas, Rasterizer};
use crate::screen::RenderScreen;
use crate::summary::{EncodeOptions, EncodeSummary};
use crate::theme::Rgb;

/// Writes each frame as a whole-image PNG.
#[derive(Debug)]
pub struct PngFrames {
    raster: Rasterizer,
    compositor: Compositor,
    dest: PathBuf,
    temp: tempfile::TempDir,
    constant_fps: Option<u32>,
    files: u32,
    frames: u32,
    bytes: u64,
    last: Option<PathBuf>,
    overwrite: bool,
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
        let (raster, compositor) = crate::pipeline::prepare(cols, rows, options)?;
        let parent = match dest.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let temp = tempfile::Builder::new()
            .prefix(".phux-frames-")
            .tempdir_in(&parent)
            .map_err(|e| EncodeError::io("create a temporary directory in", &parent, e))?;
        Ok(PngFrames {
            raster,
            compositor,
            dest: dest.to_path_buf(),
            temp,
            constant_fps,
            files: 0,
            frames: 0,
            bytes: 0,
            last: None,
            overwrite: options.overwrite,
        })
    }

    fn next_path(&mut self) -> PathBuf {
        self.files += 1;
        self.temp
            .path()
            .join(format!("frame-{:05}.png", self.files))
    }

    /// Repeats the last frame until `t` seconds (constant rate only).
    fn fill_until(&mut self, t: f64) -> Result<(), EncodeError> {
        let (Some(fps), Some(last)) = (self.constant_fps, self.last.clone()) else {
            return Ok(());
        };
        let slots = (t * f64::from(fps)).round() as u32;
        while self.files < slots {
            let path = self.next_path();
            std::fs::hard_link(&last, &path).map_err(|e| EncodeError::io("link", &path, e))?;
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
        let Some(rect) = self.raster.draw(screen) else {
            return Ok(SinkStatus::Accepting);
        };
        self.compositor.place(self.raster.canvas(), rect);
        self.fill_until(start_secs)?;
        let path = self.next_path();
        self.bytes += write_png(self.compositor.image(), &path)?;
        self.frames += 1;
        self.last = Some(path);
        Ok(SinkStatus::Accepting)
    }

    fn finish(mut self, end_secs: f64) -> Result<EncodeSummary, EncodeError> {
        if self.frames == 0 {
            return Err(EncodeError::NoFrames);
        }
        self.fill_until(end_secs)?;
        let image = self.compositor.image();
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
    let (mut raster, mut compositor) = crate::pipeline::prepare(screen.cols, screen.rows, options)?;
    if let Some(rect) = raster.draw(screen) {
        compositor.place(raster.canvas(), rect);
    }
    let out = crate::output_file::OutputFile::create(path, options.overwrite)?;
    let temp_path = out.path().to_path_buf();
    write_png(compositor.image(), &temp_path)?;
    out.persist()
}
