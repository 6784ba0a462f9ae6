//! The top of a recorded tape: its `Output`, the shell, the font, and a `Width`/`Height` that
//! make exactly the recorded pane's grid when `phux tape` reads them back (the same font
//! metrics and padding the tape runner computes its grid with).

use phux_encoders::Theme;

use super::compose::{quoted, time};
use crate::plan::Settings;

/// What the header says.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Header {
    /// The `Output` line's path (relative to the tape), if any.
    pub output: Option<String>,
    /// The shell the tape starts (`Set Shell`), when not the tape's default.
    pub shell: Option<String>,
    pub font_family: Option<String>,
    pub font_size: Option<f64>,
    pub line_height: Option<f64>,
    pub letter_spacing: Option<f64>,
    /// A built-in theme's name (`Set Theme`).
    pub theme: Option<String>,
    pub cols: u16,
    pub rows: u16,
    pub typing_ms: u64,
    /// Lines of `#` comment at the very top.
    pub comments: Vec<String>,
}

/// A header whose size cannot be made (a font that cannot be loaded, a grid too large for an
/// image).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct HeaderError(pub String);

impl Header {
    /// The tape settings the header's font lines make.
    fn settings(&self) -> Settings {
        let mut settings = Settings::default();
        settings.font_family.clone_from(&self.font_family);
        if let Some(size) = self.font_size {
            settings.font_size = size;
        }
        if let Some(height) = self.line_height {
            settings.line_height = height;
        }
        settings.letter_spacing = self.letter_spacing;
        if let Some(theme) = self.theme.as_deref().and_then(|t| Theme::builtin(t).ok()) {
            settings.theme = theme;
        }
        settings
    }

    /// `Width` and `Height` in pixels: the grid in the font's cells, and the padding around.
    pub fn size_px(&self) -> Result<(u32, u32), HeaderError> {
        let settings = self.settings();
        let (cell_w, cell_h) = settings.cell().map_err(|e| HeaderError(e.to_string()))?;
        let padding = 2 * settings.padding;
        Ok((
            u32::from(self.cols) * cell_w + padding,
            u32::from(self.rows) * cell_h + padding,
        ))
    }

    /// The header as tape text.
    pub fn render(&self) -> Result<String, HeaderError> {
        let (width, height) = self.size_px()?;
        let mut out = String::new();
        for comment in &self.comments {
            out.push_str(&format!("# {comment}\n"));
        }
        if let Some(output) = &self.output {
            out.push_str(&format!("Output {}\n", word_or_quoted(output)?));
        }
        if let Some(shell) = &self.shell {
            out.push_str(&format!("Set Shell {}\n", word_or_quoted(shell)?));
        }
        if let Some(family) = &self.font_family {
            let family = quoted(family)
                .ok_or_else(|| HeaderError(format!("the font name {family:?} has every quote")))?;
            out.push_str(&format!("Set FontFamily {family}\n"));
        }
        let number = |v: f64| format!("{}", (v * 1000.0).round() / 1000.0);
        if let Some(v) = self.font_size {
            out.push_str(&format!("Set FontSize {}\n", number(v)));
        }
        if let Some(v) = self.line_height {
            out.push_str(&format!("Set LineHeight {}\n", number(v)));
        }
        if let Some(v) = self.letter_spacing {
            out.push_str(&format!("Set LetterSpacing {}\n", number(v)));
        }
        if let Some(theme) = &self.theme {
            out.push_str(&format!("Set Theme {}\n", word_or_quoted(theme)?));
        }
        out.push_str(&format!("Set Width {width}\nSet Height {height}\n"));
        out.push_str(&format!(
            "Set TypingSpeed {}\n",
            time(self.typing_ms.max(1))
        ));
        Ok(out)
    }
}

/// A bare word when `text` is one the lexer reads back as it is, else quoted.
fn word_or_quoted(text: &str) -> Result<String, HeaderError> {
    let plain = !text.is_empty()
        && !text
            .chars()
            .any(|c| c.is_whitespace() || matches!(c, '"' | '\'' | '`' | '#' | '{' | '/'));
    if plain {
        return Ok(text.to_owned());
    }
    quoted(text).ok_or_else(|| HeaderError(format!("{text:?} holds every kind of quote")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parser::parse_text;
    use std::path::Path;

    /// The size the header writes is read back by the tape's planner as the recorded grid.
    #[test]
    fn width_and_height_make_the_recorded_grid() {
        for (cols, rows, font_size, line_height) in [
            (80, 24, None, None),
            (132, 43, Some(14.0), Some(1.4)),
            (20, 5, Some(9.5), None),
        ] {
            let header = Header {
                output: Some("my demo.gif".into()),
                shell: Some("bash".into()),
                font_size,
                line_height,
                cols,
                rows,
                typing_ms: 75,
                comments: vec!["recorded".into()],
                ..Header::default()
            };
            let text = header.render().unwrap();
            let plan = crate::plan::plan(parse_text(Path::new("t.tape"), &text).unwrap())
                .unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(plan.grid, (cols, rows), "{text}");
            assert_eq!(plan.settings.typing_speed, 0.075);
            assert_eq!(plan.outputs[0].0, Path::new("my demo.gif"));
        }
    }

    #[test]
    fn a_font_chain_and_a_theme_are_written_as_the_tape_reads_them() {
        let header = Header {
            font_family: Some("unifont".into()),
            font_size: Some(32.0),
            theme: Some("dracula".into()),
            cols: 40,
            rows: 10,
            typing_ms: 50,
            ..Header::default()
        };
        let text = header.render().unwrap();
        assert!(text.contains("Set FontFamily \"unifont\"\n"), "{text}");
        let plan = crate::plan::plan(parse_text(Path::new("t.tape"), &text).unwrap()).unwrap();
        assert_eq!(plan.grid, (40, 10));
        assert_eq!(plan.settings.theme, Theme::builtin("dracula").unwrap());
    }
}
