//! The window and session pickers (`C-a w`, `C-a s`): a list filtered by what is typed, the
//! selected entry's screen previewed under it; Enter switches to it, Esc closes.

use phux_core::engine::{CellColor, CellData, CellStyle};
use phux_core::ids::{PaneId, SessionId, WindowId};
use phux_core::pane_layout::{place, LayoutNode, Rect};

use crate::grid::Grid;
use crate::input::Key;

/// Where choosing an entry takes the client.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PickTarget {
    Window {
        session: SessionId,
        window: WindowId,
    },
    Session(SessionId),
}

pub struct PickerItem {
    pub label: String,
    pub target: PickTarget,
    /// The window the preview shows, as its split tree, and its focused pane.
    pub preview: Option<(LayoutNode, Option<PaneId>)>,
}

pub struct Picker {
    pub title: &'static str,
    items: Vec<PickerItem>,
    pub filter: String,
    /// The selected entry, as an index into `items`.
    selected: Option<usize>,
    /// The screens of the previewed window's panes, as cells (their own colours and
    /// attributes), and which entry they are of.
    pub screens: Vec<(PaneId, Vec<Vec<CellData>>)>,
    pub previewed: Option<usize>,
}

pub enum PickerOutcome {
    Stay,
    Closed,
    Chosen(PickTarget),
}

impl Picker {
    /// A picker over `items`, with the entry for `current` selected.
    pub fn new(title: &'static str, items: Vec<PickerItem>, current: Option<PickTarget>) -> Self {
        let selected = items
            .iter()
            .position(|i| Some(i.target) == current)
            .or((!items.is_empty()).then_some(0));
        Picker {
            title,
            items,
            filter: String::new(),
            selected,
            screens: Vec::new(),
            previewed: None,
        }
    }

    /// The indices of the entries the filter keeps.
    fn shown(&self) -> Vec<usize> {
        let filter = self.filter.to_lowercase();
        (0..self.items.len())
            .filter(|&i| self.items[i].label.to_lowercase().contains(&filter))
            .collect()
    }

    /// The entry the preview should show now.
    pub fn wanted_preview(&self) -> Option<usize> {
        self.selected
    }

    /// The panes whose screens the preview of `entry` needs.
    pub fn preview_panes(&self, entry: usize) -> Vec<PaneId> {
        self.items
            .get(entry)
            .and_then(|i| i.preview.as_ref())
            .map_or_else(Vec::new, |(layout, _)| layout.panes())
    }

    pub fn key(&mut self, key: Key) -> PickerOutcome {
        match key {
            Key::Esc | Key::Ctrl('c') | Key::Ctrl('g') => return PickerOutcome::Closed,
            Key::Enter => {
                return match self.selected {
                    Some(i) => PickerOutcome::Chosen(self.items[i].target),
                    None => PickerOutcome::Stay,
                }
            }
            Key::Up | Key::Ctrl('p') => self.step(-1),
            Key::Down | Key::Ctrl('n') | Key::Tab => self.step(1),
            Key::Backspace => {
                self.filter.pop();
                self.keep_selection_shown();
            }
            Key::Char(c) => {
                self.filter.push(c);
                self.keep_selection_shown();
            }
            _ => {}
        }
        PickerOutcome::Stay
    }

    fn step(&mut self, by: isize) {
        let shown = self.shown();
        if shown.is_empty() {
            return;
        }
        let at = self
            .selected
            .and_then(|s| shown.iter().position(|&i| i == s))
            .unwrap_or(0);
        let next = (at as isize + by).rem_euclid(shown.len() as isize) as usize;
        self.selected = Some(shown[next]);
    }

    /// After the filter changed: the selection stays when still listed, else the first entry.
    fn keep_selection_shown(&mut self) {
        let shown = self.shown();
        if !self.selected.is_some_and(|s| shown.contains(&s)) {
            self.selected = shown.first().copied();
        }
    }

    /// Draws over the window area (every row but the status line): the list on top, the
    /// preview below.
    pub fn draw(&self, grid: &mut Grid) {
        let rows = grid.rows.saturating_sub(1);
        let cols = grid.cols;
        if rows < 3 {
            return;
        }
        let list_style = CellStyle {
            fg: CellColor::Default,
            bg: CellColor::Palette(0),
            ..CellStyle::default()
        };
        let header_style = CellStyle {
            bold: true,
            ..list_style
        };
        let selected_style = CellStyle {
            fg: CellColor::Palette(0),
            bg: CellColor::Palette(3),
            bold: true,
            ..CellStyle::default()
        };
        let rule_style = CellStyle {
            fg: CellColor::Palette(2),
            ..CellStyle::default()
        };
        let shown = self.shown();
        let list_rows = (shown.len().max(1) as u16).min((rows - 2) / 2).max(1);
        let at = self
            .selected
            .and_then(|s| shown.iter().position(|&i| i == s))
            .unwrap_or(0);
        let first = (at + 1).saturating_sub(usize::from(list_rows));
        for y in 0..=list_rows {
            grid.fill(0, y, cols, ' ', list_style);
        }
        let header = format!(
            " {} ({} of {}; ↑↓ move, Enter switch, Esc close) filter: {}",
            self.title,
            shown.len(),
            self.items.len(),
            self.filter
        );
        grid.put_str(0, 0, &header, header_style, cols);
        if shown.is_empty() {
            grid.put_str(2, 1, "(nothing matches the filter)", list_style, cols);
        }
        for (row, &index) in shown
            .iter()
            .skip(first)
            .take(usize::from(list_rows))
            .enumerate()
        {
            let y = row as u16 + 1;
            let style = if Some(index) == self.selected {
                grid.fill(0, y, cols, ' ', selected_style);
                selected_style
            } else {
                list_style
            };
            let marker = if Some(index) == self.selected {
                "> "
            } else {
                "  "
            };
            grid.put_str(
                0,
                y,
                &format!("{marker}{}", self.items[index].label),
                style,
                cols,
            );
        }
        let rule_y = list_rows + 1;
        let caption = match self.selected.filter(|s| shown.contains(s)) {
            Some(i) => format!("── preview: {} ", self.items[i].label),
            None => "── preview ".to_string(),
        };
        grid.fill(0, rule_y, cols, '─', rule_style);
        grid.put_str(0, rule_y, &caption, rule_style, cols);
        let preview_top = rule_y + 1;
        for y in preview_top..rows {
            grid.fill(0, y, cols, ' ', CellStyle::default());
        }
        let area = Rect::new(0, preview_top, cols, rows - preview_top);
        if let Some(entry) = self.selected.filter(|s| shown.contains(s)) {
            self.draw_preview(grid, entry, area);
        }
        grid.cursor = None;
    }

    /// The entry's window as the client would show it, in `area`: each pane's title row, its
    /// cells in their own colours, and the dividers.
    fn draw_preview(&self, grid: &mut Grid, entry: usize, area: Rect) {
        let Some((layout, focused)) = self.items[entry].preview.as_ref() else {
            return;
        };
        let plain = CellStyle::default();
        let dim = CellStyle {
            fg: CellColor::Palette(8),
            ..plain
        };
        let accent = CellStyle {
            fg: CellColor::Palette(2),
            ..plain
        };
        let placement = place(layout, area);
        for placed in &placement.panes {
            let line = if Some(placed.pane) == *focused {
                accent
            } else {
                dim
            };
            let (a, c) = (placed.area, placed.content);
            grid.fill(a.x, a.y, a.cols, '─', line);
            grid.put_str(
                a.x + 1,
                a.y,
                &format!(" {} ", placed.pane),
                line,
                a.x + a.cols,
            );
            if let Some((_, rows)) = self.screens.iter().find(|(p, _)| *p == placed.pane) {
                crate::compose::put_cells(grid, c, rows);
            }
        }
        for divider in &placement.dividers {
            for y in divider.y..divider.y + divider.rows {
                grid.fill(divider.x, y, 1, '│', dim);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items() -> Vec<PickerItem> {
        ["work", "play", "notes"]
            .iter()
            .enumerate()
            .map(|(n, name)| PickerItem {
                label: name.to_string(),
                target: PickTarget::Session(SessionId(n as u32 + 1)),
                preview: Some((
                    LayoutNode::Pane {
                        pane: PaneId(n as u32 + 1),
                    },
                    None,
                )),
            })
            .collect()
    }

    #[test]
    fn typing_filters_and_enter_chooses_the_selected_entry() {
        let mut picker = Picker::new("sessions", items(), Some(PickTarget::Session(SessionId(1))));
        assert_eq!(picker.wanted_preview(), Some(0));
        for c in "ot".chars() {
            picker.key(Key::Char(c));
        }
        assert_eq!(picker.wanted_preview(), Some(2));
        assert_eq!(picker.preview_panes(2), vec![PaneId(3)]);
        assert!(matches!(
            picker.key(Key::Enter),
            PickerOutcome::Chosen(PickTarget::Session(SessionId(3)))
        ));
    }

    #[test]
    fn arrows_wrap_around_the_shown_entries_and_esc_closes() {
        let mut picker = Picker::new("sessions", items(), None);
        picker.key(Key::Up);
        assert_eq!(picker.wanted_preview(), Some(2));
        picker.key(Key::Down);
        assert_eq!(picker.wanted_preview(), Some(0));
        assert!(matches!(picker.key(Key::Esc), PickerOutcome::Closed));
    }

    #[test]
    fn a_filter_matching_nothing_chooses_nothing() {
        let mut picker = Picker::new("sessions", items(), None);
        picker.key(Key::Char('z'));
        assert!(matches!(picker.key(Key::Enter), PickerOutcome::Stay));
    }
}
