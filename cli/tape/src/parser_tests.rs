//! The tape parser's tests: the language as VHS writes it, errors with their positions, and
//! every tape under tests/tapes.

use super::*;

fn commands(text: &str) -> Vec<Command> {
    parse_text(Path::new("t.tape"), text)
        .unwrap()
        .into_iter()
        .map(|s| s.command)
        .collect()
}

fn error(text: &str) -> String {
    parse_text(Path::new("t.tape"), text)
        .unwrap_err()
        .to_string()
}

#[test]
fn keys_take_a_time_and_a_count() {
    assert_eq!(
        commands("Enter\nBackspace@100ms 3\nCtrl+C\nAlt+Shift+Tab\nCtrl+Alt+x"),
        vec![
            Command::Key {
                spec: "Enter".into(),
                speed: None,
                count: 1
            },
            Command::Key {
                spec: "BSpace".into(),
                speed: Some(0.1),
                count: 3
            },
            Command::Key {
                spec: "C-C".into(),
                speed: None,
                count: 1
            },
            Command::Key {
                spec: "M-S-Tab".into(),
                speed: None,
                count: 1
            },
            Command::Key {
                spec: "C-M-x".into(),
                speed: None,
                count: 1
            },
        ]
    );
}

#[test]
fn type_wait_and_settings() {
    assert_eq!(
        commands("Type@20ms `echo 'hi'`\nWait+Screen@2s /hi$/\nWait\nSet Theme { \"background\": \"#000000\" }\nSet LoopOffset 20%"),
        vec![
            Command::Type { text: "echo 'hi'".into(), speed: Some(0.02) },
            Command::Wait { scope: WaitScope::Screen, timeout: Some(2.0), pattern: Some("hi$".into()) },
            Command::Wait { scope: WaitScope::Line, timeout: None, pattern: None },
            Command::Set(Setting::Theme(ThemeSource::Json("{ \"background\": \"#000000\" }".into()))),
            Command::Set(Setting::LoopOffset(LoopOffset::Percent(20.0))),
        ]
    );
}

#[test]
fn errors_name_line_column_and_what_was_expected() {
    assert_eq!(
        error("Type \"a\"\nSleep soon"),
        "t.tape:2:7: expected a time like 500ms, 2s or 1.5, found `soon`"
    );
    assert!(error("Enter 0").starts_with("t.tape:1:7: expected a repeat count"));
    assert!(error("\n  Jump").starts_with("t.tape:2:3: unknown command `Jump`"));
    assert!(error("Set Colour red").starts_with("t.tape:1:5: unknown setting `Colour`"));
    assert!(error("Type hello").starts_with("t.tape:1:6: expected the text to type in quotes"));
    assert!(error("Wait /(/").starts_with("t.tape:1:6: this regex does not compile"));
    assert_eq!(
        error("Hide now"),
        "t.tape:1:6: expected the end of the line or another command, found `now`"
    );
    assert!(error("Set WindowBar Square").contains("Colorful, ColorfulRight, Rings, RingsRight"));
}

#[test]
fn times() {
    assert_eq!(parse_time("500ms"), Some(0.5));
    assert_eq!(parse_time("2s"), Some(2.0));
    assert_eq!(parse_time("1.5"), Some(1.5));
    assert_eq!(parse_time("1m"), Some(60.0));
    assert_eq!(parse_time("-1"), None);
    assert_eq!(parse_time("x"), None);
}

#[test]
fn source_includes_another_tape_and_refuses_a_loop() {
    let dir = tempfile::tempdir().unwrap();
    let main = dir.path().join("main.tape");
    std::fs::write(dir.path().join("part.tape"), "Output x.gif\nType \"a\"\n").unwrap();
    std::fs::write(&main, "Source part.tape\nEnter\n").unwrap();
    let steps = parse_file(&main).unwrap();
    assert_eq!(steps.len(), 2);
    assert!(steps[0].file.ends_with("part.tape"));
    std::fs::write(dir.path().join("loop.tape"), "Source loop.tape\n").unwrap();
    let err = parse_file(&dir.path().join("loop.tape"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("sources itself"), "{err}");
}

fn key(spec: &str) -> Command {
    Command::Key {
        spec: spec.into(),
        speed: None,
        count: 1,
    }
}

fn typed(text: &str) -> Command {
    Command::Type {
        text: text.into(),
        speed: None,
    }
}

#[test]
fn several_commands_on_one_line() {
    // VHS reads commands one after another whatever the lines; people write demos so.
    assert_eq!(
        commands("Type \"make\" Sleep 500ms Enter\nBackspace 2 Enter Wait /ok/ Hide Show"),
        vec![
            typed("make"),
            Command::Sleep(0.5),
            key("Enter"),
            Command::Key {
                spec: "BSpace".into(),
                speed: None,
                count: 2
            },
            key("Enter"),
            Command::Wait {
                scope: WaitScope::Line,
                timeout: None,
                pattern: Some("ok".into())
            },
            Command::Hide,
            Command::Show,
        ]
    );
    let steps = parse_text(Path::new("t.tape"), "Sleep 1\n  Type \"a\" Ctrl+C").unwrap();
    assert_eq!(
        (steps[2].line, steps[2].col),
        (2, 12),
        "each keeps its own position"
    );
    assert_eq!(
        error("Type \"a\" \"b\""),
        "t.tape:1:10: expected the end of the line or another command, found the string \"b\""
    );
}

#[test]
fn modifiers_stack_in_any_order() {
    assert_eq!(
        commands("Ctrl+Shift+Alt+X\nAlt+Ctrl+x\nShift+a\nCtrl+Shift+Tab\nCtrl+Alt+Delete"),
        vec![
            key("C-M-X"),
            key("C-M-x"),
            key("A"),
            key("C-S-Tab"),
            key("C-M-Delete"),
        ]
    );
    // A modifier twice, or a character with nothing to send, is no key.
    assert!(error("Ctrl+Ctrl+C").starts_with("t.tape:1:1: unknown command `Ctrl+Ctrl+C`"));
    assert!(error("Ctrl+1").starts_with("t.tape:1:1: unknown command `Ctrl+1`"));
}

// Regression: `Alt++` (Alt and the `+` key, which `tape record` writes) was no key: the word
// split into an empty modifier.
#[test]
fn the_plus_key_takes_modifiers() {
    assert_eq!(commands("Alt++\nShift++"), vec![key("M-+"), key("+")]);
    assert!(error("Ctrl++").starts_with("t.tape:1:1: unknown command `Ctrl++`"));
}

#[test]
fn every_form_of_wait() {
    let wait = |scope, timeout, pattern: Option<&str>| Command::Wait {
        scope,
        timeout,
        pattern: pattern.map(str::to_owned),
    };
    assert_eq!(
        commands(
            "Wait\nWait+Screen /a/\nWait+Line /b/\nWait@5s /c/\nWait+Screen@1m /d/\nWait@500ms"
        ),
        vec![
            wait(WaitScope::Line, None, None),
            wait(WaitScope::Screen, None, Some("a")),
            wait(WaitScope::Line, None, Some("b")),
            wait(WaitScope::Line, Some(5.0), Some("c")),
            wait(WaitScope::Screen, Some(60.0), Some("d")),
            wait(WaitScope::Line, Some(0.5), None),
        ]
    );
    assert!(error("Wait+Cursor /a/").starts_with("t.tape:1:1: expected Wait, Wait+Line or"));
}

#[test]
fn a_subtitle_is_skipped_with_a_note() {
    let steps = commands("Type \"a\"\n  Subtitle \"Step one\" Enter");
    assert_eq!(steps[0], typed("a"));
    let Command::Unsupported(note) = &steps[1] else {
        panic!("{steps:?}");
    };
    assert!(
        note.starts_with("t.tape:2:3: Subtitle \"Step one\" is not drawn"),
        "{note}"
    );
    assert_eq!(steps[2], key("Enter"));
}

#[test]
fn every_setting_vhs_has_is_read() {
    let tape =
        "Set Shell bash\nSet FontFamily \"Fira Code\"\nSet FontSize 20\nSet LineHeight 1.2\n\
        Set LetterSpacing 1\nSet Width 800\nSet Height 400\nSet Padding 10\nSet Margin 5\n\
        Set MarginFill \"#112233\"\nSet BorderRadius 4\nSet WindowBar Rings\n\
        Set WindowBarSize 40\nSet Theme \"Nord\"\nSet TypingSpeed 0.1\nSet Framerate 24\n\
        Set PlaybackSpeed 2\nSet LoopOffset 50%\nSet CursorBlink true\nSet WaitTimeout 1m\n\
        Set WaitPattern /ready/";
    assert_eq!(commands(tape).len(), 21);
    let err = error("Set Colour red");
    assert!(
        err.contains("Shell, FontFamily") && err.contains("WaitPattern"),
        "{err}"
    );
}

/// Writes `levels` tapes, each sourcing the next `times` times, the last typing once.
fn multiplying_tapes(dir: &Path, levels: usize, times: usize) -> PathBuf {
    for level in 0..levels {
        let next = format!("Source level{}.tape\n", level + 1);
        std::fs::write(dir.join(format!("level{level}.tape")), next.repeat(times)).unwrap();
    }
    std::fs::write(dir.join(format!("level{levels}.tape")), "Type \"x\"\n").unwrap();
    dir.join("level0.tape")
}

#[test]
fn sources_that_multiply_are_refused_at_the_cap() {
    // Issue 37 item 10: 8 tapes sourcing the next ten times each expand to 10^8 steps from
    // 1.4 KB; the parse stops at the cap instead of reading and holding them all.
    let dir = tempfile::tempdir().unwrap();
    let top = multiplying_tapes(dir.path(), 8, 10);
    let err = parse_file(&top).unwrap_err().to_string();
    assert!(
        err.contains(&format!("more than {MAX_STEPS} commands (the cap)")),
        "{err}"
    );
    assert!(err.contains("level"), "names the tape it stopped in: {err}");
    // Below the cap the same shape is fine: 10^3 typed steps and the Source lines.
    let small = tempfile::tempdir().unwrap();
    let top = multiplying_tapes(small.path(), 3, 10);
    assert_eq!(parse_file(&top).unwrap().len(), 1000);
}

#[test]
fn every_test_tape_parses_and_plans() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/tapes");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "tape") {
            continue;
        }
        seen += 1;
        let parsed = parse_file(&path);
        if path.ends_with("syntax_error.tape") {
            assert!(parsed.is_err(), "{} must be refused", path.display());
            continue;
        }
        let steps = parsed.unwrap_or_else(|e| panic!("{e}"));
        super::super::plan::plan(steps).unwrap_or_else(|e| panic!("{e}"));
    }
    assert!(seen >= 13, "only {seen} tapes under {}", dir.display());
}

#[test]
fn the_vhs_shaped_tapes_read_as_written() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/tapes");
    let one_line = parse_file(&dir.join("vhs_one_line.tape")).unwrap();
    let line_of = |steps: &[Step], line: usize| -> Vec<Command> {
        (steps.iter().filter(|s| s.line == line))
            .map(|s| s.command.clone())
            .collect()
    };
    assert_eq!(
        line_of(&one_line, 7),
        vec![typed("echo building"), Command::Sleep(0.1), key("Enter")]
    );
    let keys = parse_file(&dir.join("vhs_keys.tape")).unwrap();
    assert_eq!(
        line_of(&keys, 12),
        vec![
            Command::Key {
                spec: "Left".into(),
                speed: Some(0.05),
                count: 6
            },
            Command::Key {
                spec: "BSpace".into(),
                speed: None,
                count: 3
            },
        ]
    );
    assert_eq!(line_of(&keys, 14), vec![key("C-M-X")]);
    let hidden = parse_file(&dir.join("vhs_hidden_setup.tape")).unwrap();
    let plan = super::super::plan::plan(hidden).unwrap();
    assert_eq!(plan.notes.len(), 1, "{:?}", plan.notes);
    assert!(plan.notes[0].contains("vhs_hidden_setup.tape:38:1: Subtitle"));
}
