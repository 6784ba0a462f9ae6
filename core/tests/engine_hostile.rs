//! Hostile input against the real engine: no crash, no hang, bounded memory, and the same
//! screen whichever byte a stream is split at.

#![forbid(unsafe_code)]
#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use phux_core::engine::{Terminal, REPLY_BUFFER_CAP};
use proptest::prelude::*;

/// A small deterministic generator, so failures reproduce.
struct XorShift(u64);

impl XorShift {
    fn fill(&mut self, buf: &mut [u8]) {
        for chunk in buf.chunks_mut(8) {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            let bytes = self.0.to_le_bytes();
            chunk.copy_from_slice(&bytes[..chunk.len()]);
        }
    }
}

fn rss_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    pages * 4096
}

fn assert_still_works(t: &mut Terminal) {
    t.write(b"\x1bc\x1b[0m\r\nalive\r\n");
    assert!(
        t.viewport_lines().iter().any(|l| l.contains("alive")),
        "{:?}",
        t.viewport_lines()
    );
}

#[test]
fn fifty_megabytes_of_random_bytes() {
    let mut t = Terminal::new(120, 40, 5_000).expect("engine");
    let before = rss_bytes();
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let mut chunk = vec![0u8; 64 * 1024];
    for _ in 0..(50 * 1024 * 1024 / chunk.len()) {
        rng.fill(&mut chunk);
        t.write(&chunk);
        let _ = t.take_replies();
    }
    let grown = rss_bytes().saturating_sub(before);
    assert!(grown < 256 * 1024 * 1024, "RSS grew by {grown} bytes");
    assert_eq!(t.viewport_lines().len(), usize::from(t.size().1));
    assert_still_works(&mut t);
}

#[test]
fn a_1_1_megabyte_osc_is_survived() {
    let mut t = Terminal::new(80, 24, 100).expect("engine");
    let mut osc = b"\x1b]2;".to_vec();
    osc.extend(std::iter::repeat_n(b'a', 1_100_000));
    osc.push(0x07);
    t.write(&osc);
    assert_still_works(&mut t);
}

#[test]
fn an_80_digit_csi_parameter_is_survived() {
    let mut t = Terminal::new(80, 24, 100).expect("engine");
    let digits = "9".repeat(80);
    t.write(
        format!("\x1b[{digits}m\x1b[{digits};{digits}H\x1b[{digits}A\x1b[{digits}@x").as_bytes(),
    );
    assert_still_works(&mut t);
}

#[test]
fn invalid_utf8_becomes_replacement_characters() {
    let mut t = Terminal::new(40, 4, 100).expect("engine");
    t.write(b"a\xffb\xc3(c\xe2\x82d\xf0\x90\x80\r\nnext");
    let first = &t.viewport_lines()[0];
    assert!(
        first.starts_with('a') && first.contains('b') && first.contains('\u{fffd}'),
        "{first:?}"
    );
    assert_eq!(t.viewport_lines()[1], "next");
}

#[test]
fn a_million_cursor_queries_leave_a_bounded_reply_buffer() {
    let mut t = Terminal::new(80, 24, 100).expect("engine");
    let queries = b"\x1b[6n".repeat(1_000_000);
    t.write(&queries);
    let replies = t.take_replies();
    assert!(!replies.is_empty());
    assert!(
        replies.len() <= REPLY_BUFFER_CAP,
        "{} bytes buffered",
        replies.len()
    );
    assert!(t.take_notifications().dropped_reply_bytes > 0);
}

/// A stream with everything a split could cut through: CSI, SGR, OSC, UTF-8 of every length,
/// wide glyphs, wraps, scrolling and an alternate-screen round trip.
fn corpus() -> Vec<u8> {
    let mut s = Vec::new();
    s.extend_from_slice(b"\x1b]2;title \xe2\x9c\x93\x07plain \x1b[1;38;5;196mred\x1b[0m ");
    s.extend_from_slice("日本語 ✓ 🎉 e\u{301} Ωmega\r\n".as_bytes());
    s.extend_from_slice(b"\x1b[38;2;1;2;3;48;2;4;5;6mrgb\x1b[0m\x1b[5;10Hplaced\x1b[2K\x1b[3;1H");
    s.extend_from_slice(
        b"a line long enough to wrap around the narrow test terminal twice over\r\n",
    );
    s.extend_from_slice(
        b"\x1b[?1049halt\x1b[?1049l\x1b]133;A\x07$ \x1b]133;B\x07ls\r\n\x1b]133;C\x07out\r\n",
    );
    s
}

fn screen_of(
    chunks: &[&[u8]],
) -> (
    Vec<Vec<phux_core::engine::CellData>>,
    phux_core::engine::Cursor,
    Option<String>,
) {
    let mut t = Terminal::new(24, 6, 100).expect("engine");
    for chunk in chunks {
        t.write(chunk);
    }
    let rows = (0..6).map(|y| t.viewport_row_cells(y)).collect();
    (rows, t.cursor(), t.title())
}

#[test]
fn every_single_split_point_gives_the_same_screen() {
    let corpus = corpus();
    let whole = screen_of(&[&corpus]);
    for at in 1..corpus.len() {
        let (a, b) = corpus.split_at(at);
        assert_eq!(screen_of(&[a, b]), whole, "split at byte {at}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn any_three_way_split_gives_the_same_screen(a in 0usize..400, b in 0usize..400) {
        let corpus = corpus();
        let (mut x, mut y) = (a % corpus.len(), b % corpus.len());
        if x > y { std::mem::swap(&mut x, &mut y); }
        let whole = screen_of(&[&corpus]);
        prop_assert_eq!(screen_of(&[&corpus[..x], &corpus[x..y], &corpus[y..]]), whole);
    }
}
