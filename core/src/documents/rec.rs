//! `phux rec --json`: the finished recording (§4.14).

use serde::{Deserialize, Serialize};

pub const REC_SCHEMA_VERSION: u32 = 1;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RecFormat {
    Cast,
    Gif,
    Apng,
    /// One still PNG (`--still`, `--frame`), not an animation.
    Png,
    /// A self-contained page that plays the recording (`-o demo.html`).
    Html,
    /// An SVG (`-o demo.svg`): animated, or one screen with `--still`/`--frame`.
    Svg,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecJson {
    pub schema_version: u32,
    pub path: String,
    pub format: RecFormat,
    pub bytes: u64,
    /// The recording's own timeline after the idle clamp.
    pub duration_ms: u64,
    /// Encoded frames; for `cast`, the cast's event count.
    pub frames: u64,
    pub cols: u16,
    pub rows: u16,
    /// Encoding stopped at `--max-bytes`; the file is still complete and playable.
    pub truncated: bool,
    /// A GIF or APNG: how long the file plays once through, as a viewer shows it (the sum of
    /// its frames' delays, the `--last-frame` hold included; `duration_ms` is the recording's
    /// timeline without it). Absent for a cast, a page and a still.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub played_ms: Option<u64>,
    /// For `rec -- COMMAND`: the command's exit status (128 + N when signal N ended it);
    /// absent when no command was recorded or its status is unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_status: Option<i32>,
}
