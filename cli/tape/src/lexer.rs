//! Splits a tape into tokens with their line and column: words, quoted strings (`"…"`, `'…'`,
//! `` `…` ``), regexes (`/…/`), JSON objects (`{…}`, which may span lines) and line ends.
//! `#` starts a comment that runs to the end of the line.

use std::path::Path;

use super::error::TapeError;

/// What a token is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenKind {
    /// A bare word: a command (`Type@50ms`, `Ctrl+C`), a number, a time, a path.
    Word(String),
    /// A quoted string, without its quotes.
    Quoted(String),
    /// A `/regex/`, without its slashes.
    Regex(String),
    /// A `{...}` JSON object, braces included.
    Json(String),
    /// The end of a line (or of the file).
    LineEnd,
}

/// A token and where it starts (1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    pub line: usize,
    pub col: usize,
}

impl Token {
    /// How the token reads in an error message.
    pub fn describe(&self) -> String {
        match &self.kind {
            TokenKind::Word(w) => format!("`{w}`"),
            TokenKind::Quoted(s) => format!("the string {s:?}"),
            TokenKind::Regex(r) => format!("the regex /{r}/"),
            TokenKind::Json(_) => "a JSON object".to_owned(),
            TokenKind::LineEnd => "the end of the line".to_owned(),
        }
    }
}

/// Tokenizes `text`, read from `file` (named in errors).
pub fn tokenize(file: &Path, text: &str) -> Result<Vec<Token>, TapeError> {
    let mut lexer = Lexer {
        file,
        chars: text.chars().collect(),
        at: 0,
        line: 1,
        col: 1,
        tokens: Vec::new(),
    };
    lexer.run()?;
    Ok(lexer.tokens)
}

struct Lexer<'a> {
    file: &'a Path,
    chars: Vec<char>,
    at: usize,
    line: usize,
    col: usize,
    tokens: Vec<Token>,
}

impl Lexer<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += 1;
        if c == '\n' {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += 1;
        }
        Some(c)
    }

    fn push(&mut self, kind: TokenKind, line: usize, col: usize) {
        self.tokens.push(Token { kind, line, col });
    }

    fn run(&mut self) -> Result<(), TapeError> {
        while let Some(c) = self.peek() {
            let (line, col) = (self.line, self.col);
            match c {
                '\n' => {
                    self.bump();
                    self.push(TokenKind::LineEnd, line, col);
                }
                c if c.is_whitespace() => {
                    self.bump();
                }
                '#' => {
                    while self.peek().is_some_and(|c| c != '\n') {
                        self.bump();
                    }
                }
                '"' | '\'' | '`' => {
                    let text = self.delimited(c, "string")?;
                    self.push(TokenKind::Quoted(text), line, col);
                }
                '/' if self.starts_regex() => {
                    let text = self.delimited('/', "regex")?;
                    self.push(TokenKind::Regex(text), line, col);
                }
                '{' => {
                    let text = self.json()?;
                    self.push(TokenKind::Json(text), line, col);
                }
                _ => {
                    let mut word = String::new();
                    while let Some(c) = self.peek().filter(|c| !c.is_whitespace()) {
                        word.push(c);
                        self.bump();
                    }
                    self.push(TokenKind::Word(word), line, col);
                }
            }
        }
        let (line, col) = (self.line, self.col);
        self.push(TokenKind::LineEnd, line, col);
        Ok(())
    }

    /// A `/` starts a regex only right after a `Wait` word or a `Set WaitPattern`; elsewhere
    /// it begins a path (`Output /tmp/demo.gif`). Only the tokens just before count, since a
    /// line may hold several commands (`Type "ls" Enter Wait /\$ $/`).
    fn starts_regex(&self) -> bool {
        let word = |back: usize| match self.tokens.iter().rev().nth(back).map(|t| &t.kind) {
            Some(TokenKind::Word(w)) => Some(w.as_str()),
            _ => None,
        };
        match (word(0), word(1)) {
            (Some(last), _) if last == "Wait" || last.starts_with("Wait+") => true,
            (Some(last), _) if last.starts_with("Wait@") => true,
            (Some("WaitPattern"), Some("Set")) => true,
            _ => false,
        }
    }

    /// Text up to the closing `quote` on the same line (a backslash escapes the quote in a
    /// regex only: tape strings have no escapes).
    fn delimited(&mut self, quote: char, what: &str) -> Result<String, TapeError> {
        let (line, col) = (self.line, self.col);
        self.bump();
        let mut text = String::new();
        loop {
            match self.peek() {
                Some(c) if c == quote => {
                    self.bump();
                    return Ok(text);
                }
                Some('\\') if quote == '/' => {
                    self.bump();
                    match self.peek() {
                        Some('/') => text.push('/'),
                        Some(c) if c != '\n' => {
                            text.push('\\');
                            text.push(c);
                        }
                        _ => continue,
                    }
                    self.bump();
                }
                Some('\n') | None => {
                    return Err(TapeError::at(
                        self.file,
                        line,
                        col,
                        format!("this {what} has no closing {quote} on its line"),
                    ))
                }
                Some(c) => {
                    text.push(c);
                    self.bump();
                }
            }
        }
    }

    /// A JSON object: braces balanced, strings respected; it may span lines.
    fn json(&mut self) -> Result<String, TapeError> {
        let (line, col) = (self.line, self.col);
        let mut text = String::new();
        let mut depth = 0usize;
        let mut in_string = false;
        let mut escaped = false;
        while let Some(c) = self.bump() {
            text.push(c);
            if in_string {
                match (escaped, c) {
                    (true, _) => escaped = false,
                    (false, '\\') => escaped = true,
                    (false, '"') => in_string = false,
                    _ => {}
                }
                continue;
            }
            match c {
                '"' => in_string = true,
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(text);
                    }
                }
                _ => {}
            }
        }
        Err(TapeError::at(
            self.file,
            line,
            col,
            "this JSON object is never closed (expected a matching `}`)",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<TokenKind> {
        tokenize(Path::new("t.tape"), text)
            .unwrap()
            .into_iter()
            .map(|t| t.kind)
            .collect()
    }

    #[test]
    fn words_strings_regexes_and_comments() {
        use TokenKind::*;
        assert_eq!(
            kinds("Type@5ms 'a b' # note\nWait+Screen /x\\/y/\nOutput /tmp/a.gif"),
            vec![
                Word("Type@5ms".into()),
                Quoted("a b".into()),
                LineEnd,
                Word("Wait+Screen".into()),
                Regex("x/y".into()),
                LineEnd,
                Word("Output".into()),
                Word("/tmp/a.gif".into()),
                LineEnd,
            ]
        );
    }

    #[test]
    fn a_regex_after_wait_anywhere_on_a_line() {
        use TokenKind::*;
        assert_eq!(
            kinds("Type \"ls /\" Enter Wait@5s /\\$ $/ Sleep 1"),
            vec![
                Word("Type".into()),
                Quoted("ls /".into()),
                Word("Enter".into()),
                Word("Wait@5s".into()),
                Regex("\\$ $".into()),
                Word("Sleep".into()),
                Word("1".into()),
                LineEnd,
            ]
        );
        assert_eq!(kinds("Set WaitPattern /ok/")[2], Regex("ok".into()));
        assert_eq!(kinds("Screenshot /tmp/x.png")[1], Word("/tmp/x.png".into()));
    }

    #[test]
    fn an_unclosed_string_names_its_start() {
        let err = tokenize(Path::new("d.tape"), "Sleep 1\n  Type \"abc\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "d.tape:2:8: this string has no closing \" on its line"
        );
    }

    #[test]
    fn json_may_span_lines() {
        let k = kinds("Set Theme { \"a\": \"}\",\n \"b\": 1 }\nHide");
        assert_eq!(k[2], TokenKind::Json("{ \"a\": \"}\",\n \"b\": 1 }".into()));
        assert_eq!(k[4], TokenKind::Word("Hide".into()));
    }
}
