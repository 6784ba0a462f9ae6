//! The engine's key encoder through `Terminal::encode_key`: legacy keys match tmux's, the
//! program's modes (application cursor keys, the Kitty keyboard protocol) change what a key sends.

#![forbid(unsafe_code)]
#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use phux_core::engine::Terminal;
use phux_core::keys::KeySpec;

fn terminal() -> Terminal {
    Terminal::new(80, 24, 100).expect("engine available")
}

fn encode(t: &Terminal, spec: &str) -> Vec<u8> {
    t.encode_key(&KeySpec::parse(spec).unwrap())
        .unwrap_or_else(|e| panic!("{spec}: {e}"))
}

#[test]
fn legacy_keys_are_what_tmux_sends() {
    let t = terminal();
    assert_eq!(t.kitty_keyboard_flags(), 0);
    for (spec, want) in [
        ("Enter", &b"\r"[..]),
        ("C-c", b"\x03"),
        ("M-x", b"\x1bx"),
        ("Up", b"\x1b[A"),
        ("C-Up", b"\x1b[1;5A"),
        ("Escape", b"\x1b"),
        ("BSpace", b"\x7f"),
        ("F5", b"\x1b[15~"),
        ("Tab", b"\t"),
        ("hi", b"hi"),
    ] {
        assert_eq!(encode(&t, spec), want, "{spec}");
    }
}

#[test]
fn application_cursor_keys_use_ss3() {
    let mut t = terminal();
    t.write(b"\x1b[?1h");
    assert_eq!(encode(&t, "Up"), b"\x1bOA");
    assert_eq!(encode(&t, "Home"), b"\x1bOH");
}

#[test]
fn kitty_keyboard_protocol_disambiguates_control_keys() {
    let mut t = terminal();
    // CSI > 1 u: the program pushes "disambiguate escape codes".
    t.write(b"\x1b[>1u");
    assert_eq!(t.kitty_keyboard_flags(), 1);
    assert_eq!(encode(&t, "C-c"), b"\x1b[99;5u");
    assert_eq!(encode(&t, "Escape"), b"\x1b[27u");
    assert_eq!(encode(&t, "M-x"), b"\x1b[120;3u");
    assert_eq!(encode(&t, "Enter"), b"\r");
    assert_eq!(encode(&t, "abc"), b"abc", "text stays text under flag 1");
    // CSI < u pops it again.
    t.write(b"\x1b[<u");
    assert_eq!(t.kitty_keyboard_flags(), 0);
    assert_eq!(encode(&t, "C-c"), b"\x03");
}

#[test]
fn kitty_report_all_keys_sends_text_as_key_codes() {
    let mut t = terminal();
    // CSI > 8 u: "report all keys as escape codes".
    t.write(b"\x1b[>8u");
    assert_eq!(
        t.kitty_keyboard_flags() & phux_core::engine::KITTY_REPORT_ALL_KEYS,
        8
    );
    let out = encode(&t, "a");
    assert!(
        out.starts_with(b"\x1b[97"),
        "{:?}",
        String::from_utf8_lossy(&out)
    );
    assert!(out.ends_with(b"u"), "{:?}", String::from_utf8_lossy(&out));
}
