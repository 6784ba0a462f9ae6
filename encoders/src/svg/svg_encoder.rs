//! `rec -o demo.svg`: the frames of an [`crate::Animator`] gathered as looks and timelines
//! ([`Film`]) and written at the end as one animated SVG (see `document`), within the byte
//! limit: a frame that would take the document past it is not taken, and the animation ends
//! where that frame would have begun, as a GIF cut by `--max-bytes` does.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::animator::{FrameSink, SinkStatus};
use crate::error::EncodeError;
use crate::format::OutputFormat;
use crate::output_file::OutputFile;
use crate::screen::RenderScreen;
use crate::summary::{EncodeOptions, EncodeSummary};
use crate::timing::units_at;

use super::document::{render, Frame};
use super::film::Film;
use super::metrics::SvgMetrics;

/// The clock of an SVG's frames: hundredths, the GIF's, so both show the same frames.
const TICKS_PER_SECOND: u32 = 100;
/// What the document's fixed parts may take beyond an empty film's (the cursor's window, the
/// animation rule's longest length).
const FIXED_SLACK: u64 = 256;

/// Encodes screens as an animated SVG; feed it through an [`crate::Animator`].
#[derive(Debug)]
pub struct SvgEncoder {
    out: OutputFile,
    path: PathBuf,
    options: EncodeOptions,
    layout: crate::frame_chrome::Layout,
    cols: u16,
    rows: u16,
    film: Film,
    /// An upper bound of the document's size so far.
    bytes: u64,
    frames: u32,
    /// The start of the frame the byte limit refused: where a cut animation ends.
    cut_at: Option<u64>,
}

impl SvgEncoder {
    /// Prepares a `cols`×`rows` SVG at `path` (written to a temp file, renamed on finish).
    pub fn create(
        path: &Path,
        cols: u16,
        rows: u16,
        options: &EncodeOptions,
    ) -> Result<SvgEncoder, EncodeError> {
        let metrics = SvgMetrics::of(options, cols, rows)?;
        let layout = options.chrome.layout(
            u32::from(cols) * metrics.cell_w,
            u32::from(rows) * metrics.cell_h,
        )?;
        let film = Film::new(options.theme, metrics, rows);
        let out = OutputFile::create(path, options.overwrite)?;
        let mut encoder = SvgEncoder {
            out,
            path: path.to_path_buf(),
            options: options.clone(),
            layout,
            cols,
            rows,
            film,
            bytes: 0,
            frames: 0,
            cut_at: None,
        };
        encoder.bytes = encoder.document(u64::from(u32::MAX)).len() as u64 + FIXED_SLACK;
        Ok(encoder)
    }

    fn document(&self, end_tick: u64) -> String {
        render(
            &self.film,
            &Frame {
                chrome: &self.options.chrome,
                layout: self.layout,
                cols: self.cols,
                rows: self.rows,
                end_tick,
            },
        )
    }

    /// Draws `screen` as the only picture: the still SVG of `--still`.
    pub(crate) fn still(mut self, screen: &RenderScreen) -> Result<EncodeSummary, EncodeError> {
        self.film.show(0, screen);
        self.frames = 1;
        self.write(0)
    }

    fn write(mut self, end_tick: u64) -> Result<EncodeSummary, EncodeError> {
        let document = self.document(end_tick);
        self.out
            .file()
            .write_all(document.as_bytes())
            .map_err(|e| self.out.write_error(e))?;
        let bytes = self.out.persist()?;
        Ok(EncodeSummary {
            path: self.path,
            format: OutputFormat::Svg,
            bytes,
            frames: self.frames,
            duration_ms: end_tick * 10,
            width_px: self.layout.width,
            height_px: self.layout.height,
            truncated: self.cut_at.is_some(),
        })
    }
}

impl FrameSink for SvgEncoder {
    /// 50, the GIF's: the SVG shows the frames the GIF shows.
    fn max_fps(&self) -> u32 {
        50
    }

    fn ticks_per_second(&self) -> u32 {
        TICKS_PER_SECOND
    }

    fn add_frame(
        &mut self,
        start_secs: f64,
        screen: &RenderScreen,
    ) -> Result<SinkStatus, EncodeError> {
        if self.cut_at.is_some() {
            return Ok(SinkStatus::Full);
        }
        let tick = units_at(start_secs, f64::from(TICKS_PER_SECOND));
        // A frame past the limit is taken back: the film stays as it was.
        let mark = self.film.mark();
        let (changed, added) = self.film.show(tick, screen);
        if !changed {
            return Ok(SinkStatus::Accepting);
        }
        if self.bytes + added > self.options.max_bytes {
            if self.frames == 0 {
                return Err(EncodeError::MaxBytesTooSmall {
                    max_bytes: self.options.max_bytes,
                    needed: self.bytes + added,
                });
            }
            self.film.rollback(&mark);
            self.cut_at = Some(tick);
            return Ok(SinkStatus::Full);
        }
        self.bytes += added;
        self.frames += 1;
        Ok(SinkStatus::Accepting)
    }

    fn finish(self, end_secs: f64) -> Result<EncodeSummary, EncodeError> {
        if self.frames == 0 {
            return Err(EncodeError::NoFrames);
        }
        let end = self
            .cut_at
            .unwrap_or_else(|| units_at(end_secs, f64::from(TICKS_PER_SECOND)))
            .max(1);
        self.write(end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::animator::Animator;
    use crate::screen::CellColor;

    fn screen(text: &str) -> RenderScreen {
        let mut s = RenderScreen::blank(20, 3);
        s.put_str(0, 1, text, CellColor::Palette(2), CellColor::Default);
        s
    }

    #[test]
    fn frames_become_keyframes_of_the_rows_that_change() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.svg");
        let encoder = SvgEncoder::create(&path, 20, 3, &EncodeOptions::default()).unwrap();
        let mut animator = Animator::new(encoder, 30);
        animator.push(0.0, &screen("one")).unwrap();
        animator.push(1.0, &screen("two")).unwrap();
        animator.push(2.0, &screen("one")).unwrap();
        let summary = animator.finish(1.0).unwrap();
        assert_eq!((summary.frames, summary.duration_ms), (3, 3000));
        assert_eq!(summary.format, OutputFormat::Svg);
        let svg = std::fs::read_to_string(&path).unwrap();
        assert_eq!(summary.bytes, svg.len() as u64);
        // Row 1 is animated (its two looks, back to the first at 2 s); rows 0 and 2 are not.
        assert!(
            svg.contains("@keyframes r1{33.33%{translate:-160px}66.67%{translate:0}}"),
            "{svg}"
        );
        assert!(!svg.contains("@keyframes r0") && !svg.contains("<script"));
        assert!(
            svg.contains("g[style]{animation:3s step-end infinite}"),
            "{svg}"
        );
        assert_eq!(
            svg.matches(">one<").count(),
            1,
            "one look, drawn once: {svg}"
        );
    }

    #[test]
    fn a_limit_too_small_for_one_frame_says_what_it_needs() {
        let dir = tempfile::tempdir().unwrap();
        let options = EncodeOptions {
            max_bytes: 100,
            ..EncodeOptions::default()
        };
        let mut encoder = SvgEncoder::create(&dir.path().join("a.svg"), 20, 3, &options).unwrap();
        let e = encoder.add_frame(0.0, &screen("one")).unwrap_err();
        assert!(
            matches!(e, EncodeError::MaxBytesTooSmall { needed, .. } if needed > 100),
            "{e}"
        );
    }

    #[test]
    fn a_frame_past_the_limit_ends_the_animation_where_it_would_have_begun() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.svg");
        let first = {
            let mut e = SvgEncoder::create(&path, 20, 3, &EncodeOptions::default()).unwrap();
            e.add_frame(0.0, &screen("one")).unwrap();
            e.bytes
        };
        let options = EncodeOptions {
            max_bytes: first + 10,
            ..EncodeOptions::default()
        };
        let mut encoder = SvgEncoder::create(&path, 20, 3, &options).unwrap();
        assert_eq!(
            encoder.add_frame(0.0, &screen("one")).unwrap(),
            SinkStatus::Accepting
        );
        assert_eq!(
            encoder
                .add_frame(1.5, &screen("a much longer line"))
                .unwrap(),
            SinkStatus::Full
        );
        let summary = encoder.finish(9.0).unwrap();
        assert!(summary.truncated);
        assert_eq!((summary.frames, summary.duration_ms), (1, 1500));
        let svg = std::fs::read_to_string(&path).unwrap();
        assert!(summary.bytes <= options.max_bytes, "{}", summary.bytes);
        assert!(!svg.contains("longer"), "{svg}");
    }
}
