//! A one-line prompt in the status line: the command prompt (`:`), renaming a window or the
//! session, and the yes/no question before killing.

use phux_core::engine::{CellColor, CellStyle};
use phux_core::ids::{PaneId, WindowId};

use crate::cursor_shape::CursorShape;
use crate::grid::{Grid, GridCursor};
use crate::input::Key;

/// What the answer is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PromptPurpose {
    Command,
    RenameWindow(WindowId),
    RenameSession,
    KillPane(PaneId),
    KillWindow(WindowId),
}

pub struct Prompt {
    pub purpose: PromptPurpose,
    pub label: String,
    pub text: String,
}

pub enum PromptOutcome {
    Editing,
    Cancelled,
    Submitted(String),
}

impl Prompt {
    pub fn new(purpose: PromptPurpose, label: impl Into<String>, text: impl Into<String>) -> Self {
        Prompt {
            purpose,
            label: label.into(),
            text: text.into(),
        }
    }

    fn is_question(&self) -> bool {
        matches!(
            self.purpose,
            PromptPurpose::KillPane(_) | PromptPurpose::KillWindow(_)
        )
    }

    pub fn key(&mut self, key: Key) -> PromptOutcome {
        if self.is_question() {
            return match key {
                Key::Char('y' | 'Y') => PromptOutcome::Submitted("y".into()),
                _ => PromptOutcome::Cancelled,
            };
        }
        match key {
            Key::Esc | Key::Ctrl('c') => PromptOutcome::Cancelled,
            Key::Enter => PromptOutcome::Submitted(self.text.clone()),
            Key::Backspace => {
                self.text.pop();
                PromptOutcome::Editing
            }
            Key::Ctrl('u') => {
                self.text.clear();
                PromptOutcome::Editing
            }
            Key::Char(c) => {
                self.text.push(c);
                PromptOutcome::Editing
            }
            _ => PromptOutcome::Editing,
        }
    }

    pub fn draw(&self, grid: &mut Grid) {
        let y = grid.rows.saturating_sub(1);
        let style = CellStyle {
            fg: CellColor::Palette(0),
            bg: CellColor::Palette(3),
            ..CellStyle::default()
        };
        grid.fill(0, y, grid.cols, ' ', style);
        let line = format!("{}{}", self.label, self.text);
        let end = grid.put_str(0, y, &line, style, grid.cols);
        grid.cursor = Some(GridCursor {
            x: end.min(grid.cols.saturating_sub(1)),
            y,
            shape: CursorShape::Bar,
            blinking: false,
        });
    }
}
