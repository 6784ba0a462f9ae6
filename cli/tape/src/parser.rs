//! The tape language as VHS reads it: commands one after another, usually one per line but as
//! many on a line as the writer likes (`Type "make" Sleep 500ms Enter`). `Source` is followed
//! here, so the result is the flat list of commands to run, each with the place it was written.

use std::path::{Path, PathBuf};

use phux_core::bounded_read;

use super::error::TapeError;
use super::lexer::{tokenize, Token, TokenKind};
pub use super::set_command::{LoopOffset, Setting, ThemeSource};

/// How deep `Source` may nest (a tape sourcing itself is caught before this).
const MAX_SOURCE_DEPTH: usize = 16;
/// The most commands a tape may expand to, `Source` lines and every sourced command counted
/// each time it is sourced: hand-written demos have a few hundred, while a few tapes that each
/// source the next ten times reach 10^8 (and the memory to hold them) from 1.4 KB.
pub const MAX_STEPS: usize = 100_000;

/// One command and where it was written.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    pub command: Command,
    pub file: PathBuf,
    pub line: usize,
    pub col: usize,
    /// The column of the command's last argument (`"Nope"` in `Set Theme "Nope"`): where an
    /// error about the value points. The command's own column when it takes none.
    pub value_col: usize,
}

impl Step {
    /// An error about this step.
    pub fn error(&self, message: impl Into<String>) -> TapeError {
        TapeError::at(&self.file, self.line, self.col, message)
    }

    /// An error about this step's value, pointing at the value.
    pub fn value_error(&self, message: impl Into<String>) -> TapeError {
        TapeError::at(&self.file, self.line, self.value_col, message)
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
    /// A command VHS knows that phux does not carry out (`Subtitle`): skipped, with a note
    /// saying so.
    Unsupported(String),
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

/// Where the expansion of a tape and the tapes it sources stands.
#[derive(Debug, Default)]
struct Expansion {
    /// The tapes being read, outermost first (canonical paths).
    stack: Vec<PathBuf>,
    /// Commands so far, `Source` lines included.
    steps: usize,
}

/// Reads and parses the tape at `path`, following `Source`.
pub fn parse_file(path: &Path) -> Result<Vec<Step>, TapeError> {
    parse_nested(path, &mut Expansion::default(), None)
}

/// Parses `text` as if read from `file` (a tape `tape record` wrote, say).
pub fn parse_text(file: &Path, text: &str) -> Result<Vec<Step>, TapeError> {
    let mut expansion = Expansion {
        stack: vec![file.to_path_buf()],
        steps: 0,
    };
    Parser::new(file, tokenize(file, text)?, &mut expansion).parse()
}

fn parse_nested(
    path: &Path,
    expansion: &mut Expansion,
    from: Option<&Step>,
) -> Result<Vec<Step>, TapeError> {
    let stack = &mut expansion.stack;
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
    let steps = Parser::new(path, tokens, expansion).parse();
    expansion.stack.pop();
    steps
}

pub(super) struct Parser<'a> {
    file: &'a Path,
    tokens: Vec<Token>,
    at: usize,
    expansion: &'a mut Expansion,
}

impl<'a> Parser<'a> {
    fn new(file: &'a Path, tokens: Vec<Token>, expansion: &'a mut Expansion) -> Self {
        Parser {
            file,
            tokens,
            at: 0,
            expansion,
        }
    }

    /// Counts one more command at `token`, refusing the tape once it expands past
    /// [`MAX_STEPS`].
    fn count_step(&mut self, token: &Token) -> Result<(), TapeError> {
        self.expansion.steps += 1;
        if self.expansion.steps <= MAX_STEPS {
            return Ok(());
        }
        Err(self.error_at(
            token,
            format!(
                "the tape expands to more than {MAX_STEPS} commands (the cap), counting each \
                 sourced tape every time it is sourced: source fewer tapes or fewer times"
            ),
        ))
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
            let step = |command, value_col| Step {
                command,
                file: file.clone(),
                line: token.line,
                col: token.col,
                value_col,
            };
            self.count_step(&token)?;
            if word == "Source" {
                let source = step(Command::Hide, token.col);
                let name = self.text_arg(&token, "a tape file to source")?;
                self.command_end()?;
                let path = self.relative(&name);
                let mut nested = parse_nested(&path, self.expansion, Some(&source))?;
                nested.retain(|s| !matches!(s.command, Command::Output(_)));
                steps.extend(nested);
                continue;
            }
            let first_argument = self.at;
            let command = self.command(&token, &word)?;
            let value_col = match self.at.checked_sub(1) {
                Some(last) if last >= first_argument => self.tokens[last].col,
                _ => token.col,
            };
            self.command_end()?;
            steps.push(step(command, value_col));
        }
        Ok(steps)
    }

    pub(super) fn next(&mut self) -> Option<Token> {
        let token = self.tokens.get(self.at).cloned();
        self.at += 1;
        token
    }

    pub(super) fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at)
    }

    pub(super) fn error_at(&self, token: &Token, message: impl Into<String>) -> TapeError {
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

    /// After a command comes the end of its line or, as VHS allows, the next command on the
    /// same line (`Type "make" Sleep 500ms Enter`), left for the caller to read.
    fn command_end(&mut self) -> Result<(), TapeError> {
        match self.peek() {
            Some(t) if t.kind == TokenKind::LineEnd => {
                self.next();
                Ok(())
            }
            Some(Token {
                kind: TokenKind::Word(w),
                ..
            }) if starts_command(w) => Ok(()),
            Some(t) => Err(self.error_at(
                t,
                format!(
                    "expected the end of the line or another command, found {}",
                    t.describe()
                ),
            )),
            None => Ok(()),
        }
    }

    /// The next token, which must be on this line.
    pub(super) fn arg(&mut self, command: &Token, expected: &str) -> Result<Token, TapeError> {
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
    pub(super) fn text_arg(
        &mut self,
        command: &Token,
        expected: &str,
    ) -> Result<String, TapeError> {
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

    pub(super) fn number_arg<T: std::str::FromStr>(
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

    pub(super) fn time_arg(&mut self, command: &Token) -> Result<f64, TapeError> {
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
            "Subtitle" => {
                // VHS draws it over the frames; phux does not (yet): say so, run the rest.
                let text = self.text_arg(token, "the subtitle's text")?;
                Command::Unsupported(format!(
                    "{}:{}:{}: Subtitle {text:?} is not drawn: phux does not support subtitles",
                    self.file.display(),
                    token.line,
                    token.col
                ))
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
                    // The next command on the same line, not a count.
                    Some(TokenKind::Word(w)) if starts_command(w) => 1,
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
}

/// The commands that are words of their own (keys are found by [`key_spec`]).
const COMMANDS: &[&str] = &[
    "Output",
    "Require",
    "Source",
    "Env",
    "Set",
    "Type",
    "Sleep",
    "Hide",
    "Show",
    "Wait",
    "Screenshot",
    "Copy",
    "Paste",
    "Subtitle",
];

/// Whether `word` begins a command (`Type@50ms`, `Wait+Screen`, `Enter`, `Ctrl+C`): after a
/// command's arguments, such a word starts the next command on the same line.
fn starts_command(word: &str) -> bool {
    let head = word.split_once('@').map_or(word, |(head, _)| head);
    COMMANDS.contains(&head) || head.starts_with("Wait+") || key_spec(head).is_some()
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

/// A key word (`Enter`, `Ctrl+C`, `Alt+Shift+Tab`, `Ctrl+Shift+Alt+X`) as a `send-keys` key
/// spec that can be sent. Modifiers come in any order, as in VHS. Shift on a character is the
/// character as shifted (`Shift+a` is `A`); with Ctrl it changes nothing, since a terminal
/// sends the same control byte for Ctrl+Shift+X as for Ctrl+X.
pub(crate) fn key_spec(word: &str) -> Option<String> {
    // `Alt++` is Alt and the `+` key: the last `+` is the key, not a separator.
    let (head, plus) = match word.strip_suffix("++") {
        Some(head) => (head, true),
        None => (word, false),
    };
    let mut parts: Vec<&str> = head.split('+').collect();
    if plus {
        parts.push("+");
    }
    let (key, mods) = parts.split_last()?;
    let (mut ctrl, mut alt, mut shift) = (false, false, false);
    for m in mods {
        let flag = match *m {
            "Ctrl" => &mut ctrl,
            "Alt" => &mut alt,
            "Shift" => &mut shift,
            _ => return None,
        };
        if *flag {
            return None;
        }
        *flag = true;
    }
    let named = KEYS.iter().find(|(name, _)| name == key).map(|k| k.1);
    let key = match named {
        Some(name) => name.to_owned(),
        // A single character, only with a modifier (`Ctrl+C`); a bare letter is no command.
        None if !mods.is_empty() && key.chars().count() == 1 => {
            let shifted = if shift && !ctrl {
                key.to_uppercase()
            } else {
                (*key).to_owned()
            };
            shift = false;
            shifted
        }
        None => return None,
    };
    let mut spec = String::new();
    for (on, prefix) in [(ctrl, "C-"), (alt, "M-"), (shift, "S-")] {
        if on {
            spec.push_str(prefix);
        }
    }
    spec.push_str(&key);
    let parsed = phux_core::keys::KeySpec::parse(&spec).ok()?;
    if named.is_none() {
        // A character with modifiers must have bytes to send (`Ctrl+1` has none).
        parsed.encode(phux_core::keys::KeyModes::default()).ok()?;
    }
    Some(spec)
}

#[cfg(test)]
#[path = "parser_tests.rs"]
mod tests;
