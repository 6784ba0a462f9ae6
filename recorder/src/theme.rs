//! The terminal colour theme a cast may carry: `#rrggbb` colours and the `:`-joined palette.

use std::fmt;
use std::str::FromStr;

use serde_json::{Map, Value};

/// One 24-bit colour, written `#rrggbb`: the one colour type of the recorder (a cast's theme)
/// and the encoders (pixels, themes, the frame's chrome), with one parsing rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    pub const fn new(r: u8, g: u8, b: u8) -> Self {
        Self(r, g, b)
    }

    /// Parses `#rrggbb` (either case): a `#` and exactly six hex digits, nothing around them.
    /// The rule of the asciicast theme, used for every colour phux reads (a cast's theme, a
    /// tape's theme and `MarginFill`, `rec --margin-fill`).
    pub fn parse_hex(text: &str) -> Result<Rgb, RgbParseError> {
        let refuse = || RgbParseError(text.to_owned());
        let hex = text.strip_prefix('#').ok_or_else(refuse)?;
        if hex.len() != 6 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(refuse());
        }
        let channel = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).map_err(|_| refuse());
        Ok(Self(channel(0)?, channel(2)?, channel(4)?))
    }

    /// Packs the colour as `0x00RRGGBB`, the rasterizer's pixel value.
    pub const fn packed(self) -> u32 {
        ((self.0 as u32) << 16) | ((self.1 as u32) << 8) | self.2 as u32
    }

    /// The colour of a packed `0x00RRGGBB` pixel.
    pub const fn from_packed(p: u32) -> Rgb {
        Rgb((p >> 16) as u8, (p >> 8) as u8, p as u8)
    }

    /// The colour halfway between `self` and `other`, rounded down: how faint text is drawn.
    pub const fn midpoint(self, other: Rgb) -> Rgb {
        Rgb(
            ((self.0 as u16 + other.0 as u16) / 2) as u8,
            ((self.1 as u16 + other.1 as u16) / 2) as u8,
            ((self.2 as u16 + other.2 as u16) / 2) as u8,
        )
    }
}

/// Why a colour string was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("colour {0:?} is not of the form #rrggbb")]
pub struct RgbParseError(pub String);

impl FromStr for Rgb {
    type Err = RgbParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse_hex(s)
    }
}

impl fmt::Display for Rgb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

/// Foreground, background and the 8 or 16 colour palette of the recorded terminal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Theme {
    pub fg: Rgb,
    pub bg: Rgb,
    pub palette: Vec<Rgb>,
}

impl Theme {
    /// Reads a theme object. A theme only changes how a cast looks, so a malformed one is
    /// dropped (`None`) rather than making the whole recording unreadable.
    pub fn from_json(value: &Value) -> Option<Self> {
        let object = value.as_object()?;
        let colour = |key: &str| object.get(key)?.as_str()?.parse::<Rgb>().ok();
        let palette = object.get("palette")?.as_str()?;
        Some(Self {
            fg: colour("fg")?,
            bg: colour("bg")?,
            palette: parse_palette(palette)?,
        })
    }

    /// The theme as the JSON object both cast versions store.
    pub fn to_json(&self) -> Value {
        let mut object = Map::new();
        object.insert("fg".into(), Value::String(self.fg.to_string()));
        object.insert("bg".into(), Value::String(self.bg.to_string()));
        object.insert(
            "palette".into(),
            Value::String(format_palette(&self.palette)),
        );
        Value::Object(object)
    }
}

/// Parses `#rrggbb:#rrggbb:…`; `None` if any entry is malformed or the list is empty.
pub fn parse_palette(s: &str) -> Option<Vec<Rgb>> {
    let colours = s
        .split(':')
        .map(|part| part.trim().parse::<Rgb>().ok())
        .collect::<Option<Vec<_>>>()?;
    (!colours.is_empty()).then_some(colours)
}

/// Joins a palette with `:` in lowercase `#rrggbb` form.
pub fn format_palette(palette: &[Rgb]) -> String {
    palette
        .iter()
        .map(Rgb::to_string)
        .collect::<Vec<_>>()
        .join(":")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rgb_parses_either_case_and_prints_lowercase() {
        let c: Rgb = "#AbCdEf".parse().unwrap();
        assert_eq!(c, Rgb::new(0xab, 0xcd, 0xef));
        assert_eq!(c.to_string(), "#abcdef");
    }

    #[test]
    fn rgb_refuses_short_long_and_unprefixed_forms() {
        for bad in [
            "abcdef", "#abc", "#abcdef0", "#ggggggg", "#ggg000", "", "#é0000",
        ] {
            assert!(bad.parse::<Rgb>().is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn palette_round_trips() {
        let text = "#000000:#dd3c69:#4ebf22:#ddaf3c:#26b0d7:#b954e1:#54e1b9:#d9d9d9";
        let palette = parse_palette(text).unwrap();
        assert_eq!(palette.len(), 8);
        assert_eq!(format_palette(&palette), text);
    }

    #[test]
    fn malformed_theme_is_dropped_not_fatal() {
        let v: Value = serde_json::json!({"fg": "#ffffff", "bg": "black", "palette": "#000000"});
        assert_eq!(Theme::from_json(&v), None);
    }

    #[test]
    fn theme_json_round_trips() {
        let v: Value =
            serde_json::json!({"fg": "#ffffff", "bg": "#000000", "palette": "#010203:#040506"});
        let theme = Theme::from_json(&v).unwrap();
        assert_eq!(theme.to_json(), v);
    }
}
