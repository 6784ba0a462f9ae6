//! Key specs to bytes, the literal-before-Enter paste rule, and bracketed paste.

#![forbid(unsafe_code)]
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on the unexpected

use phux_core::error_code::ErrorCode;
use phux_core::error_doc::ContractError;
use phux_core::keys::{bracketed_paste, plan_keys, InputAction, KeyModes, KeySpec};
use proptest::prelude::*;

const NORMAL: KeyModes = KeyModes { app_cursor: false };
const APP: KeyModes = KeyModes { app_cursor: true };

fn bytes(spec: &str, modes: KeyModes) -> Vec<u8> {
    match plan_keys(&[spec], modes)
        .unwrap_or_else(|e| panic!("{spec}: {e}"))
        .as_slice()
    {
        [InputAction::Bytes(b)] => b.clone(),
        other => panic!("{spec}: {other:?}"),
    }
}

#[test]
fn named_keys() {
    let table: &[(&str, &[u8])] = &[
        ("Enter", b"\r"),
        ("Return", b"\r"),
        ("Tab", b"\t"),
        ("BTab", b"\x1b[Z"),
        ("S-Tab", b"\x1b[Z"),
        ("Escape", b"\x1b"),
        ("Esc", b"\x1b"),
        ("Space", b" "),
        ("BSpace", b"\x7f"),
        ("Up", b"\x1b[A"),
        ("Down", b"\x1b[B"),
        ("Right", b"\x1b[C"),
        ("Left", b"\x1b[D"),
        ("Home", b"\x1b[H"),
        ("End", b"\x1b[F"),
        ("PageUp", b"\x1b[5~"),
        ("PgUp", b"\x1b[5~"),
        ("PPage", b"\x1b[5~"),
        ("PageDown", b"\x1b[6~"),
        ("PgDn", b"\x1b[6~"),
        ("NPage", b"\x1b[6~"),
        ("IC", b"\x1b[2~"),
        ("Insert", b"\x1b[2~"),
        ("DC", b"\x1b[3~"),
        ("Delete", b"\x1b[3~"),
        ("F1", b"\x1bOP"),
        ("F4", b"\x1bOS"),
        ("F5", b"\x1b[15~"),
        ("F6", b"\x1b[17~"),
        ("F10", b"\x1b[21~"),
        ("F11", b"\x1b[23~"),
        ("F12", b"\x1b[24~"),
    ];
    for (spec, want) in table {
        assert_eq!(bytes(spec, NORMAL), *want, "{spec}");
    }
}

#[test]
fn application_cursor_mode_uses_ss3_for_unmodified_cursor_keys() {
    assert_eq!(bytes("Up", APP), b"\x1bOA");
    assert_eq!(bytes("Left", APP), b"\x1bOD");
    assert_eq!(bytes("Home", APP), b"\x1bOH");
    assert_eq!(bytes("C-Up", APP), b"\x1b[1;5A", "modified keys stay CSI");
    assert_eq!(bytes("PageUp", APP), b"\x1b[5~");
}

#[test]
fn control_and_meta() {
    let table: &[(&str, &[u8])] = &[
        ("C-a", b"\x01"),
        ("C-c", b"\x03"),
        ("C-z", b"\x1a"),
        ("C-A", b"\x01"),
        ("C-@", b"\x00"),
        ("C-Space", b"\x00"),
        ("C-[", b"\x1b"),
        ("C-\\", b"\x1c"),
        ("C-]", b"\x1d"),
        ("C-^", b"\x1e"),
        ("C-_", b"\x1f"),
        ("C-?", b"\x7f"),
        ("M-x", b"\x1bx"),
        ("M-Enter", b"\x1b\r"),
        ("M-BSpace", b"\x1b\x7f"),
        ("C-M-x", b"\x1b\x18"),
        ("M-C-x", b"\x1b\x18"),
        ("S-a", b"A"),
        ("M--", b"\x1b-"),
    ];
    for (spec, want) in table {
        assert_eq!(bytes(spec, NORMAL), *want, "{spec}");
    }
}

#[test]
fn modifiers_on_cursor_and_function_keys_use_xterm_parameters() {
    let table: &[(&str, &[u8])] = &[
        ("S-Up", b"\x1b[1;2A"),
        ("M-Up", b"\x1b[1;3A"),
        ("C-Up", b"\x1b[1;5A"),
        ("C-S-Left", b"\x1b[1;6D"),
        ("C-M-Right", b"\x1b[1;7C"),
        ("C-Home", b"\x1b[1;5H"),
        ("S-End", b"\x1b[1;2F"),
        ("C-PageUp", b"\x1b[5;5~"),
        ("S-Delete", b"\x1b[3;2~"),
        ("C-F1", b"\x1b[1;5P"),
        ("S-F5", b"\x1b[15;2~"),
        ("C-M-F12", b"\x1b[24;7~"),
    ];
    for (spec, want) in table {
        assert_eq!(bytes(spec, NORMAL), *want, "{spec}");
    }
}

/// Regression: a text argument before Enter went as a bracketed paste, so vim inserted `:wq`
/// into its buffer instead of running it. Text is typed key by key, as tmux types it.
#[test]
fn text_before_enter_is_typed_never_pasted() {
    assert_eq!(
        plan_keys(&[":wq", "Enter"], NORMAL).unwrap(),
        vec![InputAction::Bytes(b":wq\r".to_vec())]
    );
    assert_eq!(
        plan_keys(&["C-c", "cargo test", "Return", "q"], NORMAL).unwrap(),
        vec![InputAction::Bytes(b"\x03cargo test\rq".to_vec())]
    );
}

#[test]
fn other_literals_are_typed_and_bytes_merge() {
    assert_eq!(
        plan_keys(&["ls", "Tab", "-l"], NORMAL).unwrap(),
        vec![InputAction::Bytes(b"ls\t-l".to_vec())]
    );
    assert_eq!(
        plan_keys(&["Enter"], NORMAL).unwrap(),
        vec![InputAction::Bytes(b"\r".to_vec())]
    );
    assert_eq!(
        plan_keys(
            &["Foo", "héllo", "s-expr", "c-style", "KPop", "F1x"],
            NORMAL
        )
        .unwrap(),
        vec![InputAction::Bytes(
            "Foohéllos-exprc-styleKPopF1x".as_bytes().to_vec()
        )]
    );
    assert!(plan_keys::<&str>(&[], NORMAL).unwrap().is_empty());
}

#[test]
fn key_names_match_in_any_case_as_tmux_reads_them() {
    let table: &[(&str, &[u8])] = &[
        ("ENTER", b"\r"),
        ("enter", b"\r"),
        ("Esc", b"\x1b"),
        ("ESCAPE", b"\x1b"),
        ("escape", b"\x1b"),
        ("Backspace", b"\x7f"),
        ("BSpace", b"\x7f"),
        ("bspace", b"\x7f"),
        ("home", b"\x1b[H"),
        ("f5", b"\x1b[15~"),
        ("c-c", b"\x03"),
        ("m-x", b"\x1bx"),
        ("C-m-X", b"\x1b\x18"),
        ("s-tab", b"\x1b[Z"),
        ("ppage", b"\x1b[5~"),
        ("DC", b"\x1b[3~"),
        ("ic", b"\x1b[2~"),
    ];
    for (spec, want) in table {
        assert_eq!(bytes(spec, NORMAL), *want, "{spec}");
    }
}

/// Words shaped like key names that name no key are refused, not typed as text.
#[test]
fn key_shaped_words_that_are_no_key_are_refused_naming_the_word() {
    for word in [
        "KP1", "kp5", "KPEnter", "KP+", "F99", "F0", "F13", "f01", "C-F99", "C-KP1",
    ] {
        let err = plan_keys(&["ok", word], NORMAL).expect_err(word);
        assert_eq!(err.code(), ErrorCode::InvalidKeySpec, "{word}");
        assert_eq!(err.spec, word);
        assert!(err.to_string().contains(word), "{err}");
    }
}

#[test]
fn keys_that_cannot_mean_what_they_say_are_invalid_key_spec() {
    for bad in [
        "C-", "M-", "C-M-", "S-", "C-C-a", "C-foo", "C-1", "C-Enter", "C-Tab", "S-1", "C-S-a",
        "S-Enter",
    ] {
        let err = plan_keys(&["ok", bad], NORMAL).expect_err(bad);
        assert_eq!(err.code(), ErrorCode::InvalidKeySpec, "{bad}");
        assert_eq!(err.exit_code(), 2);
    }
}

#[test]
fn bracketed_paste_wraps_only_when_enabled() {
    assert_eq!(bracketed_paste("a\nb", false), b"a\nb");
    assert_eq!(bracketed_paste("a\nb", true), b"\x1b[200~a\nb\x1b[201~");
}

#[test]
fn bracketed_paste_cannot_be_escaped_by_its_own_text() {
    let evil = "x\x1b[201~rm -rf ~\r\x1b[20\x1b[201~1~y";
    let out = bracketed_paste(evil, true);
    let inner = &out[6..out.len() - 6];
    assert!(
        !inner.windows(6).any(|w| w == b"\x1b[201~"),
        "{:?}",
        String::from_utf8_lossy(&out)
    );
    assert!(out.ends_with(b"\x1b[201~"));
}

proptest! {
    #[test]
    fn planner_never_panics(specs in proptest::collection::vec(any::<String>(), 0..6), app in any::<bool>()) {
        let _ = plan_keys(&specs, KeyModes { app_cursor: app });
    }

    #[test]
    fn key_shaped_specs_never_panic(spec in "(C-|M-|S-){0,3}[A-Za-z0-9@\\[\\]^_?\\- ]{0,6}") {
        let _ = plan_keys(&[spec], NORMAL);
    }

    #[test]
    fn bracketed_paste_body_never_holds_an_end_marker(text in "(\x1b|\\[|2|0|1|~|a){0,40}") {
        let out = bracketed_paste(&text, true);
        let inner = &out[6..out.len() - 6];
        prop_assert!(!inner.windows(6).any(|w| w == b"\x1b[201~"));
    }
}

/// `send-keys P Entr` once typed the text `Entr`, exit 0: a word one slip from a key name is
/// refused with the key it meant, and text stays text.
#[test]
fn a_key_name_one_slip_away_is_refused_with_the_key_meant() {
    for (word, meant) in [
        ("Entr", "Enter"),
        ("Escpae", "Escape"),
        ("Enterr", "Enter"),
        ("Ctrl-c", "C-c"),
        ("ctrl+c", "C-c"),
        ("Alt-x", "M-x"),
        ("Shift-Tab", "S-Tab"),
        ("PageDwn", "PageDown"),
    ] {
        let err = KeySpec::parse(word).unwrap_err();
        assert_eq!(err.suggestion.as_deref(), Some(meant), "{word}: {err}");
        assert!(
            err.to_string().contains(&format!("did you mean {meant}?")),
            "{err}"
        );
        assert!(err.to_string().contains("-l"), "{err}");
    }
    for text in [
        "Enter",
        "NPage",
        "PgDn",
        "hello",
        "and",
        "Entry-level",
        "alt-text",
        "Up",
        "Some",
    ] {
        assert!(KeySpec::parse(text).is_ok(), "{text} is a key or text");
    }
}
