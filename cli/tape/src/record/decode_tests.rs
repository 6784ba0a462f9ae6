use super::*;
use phux_core::keys::{KeyModes, KeySpec};

fn keys(bytes: &[u8]) -> Vec<String> {
    decode(bytes)
        .into_iter()
        .map(|s| match s {
            Stroke::Char(c) => format!("'{c}'"),
            Stroke::Key(k) => k,
            Stroke::Unwritable(u) => format!("?{u}"),
        })
        .collect()
}

#[test]
fn bytes_become_the_tape_s_keys() {
    let table: &[(&[u8], &[&str])] = &[
        (b"ls\r", &["'l'", "'s'", "Enter"]),
        (b"\x7f\t\x1b", &["Backspace", "Tab", "Escape"]),
        (
            b"\x03\x01\x1a\x00",
            &["Ctrl+C", "Ctrl+A", "Ctrl+Z", "Ctrl+@"],
        ),
        (b"\x1c\x1d\x1f", &["Ctrl+\\", "Ctrl+]", "Ctrl+_"]),
        (
            b"\x1b[A\x1b[B\x1b[C\x1b[D",
            &["Up", "Down", "Right", "Left"],
        ),
        (b"\x1bOA\x1bOH\x1bOF", &["Up", "Home", "End"]),
        (
            b"\x1b[H\x1b[F\x1b[1~\x1b[4~",
            &["Home", "End", "Home", "End"],
        ),
        (
            b"\x1b[5~\x1b[6~\x1b[2~\x1b[3~",
            &["PageUp", "PageDown", "Insert", "Delete"],
        ),
        (
            b"\x1b[1;5A\x1b[1;3D\x1b[1;2C",
            &["Ctrl+Up", "Alt+Left", "Shift+Right"],
        ),
        (b"\x1b[3;5~\x1b[1;6B", &["Ctrl+Delete", "Ctrl+Shift+Down"]),
        (b"\x1b[Z", &["Shift+Tab"]),
        (
            b"\x1bx\x1b.\x1b\r\x1b\x7f",
            &["Alt+x", "Alt+.", "Alt+Enter", "Alt+Backspace"],
        ),
        (b"\x1b\x03\x1b \x1b+", &["Alt+Ctrl+C", "Alt+Space", "Alt++"]),
        (b"\x1b\x1b", &["Alt+Escape"]),
        ("é€😀".as_bytes(), &["'é'", "'€'", "'😀'"]),
        (b"\x1b[200~a\nb\x1b[201~", &["'a'", "Enter", "'b'"]),
        (b"\x1bOP\x1b[15~", &["?\\eOP", "?\\e[15~"]),
        (b"\x1b[<0;3;4M", &["?\\e[<0;3;4M"]),
        (b"\x1b[I\x1b[O", &[]),
    ];
    for (bytes, want) in table {
        assert_eq!(keys(bytes), *want, "{bytes:?}");
    }
}

/// Every key the decoder names is a key the tape's parser reads, and it sends the very bytes
/// it was decoded from: what `tape record` writes, `phux tape` types back.
#[test]
fn every_decoded_key_encodes_back_to_its_bytes() {
    let mut samples: Vec<Vec<u8>> = Vec::new();
    for byte in (0x00u8..=0x1f).chain([0x7f]) {
        samples.push(vec![byte]);
        samples.push(vec![0x1b, byte]);
    }
    for c in b"aZ.,/-;'\"[]{}#" {
        samples.push(vec![0x1b, *c]);
    }
    for final_byte in b"ABCDHF" {
        for m in 2..=8 {
            samples.push(format!("\x1b[1;{m}{}", char::from(*final_byte)).into_bytes());
        }
        samples.push(vec![0x1b, b'[', *final_byte]);
    }
    for n in [2, 3, 5, 6] {
        for m in 2..=8 {
            samples.push(format!("\x1b[{n};{m}~").into_bytes());
        }
        samples.push(format!("\x1b[{n}~").into_bytes());
    }
    samples.push(b"\x1b[Z".to_vec());
    for bytes in samples {
        let strokes = decode(&bytes);
        let mut sent = Vec::new();
        for stroke in &strokes {
            match stroke {
                Stroke::Key(name) => {
                    let spec = crate::parser::key_spec(name)
                        .unwrap_or_else(|| panic!("{name} (from {bytes:?}) is no tape key"));
                    let encoded = KeySpec::parse(&spec)
                        .and_then(|k| k.encode(KeyModes::default()))
                        .unwrap_or_else(|e| panic!("{name}: {e}"));
                    sent.extend(encoded);
                }
                Stroke::Char(c) => sent.extend(c.to_string().as_bytes()),
                Stroke::Unwritable(_) => sent.extend(&bytes),
            }
        }
        assert_eq!(sent, bytes, "{bytes:?} decoded as {strokes:?}");
    }
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Whatever a client sends, decoding ends, and every key it names is one the tape's
        /// parser reads back; every byte is accounted for (text, a key, or a comment).
        #[test]
        fn any_bytes_decode_into_keys_the_parser_reads(
            bytes in prop::collection::vec(
                prop_oneof![any::<u8>(), Just(0x1b), Just(b'['), Just(b'~'), Just(b';')],
                0..256,
            )
        ) {
            for stroke in decode(&bytes) {
                if let Stroke::Key(name) = stroke {
                    prop_assert!(crate::parser::key_spec(&name).is_some(), "{name}");
                }
            }
        }

        /// Typed text comes back as the same characters.
        #[test]
        fn printable_text_is_typed_as_it_is(text in "[ -~é€😀]{0,64}") {
            let typed: String = decode(text.as_bytes())
                .into_iter()
                .map(|s| match s {
                    Stroke::Char(c) => c,
                    other => panic!("{other:?}"),
                })
                .collect();
            prop_assert_eq!(typed, text);
        }
    }
}
