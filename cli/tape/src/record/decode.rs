//! What a pane was sent, back into the keys a tape presses: the reverse of the key encoding
//! `send-keys` and the tape runner use (`phux_core::keys`), so `phux tape` sends what was
//! recorded. Printable text stays text; controls, escape sequences and Alt-prefixed keys become
//! the tape's key words (`Enter`, `Ctrl+C`, `Alt+Left`); a bracketed paste becomes its text.

/// One thing typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stroke {
    /// A printable character, typed (`Type`).
    Char(char),
    /// A key, as the tape names it (`Enter`, `Backspace`, `Ctrl+C`, `Alt+Left`).
    Key(String),
    /// Something the tape language cannot press (a function key, a mouse report), described
    /// for a comment in the tape.
    Unwritable(String),
}

const PASTE_START: &[u8] = b"\x1b[200~";
const PASTE_END: &[u8] = b"\x1b[201~";

/// Decodes one write to a pane (it holds whole keys: a client sends each keystroke, or a
/// batch of them, in one write).
pub fn decode(bytes: &[u8]) -> Vec<Stroke> {
    let mut strokes = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let rest = &bytes[at..];
        if let Some(body) = rest.strip_prefix(PASTE_START) {
            let end = find(body, PASTE_END).unwrap_or(body.len());
            strokes.extend(pasted(&String::from_utf8_lossy(&body[..end])));
            at += PASTE_START.len() + (end + PASTE_END.len()).min(body.len());
            continue;
        }
        let (stroke, len) = next(rest);
        // A terminal's focus reports (the TUI may pass them on) are nobody's keystroke.
        if !matches!(&rest[..len.min(rest.len())], b"\x1b[I" | b"\x1b[O") {
            strokes.push(stroke);
        }
        at += len.max(1);
    }
    strokes
}

/// Pasted text as typing: line breaks press Enter, a tab Tab; other controls are dropped (a
/// paste is text, and the server refuses controls in an unbracketed one).
pub fn pasted(text: &str) -> Vec<Stroke> {
    let text = text.replace("\r\n", "\n");
    text.chars()
        .filter_map(|c| match c {
            '\n' | '\r' => Some(Stroke::Key("Enter".into())),
            '\t' => Some(Stroke::Key("Tab".into())),
            c if c.is_control() => None,
            c => Some(Stroke::Char(c)),
        })
        .collect()
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// The first key of `bytes` and how many bytes it took.
fn next(bytes: &[u8]) -> (Stroke, usize) {
    let first = bytes[0];
    match first {
        0x1b => escape(bytes),
        _ => {
            let (stroke, len) = plain(bytes);
            (stroke.unwrap_or_else(|| unwritable(&bytes[..len])), len)
        }
    }
}

/// A key that starts with no ESC: a control byte or one UTF-8 character.
fn plain(bytes: &[u8]) -> (Option<Stroke>, usize) {
    let key = |name: &str| Some(Stroke::Key(name.to_owned()));
    match bytes[0] {
        b'\r' => (key("Enter"), 1),
        b'\t' => (key("Tab"), 1),
        0x7f => (key("Backspace"), 1),
        b' ' => (Some(Stroke::Char(' ')), 1),
        byte @ 0x00..=0x1f => (control(byte).map(|c| Stroke::Key(format!("Ctrl+{c}"))), 1),
        _ => {
            let (c, len) = utf8_char(bytes);
            (c.map(Stroke::Char), len)
        }
    }
}

/// The character whose Ctrl+ sends `byte` (the reverse of the key encoder's control table).
fn control(byte: u8) -> Option<char> {
    Some(match byte {
        0x00 => '@',
        0x01..=0x1a => char::from(b'A' + byte - 1),
        0x1c => '\\',
        0x1d => ']',
        0x1e => '^',
        0x1f => '_',
        _ => return None,
    })
}

fn utf8_char(bytes: &[u8]) -> (Option<char>, usize) {
    let len = match bytes[0] {
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf7 => 4,
        _ => 1,
    }
    .min(bytes.len());
    let c = std::str::from_utf8(&bytes[..len])
        .ok()
        .and_then(|s| s.chars().next())
        .filter(|c| !c.is_control());
    (c, len)
}

/// `ESC`, `ESC [ … final`, `ESC O x`, or Alt + a key (`ESC x`).
fn escape(bytes: &[u8]) -> (Stroke, usize) {
    match bytes.get(1) {
        None => (Stroke::Key("Escape".into()), 1),
        Some(b'[') => csi(bytes),
        Some(b'O') if bytes.len() >= 3 => (ss3(bytes[2], &bytes[..3]), 3),
        Some(0x1b) if bytes.len() == 2 => (Stroke::Key("Alt+Escape".into()), 2),
        Some(_) => {
            let (inner, len) = match bytes[1] {
                0x1b => escape(&bytes[1..]),
                _ => {
                    let (stroke, len) = plain(&bytes[1..]);
                    (
                        stroke.unwrap_or_else(|| unwritable(&bytes[1..1 + len])),
                        len,
                    )
                }
            };
            (alt(inner, &bytes[..1 + len]), 1 + len)
        }
    }
}

/// Alt + `inner`: `Alt+x`, `Alt+Enter`, `Alt+Ctrl+C`.
fn alt(inner: Stroke, raw: &[u8]) -> Stroke {
    match inner {
        Stroke::Char(' ') => Stroke::Key("Alt+Space".into()),
        Stroke::Char(c) => Stroke::Key(format!("Alt+{c}")),
        Stroke::Key(name) if !name.contains("Alt+") => Stroke::Key(format!("Alt+{name}")),
        _ => unwritable(raw),
    }
}

/// Application-mode arrows, Home and End (`ESC O A`); F1–F4 have no tape name.
fn ss3(byte: u8, raw: &[u8]) -> Stroke {
    match cursor_key(byte) {
        Some(name) => Stroke::Key(name.into()),
        None => unwritable(raw),
    }
}

fn cursor_key(byte: u8) -> Option<&'static str> {
    Some(match byte {
        b'A' => "Up",
        b'B' => "Down",
        b'C' => "Right",
        b'D' => "Left",
        b'H' => "Home",
        b'F' => "End",
        _ => return None,
    })
}

/// `ESC [ params final`: cursor keys (`ESC [ 1 ; 5 A` is Ctrl+Up), `ESC [ n ~` keys, Shift+Tab.
fn csi(bytes: &[u8]) -> (Stroke, usize) {
    let end = bytes[2..]
        .iter()
        .position(|b| (0x40..=0x7e).contains(b))
        .map(|i| i + 2);
    let Some(end) = end else {
        return (unwritable(bytes), bytes.len());
    };
    let raw = &bytes[..=end];
    let params = std::str::from_utf8(&bytes[2..end]).unwrap_or("");
    let numbers: Vec<Option<u32>> = params.split(';').map(|p| p.parse().ok()).collect();
    let mods = match numbers.get(1) {
        None => Some(1),
        Some(m) => *m,
    };
    let name = match (bytes[end], numbers.first().copied().flatten()) {
        (b'Z', None) if params.is_empty() => Some("Shift+Tab"),
        (b'~', Some(n)) => tilde_key(n),
        (final_byte, None | Some(1)) => cursor_key(final_byte),
        _ => None,
    };
    let stroke = match (name, mods.and_then(modifiers)) {
        (Some("Shift+Tab"), _) => Stroke::Key("Shift+Tab".into()),
        (Some(name), Some(prefix)) => Stroke::Key(format!("{prefix}{name}")),
        _ => unwritable(raw),
    };
    (stroke, end + 1)
}

fn tilde_key(n: u32) -> Option<&'static str> {
    Some(match n {
        1 | 7 => "Home",
        2 => "Insert",
        3 => "Delete",
        4 | 8 => "End",
        5 => "PageUp",
        6 => "PageDown",
        _ => return None,
    })
}

/// The tape's prefix for xterm's modifier parameter (1 + shift + 2·alt + 4·ctrl), in the order
/// the key encoder reads them back.
fn modifiers(param: u32) -> Option<String> {
    let bits = param.checked_sub(1).filter(|b| *b < 8)?;
    let mut prefix = String::new();
    for (bit, name) in [(4, "Ctrl+"), (2, "Alt+"), (1, "Shift+")] {
        if bits & bit != 0 {
            prefix.push_str(name);
        }
    }
    Some(prefix)
}

/// Bytes the tape language has no key for, shown as a C-style escaped string.
fn unwritable(raw: &[u8]) -> Stroke {
    let mut shown = String::new();
    for &b in raw {
        match b {
            0x1b => shown.push_str("\\e"),
            0x20..=0x7e => shown.push(char::from(b)),
            _ => shown.push_str(&format!("\\x{b:02x}")),
        }
    }
    Stroke::Unwritable(shown)
}

#[cfg(test)]
#[path = "decode_tests.rs"]
mod tests;
