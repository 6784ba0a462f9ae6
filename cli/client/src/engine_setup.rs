//! The first run, seen by the user: before a verb starts a server, the engine is installed by
//! this process, on the user's terminal (a spinner when stderr is a terminal, plain lines
//! otherwise, nothing but the error under `--json`), instead of inside a server whose output
//! goes nowhere and whose start-up a client gives up on after a few seconds.

use std::path::Path;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use phux_core::engine::{self, EngineError, LoaderConfig, WHEEL_REQUIREMENT};
use phux_core::error_code::ErrorCode;

use crate::failure::Failure;
use crate::output;
use crate::Client;

/// Installs the engine if no server answers at `socket` (one will be started) and the engine
/// is missing. A server already running has its engine; a library that is present but wrong
/// is left for the server to report, as before.
pub fn prepare_for_server(socket: &Path, json: bool) -> Result<(), Failure> {
    if Client::connect(socket).is_ok() {
        return Ok(());
    }
    let config = LoaderConfig::from_env();
    match engine::load_existing(&config) {
        Err(EngineError::NotFound { .. }) if config.auto_install && config.explicit.is_none() => {}
        _ => return Ok(()),
    }
    let wheel = engine::auto_install_wheel();
    let announcement = format!(
        "installing the terminal engine ({WHEEL_REQUIREMENT}{}) into {}",
        wheel
            .as_ref()
            .map(|w| format!(" from {}", w.display()))
            .unwrap_or_else(|| " from PyPI".to_owned()),
        config.data_dir.display()
    );
    let progress = InstallProgress::start(&announcement, json);
    let result = engine::install(&config.data_dir, wheel.as_deref());
    progress.finish();
    let report = result.map_err(|e| {
        let error = EngineError::Install(e);
        Failure::new(
            ErrorCode::EngineUnavailable,
            error.to_string(),
            error.remedy(),
        )
    })?;
    if !json {
        output::stderr_line(&format!("phux: installed {}", report.path.display()));
    }
    Ok(())
}

/// A spinner on a terminal, one plain line otherwise, nothing under `--json`.
struct InstallProgress {
    spinner: Option<ProgressBar>,
}

impl InstallProgress {
    fn start(announcement: &str, json: bool) -> InstallProgress {
        if json {
            return InstallProgress { spinner: None };
        }
        if !rustix::termios::isatty(std::io::stderr()) {
            output::stderr_line(&format!("phux: {announcement}"));
            return InstallProgress { spinner: None };
        }
        let spinner = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        let style = ProgressStyle::with_template("{spinner} phux: {msg} ({elapsed})")
            .unwrap_or_else(|_| ProgressStyle::default_spinner());
        spinner.set_style(style);
        spinner.set_message(announcement.to_owned());
        spinner.enable_steady_tick(Duration::from_millis(100));
        InstallProgress {
            spinner: Some(spinner),
        }
    }

    fn finish(self) {
        if let Some(spinner) = self.spinner {
            spinner.finish_and_clear();
        }
    }
}
