//! Emoji sequences a program printed without grapheme clustering (mode 2027, which most
//! shells and programs never turn on). The engine then gives each part its own wide cell: a
//! flag's two regional-indicator letters, each person of a ZWJ sequence (the joiner kept with
//! the part before it), an emoji and its skin tone. A terminal that shapes text (Ghostty does)
//! still draws the font's one glyph for the whole sequence in the first part's place and
//! leaves the other parts' cells blank; the rasterizer does the same when the colour font has
//! that glyph (see `Rasterizer::draw_joined`).

use std::borrow::Cow;

use crate::screen::{CellWidth, RenderCell, RenderScreen};

/// The most parts one sequence is joined from (a family of four, each with a skin tone, is 8).
const MOST_PARTS: usize = 8;

const ZWJ: char = '\u{200D}';

/// The sequences the wide cells starting at (`x`, `y`) could be, longest first: each the
/// joined text and the columns its parts cover. Empty when the cell starts none (most cells:
/// the test is a couple of comparisons).
pub(crate) fn candidates(screen: &RenderScreen, x: u16, y: u16) -> Vec<(String, u16)> {
    let Some(first) = screen.cell(x, y).filter(|c| starts_sequence(screen, c)) else {
        return Vec::new();
    };
    let mut text = text_of(screen, first).into_owned();
    let mut last = text.clone();
    let mut found = Vec::new();
    let mut col = x.saturating_add(2);
    while found.len() + 1 < MOST_PARTS {
        let Some(next) = screen.cell(col, y).filter(|c| c.wide == CellWidth::Wide) else {
            break;
        };
        let next_text = text_of(screen, next);
        let flag = found.is_empty() && lone_letter(&text) && lone_letter(&next_text);
        if !(flag || joins(&last, &next_text)) {
            break;
        }
        text.push_str(&next_text);
        col = col.saturating_add(2);
        found.push((text.clone(), col - x));
        if flag {
            break;
        }
        last = next_text.into_owned();
    }
    found.reverse();
    found
}

/// Whether a sequence could start at `cell`: a wide cell holding an emoji. Two comparisons,
/// made for every cell of every frame before anything else is looked at.
#[inline]
pub(crate) fn may_start(cell: &RenderCell) -> bool {
    cell.wide == CellWidth::Wide && is_emoji(cell.text)
}

/// A wide cell holding an emoji that a following part could extend (not itself a skin tone).
fn starts_sequence(screen: &RenderScreen, cell: &RenderCell) -> bool {
    may_start(cell) && !text_of(screen, cell).chars().any(is_skin_tone)
}

/// Whether the part `next` continues the part `last`: after a joiner, or as its skin tone.
fn joins(last: &str, next: &str) -> bool {
    let Some(head) = next.chars().next() else {
        return false;
    };
    if last.ends_with(ZWJ) {
        return is_emoji(head) && !is_skin_tone(head);
    }
    is_skin_tone(head) && !last.chars().any(is_skin_tone)
}

/// Where emoji a sequence can hold are encoded: symbols and dingbats (☕, ✈), the
/// supplementary planes' pictographs. CJK and other wide text never starts or joins one.
fn is_emoji(c: char) -> bool {
    matches!(u32::from(c), 0x2600..=0x27BF | 0x1F000..=0x1FAFF)
}

/// One regional-indicator letter alone in its cell: half of a flag.
fn lone_letter(text: &str) -> bool {
    let mut chars = text.chars();
    matches!((chars.next(), chars.next()), (Some(c), None) if ('\u{1F1E6}'..='\u{1F1FF}').contains(&c))
}

fn is_skin_tone(c: char) -> bool {
    ('\u{1F3FB}'..='\u{1F3FF}').contains(&c)
}

/// The cell's whole grapheme.
fn text_of<'a>(screen: &'a RenderScreen, cell: &RenderCell) -> Cow<'a, str> {
    match screen.grapheme(cell) {
        Some(g) => Cow::Borrowed(g),
        None => Cow::Owned(cell.text.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::screen::RenderCell;

    /// A row as the engine leaves it without mode 2027: each part a wide cell and its spacer,
    /// joiners kept with the part before them.
    fn row(parts: &[&str]) -> RenderScreen {
        let mut screen = RenderScreen::blank(20, 1);
        let mut x = 0;
        for part in parts {
            let mut cell = RenderCell::with_text(part.chars().next().unwrap());
            cell.wide = CellWidth::Wide;
            if part.chars().nth(1).is_some() {
                screen.clusters.push((*part).to_owned());
                cell.cluster = u32::try_from(screen.clusters.len()).unwrap();
            }
            *screen.cell_mut(x, 0).unwrap() = cell;
            screen.cell_mut(x + 1, 0).unwrap().wide = CellWidth::SpacerTail;
            x += 2;
        }
        screen
    }

    #[test]
    fn a_flag_a_zwj_sequence_and_a_skin_tone_join_longest_first() {
        let flag = row(&["🇯", "🇵", "🇫", "🇷"]);
        assert_eq!(candidates(&flag, 0, 0), vec![("🇯🇵".to_owned(), 4)]);
        assert_eq!(candidates(&flag, 4, 0), vec![("🇫🇷".to_owned(), 4)]);

        let family = row(&["👨\u{200d}", "👩\u{200d}", "👧", "x"]);
        assert_eq!(
            candidates(&family, 0, 0),
            vec![
                ("👨\u{200d}👩\u{200d}👧".to_owned(), 6),
                ("👨\u{200d}👩\u{200d}".to_owned(), 4)
            ]
        );

        let tone = row(&["👍", "🏽", "🏽"]);
        assert_eq!(candidates(&tone, 0, 0), vec![("👍🏽".to_owned(), 4)]);
    }

    #[test]
    fn emoji_side_by_side_and_text_never_join() {
        assert!(candidates(&row(&["👍", "💻"]), 0, 0).is_empty());
        assert!(candidates(&row(&["中", "文"]), 0, 0).is_empty());
        assert!(candidates(&row(&["👩\u{200d}", "中"]), 0, 0).is_empty());
        assert!(candidates(&row(&["🏽", "🏽"]), 0, 0).is_empty());
        assert!(candidates(&RenderScreen::blank(4, 1), 0, 0).is_empty());
    }
}
