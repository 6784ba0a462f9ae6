//! `Set NAME VALUE`: the settings a tape may change, named as VHS names them, and how each
//! value is read. A tape is never refused for a setting VHS knows: one phux does not apply
//! becomes a note.

use super::error::TapeError;
use super::lexer::{Token, TokenKind};
use super::parser::Parser;

/// `LoopOffset`: where the animation starts, in frames or as a share of its length.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LoopOffset {
    Frames(u32),
    Percent(f64),
}

/// A `Set` command.
#[derive(Debug, Clone, PartialEq)]
pub enum Setting {
    Shell(String),
    FontFamily(String),
    FontSize(f64),
    LineHeight(f64),
    LetterSpacing(f64),
    Width(u32),
    Height(u32),
    Padding(u32),
    Margin(u32),
    MarginFill(String),
    BorderRadius(u32),
    WindowBar(String),
    WindowBarSize(u32),
    /// A built-in theme's name, or a JSON object of colours.
    Theme(ThemeSource),
    TypingSpeed(f64),
    Framerate(u32),
    PlaybackSpeed(f64),
    LoopOffset(LoopOffset),
    CursorBlink(bool),
    WaitTimeout(f64),
    WaitPattern(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ThemeSource {
    Name(String),
    Json(String),
}

/// Every setting VHS has, all of which phux reads (`CursorBlink` is accepted and the cursor
/// drawn steady).
const SETTINGS: &[&str] = &[
    "Shell",
    "FontFamily",
    "FontSize",
    "LineHeight",
    "LetterSpacing",
    "Width",
    "Height",
    "Padding",
    "Margin",
    "MarginFill",
    "BorderRadius",
    "WindowBar",
    "WindowBarSize",
    "Theme",
    "TypingSpeed",
    "Framerate",
    "PlaybackSpeed",
    "LoopOffset",
    "CursorBlink",
    "WaitTimeout",
    "WaitPattern",
];

const WINDOW_BARS: &[&str] = &["Colorful", "ColorfulRight", "Rings", "RingsRight"];

impl Parser<'_> {
    pub(super) fn setting(&mut self, command: &Token) -> Result<Setting, TapeError> {
        let name_token = self.arg(
            command,
            "a setting name (Shell, Width, Height, FontSize, Theme, ...)",
        )?;
        let TokenKind::Word(name) = &name_token.kind else {
            return Err(self.error_at(
                &name_token,
                format!("expected a setting name, found {}", name_token.describe()),
            ));
        };
        let t = &name_token;
        Ok(match name.as_str() {
            "Shell" => Setting::Shell(self.text_arg(t, "a shell (bash, zsh, fish, sh)")?),
            "FontFamily" => Setting::FontFamily(self.text_arg(t, "a font family")?),
            "FontSize" => Setting::FontSize(self.positive(t, "a font size in pixels")?),
            "LineHeight" => Setting::LineHeight(self.positive(t, "a line height like 1.2")?),
            "LetterSpacing" => Setting::LetterSpacing(self.number_arg(t, "a letter spacing")?),
            "Width" => Setting::Width(self.number_arg(t, "a width in pixels")?),
            "Height" => Setting::Height(self.number_arg(t, "a height in pixels")?),
            "Padding" => Setting::Padding(self.number_arg(t, "a padding in pixels")?),
            "Margin" => Setting::Margin(self.number_arg(t, "a margin in pixels")?),
            "MarginFill" => Setting::MarginFill(self.text_arg(t, "a colour like \"#674EFF\"")?),
            "BorderRadius" => Setting::BorderRadius(self.number_arg(t, "a radius in pixels")?),
            "WindowBarSize" => Setting::WindowBarSize(self.number_arg(t, "a height in pixels")?),
            "Framerate" => Setting::Framerate(self.number_arg(t, "frames per second")?),
            "PlaybackSpeed" => Setting::PlaybackSpeed(self.positive(t, "a speed like 2 or 0.5")?),
            "TypingSpeed" => Setting::TypingSpeed(self.time_arg(t)?),
            "WaitTimeout" => Setting::WaitTimeout(self.time_arg(t)?),
            "WindowBar" => {
                let bar = self.text_arg(t, "a window bar style")?;
                if !WINDOW_BARS.contains(&bar.as_str()) {
                    return Err(self.error_at(
                        t,
                        format!(
                            "unknown WindowBar `{bar}`: expected one of {}",
                            WINDOW_BARS.join(", ")
                        ),
                    ));
                }
                Setting::WindowBar(bar)
            }
            "Theme" => {
                let token = self.arg(t, "a theme name or a JSON object of colours")?;
                match token.kind {
                    TokenKind::Word(w) | TokenKind::Quoted(w) => {
                        Setting::Theme(ThemeSource::Name(w))
                    }
                    TokenKind::Json(j) => Setting::Theme(ThemeSource::Json(j)),
                    _ => {
                        return Err(self.error_at(
                            &token,
                            format!(
                                "expected a theme name or a JSON object, found {}",
                                token.describe()
                            ),
                        ))
                    }
                }
            }
            "WaitPattern" => {
                let token = self.arg(t, "a /regex/")?;
                match token.kind.clone() {
                    TokenKind::Regex(r) | TokenKind::Quoted(r) => {
                        regex::Regex::new(&r).map_err(|e| {
                            self.error_at(&token, format!("this regex does not compile: {e}"))
                        })?;
                        Setting::WaitPattern(r)
                    }
                    _ => {
                        return Err(self.error_at(
                            &token,
                            format!("expected a /regex/, found {}", token.describe()),
                        ))
                    }
                }
            }
            "LoopOffset" => {
                let token = self.arg(t, "a frame count or a percentage like 20%")?;
                let text = match &token.kind {
                    TokenKind::Word(w) | TokenKind::Quoted(w) => w.clone(),
                    _ => String::new(),
                };
                let offset = match text.strip_suffix('%') {
                    Some(p) => p
                        .parse::<f64>()
                        .ok()
                        .filter(|p| (0.0..=100.0).contains(p))
                        .map(LoopOffset::Percent),
                    None => text.parse::<u32>().ok().map(LoopOffset::Frames),
                };
                Setting::LoopOffset(offset.ok_or_else(|| {
                    self.error_at(
                        &token,
                        format!(
                            "expected a frame count or a percentage like 20%, found {}",
                            token.describe()
                        ),
                    )
                })?)
            }
            "CursorBlink" => {
                let value = self.text_arg(t, "true or false")?;
                Setting::CursorBlink(match value.as_str() {
                    "true" => true,
                    "false" => false,
                    _ => {
                        return Err(self.error_at(
                            t,
                            format!("expected true or false after CursorBlink, found `{value}`"),
                        ))
                    }
                })
            }
            other => {
                return Err(self.error_at(
                    t,
                    format!(
                        "unknown setting `{other}`: expected {}",
                        SETTINGS.join(", ")
                    ),
                ))
            }
        })
    }

    fn positive(&mut self, t: &Token, expected: &str) -> Result<f64, TapeError> {
        let at = self.peek().cloned().unwrap_or_else(|| t.clone());
        let v: f64 = self.number_arg(t, expected)?;
        if v.is_finite() && v > 0.0 {
            Ok(v)
        } else {
            Err(self.error_at(&at, format!("expected {expected} above 0, found {v}")))
        }
    }
}
