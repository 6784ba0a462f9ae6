//! Bytes from the outer terminal → keys, for the prefix's next key and for the modes (copy mode,
//! prompt, help). Everything else goes to the focused pane as bytes, never through here.

/// A key as the client's bindings and modes need it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    Char(char),
    /// Ctrl + a letter (`Ctrl('a')` is byte 0x01).
    Ctrl(char),
    Enter,
    Tab,
    Backspace,
    Esc,
    Up,
    Down,
    Left,
    Right,
    AltUp,
    AltDown,
    AltLeft,
    AltRight,
    PageUp,
    PageDown,
    Home,
    End,
    /// A sequence the client has no use for.
    Other,
}

/// The prefix key's byte (`C-a`).
pub const PREFIX: u8 = 0x01;

/// The first key of `bytes` and how many bytes it took; None for no bytes.
pub fn next_key(bytes: &[u8]) -> Option<(Key, usize)> {
    let first = *bytes.first()?;
    Some(match first {
        0x1b => escape(bytes),
        b'\r' | b'\n' => (Key::Enter, 1),
        b'\t' => (Key::Tab, 1),
        0x7f | 0x08 => (Key::Backspace, 1),
        0x01..=0x1a => (Key::Ctrl(char::from(b'a' + first - 1)), 1),
        0x00..=0x1f => (Key::Other, 1),
        _ => utf8_char(bytes),
    })
}

fn utf8_char(bytes: &[u8]) -> (Key, usize) {
    let len = match bytes[0] {
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf7 => 4,
        _ => 1,
    }
    .min(bytes.len());
    match std::str::from_utf8(&bytes[..len])
        .ok()
        .and_then(|s| s.chars().next())
    {
        Some(c) => (Key::Char(c), len),
        None => (Key::Other, len),
    }
}

/// `ESC`, `ESC [ ... final`, `ESC O x`, or Alt+key (`ESC x`).
fn escape(bytes: &[u8]) -> (Key, usize) {
    match bytes.get(1) {
        None => (Key::Esc, 1),
        Some(b'[') => csi(bytes),
        Some(b'O') if bytes.len() >= 3 => (ss3(bytes[2]), 3),
        Some(0x1b) => {
            // Some terminals send Alt+arrow as ESC followed by the arrow.
            let (key, len) = escape(&bytes[1..]);
            (alt(key), len + 1)
        }
        Some(_) => (Key::Other, 2),
    }
}

fn ss3(byte: u8) -> Key {
    match byte {
        b'A' => Key::Up,
        b'B' => Key::Down,
        b'C' => Key::Right,
        b'D' => Key::Left,
        b'H' => Key::Home,
        b'F' => Key::End,
        _ => Key::Other,
    }
}

fn alt(key: Key) -> Key {
    match key {
        Key::Up => Key::AltUp,
        Key::Down => Key::AltDown,
        Key::Left => Key::AltLeft,
        Key::Right => Key::AltRight,
        _ => Key::Other,
    }
}

fn csi(bytes: &[u8]) -> (Key, usize) {
    let Some(end) = bytes[2..].iter().position(|b| (0x40..=0x7e).contains(b)) else {
        return (Key::Other, bytes.len());
    };
    let len = end + 3;
    let params = &bytes[2..len - 1];
    let base = match bytes[len - 1] {
        b'A' => Key::Up,
        b'B' => Key::Down,
        b'C' => Key::Right,
        b'D' => Key::Left,
        b'H' => Key::Home,
        b'F' => Key::End,
        b'~' => match params {
            b"5" => Key::PageUp,
            b"6" => Key::PageDown,
            b"1" | b"7" => Key::Home,
            b"4" | b"8" => Key::End,
            _ => Key::Other,
        },
        _ => Key::Other,
    };
    // `1;3` (Alt) or `1;9` on an arrow: the Alt variant.
    let modified = params.ends_with(b";3") || params.ends_with(b";9");
    (if modified { alt(base) } else { base }, len)
}

/// Every key of `bytes`, in order.
pub fn keys(bytes: &[u8]) -> Vec<Key> {
    let mut out = Vec::new();
    let mut rest = bytes;
    while let Some((key, len)) = next_key(rest) {
        out.push(key);
        rest = &rest[len.max(1)..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_read_as_terminals_send_them() {
        assert_eq!(
            keys(b"a\x01\x1b[A\x1bOB\x1b[1;3C\x1b\x1b[D\x1b[5~\r\x7f"),
            vec![
                Key::Char('a'),
                Key::Ctrl('a'),
                Key::Up,
                Key::Down,
                Key::AltRight,
                Key::AltLeft,
                Key::PageUp,
                Key::Enter,
                Key::Backspace,
            ]
        );
        assert_eq!(keys("é%".as_bytes()), vec![Key::Char('é'), Key::Char('%')]);
        assert_eq!(keys(b"\x1b"), vec![Key::Esc]);
    }
}
