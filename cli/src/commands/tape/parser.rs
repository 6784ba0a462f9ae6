//! The tape language: one command per line, as VHS reads it. `Source` is followed here, so the
//! result is the flat list of commands to run, each with the place it was written.

use super::error::TapeError;
use super::lexer::{tokenize, Token, TokenKind};
use phux_core::bounded_read;
use std::path::{Path, PathBuf};

/// How deep `Source` may nest (a tape sourcing itself is caught before this).
const MAX_SOURCE_DEPTH: usize = 16;

/// One command and where it was written.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    pub command: Command,
    pub file: PathBuf,
    pub line: usize,
    pub col: usize,
}

impl Step {
    /// An error about this step.
    pub fn error(&self, message: impl Into<String>) -> TapeError {
        TapeError::at(&self.file, self.line, self.col, message)
    }
}

/// Which part of the screen a `Wait` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WaitScope {
    /// The cursor's line (the default).
    Line,
    /// The whole screen.
    Screen,
}

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

/// Every command of the language.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    Output(PathBuf),
    Require(String),
    Env(String, String),
    Set(Setting),
    /// Typed key by key, `speed` seconds apart (the tape's `TypingSpeed` when `None`).
    Type {
        text: String,
        speed: Option<f64>,
    },
    /// A key (as a `send-keys` key spec, e.g. `Enter`, `C-c`), pressed `count` times.
    Key {
        spec: String,
        speed: Option<f64>,
        count: u32,
    },
    Sleep(f64),
    Hide,
    Show,
    Wait {
        scope: WaitScope,
        timeout: Option<f64>,
        /// `None`: the tape's `WaitPattern`.
        pattern: Option<String>,
    },
    Screenshot(PathBuf),
    Copy(String),
    Paste,
}

/// Key names a tape may press, with the `send-keys` name each becomes.
const KEYS: &[(&str, &str)] = &[
    ("Enter", "Enter"),
    ("Backspace", "BSpace"),
    ("Delete", "Delete"),
    ("Insert", "Insert"),
    ("Tab", "Tab"),
    ("Space", "Space"),
    ("Escape", "Escape"),
    ("Up", "Up"),
    ("Down", "Down"),
    ("Left", "Left"),
    ("Right", "Right"),
    ("PageUp", "PageUp"),
    ("PageDown", "PageDown"),
    ("Home", "Home"),
    ("End", "End"),
];

const MODIFIERS: &[(&str, &str)] = &[("Ctrl", "C-"), ("Alt", "M-"), ("Shift", "S-")];

const WINDOW_BARS: &[&str] = &["Colorful", "ColorfulRight", "Rings", "RingsRight"];

/// Reads and parses the tape at `path`, following `Source`.
pub fn parse_file(path: &Path) -> Result<Vec<Step>, TapeError> {
    let mut stack = Vec::new();
    parse_nested(path, &mut stack, None)
}

/// Parses `text` as if read from `file`.
#[cfg(test)]
pub fn parse_text(file: &Path, text: &str) -> Result<Vec<Step>, TapeError> {
    let mut stack = vec![file.to_path_buf()];
    Parser::new(file, tokenize(file, text)?, &mut stack).parse()
}

fn parse_nested(
    path: &Path,
    stack: &mut Vec<PathBuf>,
    from: Option<&Step>,
) -> Result<Vec<Step>, TapeError> {
    let fail = |message: String| match from {
        Some(step) => step.error(message),
        None => TapeError::at(path, 0, 0, message),
    };
    let text = bounded_read::read_text(path, bounded_read::MAX_TEXT_FILE_BYTES, "a tape")
        .map_err(|e| fail(e.to_string()))?;
    let canonical = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    if stack.contains(&canonical) {
        return Err(fail(format!(
            "{} sources itself (through {})",
            path.display(),
            stack
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(" → ")
        )));
    }
    if stack.len() >= MAX_SOURCE_DEPTH {
        return Err(fail(format!(
            "Source nests deeper than {MAX_SOURCE_DEPTH} tapes"
        )));
    }
    stack.push(canonical);
    let tokens = tokenize(path, &text)?;
    let steps = Parser::new(path, tokens, stack).parse();
    stack.pop();
    steps
}

struct Parser<'a> {
    file: &'a Path,
    tokens: Vec<Token>,
    at: usize,
    stack: &'a mut Vec<PathBuf>,
}

impl<'a> Parser<'a> {
    fn new(file: &'a Path, tokens: Vec<Token>, stack: &'a mut Vec<PathBuf>) -> Self {
        Parser {
            file,
            tokens,
            at: 0,
            stack,
        }
    }

    fn parse(mut self) -> Result<Vec<Step>, TapeError> {
        let mut steps = Vec::new();
        while let Some(token) = self.next() {
            let TokenKind::Word(word) = &token.kind else {
                if token.kind == TokenKind::LineEnd {
                    continue;
                }
                return Err(self.error_at(
                    &token,
                    format!(
                        "expected a command (Type, Enter, Sleep, Set, Output, ...), found {}",
                        token.describe()
                    ),
                ));
            };
            let word = word.clone();
            let file = self.file.to_path_buf();
            let step = |command| Step {
                command,
                file: file.clone(),
                line: token.line,
                col: token.col,
            };
            if word == "Source" {
                let source = step(Command::Hide);
                let name = self.text_arg(&token, "a tape file to source")?;
                self.line_end()?;
                let path = self.relative(&name);
                let mut nested = parse_nested(&path, self.stack, Some(&source))?;
                nested.retain(|s| !matches!(s.command, Command::Output(_)));
                steps.extend(nested);
                continue;
            }
            let command = self.command(&token, &word)?;
            self.line_end()?;
            steps.push(step(command));
        }
        Ok(steps)
    }

    fn next(&mut self) -> Option<Token> {
        let token = self.tokens.get(self.at).cloned();
        self.at += 1;
        token
    }

    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at)
    }

    fn error_at(&self, token: &Token, message: impl Into<String>) -> TapeError {
        TapeError::at(self.file, token.line, token.col, message)
    }

    /// A path in a tape is relative to the tape's directory.
    fn relative(&self, name: &str) -> PathBuf {
        let path = PathBuf::from(name);
        match self.file.parent() {
            Some(dir) if path.is_relative() && !dir.as_os_str().is_empty() => dir.join(path),
            _ => path,
        }
    }

    /// The rest of the line must be empty.
    fn line_end(&mut self) -> Result<(), TapeError> {
        match self.next() {
            Some(t) if t.kind == TokenKind::LineEnd => Ok(()),
            Some(t) => Err(self.error_at(
                &t,
                format!("expected the end of the line, found {}", t.describe()),
            )),
            None => Ok(()),
        }
    }

    /// The next token, which must be on this line.
    fn arg(&mut self, command: &Token, expected: &str) -> Result<Token, TapeError> {
        match self.peek() {
            Some(t) if t.kind != TokenKind::LineEnd => {
                Ok(self.next().unwrap_or_else(|| command.clone()))
            }
            Some(t) => {
                Err(self.error_at(t, format!("expected {expected}, found the end of the line")))
            }
            None => Err(self.error_at(command, format!("expected {expected}"))),
        }
    }

    /// A quoted string or a bare word.
    fn text_arg(&mut self, command: &Token, expected: &str) -> Result<String, TapeError> {
        let token = self.arg(command, expected)?;
        match token.kind {
            TokenKind::Word(w) | TokenKind::Quoted(w) => Ok(w),
            _ => Err(self.error_at(
                &token,
                format!("expected {expected}, found {}", token.describe()),
            )),
        }
    }

    fn quoted_arg(&mut self, command: &Token, expected: &str) -> Result<String, TapeError> {
        let token = self.arg(command, expected)?;
        match token.kind {
            TokenKind::Quoted(w) => Ok(w),
            _ => Err(self.error_at(
                &token,
                format!(
                    "expected {expected} in quotes (\"…\", '…' or `…`), found {}",
                    token.describe()
                ),
            )),
        }
    }

    fn number_arg<T: std::str::FromStr>(
        &mut self,
        command: &Token,
        expected: &str,
    ) -> Result<T, TapeError> {
        let token = self.arg(command, expected)?;
        let parsed = match &token.kind {
            TokenKind::Word(w) | TokenKind::Quoted(w) => w.parse().ok(),
            _ => None,
        };
        parsed.ok_or_else(|| {
            self.error_at(
                &token,
                format!("expected {expected}, found {}", token.describe()),
            )
        })
    }

    fn time_arg(&mut self, command: &Token) -> Result<f64, TapeError> {
        let token = self.arg(command, "a time like 500ms, 2s or 1.5")?;
        match &token.kind {
            TokenKind::Word(w) | TokenKind::Quoted(w) => parse_time(w).ok_or_else(|| {
                self.error_at(
                    &token,
                    format!("expected a time like 500ms, 2s or 1.5, found `{w}`"),
                )
            }),
            _ => Err(self.error_at(
                &token,
                format!(
                    "expected a time like 500ms, 2s or 1.5, found {}",
                    token.describe()
                ),
            )),
        }
    }

    fn command(&mut self, token: &Token, word: &str) -> Result<Command, TapeError> {
        let (head, at) = match word.split_once('@') {
            Some((head, time)) => {
                let speed = parse_time(time).ok_or_else(|| {
                    self.error_at(
                        token,
                        format!("expected a time after `@` like @500ms or @2s, found `@{time}`"),
                    )
                })?;
                (head, Some(speed))
            }
            None => (word, None),
        };
        let no_time = |this: &Self| -> Result<(), TapeError> {
            match at {
                Some(_) => Err(this.error_at(token, format!("{head} takes no @TIME"))),
                None => Ok(()),
            }
        };
        let command = match head {
            "Output" => {
                no_time(self)?;
                let path = self.text_arg(
                    token,
                    "an output path (.gif, .png, .cast, .txt, .mp4, .webm or a directory/)",
                )?;
                Command::Output(self.relative(&path))
            }
            "Require" => {
                no_time(self)?;
                Command::Require(self.text_arg(token, "a program name")?)
            }
            "Env" => {
                no_time(self)?;
                let key = self.text_arg(token, "a variable name")?;
                let value = self.text_arg(token, "a value")?;
                Command::Env(key, value)
            }
            "Set" => {
                no_time(self)?;
                Command::Set(self.setting(token)?)
            }
            "Type" => Command::Type {
                text: self.quoted_arg(token, "the text to type")?,
                speed: at,
            },
            "Sleep" => {
                no_time(self)?;
                Command::Sleep(self.time_arg(token)?)
            }
            "Hide" => {
                no_time(self)?;
                Command::Hide
            }
            "Show" => {
                no_time(self)?;
                Command::Show
            }
            "Screenshot" => {
                no_time(self)?;
                let path = self.text_arg(token, "a .png path")?;
                if !path.to_ascii_lowercase().ends_with(".png") {
                    return Err(self.error_at(
                        token,
                        format!("expected a .png path after Screenshot, found `{path}`"),
                    ));
                }
                Command::Screenshot(self.relative(&path))
            }
            "Copy" => {
                no_time(self)?;
                Command::Copy(self.quoted_arg(token, "the text to copy")?)
            }
            "Paste" => {
                no_time(self)?;
                Command::Paste
            }
            _ if head == "Wait" || head.starts_with("Wait+") => self.wait(token, head, at)?,
            _ => {
                let spec = key_spec(head).ok_or_else(|| {
                    self.error_at(token, format!(
                        "unknown command `{head}`: expected Type, Sleep, Wait, Hide, Show, Screenshot, Copy, Paste, \
                         Set, Output, Require, Source, Env, a key ({}) or Ctrl+/Alt+/Shift+ a key",
                        KEYS.iter().map(|k| k.0).collect::<Vec<_>>().join(", ")
                    ))
                })?;
                let count = match self.peek().map(|t| &t.kind) {
                    Some(TokenKind::Word(w)) => {
                        let n = w.parse::<u32>().ok().filter(|n| *n >= 1).ok_or_else(|| {
                            let t = self.peek().cloned().unwrap_or_else(|| token.clone());
                            self.error_at(
                                &t,
                                format!(
                                    "expected a repeat count (1, 2, ...) after {head}, found `{w}`"
                                ),
                            )
                        })?;
                        self.next();
                        n
                    }
                    _ => 1,
                };
                Command::Key {
                    spec,
                    speed: at,
                    count,
                }
            }
        };
        Ok(command)
    }

    fn wait(
        &mut self,
        token: &Token,
        head: &str,
        timeout: Option<f64>,
    ) -> Result<Command, TapeError> {
        let scope = match head {
            "Wait" | "Wait+Line" => WaitScope::Line,
            "Wait+Screen" => WaitScope::Screen,
            _ => {
                return Err(self.error_at(
                    token,
                    format!("expected Wait, Wait+Line or Wait+Screen, found `{head}`"),
                ))
            }
        };
        let pattern = match self.peek().map(|t| t.kind.clone()) {
            Some(TokenKind::Regex(r)) => {
                let t = self.next().unwrap_or_else(|| token.clone());
                regex::Regex::new(&r)
                    .map_err(|e| self.error_at(&t, format!("this regex does not compile: {e}")))?;
                Some(r)
            }
            Some(TokenKind::LineEnd) | None => None,
            Some(_) => {
                let t = self.peek().cloned().unwrap_or_else(|| token.clone());
                return Err(self.error_at(
                    &t,
                    format!("expected a /regex/ after {head}, found {}", t.describe()),
                ));
            }
        };
        Ok(Command::Wait {
            scope,
            timeout,
            pattern,
        })
    }

    fn setting(&mut self, command: &Token) -> Result<Setting, TapeError> {
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
                    return Err(self.error_at(t, format!("unknown WindowBar `{bar}`: expected one of {}", WINDOW_BARS.join(", "))));
                }
                Setting::WindowBar(bar)
            }
            "Theme" => {
                let token = self.arg(t, "a theme name or a JSON object of colours")?;
                match token.kind {
                    TokenKind::Word(w) | TokenKind::Quoted(w) => Setting::Theme(ThemeSource::Name(w)),
                    TokenKind::Json(j) => Setting::Theme(ThemeSource::Json(j)),
                    _ => return Err(self.error_at(&token, format!("expected a theme name or a JSON object, found {}", token.describe()))),
                }
            }
            "WaitPattern" => {
                let token = self.arg(t, "a /regex/")?;
                match token.kind.clone() {
                    TokenKind::Regex(r) | TokenKind::Quoted(r) => {
                        regex::Regex::new(&r).map_err(|e| self.error_at(&token, format!("this regex does not compile: {e}")))?;
                        Setting::WaitPattern(r)
                    }
                    _ => return Err(self.error_at(&token, format!("expected a /regex/, found {}", token.describe()))),
                }
            }
            "LoopOffset" => {
                let token = self.arg(t, "a frame count or a percentage like 20%")?;
                let text = match &token.kind {
                    TokenKind::Word(w) | TokenKind::Quoted(w) => w.clone(),
                    _ => String::new(),
                };
                let offset = match text.strip_suffix('%') {
                    Some(p) => p.parse::<f64>().ok().filter(|p| (0.0..=100.0).contains(p)).map(LoopOffset::Percent),
                    None => text.parse::<u32>().ok().map(LoopOffset::Frames),
                };
                Setting::LoopOffset(offset.ok_or_else(|| {
                    self.error_at(&token, format!("expected a frame count or a percentage like 20%, found {}", token.describe()))
                })?)
            }
            "CursorBlink" => {
                let value = self.text_arg(t, "true or false")?;
                Setting::CursorBlink(match value.as_str() {
                    "true" => true,
                    "false" => false,
                    _ => return Err(self.error_at(t, format!("expected true or false after CursorBlink, found `{value}`"))),
                })
            }
            other => {
                return Err(self.error_at(t, format!(
                    "unknown setting `{other}`: expected Shell, FontFamily, FontSize, LineHeight, LetterSpacing, \
                     Width, Height, Padding, Margin, MarginFill, BorderRadius, WindowBar, WindowBarSize, Theme, \
                     TypingSpeed, Framerate, PlaybackSpeed, LoopOffset, CursorBlink, WaitTimeout or WaitPattern"
                )))
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

/// `500ms`, `2s`, `1m`, `1.5` (seconds), in seconds.
pub fn parse_time(text: &str) -> Option<f64> {
    let (number, scale) = if let Some(n) = text.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = text.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = text.strip_suffix('m') {
        (n, 60.0)
    } else {
        (text, 1.0)
    };
    let value: f64 = number.parse().ok()?;
    (value.is_finite() && value >= 0.0).then_some(value * scale)
}

/// A key word (`Enter`, `Ctrl+C`, `Alt+Shift+Tab`) as a `send-keys` key spec.
fn key_spec(word: &str) -> Option<String> {
    let parts: Vec<&str> = word.split('+').collect();
    let (key, mods) = parts.split_last()?;
    let mut spec = String::new();
    for m in mods {
        let (_, prefix) = MODIFIERS.iter().find(|(name, _)| name == m)?;
        if spec.contains(prefix) {
            return None;
        }
        spec.push_str(prefix);
    }
    match KEYS.iter().find(|(name, _)| name == key) {
        Some((_, name)) => spec.push_str(name),
        // A single character, only with a modifier (`Ctrl+C`); a bare letter is no command.
        None if !mods.is_empty() && key.chars().count() == 1 => spec.push_str(key),
        None if !mods.is_empty() && key.is_empty() && word.ends_with("++") => spec.push('+'),
        None => return None,
    }
    phux_core::keys::KeySpec::parse(&spec).ok()?;
    Some(spec)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn commands(text: &str) -> Vec<Command> {
        parse_text(Path::new("t.tape"), text)
            .unwrap()
            .into_iter()
            .map(|s| s.command)
            .collect()
    }

    fn error(text: &str) -> String {
        parse_text(Path::new("t.tape"), text)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn keys_take_a_time_and_a_count() {
        assert_eq!(
            commands("Enter\nBackspace@100ms 3\nCtrl+C\nAlt+Shift+Tab\nCtrl+Alt+x"),
            vec![
                Command::Key {
                    spec: "Enter".into(),
                    speed: None,
                    count: 1
                },
                Command::Key {
                    spec: "BSpace".into(),
                    speed: Some(0.1),
                    count: 3
                },
                Command::Key {
                    spec: "C-C".into(),
                    speed: None,
                    count: 1
                },
                Command::Key {
                    spec: "M-S-Tab".into(),
                    speed: None,
                    count: 1
                },
                Command::Key {
                    spec: "C-M-x".into(),
                    speed: None,
                    count: 1
                },
            ]
        );
    }

    #[test]
    fn type_wait_and_settings() {
        assert_eq!(
            commands("Type@20ms `echo 'hi'`\nWait+Screen@2s /hi$/\nWait\nSet Theme { \"background\": \"#000000\" }\nSet LoopOffset 20%"),
            vec![
                Command::Type { text: "echo 'hi'".into(), speed: Some(0.02) },
                Command::Wait { scope: WaitScope::Screen, timeout: Some(2.0), pattern: Some("hi$".into()) },
                Command::Wait { scope: WaitScope::Line, timeout: None, pattern: None },
                Command::Set(Setting::Theme(ThemeSource::Json("{ \"background\": \"#000000\" }".into()))),
                Command::Set(Setting::LoopOffset(LoopOffset::Percent(20.0))),
            ]
        );
    }

    #[test]
    fn errors_name_line_column_and_what_was_expected() {
        assert_eq!(
            error("Type \"a\"\nSleep soon"),
            "t.tape:2:7: expected a time like 500ms, 2s or 1.5, found `soon`"
        );
        assert!(error("Enter 0").starts_with("t.tape:1:7: expected a repeat count"));
        assert!(error("\n  Jump").starts_with("t.tape:2:3: unknown command `Jump`"));
        assert!(error("Set Colour red").starts_with("t.tape:1:5: unknown setting `Colour`"));
        assert!(error("Type hello").starts_with("t.tape:1:6: expected the text to type in quotes"));
        assert!(error("Wait /(/").starts_with("t.tape:1:6: this regex does not compile"));
        assert_eq!(
            error("Hide now"),
            "t.tape:1:6: expected the end of the line, found `now`"
        );
        assert!(
            error("Set WindowBar Square").contains("Colorful, ColorfulRight, Rings, RingsRight")
        );
    }

    #[test]
    fn times() {
        assert_eq!(parse_time("500ms"), Some(0.5));
        assert_eq!(parse_time("2s"), Some(2.0));
        assert_eq!(parse_time("1.5"), Some(1.5));
        assert_eq!(parse_time("1m"), Some(60.0));
        assert_eq!(parse_time("-1"), None);
        assert_eq!(parse_time("x"), None);
    }

    #[test]
    fn source_includes_another_tape_and_refuses_a_loop() {
        let dir = tempfile::tempdir().unwrap();
        let main = dir.path().join("main.tape");
        std::fs::write(dir.path().join("part.tape"), "Output x.gif\nType \"a\"\n").unwrap();
        std::fs::write(&main, "Source part.tape\nEnter\n").unwrap();
        let steps = parse_file(&main).unwrap();
        assert_eq!(steps.len(), 2);
        assert!(steps[0].file.ends_with("part.tape"));
        std::fs::write(dir.path().join("loop.tape"), "Source loop.tape\n").unwrap();
        let err = parse_file(&dir.path().join("loop.tape"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("sources itself"), "{err}");
    }
}
