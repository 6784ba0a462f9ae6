//! `[defaults]`: what new panes and recordings start with when no flag says otherwise.
//! A new key is a field here and its name in [`Defaults::KEYS`].

use serde::{Deserialize, Serialize};

/// The program a pane runs when neither a flag nor `[defaults] shell` names one: `$SHELL`, else
/// `/bin/sh`.
pub fn default_shell() -> String {
    std::env::var("SHELL")
        .ok()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "/bin/sh".into())
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", default)]
pub struct Defaults {
    /// The program a pane runs when none is given (else `$SHELL`, else `/bin/sh`).
    pub shell: Option<String>,
    /// `TERM` in every pane (`xterm-256color`).
    pub term: Option<String>,
    /// Rows of scrollback each pane keeps.
    pub history_limit: Option<usize>,
    /// How attached clients' sizes decide a session's size.
    pub window_size: Option<WindowSize>,
    /// Where a new pane starts: in the focused pane's directory, or at home.
    pub cwd_inheritance: Option<CwdInheritance>,
    /// The name of a session created without one.
    pub session_name_template: Option<String>,
    /// Recording: the longest pause kept, in seconds.
    pub idle_limit: Option<f64>,
    /// Recording: frames per second of an animation.
    pub fps: Option<u32>,
    /// Recording: the colour theme of an animation.
    pub theme: Option<String>,
    /// Recording: the integer pixel scale of an animation.
    pub scale: Option<u8>,
    /// Recording: the size an animation stops at.
    pub max_bytes: Option<u64>,
    /// Memory each pane's flight recorder keeps for `rec --since`.
    pub flight_bytes: Option<usize>,
    /// Recording: the font of an animation, a comma-separated fallback chain of families or
    /// font files (`unifont`: the 8x16 bitmap font).
    pub font: Option<String>,
    /// Recording: the font size of an animation, in pixels.
    #[serde(serialize_with = "as_written")]
    pub font_size: Option<f32>,
    /// Recording: the cell height as a multiple of the font size.
    #[serde(serialize_with = "as_written")]
    pub line_height: Option<f32>,
    /// Recording: pixels added to each cell's width.
    #[serde(serialize_with = "as_written")]
    pub letter_spacing: Option<f32>,
}

/// An `f32` as the shortest decimal that reads back as it (`1.4`, not the `1.399999976158142`
/// widening it to `f64` would print).
fn as_written<S: serde::Serializer>(value: &Option<f32>, out: S) -> Result<S::Ok, S::Error> {
    match value {
        Some(v) => out.serialize_some(&v.to_string().parse::<f64>().unwrap_or(f64::from(*v))),
        None => out.serialize_none(),
    }
}

impl Defaults {
    /// Every key `[defaults]` knows; any other is warned about.
    pub const KEYS: &'static [&'static str] = &[
        "shell",
        "term",
        "history-limit",
        "window-size",
        "cwd-inheritance",
        "session-name-template",
        "idle-limit",
        "fps",
        "theme",
        "scale",
        "max-bytes",
        "flight-bytes",
        "font",
        "font-size",
        "line-height",
        "letter-spacing",
    ];

    /// The terminal type panes get.
    pub fn term_or_default(&self) -> &str {
        self.term.as_deref().unwrap_or("xterm-256color")
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WindowSize {
    Smallest,
    Largest,
    Latest,
    Manual,
}

impl WindowSize {
    pub fn as_str(self) -> &'static str {
        match self {
            WindowSize::Smallest => "smallest",
            WindowSize::Largest => "largest",
            WindowSize::Latest => "latest",
            WindowSize::Manual => "manual",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CwdInheritance {
    /// A new pane starts in the directory of the pane it joins (tmux's habit).
    #[default]
    InheritFocused,
    /// A new pane starts in `$HOME`.
    Home,
}

impl CwdInheritance {
    pub fn as_str(self) -> &'static str {
        match self {
            CwdInheritance::InheritFocused => "inherit-focused",
            CwdInheritance::Home => "home",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "inherit-focused" => Some(CwdInheritance::InheritFocused),
            "home" => Some(CwdInheritance::Home),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every field is listed in KEYS, so no key the loader reads is warned about as unknown.
    #[test]
    fn every_field_is_a_known_key() {
        let full = Defaults {
            shell: Some("s".into()),
            term: Some("t".into()),
            history_limit: Some(1),
            window_size: Some(WindowSize::Manual),
            cwd_inheritance: Some(CwdInheritance::Home),
            session_name_template: Some("n".into()),
            idle_limit: Some(1.0),
            fps: Some(1),
            theme: Some("x".into()),
            scale: Some(1),
            max_bytes: Some(1),
            flight_bytes: Some(1),
            font: Some("f".into()),
            font_size: Some(1.0),
            line_height: Some(1.0),
            letter_spacing: Some(1.0),
        };
        let value = serde_json::to_value(&full).unwrap();
        let mut keys: Vec<&str> = value
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        keys.sort_unstable();
        let mut known = Defaults::KEYS.to_vec();
        known.sort_unstable();
        assert_eq!(keys, known);
    }
}
