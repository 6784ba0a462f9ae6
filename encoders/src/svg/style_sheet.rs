//! The SVG's classes: one per colour a rectangle or drawn glyph is filled with, one per text
//! style (colour and the attributes that change how text is set), each named once and written
//! once in the `<style>` element, so a frame's elements carry a short class, not a colour.

use std::collections::HashMap;

use crate::screen::CellAttrs;
use crate::theme::Rgb;

/// How a run of text is set: its colour and its font and line attributes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct TextStyle {
    pub fg: Rgb,
    /// Only [`TEXT_ATTRS`].
    pub attrs: CellAttrs,
}

/// The attributes CSS sets on text (colours are resolved before).
pub(crate) const TEXT_ATTRS: CellAttrs = CellAttrs(
    CellAttrs::BOLD.0
        | CellAttrs::ITALIC.0
        | CellAttrs::UNDERLINE.0
        | CellAttrs::STRIKETHROUGH.0
        | CellAttrs::OVERLINE.0,
);

/// The classes met so far, in the order they were named.
#[derive(Debug)]
pub(crate) struct StyleSheet {
    /// Text in this style needs no class (the `text` rule sets it).
    default_text: TextStyle,
    /// Each class's number and its rule's place in `rules`.
    fills: HashMap<Rgb, (usize, usize)>,
    texts: HashMap<TextStyle, (usize, usize)>,
    rules: Vec<String>,
}

impl StyleSheet {
    pub fn new(default_fg: Rgb) -> StyleSheet {
        StyleSheet {
            default_text: TextStyle {
                fg: default_fg,
                attrs: CellAttrs::NONE,
            },
            fills: HashMap::new(),
            texts: HashMap::new(),
            rules: Vec::new(),
        }
    }

    /// The class filling a shape with `color`.
    pub fn fill(&mut self, color: Rgb) -> String {
        let (next, rule) = (self.fills.len(), self.rules.len());
        let (n, _) = *self.fills.entry(color).or_insert_with(|| {
            self.rules.push(format!(".f{next}{{fill:{}}}", hex(color)));
            (next, rule)
        });
        format!("f{n}")
    }

    /// The class of text in `style`; `None` for the default style.
    pub fn text(&mut self, style: TextStyle) -> Option<String> {
        if style == self.default_text {
            return None;
        }
        let (next, rule) = (self.texts.len(), self.rules.len());
        let (n, _) = *self.texts.entry(style).or_insert_with(|| {
            self.rules.push(format!(".t{next}{{{}}}", text_css(style)));
            (next, rule)
        });
        Some(format!("t{n}"))
    }

    /// Every rule, in the order the classes were named.
    pub fn rules(&self) -> &[String] {
        &self.rules
    }

    /// How many rules there are: what [`StyleSheet::truncate`] goes back to.
    pub fn len(&self) -> usize {
        self.rules.len()
    }

    /// Forgets the classes named after the first `rules`.
    pub fn truncate(&mut self, rules: usize) {
        self.rules.truncate(rules);
        self.fills.retain(|_, (_, rule)| *rule < rules);
        self.texts.retain(|_, (_, rule)| *rule < rules);
    }

    /// Bytes the rules take.
    pub fn bytes(&self) -> usize {
        self.rules.iter().map(String::len).sum()
    }
}

fn text_css(style: TextStyle) -> String {
    let mut css = format!("fill:{}", hex(style.fg));
    if style.attrs.contains(CellAttrs::BOLD) {
        css.push_str(";font-weight:bold");
    }
    if style.attrs.contains(CellAttrs::ITALIC) {
        css.push_str(";font-style:italic");
    }
    let lines: Vec<&str> = [
        (CellAttrs::UNDERLINE, "underline"),
        (CellAttrs::STRIKETHROUGH, "line-through"),
        (CellAttrs::OVERLINE, "overline"),
    ]
    .iter()
    .filter(|(attr, _)| style.attrs.contains(*attr))
    .map(|(_, name)| *name)
    .collect();
    if !lines.is_empty() {
        css.push_str(";text-decoration:");
        css.push_str(&lines.join(" "));
    }
    css
}

/// `#rrggbb`.
pub(crate) fn hex(Rgb(r, g, b): Rgb) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_colour_and_style_is_named_once() {
        let mut sheet = StyleSheet::new(Rgb(0xcc, 0xcc, 0xcc));
        assert_eq!(sheet.fill(Rgb(1, 2, 3)), "f0");
        assert_eq!(sheet.fill(Rgb(4, 5, 6)), "f1");
        assert_eq!(sheet.fill(Rgb(1, 2, 3)), "f0");
        let plain = TextStyle {
            fg: Rgb(0xcc, 0xcc, 0xcc),
            attrs: CellAttrs::NONE,
        };
        assert_eq!(sheet.text(plain), None);
        let bold_red = TextStyle {
            fg: Rgb(0xdd, 0x3c, 0x69),
            attrs: CellAttrs::BOLD | CellAttrs::UNDERLINE | CellAttrs::STRIKETHROUGH,
        };
        assert_eq!(sheet.text(bold_red).as_deref(), Some("t0"));
        assert_eq!(sheet.text(bold_red).as_deref(), Some("t0"));
        let mut forgetful = StyleSheet::new(Rgb(0xcc, 0xcc, 0xcc));
        forgetful.fill(Rgb(1, 2, 3));
        forgetful.fill(Rgb(4, 5, 6));
        forgetful.truncate(1);
        assert_eq!(forgetful.fill(Rgb(4, 5, 6)), "f1");
        assert_eq!(forgetful.len(), 2);
        assert_eq!(
            sheet.rules(),
            [
                ".f0{fill:#010203}",
                ".f1{fill:#040506}",
                ".t0{fill:#dd3c69;font-weight:bold;text-decoration:underline line-through}"
            ]
        );
    }
}
