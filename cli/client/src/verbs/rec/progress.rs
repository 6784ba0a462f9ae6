//! The progress lines of `phux rec` on stderr (never under `--json`, never when stderr is not
//! a terminal): elapsed time, events and bytes while recording; a bar while rendering.

use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use phux_core::ids::PaneId;

pub struct RecordProgress {
    bar: Option<ProgressBar>,
}

fn draw_target(json: bool) -> Option<ProgressDrawTarget> {
    (!json).then(ProgressDrawTarget::stderr)
}

impl RecordProgress {
    pub fn start(pane: PaneId, json: bool) -> Self {
        let bar = draw_target(json).map(|target| {
            let bar = ProgressBar::with_draw_target(None, target);
            let style = ProgressStyle::with_template(
                "{spinner} recording {prefix} {elapsed_precise}  {msg}  (Ctrl-C to stop)",
            )
            .unwrap_or_else(|_| ProgressStyle::default_spinner());
            bar.set_style(style);
            bar.set_prefix(pane.to_string());
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        Self { bar }
    }

    pub fn update(&mut self, events: u64, bytes: u64) {
        if let Some(bar) = &self.bar {
            bar.set_message(format!("{events} events, {} KiB", bytes / 1024));
        }
    }

    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

/// A bar for rendering `total` events, shown only when the render takes over a second.
pub struct RenderProgress {
    bar: Option<ProgressBar>,
    started: std::time::Instant,
    json: bool,
}

impl RenderProgress {
    pub fn new(json: bool) -> Self {
        Self {
            bar: None,
            started: std::time::Instant::now(),
            json,
        }
    }

    pub fn update(&mut self, done: usize, total: usize) {
        if self.bar.is_none() && !self.json && self.started.elapsed() >= Duration::from_secs(1) {
            if let Some(target) = draw_target(self.json) {
                let bar = ProgressBar::with_draw_target(Some(total as u64), target);
                let style =
                    ProgressStyle::with_template("rendering {bar:30} {pos}/{len} events {elapsed}")
                        .unwrap_or_else(|_| ProgressStyle::default_bar());
                bar.set_style(style);
                self.bar = Some(bar);
            }
        }
        if let Some(bar) = &self.bar {
            bar.set_position(done as u64);
        }
    }

    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}
