//! `phux skill` (issue 38): the guide printed for AI agents is checked against the binary's own
//! help, so it cannot drift: every `phux VERB ...` it shows is a verb (or verb and sub-verb)
//! whose `--help` lists each flag used, and every error code it names is in the vocabulary.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use phux_tests::{phux, run, stdout};

/// Every backticked span of `text`.
fn spans(text: &str) -> Vec<String> {
    text.split('`')
        .enumerate()
        .filter(|(i, _)| i % 2 == 1)
        .map(|(_, s)| s.to_owned())
        .collect()
}

#[test]
fn the_guide_names_only_real_verbs_flags_and_codes() {
    let guide = run(&mut phux(&["skill"]));
    assert!(guide.status.success());
    let text = stdout(&guide);
    for name in ["quick", "terminal", "agent"] {
        let one = stdout(&run(&mut phux(&["skill", name])));
        assert!(text.contains(one.trim()), "full holds {name}");
    }
    let mut commands = 0;
    for span in spans(&text) {
        let words: Vec<&str> = span.split_whitespace().collect();
        if words.first() == Some(&"phux") && words.len() > 1 {
            commands += 1;
            let mut verb = vec![words[1]];
            let with_sub = ["agent", "config", "host", "plugin", "workspace", "engine"];
            if with_sub.contains(&words[1]) && words.len() > 2 && !words[2].starts_with('-') {
                verb.push(words[2]);
            }
            let mut args = verb.clone();
            args.push("--help");
            let help = run(&mut phux(&args));
            assert!(
                help.status.success(),
                "`{span}`: `phux {}` is no verb",
                verb.join(" ")
            );
            let help = stdout(&help);
            for flag in words.iter().filter(|w| w.starts_with("--")) {
                let flag = flag.split('=').next().unwrap();
                assert!(
                    help.contains(flag),
                    "`{span}`: `phux {}` has no {flag}",
                    verb.join(" ")
                );
            }
        } else if span.chars().all(|c| c.is_ascii_lowercase() || c == '_') && span.contains('_') {
            // Document keys the guide names; every other snake_case word is an error code.
            const KEYS: &[&str] = &["exit_code", "terminal_id"];
            assert!(
                KEYS.contains(&span.as_str())
                    || span.parse::<phux_core::error_code::ErrorCode>().is_ok(),
                "`{span}` is no error code (or add it to the document keys the guide names)"
            );
        }
    }
    assert!(commands >= 20, "the guide shows {commands} commands");
}
