//! The progress bar of `phux tape` on stderr (never under `--json`, never when stderr is not a
//! terminal): the step running, then the output being written.

use std::path::Path;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::parser::Step;

pub struct TapeProgress {
    bar: Option<ProgressBar>,
}

impl TapeProgress {
    fn bar(len: usize, json: bool, template: &str) -> Self {
        let bar = (!json).then(|| {
            let bar = ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::stderr());
            let style = ProgressStyle::with_template(template)
                .unwrap_or_else(|_| ProgressStyle::default_bar());
            bar.set_style(style);
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        TapeProgress { bar }
    }

    /// A bar over the tape's `steps` actions.
    pub fn start(steps: usize, json: bool) -> Self {
        Self::bar(
            steps,
            json,
            "{spinner} tape {bar:24} {pos}/{len} {elapsed}  {msg}",
        )
    }

    /// A bar over the outputs being written.
    pub fn rendering(outputs: usize, json: bool) -> Self {
        Self::bar(
            outputs,
            json,
            "{spinner} writing {bar:24} {pos}/{len}  {msg}",
        )
    }

    pub fn step(&mut self, index: usize, step: &Step) {
        if let Some(bar) = &self.bar {
            bar.set_position(index as u64);
            bar.set_message(format!("line {}: {}", step.line, describe(step)));
        }
    }

    pub fn rendering_step(&mut self, path: &Path) {
        if let Some(bar) = &self.bar {
            bar.set_message(path.display().to_string());
            bar.inc(1);
        }
    }

    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

fn describe(step: &Step) -> String {
    use super::parser::Command::*;
    match &step.command {
        Type { text, .. } => format!("Type {:?}", text.chars().take(30).collect::<String>()),
        Key { spec, count, .. } => format!("{spec} ×{count}"),
        Sleep(s) => format!("Sleep {s}s"),
        Wait { pattern, .. } => format!("Wait /{}/", pattern.as_deref().unwrap_or("")),
        Screenshot(p) => format!("Screenshot {}", p.display()),
        other => format!("{other:?}").chars().take(30).collect(),
    }
}
