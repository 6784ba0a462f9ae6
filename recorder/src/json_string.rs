//! A JSON string literal written straight into a line, escaping exactly what serde_json does
//! (control characters, `"` and `\`; `\b \t \n \f \r` in their short forms, the rest as
//! `\u00XX`) so casts read the same everywhere. Terminal output is mostly text with an escape
//! every few dozen bytes, so the scan looks at eight bytes at a time and copies the runs
//! between escapes whole: the recorder's busiest loop during a flood.

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The high bit of every byte of `word` that needs escaping (exact for the lowest such byte,
/// which is the only one used: borrows can mark bytes above it).
fn needs_escape(word: u64) -> u64 {
    let control = word.wrapping_sub(ONES * 0x20) & !word;
    let quote = word ^ (ONES * u64::from(b'"'));
    let backslash = word ^ (ONES * u64::from(b'\\'));
    let zero = |x: u64| x.wrapping_sub(ONES) & !x;
    (control | zero(quote) | zero(backslash)) & HIGHS
}

/// Where the first byte at or after `from` that needs escaping is, or `bytes.len()`.
fn next_escape(bytes: &[u8], mut from: usize) -> usize {
    while from + 8 <= bytes.len() {
        let mut word = [0u8; 8];
        word.copy_from_slice(&bytes[from..from + 8]);
        let found = needs_escape(u64::from_le_bytes(word));
        if found != 0 {
            return from + (found.trailing_zeros() / 8) as usize;
        }
        from += 8;
    }
    while from < bytes.len() && !escaped(bytes[from]) {
        from += 1;
    }
    from
}

fn escaped(byte: u8) -> bool {
    byte < 0x20 || byte == b'"' || byte == b'\\'
}

/// Appends `text` to `out` as a JSON string literal, quotes included.
pub fn write_json_string(out: &mut Vec<u8>, text: &str) {
    let bytes = text.as_bytes();
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    let mut start = 0;
    loop {
        let at = next_escape(bytes, start);
        out.extend_from_slice(&bytes[start..at]);
        let Some(&byte) = bytes.get(at) else { break };
        match byte {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x0C => out.extend_from_slice(b"\\f"),
            _ => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.extend_from_slice(b"\\u00");
                out.push(HEX[usize::from(byte >> 4)]);
                out.push(HEX[usize::from(byte & 0xF)]);
            }
        }
        start = at + 1;
    }
    out.push(b'"');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ours(text: &str) -> String {
        let mut out = Vec::new();
        write_json_string(&mut out, text);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn every_ascii_byte_at_every_offset_is_written_as_serde_json_writes_it() {
        for byte in 0u8..0x80 {
            for offset in 0..20 {
                let text = format!("{}{}tail é日", "a".repeat(offset), byte as char);
                assert_eq!(
                    ours(&text),
                    serde_json::to_string(&text).unwrap(),
                    "{byte:#x}"
                );
            }
        }
    }

    #[test]
    fn terminal_output_is_written_as_serde_json_writes_it() {
        let samples = [
            "",
            "plain",
            "\u{1b}[1;32mgreen\u{1b}[0m\r\n$ ls -la\r\n",
            "\"quoted\" \\back\\slash\\",
            "日本語 かなカナ 한국어 🎉 \u{7f}\u{80}\u{ff}",
            "\u{0}\u{1}\u{1f}\u{8}\u{c}",
        ];
        for text in samples {
            assert_eq!(ours(text), serde_json::to_string(text).unwrap(), "{text:?}");
        }
        // A long run with escapes at every distance from a word boundary.
        let mut long = String::new();
        for i in 0..500 {
            long.push_str(&"x".repeat(i % 17));
            long.push(['\n', '"', '\\', '\u{1b}', 'é'][i % 5]);
        }
        assert_eq!(ours(&long), serde_json::to_string(&long).unwrap());
    }
}
