use super::*;
use crate::parser::{parse_text, Command};
use std::path::Path;

const MS: u64 = 1_000_000;

fn typed(at_ms: u64, stroke: Stroke) -> Timed {
    Timed {
        t_ns: at_ms * MS,
        stroke,
    }
}

fn chars(from_ms: u64, every_ms: u64, text: &str) -> Vec<Timed> {
    text.chars()
        .enumerate()
        .map(|(i, c)| typed(from_ms + i as u64 * every_ms, Stroke::Char(c)))
        .collect()
}

fn key(at_ms: u64, name: &str) -> Timed {
    typed(at_ms, Stroke::Key(name.into()))
}

#[test]
fn text_runs_keys_repeats_and_pauses() {
    let mut strokes = chars(0, 100, "echo hii");
    strokes.push(key(800, "Backspace"));
    strokes.push(key(900, "Backspace"));
    strokes.extend(chars(1000, 100, "i"));
    strokes.push(key(1100, "Enter"));
    // A pause of 2 s, then Ctrl+C; then the recorder is stopped 3 s later.
    strokes.push(key(3100, "Ctrl+C"));
    let body = compose(&strokes, 0, 6100 * MS, 500);
    assert_eq!(body.typing_ms, 100);
    assert_eq!(
        render(&body.lines),
        "Type \"echo hii\"\nBackspace 2\nType \"i\"\nEnter\nSleep 1.9s\nCtrl+C\nSleep 2.9s\n"
    );
}

#[test]
fn the_wait_after_enter_is_kept_but_not_a_typing_gap() {
    // Keys 100 ms apart; Enter answered for 300 ms (less than the idle threshold).
    let mut strokes = chars(0, 100, "ab");
    strokes.push(key(200, "Enter"));
    strokes.extend(chars(500, 100, "cd"));
    strokes.push(key(700, "Enter"));
    strokes.extend(chars(850, 100, "e"));
    let body = compose(&strokes, 0, 2000 * MS, 500);
    assert_eq!(body.typing_ms, 100);
    assert_eq!(
        render(&body.lines),
        "Type \"ab\"\nEnter\nSleep 200ms\nType \"cd\"\nEnter\nType \"e\"\nSleep 1.05s\n"
    );
}

#[test]
fn a_key_pressed_again_after_a_pause_is_a_new_command() {
    let strokes = vec![key(0, "Up"), key(50, "Up"), key(2000, "Up")];
    let body = compose(&strokes, 0, 2000 * MS, 500);
    assert_eq!(
        body.lines,
        vec![
            Line::Key {
                name: "Up".into(),
                count: 2
            },
            Line::Sleep { ms: 1900 },
            Line::Key {
                name: "Up".into(),
                count: 1
            },
            Line::Sleep { ms: 500 },
        ]
    );
}

#[test]
fn the_typing_speed_is_the_median_gap_without_pauses_or_batches() {
    // Gaps 40, 60, 60, 200 (and a 5 s pause, and keys of one write with no gap): median 60.
    let strokes = vec![
        key(0, "a"),
        key(40, "b"),
        key(100, "c"),
        key(160, "d"),
        key(360, "e"),
        key(5360, "f"),
        key(5360, "g"),
    ];
    assert_eq!(compose(&strokes, 0, 6000 * MS, 500).typing_ms, 60);
    assert_eq!(
        compose(&[key(0, "Enter")], 0, 10 * MS, 500).typing_ms,
        DEFAULT_TYPING_MS
    );
}

#[test]
fn a_wait_before_the_first_key_is_a_short_sleep_and_nothing_typed_is_one_sleep() {
    let body = compose(&[key(800, "Enter")], 0, 900 * MS, 500);
    assert_eq!(render(&body.lines), "Sleep 800ms\nEnter\nSleep 500ms\n");
    // At most a second: the time it took to reach the pane is not the demo's.
    let body = compose(&[key(9000, "Enter")], 0, 9100 * MS, 500);
    assert_eq!(render(&body.lines), "Sleep 1s\nEnter\nSleep 500ms\n");
    let body = compose(&[], 0, 2000 * MS, 500);
    assert_eq!(render(&body.lines), "Sleep 2s\n");
}

#[test]
fn quotes_are_the_ones_the_text_lacks_and_text_with_all_three_is_split() {
    assert_eq!(quoted("say \"hi\"").as_deref(), Some("'say \"hi\"'"));
    assert_eq!(quoted("it's \"x\"").as_deref(), Some("`it's \"x\"`"));
    assert_eq!(quoted("a\\b").as_deref(), Some("\"a\\b\""));
    assert_eq!(quoted("\"'`"), None);
    let text = r#"echo "it's" `date` \n"#;
    let rendered = render(&[Line::Type(text.into())]);
    // Read back by the tape's own parser: the pieces type the text exactly.
    let steps = parse_text(Path::new("t.tape"), &rendered).unwrap();
    let typed: String = steps
        .iter()
        .map(|s| match &s.command {
            Command::Type { text, .. } => text.clone(),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(typed, text);
    assert!(steps.len() >= 2, "{rendered}");
}

#[test]
fn times_read_back_as_written() {
    for ms in [1, 250, 999, 1000, 1250, 1001, 61_500] {
        let text = time(ms);
        let secs = crate::parser::parse_time(&text).unwrap();
        assert_eq!((secs * 1000.0).round() as u64, ms, "{text}");
    }
    assert_eq!(time(1250), "1.25s");
    assert_eq!(time(2000), "2s");
}

#[test]
fn unwritable_keys_are_comments_and_the_rest_parses() {
    let strokes = vec![
        typed(0, Stroke::Unwritable("\\e[15~".into())),
        key(10, "Alt+."),
        key(20, "Ctrl+\\"),
        typed(30, Stroke::Char('#')),
    ];
    let rendered = render(&compose(&strokes, 0, 100 * MS, 500).lines);
    assert!(
        rendered.starts_with("# not recorded: \\e[15~"),
        "{rendered}"
    );
    let steps = parse_text(Path::new("t.tape"), &rendered).unwrap();
    let commands: Vec<&Command> = steps.iter().map(|s| &s.command).collect();
    assert!(matches!(commands[0], Command::Key { spec, .. } if spec == "M-."));
    assert!(matches!(commands[1], Command::Key { spec, .. } if spec == "C-\\"));
    assert!(matches!(commands[2], Command::Type { text, .. } if text == "#"));
}
