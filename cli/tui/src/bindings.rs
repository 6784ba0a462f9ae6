//! The bindings in effect: the prefix and the table of `keymap`, with the config file's
//! `[keybindings]` laid over them (`prefix = "C-b"`, `"|" = "split-right"`). A chord or action
//! the client does not know is warned about once, before the screen is taken, and ignored.

use phux_core::config::keybindings::Keybindings;

use super::input::Key;
use super::keymap::{self, Action, Direction};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bindings {
    /// The prefix key's byte.
    pub prefix: u8,
    /// How help writes the prefix (`C-a`).
    pub prefix_name: String,
    overrides: Vec<(Key, Action)>,
}

impl Default for Bindings {
    fn default() -> Self {
        Bindings {
            prefix: super::input::PREFIX,
            prefix_name: "C-a".into(),
            overrides: Vec::new(),
        }
    }
}

impl Bindings {
    /// The defaults with `config` over them, and a warning for each entry not understood.
    pub fn from_config(config: &Keybindings) -> (Bindings, Vec<String>) {
        let mut bindings = Bindings::default();
        let mut warnings = Vec::new();
        if let Some(prefix) = &config.prefix {
            match parse_ctrl(prefix) {
                Some(byte) => {
                    bindings.prefix = byte;
                    bindings.prefix_name = prefix.clone();
                }
                None => warnings.push(format!(
                    "[keybindings] prefix {prefix:?} is not a control chord such as \"C-b\" (keeping C-a)"
                )),
            }
        }
        for (chord, action) in &config.chords {
            match (parse_key(chord), action_named(action)) {
                (Some(key), Some(action)) => bindings.overrides.push((key, action)),
                (None, _) => warnings.push(format!(
                    "[keybindings] {chord:?} is not a key (a character, C-x, M-Up, Left, Enter, ...): ignored"
                )),
                (_, None) => warnings.push(format!(
                    "[keybindings] {chord:?} = {action:?}: no such action (ignored); actions: {}",
                    ACTION_NAMES.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
                )),
            }
        }
        (bindings, warnings)
    }

    /// The action `key` runs after the prefix: an override, else the prefix itself (sent on),
    /// else the default table.
    pub fn lookup(&self, key: Key) -> Option<Action> {
        if let Some((_, action)) = self.overrides.iter().find(|(k, _)| *k == key) {
            return Some(*action);
        }
        if key == Key::Ctrl(char::from(b'a' + self.prefix - 1)) {
            return Some(Action::SendPrefix);
        }
        keymap::lookup(key).filter(|a| *a != Action::SendPrefix)
    }
}

/// `C-x` (or `^x`) → its control byte.
fn parse_ctrl(text: &str) -> Option<u8> {
    let letter = text.strip_prefix("C-").or_else(|| text.strip_prefix('^'))?;
    let mut chars = letter.chars();
    let c = chars.next()?.to_ascii_lowercase();
    (chars.next().is_none() && c.is_ascii_lowercase()).then(|| c as u8 - b'a' + 1)
}

fn parse_key(text: &str) -> Option<Key> {
    if let Some(byte) = parse_ctrl(text) {
        return Some(Key::Ctrl(char::from(b'a' + byte - 1)));
    }
    let named = match text {
        "Enter" => Key::Enter,
        "Tab" => Key::Tab,
        "BSpace" | "Backspace" => Key::Backspace,
        "Escape" | "Esc" => Key::Esc,
        "Up" => Key::Up,
        "Down" => Key::Down,
        "Left" => Key::Left,
        "Right" => Key::Right,
        "M-Up" => Key::AltUp,
        "M-Down" => Key::AltDown,
        "M-Left" => Key::AltLeft,
        "M-Right" => Key::AltRight,
        "PageUp" | "PPage" => Key::PageUp,
        "PageDown" | "NPage" => Key::PageDown,
        "Home" => Key::Home,
        "End" => Key::End,
        _ => {
            let mut chars = text.chars();
            let c = chars.next()?;
            return chars.next().is_none().then_some(Key::Char(c));
        }
    };
    Some(named)
}

/// Every action a chord may name.
const ACTION_NAMES: &[(&str, Action)] = &[
    ("split-down", Action::SplitDown),
    ("split-right", Action::SplitRight),
    ("kill-pane", Action::KillPane),
    ("kill-window", Action::KillWindow),
    ("focus-left", Action::Focus(Direction::Left)),
    ("focus-down", Action::Focus(Direction::Down)),
    ("focus-up", Action::Focus(Direction::Up)),
    ("focus-right", Action::Focus(Direction::Right)),
    ("next-pane", Action::NextPane),
    ("previous-pane", Action::PreviousPane),
    ("last-pane", Action::LastPane),
    ("resize-left", Action::Resize(Direction::Left)),
    ("resize-down", Action::Resize(Direction::Down)),
    ("resize-up", Action::Resize(Direction::Up)),
    ("resize-right", Action::Resize(Direction::Right)),
    ("zoom", Action::Zoom),
    ("copy-mode", Action::CopyMode),
    ("paste", Action::Paste),
    ("new-window", Action::NewWindow),
    ("next-window", Action::NextWindow),
    ("previous-window", Action::PreviousWindow),
    ("rename-window", Action::RenameWindow),
    ("rename-session", Action::RenameSession),
    ("command-prompt", Action::CommandPrompt),
    ("help", Action::Help),
    ("detach", Action::Detach),
    ("send-prefix", Action::SendPrefix),
];

fn action_named(name: &str) -> Option<Action> {
    if let Some(n) = name.strip_prefix("select-window-") {
        return n.parse().ok().map(Action::SelectWindow);
    }
    ACTION_NAMES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, a)| *a)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(prefix: Option<&str>, chords: &[(&str, &str)]) -> (Bindings, Vec<String>) {
        Bindings::from_config(&Keybindings {
            prefix: prefix.map(str::to_string),
            chords: chords
                .iter()
                .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
                .collect(),
        })
    }

    #[test]
    fn the_config_lays_over_the_defaults() {
        let (b, warnings) = with(
            Some("C-b"),
            &[("|", "split-right"), ("-", "split-down"), ("M-Up", "zoom")],
        );
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(b.prefix, 0x02);
        assert_eq!(b.lookup(Key::Char('|')), Some(Action::SplitRight));
        assert_eq!(b.lookup(Key::AltUp), Some(Action::Zoom));
        assert_eq!(
            b.lookup(Key::Char('%')),
            Some(Action::SplitRight),
            "defaults stay"
        );
        assert_eq!(b.lookup(Key::Ctrl('b')), Some(Action::SendPrefix));
        assert_eq!(
            b.lookup(Key::Ctrl('a')),
            None,
            "C-a is no longer the prefix"
        );
    }

    #[test]
    fn what_is_not_understood_is_warned_and_ignored() {
        let (b, warnings) = with(Some("b"), &[("xy", "zoom"), ("z", "explode")]);
        assert_eq!(b.prefix, 0x01);
        assert_eq!(warnings.len(), 3, "{warnings:?}");
        assert_eq!(b.lookup(Key::Char('z')), Some(Action::Zoom));
    }
}
