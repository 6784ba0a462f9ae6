//! Casts shaped like those asciinema 2 and asciinema 3 write read correctly.

#![forbid(unsafe_code)]
// Test code: a panic is how a failure is reported.
#![allow(clippy::unwrap_used)]

use std::io::Cursor;

use phux_recorder::{read_cast, CastReader, CastVersion, Event, EventKind, Rgb};

fn read(text: &str) -> (phux_recorder::Header, Vec<Event>) {
    let reader = CastReader::from_bufread(Cursor::new(text.as_bytes().to_vec()), "t.cast").unwrap();
    let header = reader.header().clone();
    let events = reader.collect::<Result<Vec<_>, _>>().unwrap();
    (header, events)
}

/// asciinema 2.x: spaces after separators, env with SHELL and TERM, absolute times.
const ASCIINEMA2: &str = r#"{"version": 2, "width": 213, "height": 58, "timestamp": 1598902364, "env": {"SHELL": "/bin/zsh", "TERM": "xterm-256color"}}
[0.010542, "o", "\u001b]0;me@box: ~\u0007"]
[0.511800, "o", "$ "]
[1.902001, "o", "l"]
[2.007317, "o", "s\r\n"]
[2.104000, "o", "Cargo.toml  src\r\n$ "]
[2.200000, "o", "\ud83d\ude00 caf\u00e9"]
"#;

/// asciinema 3.2 with `-f asciicast-v2`: compact header, marker, resize and an `x` last line.
const ASCIINEMA32_V2: &str = r#"{"version":2,"width":80,"height":24,"timestamp":1735689600,"idle_time_limit":2.0,"command":"bash","title":"demo","env":{"SHELL":"/bin/bash","TERM":"xterm-256color"}}
[0.100000, "o", "$ "]
[1.250000, "i", "exit\r"]
[1.300000, "m", "chapter 1"]
[1.400000, "r", "100x30"]
[1.500000, "o", "exit\r\n"]
[1.600000, "x", "0"]
"#;

/// asciinema 3 (v3 default): terminal facts under `term`, a theme, `#` comments, intervals.
const ASCIINEMA3: &str = r##"{"version": 3, "term": {"cols": 120, "rows": 34, "type": "xterm-ghostty", "version": "ghostty 1.1.0", "theme": {"fg": "#d8d8d8", "bg": "#181818", "palette": "#181818:#ab4642:#a1b56c:#f7ca88:#7cafc2:#ba8baf:#86c1b9:#d8d8d8:#585858:#ab4642:#a1b56c:#f7ca88:#7cafc2:#ba8baf:#86c1b9:#f8f8f8"}}, "timestamp": 1740000000, "idle_time_limit": 1.5, "command": "/bin/zsh", "env": {"SHELL": "/bin/zsh"}}
# recorded for the docs
[0.248, "o", "\u001b[1;31mred\u001b[0m "]
[1.001, "o", "plain\r\n"]

[0.143, "m", ""]
# resized the window here
[0.500, "r", "90x30"]
[0.007, "z", "a code from the future"]
[0.100, "x", "130"]
"##;

#[test]
fn asciinema2_cast_reads_with_absolute_times_and_term_from_env() {
    let (header, events) = read(ASCIINEMA2);
    assert_eq!(
        (header.version, header.cols, header.rows),
        (CastVersion::V2, 213, 58)
    );
    assert_eq!(header.timestamp, Some(1_598_902_364));
    assert_eq!(header.term_type.as_deref(), Some("xterm-256color"));
    assert_eq!(
        header.env.get("SHELL").map(String::as_str),
        Some("/bin/zsh")
    );
    assert_eq!(events.len(), 6);
    // Escaped UTF-16 surrogate pairs, as an ASCII-only JSON encoder writes them, decode to one char.
    assert_eq!(events[5], Event::output(2.2, "😀 café"));
    assert_eq!(events[4], Event::output(2.104, "Cargo.toml  src\r\n$ "));
    assert_eq!(
        events[0].kind,
        EventKind::Output("\u{1b}]0;me@box: ~\u{7}".into())
    );
}

#[test]
fn asciinema32_v2_cast_keeps_marker_resize_exit_and_returns_input() {
    let (header, events) = read(ASCIINEMA32_V2);
    assert_eq!(header.idle_time_limit, Some(2.0));
    assert_eq!(
        (header.command.as_deref(), header.title.as_deref()),
        (Some("bash"), Some("demo"))
    );
    let kinds: Vec<_> = events.iter().map(|e| e.kind.clone()).collect();
    assert_eq!(
        kinds,
        [
            EventKind::Output("$ ".into()),
            EventKind::Input("exit\r".into()),
            EventKind::Marker("chapter 1".into()),
            EventKind::Resize {
                cols: 100,
                rows: 30
            },
            EventKind::Output("exit\r\n".into()),
            EventKind::Exit(0),
        ]
    );
    assert_eq!(events[5].time, 1.6);
}

#[test]
fn asciinema3_cast_accumulates_intervals_and_skips_comments_and_unknown_codes() {
    let (header, events) = read(ASCIINEMA3);
    assert_eq!(
        (header.version, header.cols, header.rows),
        (CastVersion::V3, 120, 34)
    );
    assert_eq!(header.term_type.as_deref(), Some("xterm-ghostty"));
    assert_eq!(header.term_version.as_deref(), Some("ghostty 1.1.0"));
    assert_eq!(header.idle_time_limit, Some(1.5));
    let theme = header.theme.unwrap();
    assert_eq!(
        (theme.fg, theme.bg),
        (Rgb::new(0xd8, 0xd8, 0xd8), Rgb::new(0x18, 0x18, 0x18))
    );
    assert_eq!(theme.palette.len(), 16);
    let codes: Vec<_> = events.iter().map(|e| e.kind.code()).collect();
    assert_eq!(codes, ["o", "o", "m", "r", "x"]);
    let times: Vec<_> = events.iter().map(|e| e.time).collect();
    // The skipped "z" event's interval still counts towards the exit's time.
    let expected = [0.248, 1.249, 1.392, 1.892, 1.999];
    for (got, want) in times.iter().zip(expected) {
        assert!((got - want).abs() < 1e-9, "{times:?}");
    }
    assert_eq!(events[4].kind, EventKind::Exit(130));
}

#[test]
fn crlf_line_endings_and_a_bom_are_tolerated() {
    let text = "\u{feff}{\"version\": 2, \"width\": 80, \"height\": 24}\r\n[0.5, \"o\", \"a\"]\r\n";
    let (header, events) = read(text);
    assert_eq!(header.cols, 80);
    assert_eq!(events, [Event::output(0.5, "a")]);
}

#[test]
fn last_line_without_newline_is_fine_when_it_parses() {
    let (_, events) = read("{\"version\": 2, \"width\": 80, \"height\": 24}\n[0.5, \"o\", \"a\"]");
    assert_eq!(events, [Event::output(0.5, "a")]);
}

#[test]
fn iteration_stops_at_the_first_error() {
    let text = "{\"version\": 2, \"width\": 80, \"height\": 24}\n[2, \"o\", \"a\"]\n[1, \"o\", \"b\"]\n[3, \"o\", \"c\"]\n";
    let reader = CastReader::from_bufread(Cursor::new(text), "t.cast").unwrap();
    let results: Vec<_> = reader.collect();
    assert_eq!(results.len(), 2);
    let error = results[1].as_ref().unwrap_err();
    assert_eq!(error.line, 3);
    assert_eq!(
        error.to_string(),
        "t.cast:3: time goes backwards (1.000000 s after 2.000000 s)"
    );
}

#[test]
fn read_cast_names_a_missing_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nope.cast");
    let error = read_cast(&path).unwrap_err();
    assert_eq!(error.path.as_deref(), Some(path.as_path()));
    assert!(
        error
            .to_string()
            .starts_with(&format!("{}: cannot read:", path.display())),
        "{error}"
    );
}

#[test]
fn header_title_with_invalid_utf8_is_replaced_not_refused() {
    let mut bytes =
        b"{\"version\": 2, \"width\": 80, \"height\": 24, \"title\": \"a\xffb\"}\n".to_vec();
    bytes.extend_from_slice(b"[0.5, \"o\", \"\xc3\"]\n");
    let reader = CastReader::from_bufread(Cursor::new(bytes), "t.cast").unwrap();
    assert_eq!(reader.header().title.as_deref(), Some("a\u{fffd}b"));
    let events: Vec<_> = reader.map(Result::unwrap).collect();
    assert_eq!(events, [Event::output(0.5, "\u{fffd}")]);
}
