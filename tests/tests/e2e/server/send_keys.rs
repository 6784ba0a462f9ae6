//! `phux send-keys` types keys as tmux does, checked against a program that logs the exact bytes
//! it receives in raw mode: text is never pasted (even with bracketed paste on), key names in any
//! case, application cursor keys, the Kitty keyboard protocol, `-l`, and the refusal of words
//! shaped like keys that are none (`invalid_key_spec`, its JSON line pinned), and Backspace
//! erasing a whole UTF-8 character where the kernel edits the line.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::path::PathBuf;
use std::time::Duration;

use phux_tests::{error_line, golden, stderr, wait_until, TestServer};

/// Puts the terminal in raw mode, writes the modes given as its first argument (escape
/// sequences), says READY, and appends every byte it reads to the log file.
const KEY_LOGGER: &str = r#"
import os, sys, tty
log = open(sys.argv[1], "ab", buffering=0)
tty.setraw(0)
os.write(1, sys.argv[2].encode().decode("unicode_escape").encode() + b"READY\r\n")
while True:
    data = os.read(0, 1024)
    if not data:
        break
    log.write(data)
"#;

struct Logger {
    server: TestServer,
    pane: String,
    log: PathBuf,
}

/// A pane running the key logger after writing `modes` to the terminal.
fn logger(modes: &str) -> Logger {
    let server = TestServer::start();
    let script = server.dir.path().join("keylog.py");
    std::fs::write(&script, KEY_LOGGER).unwrap();
    let log = server.dir.path().join("keys.log");
    std::fs::write(&log, b"").unwrap();
    let pane = server.new_session(
        "keys",
        &[
            "python3",
            script.to_str().unwrap(),
            log.to_str().unwrap(),
            modes,
        ],
    );
    server.wait_for_text(&pane, "READY");
    Logger { server, pane, log }
}

impl Logger {
    /// Sends `args` with `phux send-keys` and checks that the program read exactly `want`
    /// (waiting until that many bytes arrived, and a moment longer, so extra bytes would show).
    fn expect(&self, args: &[&str], want: &[u8]) {
        let mut all = vec!["send-keys", &self.pane];
        all.extend_from_slice(args);
        let output = self.server.run(&all);
        assert!(output.status.success(), "{args:?}: {}", stderr(&output));
        wait_until(
            &format!("{} bytes logged for {args:?}", want.len()),
            Duration::from_secs(10),
            || std::fs::metadata(&self.log).unwrap().len() >= want.len() as u64,
        );
        // Nothing more may follow what was wanted (an extra byte would be typed too).
        phux_tests::assert_quiet_for(
            &format!("more than {} bytes logged for {args:?}", want.len()),
            Duration::from_millis(100),
            || std::fs::metadata(&self.log).unwrap().len() > want.len() as u64,
        );
        let bytes = std::fs::read(&self.log).unwrap();
        std::fs::write(&self.log, b"").unwrap();
        assert_eq!(
            String::from_utf8_lossy(&bytes),
            String::from_utf8_lossy(want),
            "{args:?}"
        );
    }
}

/// Regression: text before Enter went as a bracketed paste when the program had turned mode
/// 2004 on, so vim inserted `:wq` into the buffer instead of quitting.
#[test]
fn text_is_typed_never_pasted_even_with_bracketed_paste_on() {
    let keys = logger(r"\x1b[?2004h");
    keys.expect(&[":wq", "Enter"], b":wq\r");
    keys.expect(&["echo hi", "Enter", "more text"], b"echo hi\rmore text");
}

#[test]
fn control_and_meta_keys_and_names_in_any_case() {
    let keys = logger("");
    keys.expect(&["C-c", "M-x", "C-M-a"], b"\x03\x1bx\x1b\x01");
    keys.expect(
        &["ENTER", "enter", "Esc", "escape", "Backspace", "BSpace"],
        b"\r\r\x1b\x1b\x7f\x7f",
    );
    keys.expect(
        &[
            "F1", "f12", "Up", "PPage", "NPage", "DC", "Tab", "BTab", "Space",
        ],
        b"\x1bOP\x1b[24~\x1b[A\x1b[5~\x1b[6~\x1b[3~\t\x1b[Z ",
    );
}

#[test]
fn application_cursor_mode_changes_the_cursor_keys() {
    let keys = logger(r"\x1b[?1h");
    keys.expect(
        &["Up", "Down", "Home", "C-Left"],
        b"\x1bOA\x1bOB\x1bOH\x1b[1;5D",
    );
}

#[test]
fn kitty_keyboard_protocol_keys_are_encoded_as_the_program_asked() {
    // CSI > 1 u: "disambiguate escape codes".
    let keys = logger(r"\x1b[>1u");
    keys.expect(&["C-c", "Escape", "ab", "Enter"], b"\x1b[99;5u\x1b[27uab\r");
}

#[test]
fn literal_flag_types_key_names_as_text() {
    let keys = logger(r"\x1b[?2004h");
    keys.expect(&["-l", "Enter", " C-c ", "KP1"], b"Enter C-c KP1");
}

#[test]
fn words_shaped_like_keys_are_invalid_key_spec_and_nothing_is_sent() {
    let keys = logger("");
    for word in ["KP1", "C-", "F99"] {
        let output = keys
            .server
            .run(&["send-keys", "--json", &keys.pane, "echo", word, "Enter"]);
        assert_eq!(output.status.code(), Some(2), "{word}");
        let line = error_line(&output);
        assert_eq!(line["error"]["code"], "invalid_key_spec", "{word}");
        assert!(
            line["error"]["message"].as_str().unwrap().contains(word),
            "{line}"
        );
        if word == "KP1" {
            golden(
                "e2e/send_keys_invalid_key_spec.txt",
                stderr(&output).lines().last().unwrap(),
            );
        }
    }
    // Ordinary words are text.
    keys.expect(&["Foo"], b"Foo");
}

/// A program that reads lines (canonical mode, here `cat`) gets at most 4095 bytes of a line
/// from the terminal; a longer typed line is refused whole, not cut short unseen. A program in
/// raw mode (the key logger) takes it.
#[test]
fn a_line_longer_than_the_terminal_keeps_is_refused_for_a_program_reading_lines() {
    let server = TestServer::start();
    let pane = server.new_session("lines", &["cat"]);
    let long = "x".repeat(5000);
    let output = server.run(&["send-keys", "--json", "-l", &pane, &long]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(output.stdout.is_empty());
    let line = error_line(&output);
    assert_eq!(line["error"]["code"], "canonical_limit_exceeded", "{line}");
    let fits = "y".repeat(4000);
    server.send_keys(&pane, &["-l", &fits]);
    server.send_keys(&pane, &["Enter"]);
    wait_until("cat echoed the line", Duration::from_secs(10), || {
        // The terminal's echo of the line, then cat's copy of it.
        let shown = server.json(&["snapshot", "--json", "--scrollback", &pane]);
        let text = format!("{}{}", shown["scrollback"], shown["lines"]);
        text.matches('y').count() >= 8000
    });

    let raw = logger("");
    let long = "z".repeat(5000);
    raw.expect(&["-l", &long], long.as_bytes());
}

/// A paste into a program that has not turned bracketed paste on would deliver control
/// characters as keys (an escape sequence moving the cursor, a Ctrl-C): refused whole. Line
/// breaks and tabs are text; inside a bracketed paste the program knows it is text.
#[test]
fn a_paste_with_key_like_control_characters_needs_bracketed_paste() {
    let server = TestServer::start();
    let pane = server.new_session("plain", &["cat"]);
    let output = server.run(&["paste", "--json", &pane, "up\u{1b}[Aand\u{3}out"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(output.stdout.is_empty());
    assert_eq!(error_line(&output)["error"]["code"], "unsafe_paste");
    let lines = server.run(&["paste", &pane, "one\ttwo\nthree"]);
    assert!(lines.status.success(), "{}", stderr(&lines));

    let bracketed = logger(r"\x1b[?2004h");
    bracketed.expect_paste("a\u{1b}[Ab", b"\x1b[200~a\x1b[Ab\x1b[201~");
}

impl Logger {
    /// Pastes `text` and checks the program read exactly `want`.
    fn expect_paste(&self, text: &str, want: &[u8]) {
        let output = self.server.run(&["paste", &self.pane, text]);
        assert!(output.status.success(), "{}", stderr(&output));
        wait_until("the paste was logged", Duration::from_secs(10), || {
            std::fs::metadata(&self.log).unwrap().len() >= want.len() as u64
        });
        assert_eq!(std::fs::read(&self.log).unwrap(), want);
    }
}

/// Regression: panes' terminals were not marked UTF-8 (`IUTF8`), so Backspace after `é` in a
/// program reading lines erased one of its two bytes and the program read the other.
#[test]
fn backspace_erases_a_whole_character_in_a_program_reading_lines() {
    let server = TestServer::start();
    let pane = server.new_session(
        "lines",
        &[
            "sh",
            "-c",
            "echo READY; IFS= read -r line; printf '%s' \"$line\" | od -An -tx1; exec sleep 600",
        ],
    );
    server.wait_for_text(&pane, "READY");
    let output = server.run(&["send-keys", &pane, "é", "BSpace", "x", "Enter"]);
    assert!(output.status.success(), "{}", stderr(&output));
    server.wait_for_text(&pane, "78");
    let lines = phux_tests::screen(&server.socket, &pane).lines;
    let read = lines.iter().find(|l| l.contains("78")).unwrap();
    assert_eq!(read.trim(), "78", "the bytes the program read: {lines:?}");
}
