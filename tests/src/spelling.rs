//! Rust's own spellings that must never reach a user: an `Option` printed with `{:?}`
//! (`Some(1)`, `None`) and a string's debug escapes (`\u{200d}`). Every server log of the
//! end-to-end suite is checked for them when its `TestServer` is dropped, and one test runs a
//! representative set of commands and checks what they print.

/// The lines of `text` that hold a Rust spelling, each with what it holds.
pub fn rust_spellings(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| spelling_in(line).map(|what| format!("{what} in: {line}")))
        .collect()
}

fn spelling_in(line: &str) -> Option<&'static str> {
    if line.contains("Some(") {
        return Some("`Some(`");
    }
    if line.contains("\\u{") {
        return Some("`\\u{`");
    }
    has_word(line, "None").then_some("`None`")
}

/// `word` in `line` with no letter, digit or `_` on either side.
fn has_word(line: &str, word: &str) -> bool {
    let part_of_word = |c: char| c.is_alphanumeric() || c == '_';
    line.match_indices(word).any(|(at, _)| {
        let before = line[..at].chars().next_back();
        let after = line[at + word.len()..].chars().next();
        !before.is_some_and(part_of_word) && !after.is_some_and(part_of_word)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_options_and_escapes_but_not_words_that_contain_them() {
        let found = rust_spellings(
            "pane @5 exited with None (signal Some(1))\nok line\n👨\\u{200d}👩\nNoneSuch Nonetheless",
        );
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(rust_spellings("a user's `None`").len() == 1);
        assert!(rust_spellings("killed by SIGHUP").is_empty());
    }
}
