//! `agent explain --file`'s operation: what the detection manifest of a kind does to one
//! captured screen (AgentExplainJson), with no server. A `snapshot --json` document and a plain
//! text screen both work as captures.

use std::path::Path;

use phux_core::agents::{evaluate, ManifestSet, Screen};
use phux_core::documents::{AgentExplainJson, CaptureInfo, ScreenState};
use phux_core::error_code::ErrorCode;

use crate::failure::Failure;
use crate::output;

/// How to explain a capture.
#[derive(Debug, Clone)]
pub struct ExplainOptions {
    /// The manifest to explain the capture with.
    pub kind: Option<String>,
    /// The pane title to evaluate the capture with.
    pub title: Option<String>,
    /// How to read the capture.
    pub format: CaptureFormat,
}

/// How a capture is read: as a `snapshot --json` document, as plain text rows, or as whichever
/// its first byte says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CaptureFormat {
    Auto,
    Json,
    Text,
}

/// Explains a captured screen (a file, or `-` for stdin) with `--kind`'s manifest; no server.
pub fn offline_document(args: &ExplainOptions, path: &str) -> Result<AgentExplainJson, Failure> {
    let (set, errors) = phux_core::agents::rules_dir::load();
    for error in &errors {
        output::warn(&format!("agent rules not loaded: {error}"));
    }
    let manifest = args
        .kind
        .as_deref()
        .and_then(|k| set.get(k))
        .ok_or_else(|| unknown_kind(args.kind.as_deref(), &set))?;
    let bytes = read(path)?;
    let (capture, lines, screen_title) = parse_capture(path, &bytes, args)?;
    let title = args.title.clone().or(screen_title).unwrap_or_default();
    let screen = Screen {
        lines: &lines,
        title: &title,
        osc_progress: "",
    };
    let document = AgentExplainJson {
        schema_version: 1,
        capture,
        explain: evaluate(manifest, &screen, None),
    };
    Ok(document)
}

fn unknown_kind(kind: Option<&str>, set: &ManifestSet) -> Failure {
    let message = match kind {
        Some(kind) => format!("no detection manifest of kind {kind:?} is loaded"),
        None => "--kind is needed with --file".to_owned(),
    };
    Failure::new(
        ErrorCode::UnknownAgentKind,
        message,
        format!("pass --kind with one of: {}", set.kinds().join(", ")),
    )
}

/// The capture's bytes, at most [`MAX_DOCUMENT_BYTES`](bounded_read::MAX_DOCUMENT_BYTES)
/// (`--file /dev/zero` passed 4 GB).
fn read(path: &str) -> Result<Vec<u8>, Failure> {
    use phux_core::bounded_read::{self, MAX_DOCUMENT_BYTES};
    const WHAT: &str = "a screen capture";
    let result = if path == "-" {
        bounded_read::read_all(
            std::io::stdin().lock(),
            Path::new("-"),
            MAX_DOCUMENT_BYTES,
            WHAT,
        )
    } else {
        bounded_read::read_file(Path::new(path), MAX_DOCUMENT_BYTES, WHAT)
    };
    result.map_err(|e| {
        Failure::new(
            ErrorCode::CaptureUnreadable,
            // "cannot read the capture FILE: why", whatever the read's own wording.
            format!(
                "cannot read the capture {path}: {}",
                e.to_string()
                    .trim_start_matches(&format!("cannot read {path}: "))
            ),
            "pass a readable file (or - for stdin), e.g. from `phux snapshot --json @N > screen.json`",
        )
    })
}

fn invalid(message: String) -> Failure {
    Failure::new(
        ErrorCode::CaptureInvalid,
        message,
        "capture a screen with `phux snapshot --json @N > screen.json`, or pass plain text rows",
    )
}

/// The capture's description, its rows, and the title a JSON capture carried.
fn parse_capture(
    path: &str,
    bytes: &[u8],
    args: &ExplainOptions,
) -> Result<(CaptureInfo, Vec<String>, Option<String>), Failure> {
    let text = String::from_utf8_lossy(bytes);
    let json = match args.format {
        CaptureFormat::Json => true,
        CaptureFormat::Text => false,
        CaptureFormat::Auto => text.trim_start().starts_with('{'),
    };
    let (lines, cols, title) = if json {
        let state: ScreenState = serde_json::from_str(&text)
            .map_err(|e| invalid(format!("{path} is not a ScreenState document: {e}")))?;
        (state.lines, Some(state.cols), state.title)
    } else {
        (text.lines().map(str::to_owned).collect(), None, None)
    };
    if lines.is_empty() {
        return Err(invalid(format!("{path} holds no rows")));
    }
    let capture = CaptureInfo {
        path: path.to_owned(),
        format: if json { "json" } else { "text" }.to_owned(),
        rows: u32::try_from(lines.len()).unwrap_or(u32::MAX),
        cols,
        title: args.title.clone().unwrap_or_default(),
    };
    Ok((capture, lines, title))
}
