//! `phux tape FILE.tape`: runs a VHS-style tape in a fresh headless pane, in real time, and
//! writes every `Output` it names (and each `-o`) from the one recording: GIF, APNG, cast,
//! the final screen as text, a directory of PNG frames, or a video through ffmpeg. The
//! language (lexer, parser, plan) is pure; the runner drives the pane through `phux_client`.

#![forbid(unsafe_code)]

mod error;
mod lexer;
mod outputs;
mod parser;
mod plan;
mod progress;
pub mod record;
mod runner;
mod session;
mod set_command;
mod video;

use outputs::OutputKind;
pub use outputs::Written;
use parser::Step;
use phux_client::failure::Failure;
use phux_client::Context;
use phux_core::error_code::ErrorCode;
use phux_encoders::{EncodeOptions, RenderSettings};
use plan::{Plan, Settings};
use runner::RunError;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// What to run, and what else to write.
#[derive(Debug, Clone)]
pub struct TapeOptions {
    /// The tape to run.
    pub tape: PathBuf,
    /// Also write these outputs (same kinds as the tape's Output lines).
    pub out: Vec<PathBuf>,
    /// No progress on stderr (the caller prints a document).
    pub quiet: bool,
}

/// The byte limit of a tape's animations: demos are short, but none is cut at 8 MiB.
const TAPE_MAX_BYTES: u64 = 256 * 1024 * 1024;

/// What `tape --json` prints.
#[derive(Debug, serde::Serialize)]
pub struct TapeJson {
    pub schema_version: u32,
    pub tape: String,
    pub cols: u16,
    pub rows: u16,
    pub width_px: u32,
    pub height_px: u32,
    pub duration_ms: u64,
    pub outputs: Vec<Written>,
    pub screenshots: Vec<Written>,
    pub notes: Vec<String>,
}

fn invalid(error: error::TapeError) -> Failure {
    Failure::new(
        ErrorCode::TapeInvalid,
        error.to_string(),
        "fix the tape at that line and column (see docs/tape.md for the language)",
    )
}

/// Runs the tape and writes its outputs; returns what `tape --json` prints.
pub fn tape(args: &TapeOptions, context: &Context) -> Result<TapeJson, Failure> {
    let steps = parser::parse_file(&args.tape).map_err(invalid)?;
    let mut plan = plan::plan(steps).map_err(invalid)?;
    let outputs = outputs_of(args, &plan)?;
    let argv = shell_command(&plan.settings.shell);
    check_programs(&plan, &argv, &outputs)?;
    let (cols, rows) = plan.grid;
    phux_client::engine_setup::prepare_for_server(&context.socket, args.quiet)?;
    let mut env = shell_env(&plan.settings.shell);
    env.append(&mut plan.env);
    let mut session = session::Session::start(&context.socket, argv, env, cols, rows)?;
    let stop = Arc::new(AtomicBool::new(false));
    for signal in phux_client::values::STOP_SIGNALS {
        let _ = signal_hook::flag::register(signal, Arc::clone(&stop));
    }
    let mut progress = progress::TapeProgress::start(plan.actions.len(), args.quiet);
    let result = runner::run(
        &mut session,
        &plan.settings,
        &plan.actions,
        &stop,
        &mut |i, step| progress.step(i, step),
    );
    let recorded = session.finish();
    progress.finish();
    if recorded.lagged {
        phux_client::observe::warn_lagged();
    }
    let run = result.map_err(run_failure)?;
    let recording = outputs::recording(&recorded, &run);
    let settings = render_settings(&plan.settings, &recording);
    let mut progress = progress::TapeProgress::rendering(outputs.len(), args.quiet);
    let mut written = Vec::new();
    for (path, kind) in &outputs {
        progress.rendering_step(path);
        let offset = plan.settings.loop_offset_secs(recording.shown_end);
        written.push(
            outputs::write(&recording, path, *kind, &settings, offset).map_err(output_failure)?,
        );
    }
    let screenshots =
        outputs::screenshots(&recording, &settings.options).map_err(output_failure)?;
    progress.finish();
    let (width_px, height_px) = (plan.settings.width, plan.settings.height);
    let mut notes = std::mem::take(&mut plan.notes);
    notes.extend(plan.settings.not_applied());
    if outputs.is_empty() && screenshots.is_empty() {
        notes.push("the tape names no Output (and no -o was given): nothing was written".into());
    }
    let doc = TapeJson {
        schema_version: 1,
        tape: args.tape.display().to_string(),
        cols: recorded.cols,
        rows: recorded.rows,
        width_px,
        height_px,
        duration_ms: (recording.shown_end / settings.speed * 1000.0).round() as u64,
        outputs: written,
        screenshots,
        notes,
    };
    Ok(doc)
}

/// The tape's outputs and `-o`s, each classified; an unknown kind is refused before running.
fn outputs_of(args: &TapeOptions, plan: &Plan) -> Result<Vec<(PathBuf, OutputKind)>, Failure> {
    let mut out = Vec::new();
    for (path, step) in &plan.outputs {
        out.push(OutputKind::of(path).map_err(|e| invalid(step.error(e)))?);
    }
    for path in &args.out {
        let resolved = OutputKind::of(path).map_err(|e| {
            Failure::new(
                ErrorCode::UnsupportedFormat,
                format!("-o {}: {e}", path.display()),
                "name the output .gif, .png, .cast, .txt, .mp4, .webm or dir/",
            )
        })?;
        out.push(resolved);
    }
    // The tape's own outputs are named by their line; `-o`s by the flag.
    let lines = plan.outputs.iter().map(|(_, step)| Some(step));
    for ((path, _), step) in out.iter().zip(lines.chain(std::iter::repeat(None))) {
        phux_client::verbs::rec::check_directory(path).map_err(|mut failure| {
            if let Some(step) = step {
                failure.message = step.error(failure.message).to_string();
            }
            failure
        })?;
    }
    Ok(out)
}

/// Whether `program` can be run: a path that exists, or a name found on `PATH`.
fn installed(program: &str) -> bool {
    if program.contains('/') {
        return Path::new(program).is_file();
    }
    std::env::var_os("PATH").is_some_and(|paths| {
        std::env::split_paths(&paths).any(|dir| {
            let candidate = dir.join(program);
            rustix::fs::access(&candidate, rustix::fs::Access::EXEC_OK).is_ok()
                && candidate.is_file()
        })
    })
}

/// `Require`d programs, the shell and ffmpeg (for a video), all checked before anything runs.
fn check_programs(
    plan: &Plan,
    argv: &[String],
    outputs: &[(PathBuf, OutputKind)],
) -> Result<(), Failure> {
    for (program, step) in &plan.requires {
        if !installed(program) {
            return Err(Failure::new(
                ErrorCode::MissingProgram,
                step.error(format!("Require {program}: {program} is not installed (not found on PATH); nothing ran")).to_string(),
                format!("install {program}, or remove the Require line"),
            ));
        }
    }
    if let Some(shell) = argv.first().filter(|s| !installed(s)) {
        return Err(Failure::new(
            ErrorCode::MissingProgram,
            format!("the tape's shell {shell} is not installed (not found on PATH); nothing ran"),
            "install it, or choose another with Set Shell (bash, zsh, fish, sh)",
        ));
    }
    if let Some((path, _)) = outputs
        .iter()
        .find(|(_, k)| matches!(k, OutputKind::Video(_)))
    {
        if !installed("ffmpeg") {
            return Err(Failure::new(
                ErrorCode::MissingProgram,
                format!(
                    "{} needs ffmpeg, which is not installed (not found on PATH); nothing ran",
                    path.display()
                ),
                "install ffmpeg, or write a .gif, .png, .cast, .txt or dir/ instead",
            ));
        }
    }
    Ok(())
}

/// The shell with its start-up files skipped, so a demo looks the same on every machine.
fn shell_command(shell: &str) -> Vec<String> {
    let argv: &[&str] = match shell {
        "bash" => &["bash", "--noprofile", "--norc"],
        "zsh" => &["zsh", "--no-rcs"],
        "fish" => &[
            "fish",
            "--no-config",
            "--init-command",
            "function fish_prompt; echo -n '> '; end",
        ],
        _ => return shell.split_whitespace().map(str::to_owned).collect(),
    };
    argv.iter().map(|s| (*s).to_owned()).collect()
}

/// A plain `> ` prompt (what `Wait`'s default pattern `>$` looks for).
fn shell_env(shell: &str) -> Vec<(String, String)> {
    let mut env = vec![("PS1".to_owned(), "> ".to_owned())];
    if shell == "zsh" {
        env.push(("PROMPT".to_owned(), "> ".to_owned()));
    }
    env.push(("HISTFILE".to_owned(), "/dev/null".to_owned()));
    env
}

fn render_settings(settings: &Settings, recording: &outputs::Recording) -> RenderSettings {
    let last_output = recording.shown.events.last().map_or(0.0, |e| e.time);
    RenderSettings {
        options: EncodeOptions {
            theme: settings.theme,
            scale: settings.scale(),
            max_bytes: TAPE_MAX_BYTES,
            overwrite: true,
            chrome: settings.chrome(),
            keep_unchanged_transparent: true,
            font: settings.font(),
        },
        prefer_cast_theme: false,
        fps: settings.framerate,
        speed: settings.playback_speed,
        idle_limit: None,
        last_frame_hold: ((recording.shown_end - last_output) / settings.playback_speed).max(0.0),
    }
}

fn run_failure(error: RunError) -> Failure {
    match error {
        RunError::Client(e) => Failure::from(e),
        RunError::WaitTimedOut {
            step,
            pattern,
            scope,
            timeout,
            screen,
        } => {
            let what = match scope {
                parser::WaitScope::Line => "the cursor's line",
                parser::WaitScope::Screen => "the screen",
            };
            let mut lines = screen;
            while lines.last().is_some_and(|l| l.trim().is_empty()) {
                lines.pop();
            }
            Failure::new(
                ErrorCode::TapeWaitTimedOut,
                format!(
                    "{}: Wait timed out after {timeout}s: {what} never matched /{pattern}/; nothing was written. The screen then:\n{}",
                    located(&step),
                    lines.join("\n")
                ),
                "raise the timeout (Wait@30s /…/ or Set WaitTimeout 30s), or fix the pattern",
            )
        }
        RunError::NothingCopied(step) => Failure::new(
            ErrorCode::TapeInvalid,
            format!("{}: Paste with nothing copied", located(&step)),
            "Copy \"text\" before Paste",
        ),
        RunError::Interrupted(step) => Failure::new(
            ErrorCode::TapeInterrupted,
            format!(
                "{}: interrupted; the pane was removed and nothing was written",
                located(&step)
            ),
            "run the tape again to the end",
        ),
        RunError::PaneExited(step) => Failure::new(
            ErrorCode::PaneExited,
            format!(
                "{}: the shell exited before this step; nothing was written",
                located(&step)
            ),
            "keep the shell running until the tape ends (no `exit` before the last step)",
        ),
    }
}

fn located(step: &Step) -> String {
    format!("{}:{}:{}", step.file.display(), step.line, step.col)
}

fn output_failure(error: outputs::OutputError) -> Failure {
    let remedy = match &error {
        outputs::OutputError::Encode { source, .. } => source.remedy(),
        outputs::OutputError::Ffmpeg { .. } => "the usual cause is an ffmpeg built without the \
            codec (libx264 for .mp4, libvpx-vp9 for .webm): install one that has it, or write a \
            .gif or .png instead"
            .into(),
        _ => "check the output path and the free disk space".into(),
    };
    Failure::new(ErrorCode::EncodeFailed, error.to_string(), remedy)
}
