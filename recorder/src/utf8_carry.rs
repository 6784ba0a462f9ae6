//! Turns a byte stream split at arbitrary points into text: an incomplete UTF-8 sequence at the
//! end of one chunk is carried into the next instead of becoming two replacement characters;
//! bytes that can never be valid become U+FFFD.

#[derive(Debug, Default)]
pub struct Utf8Carry {
    pending: Vec<u8>,
}

impl Utf8Carry {
    /// The text of `bytes` (after whatever was carried), keeping a trailing partial sequence;
    /// borrowed from `bytes` when they are whole, valid text with nothing carried (the usual
    /// case: no copy).
    pub fn decode_borrowed<'a>(&mut self, bytes: &'a [u8]) -> std::borrow::Cow<'a, str> {
        if self.pending.is_empty() && incomplete_tail(bytes) == 0 {
            if let Ok(text) = std::str::from_utf8(bytes) {
                return std::borrow::Cow::Borrowed(text);
            }
        }
        std::borrow::Cow::Owned(self.decode(bytes))
    }

    /// The text of `bytes` (after whatever was carried), keeping a trailing partial sequence.
    pub fn decode(&mut self, bytes: &[u8]) -> String {
        let mut input = std::mem::take(&mut self.pending);
        input.extend_from_slice(bytes);
        let keep = incomplete_tail(&input);
        self.pending = input.split_off(input.len() - keep);
        // Valid text (the usual case) becomes the String without another copy.
        match String::from_utf8(input) {
            Ok(text) => text,
            Err(invalid) => String::from_utf8_lossy(invalid.as_bytes()).into_owned(),
        }
    }

    /// Whatever is still carried, as replacement characters (end of stream).
    pub fn flush(&mut self) -> String {
        let rest = std::mem::take(&mut self.pending);
        String::from_utf8_lossy(&rest).into_owned()
    }
}

/// Length of a trailing prefix of a multi-byte sequence that more bytes could complete.
fn incomplete_tail(bytes: &[u8]) -> usize {
    for back in 1..=3.min(bytes.len()) {
        let byte = bytes[bytes.len() - back];
        if byte & 0b1100_0000 == 0b1000_0000 {
            continue; // a continuation byte: look further back for the lead
        }
        let needed = match byte {
            0xC2..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF4 => 4,
            _ => return 0,
        };
        return if needed > back { back } else { 0 };
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn borrowed_decoding_agrees_with_owned_decoding_at_every_split() {
        let bytes = "aé日🎉z\u{1b}[0m".as_bytes().to_vec();
        let mut broken = bytes.clone();
        broken.insert(3, 0xFF);
        for input in [&bytes, &broken] {
            for at in 0..=input.len() {
                let (mut owned, mut borrowed) = (Utf8Carry::default(), Utf8Carry::default());
                let mut want = owned.decode(&input[..at]);
                want.push_str(&owned.decode(&input[at..]));
                want.push_str(&owned.flush());
                let mut got = borrowed.decode_borrowed(&input[..at]).into_owned();
                got.push_str(&borrowed.decode_borrowed(&input[at..]));
                got.push_str(&borrowed.flush());
                assert_eq!(got, want, "split at {at}");
            }
        }
    }

    #[test]
    fn every_split_of_multibyte_text_decodes_the_same() {
        let text = "aé日🎉z";
        let bytes = text.as_bytes();
        for at in 0..=bytes.len() {
            let mut carry = Utf8Carry::default();
            let mut out = carry.decode(&bytes[..at]);
            out.push_str(&carry.decode(&bytes[at..]));
            out.push_str(&carry.flush());
            assert_eq!(out, text, "split at {at}");
        }
    }

    #[test]
    fn invalid_bytes_become_replacement_characters() {
        let mut carry = Utf8Carry::default();
        assert_eq!(carry.decode(b"a\xffb"), "a\u{fffd}b");
        assert_eq!(carry.decode(b"\xe6\x97"), "");
        assert_eq!(carry.flush(), "\u{fffd}");
    }
}
