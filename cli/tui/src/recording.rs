//! `attach --rec FILE`: the composed screen as the person sees it (borders, status line, every
//! pane), each frame timed when the client wrote it. Only what goes to the outer terminal is
//! recorded, never input. The cast is written line by line, so a killed client leaves a valid
//! one; `.gif` and `.png` are rendered from it afterwards by `phux rec --from`.

use std::path::{Path, PathBuf};
use std::time::Instant;

use phux_encoders::{resolve_output, OutputFormat};
use phux_recorder::{CastVersion, Header, LiveSink, RecorderError};

pub struct ScreenRecorder {
    sink: Option<LiveSink>,
    began: Instant,
    /// Where the cast is written (the output itself, or a scratch file for an animation).
    pub cast_path: PathBuf,
    /// The animation to render from the cast afterwards.
    pub render_to: Option<PathBuf>,
    pub error: Option<RecorderError>,
}

/// The idle limit written to the header (the same default as `rec`).
const IDLE_LIMIT: f64 = 2.0;

impl ScreenRecorder {
    pub fn create(out: &Path, size: (u16, u16)) -> Result<ScreenRecorder, String> {
        let output = resolve_output(out).map_err(|e| e.to_string())?;
        let (cast_path, render_to) = match output.format {
            OutputFormat::Cast => (output.path.clone(), None),
            _ => {
                let stem = output
                    .path
                    .file_stem()
                    .map_or_else(|| "attach".into(), |s| s.to_string_lossy().into_owned());
                // Private, as `rec`'s: the screen may show what should stay secret.
                let dir = phux_client::verbs::rec::export::private_scratch_dir("phux-attach-")
                    .map_err(|f| f.message)?;
                (dir.join(format!("{stem}.cast")), Some(output.path.clone()))
            }
        };
        let mut header = Header::new(CastVersion::V2, size.0, size.1);
        header.idle_time_limit = Some(IDLE_LIMIT);
        header.term_type = Some("xterm-256color".into());
        header.timestamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .ok()
            .map(|d| d.as_secs());
        let sink = if render_to.is_some() {
            LiveSink::create_private(&cast_path, &header, true)
        } else {
            LiveSink::create(&cast_path, &header, true)
        }
        .map_err(|e| e.to_string())?;
        Ok(ScreenRecorder {
            sink: Some(sink),
            began: Instant::now(),
            cast_path,
            render_to,
            error: None,
        })
    }

    fn now_ns(&self) -> u64 {
        u64::try_from(self.began.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }

    /// One frame, exactly the bytes written to the outer terminal.
    pub fn frame(&mut self, bytes: &[u8]) {
        let t = self.now_ns();
        if let Some(sink) = self.sink.as_mut() {
            if let Err(e) = sink.output(t, bytes) {
                self.error = Some(e);
                self.sink = None;
            }
        }
    }

    pub fn resize(&mut self, (cols, rows): (u16, u16)) {
        let t = self.now_ns();
        if let Some(sink) = self.sink.as_mut() {
            if let Err(e) = sink.resize(t, cols, rows) {
                self.error = Some(e);
                self.sink = None;
            }
        }
    }

    /// Closes the cast; returns its path.
    pub fn finish(mut self) -> Result<PathBuf, String> {
        if let Some(error) = self.error.take() {
            return Err(error.to_string());
        }
        if let Some(sink) = self.sink.take() {
            sink.finish().map_err(|e| e.to_string())?;
        }
        Ok(self.cast_path)
    }
}
