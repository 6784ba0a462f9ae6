//! Render themes: resolving cell colours to exact RGB, built-in themes and themes from a cast
//! header (the cast's own theme is `phux_recorder::Theme`; see [`Theme::from_cast_theme`]).

use crate::error::EncodeError;
use crate::screen::CellColor;

/// The one colour type, shared with the recorder (a cast's theme holds the same colours), with
/// its one `#rrggbb` rule.
pub use phux_recorder::Rgb;

/// Foreground, background and the 16 ANSI colours; indices 16–255 are computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Theme {
    /// Default foreground.
    pub fg: Rgb,
    /// Default background.
    pub bg: Rgb,
    /// ANSI colours 0–15.
    pub palette: [Rgb; 16],
    /// The block cursor's colour (its glyph then takes the cell's background); `None` draws
    /// the cursor as the cell inverted.
    pub cursor: Option<Rgb>,
}

impl Default for Theme {
    fn default() -> Self {
        parse_builtin(ASCIINEMA)
    }
}

/// One built-in theme as text: `"bg fg c0 c1 ... c15"` in hex without the `#`, so the table
/// stays readable.
type ThemeSpec = &'static str;

const ASCIINEMA: ThemeSpec =
    "121314 cccccc 000000 dd3c69 4ebf22 ddaf3c 26b0d7 b954e1 54e1b9 d9d9d9 \
    4d4d4d dd3c69 4ebf22 ddaf3c 26b0d7 b954e1 54e1b9 ffffff";
const DRACULA: ThemeSpec = "282a36 f8f8f2 21222c ff5555 50fa7b f1fa8c bd93f9 ff79c6 8be9fd f8f8f2 \
    6272a4 ff6e6e 69ff94 ffffa5 d6acff ff92df a4ffff ffffff";
const SOLARIZED_DARK: ThemeSpec = "002b36 839496 073642 dc322f 859900 b58900 268bd2 d33682 2aa198 \
    eee8d5 002b36 cb4b16 586e75 657b83 839496 6c71c4 93a1a1 fdf6e3";
const SOLARIZED_LIGHT: ThemeSpec = "fdf6e3 657b83 073642 dc322f 859900 b58900 268bd2 d33682 \
    2aa198 eee8d5 002b36 cb4b16 586e75 657b83 839496 6c71c4 93a1a1 fdf6e3";
const MONOKAI: ThemeSpec = "272822 f8f8f2 272822 f92672 a6e22e f4bf75 66d9ef ae81ff a1efe4 f8f8f2 \
    75715e f92672 a6e22e f4bf75 66d9ef ae81ff a1efe4 f9f8f5";
const NORD: ThemeSpec = "2e3440 d8dee9 3b4252 bf616a a3be8c ebcb8b 81a1c1 b48ead 88c0d0 e5e9f0 \
    4c566a bf616a a3be8c ebcb8b 81a1c1 b48ead 8fbcbb eceff4";
const GRUVBOX_DARK: ThemeSpec = "282828 ebdbb2 282828 cc241d 98971a d79921 458588 b16286 689d6a \
    a89984 928374 fb4934 b8bb26 fabd2f 83a598 d3869b 8ec07c ebdbb2";
const TANGO: ThemeSpec = "2e3436 d3d7cf 000000 cc0000 4e9a06 c4a000 3465a4 75507b 06989a d3d7cf \
    555753 ef2929 8ae234 fce94f 729fcf ad7fa8 34e2e2 eeeeec";

const BUILTINS: [(&str, ThemeSpec); 8] = [
    ("asciinema", ASCIINEMA),
    ("dracula", DRACULA),
    ("solarized-dark", SOLARIZED_DARK),
    ("solarized-light", SOLARIZED_LIGHT),
    ("monokai", MONOKAI),
    ("nord", NORD),
    ("gruvbox-dark", GRUVBOX_DARK),
    ("tango", TANGO),
];

/// Builds a theme from a spec string; the specs are constants checked by a test, so a bad digit
/// can only come from editing this file and shows up as black.
fn parse_builtin(spec: ThemeSpec) -> Theme {
    let mut colors = spec
        .split_whitespace()
        .map(|h| Rgb::parse_hex(&format!("#{h}")).unwrap_or_default());
    let bg = colors.next().unwrap_or_default();
    let fg = colors.next().unwrap_or_default();
    let mut palette = [Rgb::default(); 16];
    for slot in &mut palette {
        *slot = colors.next().unwrap_or_default();
    }
    Theme {
        fg,
        bg,
        palette,
        cursor: None,
    }
}

impl Theme {
    /// The names accepted by [`Theme::builtin`].
    pub fn builtin_names() -> Vec<&'static str> {
        BUILTINS.iter().map(|(name, _)| *name).collect()
    }

    /// A built-in theme by name, or an error listing the known names.
    pub fn builtin(name: &str) -> Result<Theme, EncodeError> {
        BUILTINS
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, spec)| parse_builtin(spec))
            .ok_or_else(|| EncodeError::UnknownTheme {
                name: name.to_string(),
                known: Theme::builtin_names().join(", "),
            })
    }

    /// A theme from a cast header's colours: 8 entries are repeated as the bright half, 16 are
    /// taken as they are; any other count is an error.
    pub fn from_cast(fg: Rgb, bg: Rgb, palette: &[Rgb]) -> Result<Theme, EncodeError> {
        let mut full = [Rgb::default(); 16];
        match palette.len() {
            8 => {
                full[..8].copy_from_slice(palette);
                full[8..].copy_from_slice(palette);
            }
            16 => full.copy_from_slice(palette),
            n => return Err(EncodeError::BadPaletteLength(n)),
        }
        Ok(Theme {
            fg,
            bg,
            palette: full,
            cursor: None,
        })
    }

    /// The render theme of a cast's own theme (its header's `fg`, `bg` and palette).
    pub fn from_cast_theme(theme: &phux_recorder::Theme) -> Result<Theme, EncodeError> {
        Theme::from_cast(theme.fg, theme.bg, &theme.palette)
    }

    /// A theme from a cast header's strings: `fg`, `bg` and a `:`-separated palette.
    pub fn from_cast_strings(fg: &str, bg: &str, palette: &str) -> Result<Theme, EncodeError> {
        let colour =
            |text: &str| Rgb::parse_hex(text).map_err(|_| EncodeError::BadColor(text.to_string()));
        let entries = palette
            .split(':')
            .map(colour)
            .collect::<Result<Vec<_>, _>>()?;
        Theme::from_cast(colour(fg)?, colour(bg)?, &entries)
    }

    /// The colour of palette index `index`: the theme's 16, then the xterm 6×6×6 cube and the
    /// 24-step grey ramp.
    pub fn indexed(&self, index: u8) -> Rgb {
        match index {
            0..=15 => self.palette[usize::from(index)],
            16..=231 => {
                let i = index - 16;
                let level = |v: u8| if v == 0 { 0 } else { 55 + 40 * v };
                Rgb(level(i / 36), level((i / 6) % 6), level(i % 6))
            }
            _ => {
                let grey = 8 + 10 * (index - 232);
                Rgb(grey, grey, grey)
            }
        }
    }

    /// Resolves a foreground colour (`Default` is the theme's foreground).
    pub fn resolve_fg(&self, color: CellColor) -> Rgb {
        self.resolve(color, self.fg)
    }

    /// Resolves a background colour (`Default` is the theme's background).
    pub fn resolve_bg(&self, color: CellColor) -> Rgb {
        self.resolve(color, self.bg)
    }

    fn resolve(&self, color: CellColor, default: Rgb) -> Rgb {
        match color {
            CellColor::Default => default,
            CellColor::Palette(i) => self.indexed(i),
            CellColor::Rgb(r, g, b) => Rgb(r, g, b),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_spec_has_exactly_eighteen_valid_colours() {
        for (name, spec) in BUILTINS {
            let parts: Vec<&str> = spec.split_whitespace().collect();
            assert_eq!(parts.len(), 18, "{name}");
            for p in parts {
                assert!(Rgb::parse_hex(&format!("#{p}")).is_ok(), "{name}: {p}");
            }
        }
    }

    #[test]
    fn cube_and_grey_ramp_match_xterm() {
        let t = Theme::default();
        assert_eq!(t.indexed(16), Rgb(0, 0, 0));
        assert_eq!(t.indexed(196), Rgb(255, 0, 0));
        assert_eq!(t.indexed(67), Rgb(95, 135, 175));
        assert_eq!(t.indexed(231), Rgb(255, 255, 255));
        assert_eq!(t.indexed(232), Rgb(8, 8, 8));
        assert_eq!(t.indexed(255), Rgb(238, 238, 238));
    }

    #[test]
    fn builtin_lookup_and_unknown_name() {
        let d = Theme::builtin("dracula").unwrap();
        assert_eq!(d.bg, Rgb(0x28, 0x2a, 0x36));
        let err = Theme::builtin("nope").unwrap_err().to_string();
        assert!(err.contains("solarized-light"), "{err}");
    }

    #[test]
    fn cast_theme_with_eight_colours_repeats_them() {
        let t = Theme::from_cast_strings(
            "#d0d0d0",
            "#212121",
            "#151515:#ac4142:#7e8e50:#e5b567:#6c99bb:#9f4e85:#7dd6cf:#d0d0d0",
        )
        .unwrap();
        assert_eq!(t.palette[9], Rgb(0xac, 0x41, 0x42));
        assert_eq!(t.bg, Rgb(0x21, 0x21, 0x21));
        assert!(Theme::from_cast_strings("#fff", "#000", "#111:#222").is_err());
        assert!(Rgb::parse_hex("#12345g").is_err());
    }
}
