//! The prefix bindings: one table of named actions, which the help overlay lists and tests
//! enumerate. What each action does is in `actions`.

use super::input::Key;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Left,
    Down,
    Up,
    Right,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    SplitDown,
    SplitRight,
    KillPane,
    KillWindow,
    Focus(Direction),
    NextPane,
    PreviousPane,
    LastPane,
    Resize(Direction),
    Zoom,
    CopyMode,
    Paste,
    NewWindow,
    NextWindow,
    PreviousWindow,
    SelectWindow(u32),
    RenameWindow,
    RenameSession,
    CommandPrompt,
    Help,
    Detach,
    SendPrefix,
    WindowPicker,
    SessionPicker,
    NewSession,
    NextAsking,
    TakeOrGive,
}

pub struct Binding {
    pub keys: &'static [Key],
    /// How the help overlay writes the chord after `C-a`.
    pub chord: &'static str,
    pub action: Action,
    pub help: &'static str,
}

use Action as A;
use Direction as D;
use Key as K;

/// Every binding after the prefix.
#[rustfmt::skip]
pub const BINDINGS: &[Binding] = &[
    Binding { keys: &[K::Char('"')], chord: "\"", action: A::SplitDown, help: "split: new pane below" },
    Binding { keys: &[K::Char('%')], chord: "%", action: A::SplitRight, help: "split: new pane to the right" },
    Binding { keys: &[K::Char('x')], chord: "x", action: A::KillPane, help: "kill the pane (asks first)" },
    Binding { keys: &[K::Char('X')], chord: "X", action: A::KillWindow, help: "kill the window (asks first)" },
    Binding { keys: &[K::Left, K::Char('h')], chord: "← h", action: A::Focus(D::Left), help: "focus the pane to the left" },
    Binding { keys: &[K::Down, K::Char('j')], chord: "↓ j", action: A::Focus(D::Down), help: "focus the pane below" },
    Binding { keys: &[K::Up, K::Char('k')], chord: "↑ k", action: A::Focus(D::Up), help: "focus the pane above" },
    Binding { keys: &[K::Right, K::Char('l')], chord: "→ l", action: A::Focus(D::Right), help: "focus the pane to the right" },
    Binding { keys: &[K::Char('o')], chord: "o", action: A::NextPane, help: "next pane" },
    Binding { keys: &[K::Char(';')], chord: ";", action: A::PreviousPane, help: "previous pane" },
    Binding { keys: &[K::Char('=')], chord: "=", action: A::LastPane, help: "last pane (toggle back)" },
    Binding { keys: &[K::AltLeft, K::Char('H')], chord: "M-← H", action: A::Resize(D::Left), help: "move the divider left by 5 cells" },
    Binding { keys: &[K::AltDown, K::Char('J')], chord: "M-↓ J", action: A::Resize(D::Down), help: "move the divider down by 5 cells" },
    Binding { keys: &[K::AltUp, K::Char('K')], chord: "M-↑ K", action: A::Resize(D::Up), help: "move the divider up by 5 cells" },
    Binding { keys: &[K::AltRight, K::Char('L')], chord: "M-→ L", action: A::Resize(D::Right), help: "move the divider right by 5 cells" },
    Binding { keys: &[K::Char('z')], chord: "z", action: A::Zoom, help: "zoom the pane to the whole window (toggle)" },
    Binding { keys: &[K::Char('[')], chord: "[", action: A::CopyMode, help: "copy mode: vi keys, / ? search, v select, y copy, q quit" },
    Binding { keys: &[K::Char(']')], chord: "]", action: A::Paste, help: "paste the copy buffer" },
    Binding { keys: &[K::Char('c')], chord: "c", action: A::NewWindow, help: "new window" },
    Binding { keys: &[K::Char('C')], chord: "C", action: A::NewSession, help: "new session" },
    Binding { keys: &[K::Char('n')], chord: "n", action: A::NextWindow, help: "next window" },
    Binding { keys: &[K::Char('p')], chord: "p", action: A::PreviousWindow, help: "previous window" },
    Binding { keys: &[K::Char('0')], chord: "0", action: A::SelectWindow(0), help: "window 0" },
    Binding { keys: &[K::Char('1')], chord: "1", action: A::SelectWindow(1), help: "window 1" },
    Binding { keys: &[K::Char('2')], chord: "2", action: A::SelectWindow(2), help: "window 2" },
    Binding { keys: &[K::Char('3')], chord: "3", action: A::SelectWindow(3), help: "window 3" },
    Binding { keys: &[K::Char('4')], chord: "4", action: A::SelectWindow(4), help: "window 4" },
    Binding { keys: &[K::Char('5')], chord: "5", action: A::SelectWindow(5), help: "window 5" },
    Binding { keys: &[K::Char('6')], chord: "6", action: A::SelectWindow(6), help: "window 6" },
    Binding { keys: &[K::Char('7')], chord: "7", action: A::SelectWindow(7), help: "window 7" },
    Binding { keys: &[K::Char('8')], chord: "8", action: A::SelectWindow(8), help: "window 8" },
    Binding { keys: &[K::Char('9')], chord: "9", action: A::SelectWindow(9), help: "window 9" },
    Binding { keys: &[K::Char('w')], chord: "w", action: A::WindowPicker, help: "window picker: type to filter, Enter switch, Esc close" },
    Binding { keys: &[K::Char('s')], chord: "s", action: A::SessionPicker, help: "session picker: type to filter, Enter switch, Esc close" },
    Binding { keys: &[K::Char(',')], chord: ",", action: A::RenameWindow, help: "rename the window" },
    Binding { keys: &[K::Char('$')], chord: "$", action: A::RenameSession, help: "rename the session" },
    Binding { keys: &[K::Char('q')], chord: "q", action: A::NextAsking, help: "jump to the next pane that is asking (an ask or a blocked agent)" },
    Binding { keys: &[K::Char('T')], chord: "T", action: A::TakeOrGive, help: "take the pane's input (only your keys reach it) or give it back" },
    Binding { keys: &[K::Char(':')], chord: ":", action: A::CommandPrompt, help: "command prompt: a phux verb run against this session" },
    Binding { keys: &[K::Char('?')], chord: "?", action: A::Help, help: "this help (type to filter, q to close)" },
    Binding { keys: &[K::Char('d')], chord: "d", action: A::Detach, help: "detach" },
    Binding { keys: &[K::Ctrl('a')], chord: "C-a", action: A::SendPrefix, help: "send a literal C-a to the pane" },
];

/// The action bound to `key` after the prefix.
pub fn lookup(key: Key) -> Option<Action> {
    BINDINGS
        .iter()
        .find(|b| b.keys.contains(&key))
        .map(|b| b.action)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_key_is_bound_twice() {
        let mut seen = Vec::new();
        for binding in BINDINGS {
            for key in binding.keys {
                assert!(!seen.contains(key), "{key:?} is bound twice");
                seen.push(*key);
            }
        }
    }

    #[test]
    fn the_keys_of_the_spec_are_bound() {
        assert_eq!(lookup(Key::Char('%')), Some(Action::SplitRight));
        assert_eq!(lookup(Key::Char('d')), Some(Action::Detach));
        assert_eq!(lookup(Key::Ctrl('a')), Some(Action::SendPrefix));
        assert_eq!(lookup(Key::AltUp), Some(Action::Resize(Direction::Up)));
        assert_eq!(lookup(Key::Char('Q')), None);
    }
}
