//! The status line: `[session]`, the window list (`*` active, `-` last, `#` output since it
//! was last shown, `Z` after the active one while a pane is zoomed), and on the right the
//! prefix hint (`C-a ? help`) until the prefix is first typed, a
//! passing message or the focused pane's title, `●REC` while a pane of the window is recorded,
//! `ASK @N` while a pane asks, and the time.

use std::time::Duration;

use phux_core::engine::{CellColor, CellStyle};

use super::grid::Grid;
use super::model::Model;

/// How long a message stays in the status line.
pub const MESSAGE_TIME: Duration = Duration::from_secs(4);

fn bar() -> CellStyle {
    CellStyle {
        fg: CellColor::Palette(0),
        bg: CellColor::Palette(2),
        ..CellStyle::default()
    }
}

pub fn draw(grid: &mut Grid, model: &Model) {
    let y = grid.rows.saturating_sub(1);
    let cols = grid.cols;
    grid.fill(0, y, cols, ' ', bar());
    let left = left_text(model);
    grid.put_str(0, y, &left, bar(), cols);
    let right = right_text(model);
    let width = phux_core::documents::cell_width::display_width(&right) as u16;
    let x = cols.saturating_sub(width + 1).max(left_width(&left) + 1);
    grid.put_str(x, y, &right, bar(), cols);
}

fn left_width(text: &str) -> u16 {
    phux_core::documents::cell_width::display_width(text) as u16
}

pub fn left_text(model: &Model) -> String {
    let mut text = format!("[{}] ", model.session_name());
    for window in model.windows() {
        let mark = if Some(window.id) == model.window {
            "*"
        } else if Some(window.id) == model.last_window {
            "-"
        } else {
            ""
        };
        let zoom = if Some(window.id) == model.window && model.zoomed.is_some() {
            "Z"
        } else {
            ""
        };
        let activity = if model.activity.is_marked(window.id) {
            "#"
        } else {
            ""
        };
        text.push_str(&format!(
            "{}:{}{mark}{zoom}{activity} ",
            window.index, window.name
        ));
    }
    text
}

fn right_text(model: &Model) -> String {
    let mut parts: Vec<String> = model.prefix_hint.iter().cloned().collect();
    match &model.message {
        Some((message, at)) if at.elapsed() < MESSAGE_TIME => parts.push(message.clone()),
        _ => {
            if let Some(title) = model
                .focused()
                .and_then(|p| model.pane_view(p))
                .map(|v| v.title.clone().unwrap_or_else(|| v.id.to_string()))
            {
                parts.push(format!("\"{title}\""));
            }
        }
    }
    let recorded = model
        .active_window()
        .is_some_and(|w| w.panes.iter().any(|p| p.recording));
    if recorded {
        parts.push("●REC".into());
    }
    if let Some(lease) = model
        .focused()
        .and_then(|p| model.pane_view(p))
        .and_then(|v| v.lease.as_ref())
    {
        parts.push(format!(
            "taken by {}",
            phux_core::limits::for_display(&lease.holder)
        ));
    }
    if let Some(mark) = asking_mark(model) {
        parts.push(mark);
    }
    parts.push(clock());
    parts.join(" ")
}

/// `ASK @5 @7` while panes (of any session) ask a question nobody answered; `C-a q` goes
/// there.
fn asking_mark(model: &Model) -> Option<String> {
    let mut panes: Vec<String> = model
        .state
        .asks
        .iter()
        .map(|a| a.pane.to_string())
        .collect();
    panes.dedup();
    (!panes.is_empty()).then(|| format!("ASK {}", panes.join(" ")))
}

/// The time of day as HH:MM (UTC: reading the local zone needs libc calls the client does not
/// make).
fn clock() -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let minutes = now / 60;
    format!("{:02}:{:02}", (minutes / 60) % 24, minutes % 60)
}
