//! Prints the text a cast leaves on screen when replayed through the engine (history, then the
//! viewport; right-trimmed; trailing blank lines dropped), for comparing with what other tools
//! make of the same file. Used by `scripts/check-asciinema`.
//!
//! Run: `cargo run -p phux-tests --example replay_text -- FILE.cast`

#![forbid(unsafe_code)]
#![allow(clippy::expect_used, clippy::unwrap_used)] // a tool fails loudly by design

use phux_core::engine::Terminal;
use phux_recorder::{read_cast, EventKind};

fn main() {
    let path = std::env::args()
        .nth(1)
        .expect("usage: replay_text FILE.cast");
    let cast = read_cast(&path).unwrap_or_else(|e| panic!("{e}"));
    let mut terminal = Terminal::new(cast.header.cols, cast.header.rows, 100_000).unwrap();
    for event in &cast.events {
        match &event.kind {
            EventKind::Output(text) => terminal.write(text.as_bytes()),
            EventKind::Resize { cols, rows } => terminal.resize(*cols, *rows).unwrap(),
            _ => {}
        }
    }
    let mut lines = terminal.scrollback_text(None, false);
    lines.extend(terminal.viewport_lines());
    while lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
    for line in lines {
        println!("{line}");
    }
}
