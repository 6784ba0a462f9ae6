//! The readable form of a `ScreenState` (`phux snapshot` without `--json`): the rows in a
//! box-drawing frame whose top edge names the pane, its size and title and whose bottom edge
//! gives the cursor, with the history (when asked for) above a dotted rule.

use phux_core::documents::cell_width::display_width;
use phux_core::documents::ScreenState;
use phux_core::limits::for_display;

/// The framed screen, one string per output line.
pub fn boxed(screen: &ScreenState) -> Vec<String> {
    boxed_as(screen, &screen.pane.to_string())
}

/// The framed screen, its top edge naming the pane `name` (`devbox/@3` for a satellite pane).
pub fn boxed_as(screen: &ScreenState, name: &str) -> Vec<String> {
    // A cell may hold a bidirectional override: escaped like the title, before measuring.
    let scrollback: Vec<_> = screen.scrollback.iter().map(|r| for_display(r)).collect();
    let lines: Vec<_> = screen.lines.iter().map(|r| for_display(r)).collect();
    let widest = lines
        .iter()
        .chain(scrollback.iter())
        .map(|r| display_width(r))
        .max()
        .unwrap_or(0);
    let inner = widest.max(usize::from(screen.cols));
    let mut out = Vec::with_capacity(lines.len() + scrollback.len() + 3);
    out.push(edge('┌', '┐', &header(screen, name), inner));
    for row in &scrollback {
        out.push(framed(row, inner));
    }
    if !scrollback.is_empty() {
        out.push(format!("├{}┤", "┄".repeat(inner)));
    }
    for row in &lines {
        out.push(framed(row, inner));
    }
    out.push(edge('└', '┘', &footer(screen), inner));
    out
}

/// The top edge's text. The title is the pane's to set: escaped, so a U+202E, U+009B or
/// U+0085 in it neither reorders nor ends the line the reader sees.
fn header(screen: &ScreenState, name: &str) -> String {
    let mut text = format!(" {} {}x{} ", for_display(name), screen.cols, screen.rows);
    // Joined soft wraps (`--unwrap`) run wider than the grid: the frame grows, and says why.
    let widest = (screen.lines.iter().chain(&screen.scrollback))
        .map(|r| display_width(r))
        .max()
        .unwrap_or(0);
    if widest > usize::from(screen.cols) {
        text.push_str(&format!("(unwrapped: {widest} wide) "));
    }
    if let Some(title) = screen.title.as_deref().filter(|t| !t.is_empty()) {
        text.push_str(&format!("─ {} ", for_display(title)));
    }
    text
}

fn footer(screen: &ScreenState) -> String {
    let mut parts = Vec::new();
    match screen.cursor {
        Some(c) if c.visible => parts.push(format!("cursor {},{}", c.x, c.y)),
        Some(c) => parts.push(format!("cursor {},{} hidden", c.x, c.y)),
        None => {}
    }
    if !screen.scrollback.is_empty() {
        parts.push(format!("{} history rows", screen.scrollback.len()));
    }
    if screen.truncated {
        parts.push("truncated".to_owned());
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(" {} ", parts.join(" · "))
    }
}

/// A top or bottom edge with `label` after the corner, cut to fit.
fn edge(left: char, right: char, label: &str, inner: usize) -> String {
    let label: String = if display_width(label) + 1 > inner {
        label.chars().take(inner.saturating_sub(1)).collect()
    } else {
        label.to_owned()
    };
    let (lead, used) = if label.is_empty() {
        ("", 0)
    } else {
        ("─", 1 + display_width(&label))
    };
    format!(
        "{left}{lead}{label}{}{right}",
        "─".repeat(inner.saturating_sub(used))
    )
}

fn framed(row: &str, inner: usize) -> String {
    format!(
        "│{row}{}│",
        " ".repeat(inner.saturating_sub(display_width(row)))
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use phux_core::documents::Cursor;
    use phux_core::ids::PaneId;

    /// Titles with U+202E, U+009B and U+0085 reached the terminal of whoever ran `snapshot`.
    #[test]
    fn the_header_escapes_controls_and_bidi_overrides_in_the_title() {
        let mut screen = ScreenState::new(PaneId(1), 120, 1, vec![String::new()]);
        screen.title = Some("ab\u{202E}cd\u{9b}2J\u{85}x\x1b]52;c;AA==\x07".into());
        let top = &boxed(&screen)[0];
        assert!(
            top.contains("<U+202E>") && top.contains("<U+009B>"),
            "{top}"
        );
        assert!(top.contains("<U+0085>") && top.contains("\\e]52"), "{top}");
        assert!(
            !top.chars().any(|c| c.is_control() || c == '\u{202E}'),
            "{top}"
        );
    }

    #[test]
    fn the_frame_names_pane_size_title_and_cursor() {
        let mut screen = ScreenState::new(PaneId(3), 20, 2, vec!["hello".into(), String::new()]);
        screen.title = Some("sh".into());
        screen.cursor = Some(Cursor {
            x: 5,
            y: 0,
            visible: true,
        });
        assert_eq!(
            boxed(&screen),
            vec![
                format!("┌─ @3 20x2 ─ sh {}┐", "─".repeat(5)),
                format!("│hello{}│", " ".repeat(15)),
                format!("│{}│", " ".repeat(20)),
                format!("└─ cursor 5,0 {}┘", "─".repeat(7)),
            ]
        );
    }

    #[test]
    fn a_label_wider_than_the_pane_is_cut() {
        let screen = ScreenState::new(PaneId(12), 4, 1, vec!["ab".into()]);
        let view = boxed(&screen);
        assert!(view.iter().all(|l| display_width(l) == 6), "{view:?}");
    }

    /// `snapshot --unwrap` joins soft wraps into lines wider than the grid: the header still
    /// names the grid, and says the frame is wider because the lines were joined.
    #[test]
    fn an_unwrapped_screen_says_why_it_is_wider_than_its_grid() {
        let screen = ScreenState::new(PaneId(2), 10, 1, vec!["x".repeat(40)]);
        let top = &boxed(&screen)[0];
        assert!(top.contains("@2 10x1 (unwrapped: 40 wide)"), "{top}");
    }
}
