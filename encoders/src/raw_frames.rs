//! Frames as raw RGB at a constant rate, into a writer (a video encoder's input): a frame is
//! repeated until the next one starts, as a video is made of. No file, no compression: the
//! encoder reading them does that.

use std::io::Write;
use std::path::PathBuf;

use crate::animator::{FrameSink, SinkStatus};
use crate::error::EncodeError;
use crate::format::OutputFormat;
use crate::pipeline::WholeImage;
use crate::screen::RenderScreen;
use crate::summary::{EncodeOptions, EncodeSummary};
use crate::theme::Rgb;
use crate::timing::slots_until;

/// Writes each frame slot as `width * height * 3` bytes of RGB; the writer is closed (dropped)
/// when the frames are finished, or given up on.
pub struct RawFrames<W: Write> {
    image: WholeImage,
    fps: u32,
    out: W,
    /// What the writer is, for errors ("ffmpeg's input").
    name: PathBuf,
    /// The last frame's RGB, repeated until the next frame starts.
    last: Vec<u8>,
    /// Slots written so far.
    slots: u64,
    frames: u32,
    bytes: u64,
}

impl<W: Write> RawFrames<W> {
    /// Frames of a `cols`×`rows` grid at `fps` into the writer `open` returns, given the image's
    /// width and height in pixels (what a video encoder must be told before the first frame).
    pub fn create(
        cols: u16,
        rows: u16,
        options: &EncodeOptions,
        fps: u32,
        name: PathBuf,
        open: impl FnOnce(u32, u32) -> std::io::Result<W>,
    ) -> Result<RawFrames<W>, EncodeError> {
        let image = WholeImage::new(cols, rows, options)?;
        let (width, height) = (image.image().width, image.image().height);
        let out = open(width, height).map_err(|e| EncodeError::io("start", &name, e))?;
        Ok(RawFrames {
            image,
            fps: fps.max(1),
            out,
            name,
            last: Vec::new(),
            slots: 0,
            frames: 0,
            bytes: 0,
        })
    }

    /// Repeats the last frame until `t` seconds.
    fn fill_until(&mut self, t: f64) -> Result<(), EncodeError> {
        if self.frames == 0 {
            return Ok(());
        }
        while self.slots < slots_until(t, self.fps) {
            self.write_last()?;
        }
        Ok(())
    }

    fn write_last(&mut self) -> Result<(), EncodeError> {
        self.out
            .write_all(&self.last)
            .map_err(|e| EncodeError::io("write a frame to", &self.name, e))?;
        self.slots += 1;
        self.bytes += self.last.len() as u64;
        Ok(())
    }
}

impl<W: Write> FrameSink for RawFrames<W> {
    fn max_fps(&self) -> u32 {
        self.fps
    }

    fn add_frame(
        &mut self,
        start_secs: f64,
        screen: &RenderScreen,
    ) -> Result<SinkStatus, EncodeError> {
        // Repeating the last frame up to now is the same whether or not this one changed.
        self.fill_until(start_secs)?;
        let Some(image) = self.image.draw(screen) else {
            return Ok(SinkStatus::Accepting);
        };
        self.last.clear();
        self.last.extend(image.pixels.iter().flat_map(|p| {
            let Rgb(r, g, b) = Rgb::from_packed(*p);
            [r, g, b]
        }));
        self.frames += 1;
        self.write_last()?;
        Ok(SinkStatus::Accepting)
    }

    fn finish(mut self, end_secs: f64) -> Result<EncodeSummary, EncodeError> {
        if self.frames == 0 {
            return Err(EncodeError::NoFrames);
        }
        self.fill_until(end_secs)?;
        self.out
            .flush()
            .map_err(|e| EncodeError::io("write a frame to", &self.name, e))?;
        let image = self.image.image();
        Ok(EncodeSummary {
            path: self.name,
            format: OutputFormat::Apng,
            bytes: self.bytes,
            frames: self.frames,
            duration_ms: (end_secs.max(0.0) * 1000.0).round() as u64,
            width_px: image.width,
            height_px: image.height,
            truncated: false,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_slot_is_the_frame_shown_then() {
        let (mut size, mut bytes) = ((0, 0), Vec::new());
        let sink = RawFrames::create(
            20,
            4,
            &EncodeOptions::default(),
            10,
            "test".into(),
            |w, h| {
                size = (w, h);
                Ok(&mut bytes)
            },
        )
        .unwrap();
        let summary = crate::test_support::three_screens_in_a_second(sink);
        assert_eq!(summary.frames, 3);
        let frame_len = (size.0 * size.1 * 3) as usize;
        assert_eq!(bytes.len(), 10 * frame_len, "a slot a tenth of a second");
        let slot = |n: usize| &bytes[n * frame_len..(n + 1) * frame_len];
        // "first" until 0.35 s (rounded to 4 slots), "second" for one, "third" to the end.
        let shows = [0, 0, 0, 0, 4, 5, 5, 5, 5, 5];
        for (n, frame) in shows.iter().enumerate() {
            assert!(slot(n) == slot(*frame), "slot {n} shows slot {frame}");
        }
        assert!(slot(0) != slot(4) && slot(4) != slot(5));
    }
}
