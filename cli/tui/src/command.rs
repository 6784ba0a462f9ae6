//! The command prompt (`C-a :`): a phux verb run as its own process against this session, in
//! the background; its first line of output (or error) shows in the status line.

use std::process::{Command, Stdio};

use crate::app::App;
use crate::event::Event;

/// Verbs whose TARGET is a pane: when none is given, the focused pane is.
const PANE_VERBS: &[&str] = &[
    "snapshot",
    "rec",
    "resize",
    "signal",
    "tag",
    "kill",
    "wait",
    "run",
    "watch",
    "send-keys",
    "paste",
    "spawn",
    "ask",
];

/// The argv `text` stands for, with the focused pane (or this session) added as the target
/// when the verb takes one and none is given.
pub fn argv(text: &str, focused: Option<String>, session: &str) -> Vec<String> {
    let mut words = split_words(text);
    if let Some(verb) = words.first().map(String::as_str) {
        let has_target =
            words.iter().skip(1).any(|w| !w.starts_with('-')) && !matches!(verb, "rec" | "spawn");
        if verb == "detach" && words.len() == 1 {
            words.push(session.to_string());
        } else if PANE_VERBS.contains(&verb) && !has_target {
            if let Some(pane) = focused {
                if verb == "spawn" {
                    words.push("--target".into());
                }
                words.push(pane);
            }
        }
    }
    words
}

/// Words as a shell splits them: whitespace separates, '…' and "…" quote, \ escapes.
pub fn split_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"'), '\\') | (None, '\\') => {
                if let Some(next) = chars.next() {
                    word.get_or_insert_with(String::new).push(next);
                }
            }
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    words
}

pub fn run_in_background(app: &mut App, text: &str) {
    let words = argv(
        text,
        app.model.focused().map(|p| p.to_string()),
        &app.model.session_name(),
    );
    if words.is_empty() {
        return;
    }
    let exe = std::env::current_exe().unwrap_or_else(|_| "phux".into());
    let socket = app.control.socket().to_path_buf();
    let events = app.events.clone();
    app.model.say(format!("running: phux {}", words.join(" ")));
    std::thread::spawn(move || {
        let output = Command::new(exe)
            .args(&words)
            .env("PHUX_SOCKET", socket)
            .stdin(Stdio::null())
            .output();
        let message = match output {
            Ok(out) => outcome(
                &words[0],
                out.status.success(),
                &String::from_utf8_lossy(&out.stdout),
                &String::from_utf8_lossy(&out.stderr),
            ),
            Err(e) => format!("cannot run phux: {e}"),
        };
        let _ = events.send(Event::CommandDone(message));
    });
}

/// The status line's account of a verb that ran: its document's first line; else (a verb
/// such as `rec`, which says what it wrote on stderr) its last line on stderr; else `done`.
/// A failure shows its error line.
fn outcome(verb: &str, success: bool, stdout: &str, stderr: &str) -> String {
    let lines = |text: &str| -> Vec<String> {
        text.lines()
            .map(|l| l.trim().trim_start_matches("phux: ").to_string())
            .filter(|l| !l.is_empty())
            .collect()
    };
    let (out, err) = (lines(stdout), lines(stderr));
    let said = if success {
        out.first().or(err.last()).cloned()
    } else {
        err.first().or(out.first()).cloned()
    };
    let said = said.unwrap_or_else(|| if success { "done" } else { "failed" }.into());
    format!("{verb}: {said}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `:rec -o demo.gif` left an empty `rec:` message: rec says what it wrote on stderr.
    #[test]
    fn a_verb_that_prints_nothing_on_stdout_says_what_it_did() {
        let wrote = "phux: wrote demo.cast (381 bytes, 1 event, plays 0.0 s, 80x24)\n";
        assert_eq!(
            outcome("rec", true, "", wrote),
            "rec: wrote demo.cast (381 bytes, 1 event, plays 0.0 s, 80x24)"
        );
        assert_eq!(
            outcome("ls", true, "work: 1 window\n", ""),
            "ls: work: 1 window"
        );
        assert_eq!(outcome("send-keys", true, "", ""), "send-keys: done");
        assert_eq!(
            outcome("kill", false, "", "phux: no pane @9\n  remedy\n"),
            "kill: no pane @9"
        );
    }

    #[test]
    fn the_focused_pane_is_the_target_when_none_is_given() {
        let focused = Some("@3".to_string());
        assert_eq!(
            argv("rec -o d.gif", focused.clone(), "s"),
            ["rec", "-o", "d.gif", "@3"]
        );
        assert_eq!(
            argv("snapshot @1", focused.clone(), "s"),
            ["snapshot", "@1"]
        );
        assert_eq!(argv("detach", focused.clone(), "work"), ["detach", "work"]);
        assert_eq!(argv("ls", focused, "s"), ["ls"]);
        assert_eq!(
            split_words(r#"send-keys @1 'echo a b' "x\"y" z\ w"#),
            ["send-keys", "@1", "echo a b", "x\"y", "z w"]
        );
    }
}
