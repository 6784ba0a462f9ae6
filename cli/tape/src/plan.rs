//! From parsed steps to what runs: the settings (every `Set` before the first action, but
//! `TypingSpeed`), the outputs, the required programs, the environment, and the actions.

use std::path::PathBuf;

use phux_encoders::{
    EncodeError, FontOptions, FrameChrome, Rasterizer, Rgb, Theme, WindowBar,
    DEFAULT_WINDOW_BAR_SIZE,
};

use super::error::TapeError;
use super::parser::{Command, LoopOffset, Setting, Step, ThemeSource};

/// Width and height of a glyph cell at scale 1, in pixels.
const CELL: (u32, u32) = (8, 16);

/// What a tape's `Set` commands decide.
#[derive(Debug, Clone)]
pub struct Settings {
    pub shell: String,
    pub width: u32,
    pub height: u32,
    pub font_size: f64,
    pub line_height: f64,
    pub font_family: Option<String>,
    pub letter_spacing: Option<f64>,
    pub padding: u32,
    pub margin: u32,
    pub margin_fill: Option<Rgb>,
    pub border_radius: u32,
    pub window_bar: Option<WindowBar>,
    pub window_bar_size: u32,
    pub theme: Theme,
    pub typing_speed: f64,
    pub framerate: u32,
    pub playback_speed: f64,
    pub loop_offset: LoopOffset,
    pub cursor_blink: bool,
    pub wait_timeout: f64,
    pub wait_pattern: String,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            shell: "bash".into(),
            width: 1200,
            height: 600,
            font_size: 22.0,
            line_height: 1.0,
            font_family: None,
            letter_spacing: None,
            padding: 60,
            margin: 0,
            margin_fill: None,
            border_radius: 0,
            window_bar: None,
            window_bar_size: DEFAULT_WINDOW_BAR_SIZE,
            theme: Theme::default(),
            typing_speed: 0.05,
            framerate: 50,
            playback_speed: 1.0,
            loop_offset: LoopOffset::Frames(0),
            cursor_blink: true,
            wait_timeout: 15.0,
            wait_pattern: ">$".into(),
        }
    }
}

impl Settings {
    /// The font the tape asks for, drawn smooth as `rec` draws by default: `FontFamily` (a
    /// comma-separated fallback chain; `unifont` for the bitmap font), `FontSize`,
    /// `LineHeight`, `LetterSpacing`.
    pub fn font(&self) -> FontOptions {
        let fonts = self.font_family.as_deref().map(FontOptions::family_list);
        let font = FontOptions {
            fonts: fonts.unwrap_or_default(),
            ..FontOptions::default()
        };
        if font.names_bitmap() {
            return font;
        }
        FontOptions {
            size_px: Some(self.font_size as f32),
            line_height: Some(self.line_height as f32),
            letter_spacing: self.letter_spacing.map(|v| v as f32),
            ..font
        }
    }

    /// With the bitmap font, its integer scale nearest to `FontSize` × `LineHeight` (a 16 px
    /// cell is scale 1); TrueType glyphs are drawn at `FontSize` itself (scale 1).
    pub fn scale(&self) -> u8 {
        if !self.font().names_bitmap() {
            return 1;
        }
        let s = (self.font_size * self.line_height / f64::from(CELL.1)).round();
        s.clamp(1.0, f64::from(phux_encoders::MAX_SCALE)) as u8
    }

    /// One cell's size in pixels with the tape's font (an error names a font that cannot be
    /// loaded).
    pub fn cell(&self) -> Result<(u32, u32), EncodeError> {
        let raster = Rasterizer::with_font(1, 1, self.theme, self.scale(), &self.font())?;
        Ok(raster.cell_size())
    }

    /// [`Settings::cell`], with the fonts of `FontFamily` that are not on this machine left out
    /// of the chain (a tape written elsewhere names that machine's fonts): which were.
    fn cell_with_the_fonts_here(&mut self) -> Result<((u32, u32), Vec<String>), EncodeError> {
        let mut missing = Vec::new();
        loop {
            let chain = FontOptions::family_list(self.font_family.as_deref().unwrap_or(""));
            match self.cell() {
                Err(EncodeError::FontNotFound { name, .. }) if chain.contains(&name) => {
                    let kept: Vec<String> = chain.into_iter().filter(|f| *f != name).collect();
                    self.font_family = (!kept.is_empty()).then(|| kept.join(", "));
                    missing.push(name);
                }
                cell => return cell.map(|cell| (cell, missing)),
            }
        }
    }

    pub fn chrome(&self) -> FrameChrome {
        FrameChrome {
            padding: self.padding,
            margin: self.margin,
            margin_fill: self.margin_fill,
            window_bar: self.window_bar,
            window_bar_size: self.window_bar_size,
            border_radius: self.border_radius,
            image_size: Some((self.width, self.height)),
        }
    }

    /// The grid of `cell`-sized cells ([`Settings::cell`], which loads the font: ask it once)
    /// that fits `Width`×`Height` inside the margin, bar and padding.
    pub fn grid(&self, cell: (u32, u32)) -> Option<(u16, u16)> {
        let (w, h) = self.chrome().grid_room(self.width, self.height)?;
        let (cell_w, cell_h) = cell;
        let cols = u16::try_from(w / cell_w.max(1)).ok()?;
        let rows = u16::try_from(h / cell_h.max(1)).ok()?;
        (cols > 0 && rows > 0).then_some((cols, rows))
    }

    /// Where the animation starts, in seconds of a recording `length` long.
    pub fn loop_offset_secs(&self, length: f64) -> f64 {
        match self.loop_offset {
            LoopOffset::Frames(n) => f64::from(n) / f64::from(self.framerate.max(1)),
            LoopOffset::Percent(p) => length * p / 100.0,
        }
    }

    /// What the settings ask for that phux does not do, for a note to the user.
    pub fn not_applied(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if self.letter_spacing.is_some() && self.font().names_bitmap() {
            notes.push("LetterSpacing is not applied: the bitmap font's cells are fixed".into());
        }
        notes
    }
}

/// A tape ready to run.
#[derive(Debug, Clone)]
pub struct Plan {
    pub outputs: Vec<(PathBuf, Step)>,
    pub requires: Vec<(String, Step)>,
    pub env: Vec<(String, String)>,
    pub settings: Settings,
    /// The grid the settings make: columns, rows.
    pub grid: (u16, u16),
    /// The actions in order (and `Set TypingSpeed` between them).
    pub actions: Vec<Step>,
    /// What the tape asks for that phux skips (`Subtitle`), for notes to the user.
    pub notes: Vec<String>,
}

/// Sorts `steps` into a plan; a setting after the first action is an error naming both.
pub fn plan(steps: Vec<Step>) -> Result<Plan, TapeError> {
    let mut plan = Plan {
        outputs: Vec::new(),
        requires: Vec::new(),
        env: Vec::new(),
        settings: Settings::default(),
        grid: (0, 0),
        actions: Vec::new(),
        notes: Vec::new(),
    };
    let mut first_action: Option<(usize, usize)> = None;
    // The last setting that sized the image: where a size error points.
    let mut sized_by: Option<Step> = None;
    // The last `Set FontFamily`: where a font that cannot be loaded is reported.
    let mut font_named_by: Option<Step> = None;
    for step in steps {
        match &step.command {
            Command::Output(path) => plan.outputs.push((path.clone(), step.clone())),
            Command::Require(program) => plan.requires.push((program.clone(), step.clone())),
            Command::Env(key, value) => plan.env.push((key.clone(), value.clone())),
            Command::Unsupported(note) => plan.notes.push(note.clone()),
            Command::Set(Setting::TypingSpeed(_)) if first_action.is_some() => {
                plan.actions.push(step)
            }
            Command::Set(setting) => {
                if let Some((line, col)) = first_action {
                    return Err(step.error(format!(
                        "Set comes after the first action (line {line}, column {col}): only \
                         TypingSpeed may change once the tape acts; move this Set to the top"
                    )));
                }
                if *setting == Setting::CursorBlink(true) {
                    // A VHS setting phux reads but does not honour: said, never refused.
                    plan.notes.push(format!(
                        "{}:{}:{}: Set CursorBlink true is not applied: phux draws a steady cursor",
                        step.file.display(),
                        step.line,
                        step.col
                    ));
                }
                apply(&mut plan.settings, setting, &step, &mut plan.notes)?;
                if matches!(
                    setting,
                    Setting::Width(_)
                        | Setting::Height(_)
                        | Setting::FontSize(_)
                        | Setting::LineHeight(_)
                        | Setting::Padding(_)
                        | Setting::Margin(_)
                        | Setting::WindowBar(_)
                        | Setting::WindowBarSize(_)
                ) {
                    sized_by = Some(step.clone());
                }
                if matches!(setting, Setting::FontFamily(_)) {
                    font_named_by = Some(step.clone());
                }
            }
            _ => {
                first_action.get_or_insert((step.line, step.col));
                plan.actions.push(step);
            }
        }
    }
    let s = &plan.settings;
    let pixels = u64::from(s.width) * u64::from(s.height);
    if pixels > phux_encoders::MAX_CANVAS_PIXELS || s.width > 65_535 || s.height > 65_535 {
        return Err(size_error(
            sized_by.as_ref(),
            format!(
                "Width {} × Height {} is too large: at most 65535 px a side and {} px in all",
                s.width,
                s.height,
                phux_encoders::MAX_CANVAS_PIXELS
            ),
        ));
    }
    let (cell, missing) = plan.settings.cell_with_the_fonts_here().map_err(|e| {
        let problem = e.to_string();
        match &font_named_by {
            Some(step) => step.value_error(problem),
            None => size_error(sized_by.as_ref(), problem),
        }
    })?;
    if let (Some(step), false) = (&font_named_by, missing.is_empty()) {
        plan.notes
            .push(fonts_not_here(step, &missing, &plan.settings));
    }
    let s = &plan.settings;
    let grid = s.grid(cell);
    if let Some((cols, rows)) = grid {
        if phux_core::limits::check_grid(cols, rows).is_err() {
            return Err(size_error(
                sized_by.as_ref(),
                format!(
                    "Width {} × Height {} at FontSize {} makes a grid of {cols}x{rows} cells, \
                     more than a pane may have (1000x1000): use a larger FontSize or a smaller \
                     image",
                    s.width, s.height, s.font_size
                ),
            ));
        }
    }
    let Some(grid) = grid else {
        return Err(size_error(
            sized_by.as_ref(),
            format!(
                "Width {} × Height {} leaves no room for one cell at FontSize {} once Padding {}, \
                 Margin {} and the window bar are taken off; make the image larger or the \
                 padding smaller",
                s.width, s.height, s.font_size, s.padding, s.margin
            ),
        ));
    };
    plan.grid = grid;
    Ok(plan)
}

/// An error about the image's size, at the setting that last sized it.
fn size_error(sized_by: Option<&Step>, message: String) -> TapeError {
    match sized_by {
        Some(step) => step.value_error(message),
        None => TapeError::at(&PathBuf::from("(the default settings)"), 0, 0, message),
    }
}

/// Applies `setting`; what a tape written elsewhere asks for and phux lacks (a theme of VHS's
/// long list) is added to `notes` and the default kept, never refused.
fn apply(
    settings: &mut Settings,
    setting: &Setting,
    step: &Step,
    notes: &mut Vec<String>,
) -> Result<(), TapeError> {
    match setting {
        Setting::Shell(shell) => settings.shell.clone_from(shell),
        Setting::FontFamily(f) => settings.font_family = Some(f.clone()),
        Setting::FontSize(v) => settings.font_size = *v,
        Setting::LineHeight(v) => settings.line_height = *v,
        Setting::LetterSpacing(v) => settings.letter_spacing = Some(*v),
        Setting::Width(v) => settings.width = *v,
        Setting::Height(v) => settings.height = *v,
        Setting::Padding(v) => settings.padding = *v,
        Setting::Margin(v) => settings.margin = *v,
        Setting::MarginFill(color) => {
            settings.margin_fill = Some(Rgb::parse_hex(color).map_err(|_| {
                step.value_error(format!(
                    "MarginFill {color:?} is not a colour: expected \"#rrggbb\""
                ))
            })?)
        }
        Setting::BorderRadius(v) => settings.border_radius = *v,
        Setting::WindowBar(name) => {
            settings.window_bar = Some(WindowBar::parse(name).ok_or_else(|| {
                step.value_error(format!(
                    "unknown WindowBar {name:?}: expected one of {}",
                    WindowBar::NAMES.join(", ")
                ))
            })?)
        }
        Setting::WindowBarSize(v) => settings.window_bar_size = *v,
        Setting::Theme(ThemeSource::Name(name)) => match Theme::builtin(&theme_key(name)) {
            Ok(theme) => settings.theme = theme,
            Err(_) => notes.push(format!(
                "{}: Theme {name:?} is not one phux has, so its default theme is used: name one \
                 of {}, or give a JSON object of colours",
                located(step),
                Theme::builtin_names().join(", ")
            )),
        },
        Setting::Theme(ThemeSource::Json(text)) => settings.theme = json_theme(text, step)?,
        Setting::TypingSpeed(v) => settings.typing_speed = *v,
        Setting::Framerate(v) => {
            if !(1..=100).contains(v) {
                return Err(
                    step.value_error(format!("Framerate {v} is out of range: expected 1 to 100"))
                );
            }
            settings.framerate = *v;
        }
        Setting::PlaybackSpeed(v) => settings.playback_speed = *v,
        Setting::LoopOffset(v) => settings.loop_offset = *v,
        Setting::CursorBlink(v) => settings.cursor_blink = *v,
        Setting::WaitTimeout(v) => settings.wait_timeout = *v,
        Setting::WaitPattern(v) => settings.wait_pattern.clone_from(v),
    }
    Ok(())
}

/// The JSON keys of a theme object, in palette order (`purple` and `brightPurple`, the keys VHS
/// theme files use, are accepted for `magenta` and `brightMagenta`).
const ANSI_KEYS: [&str; 16] = [
    "black",
    "red",
    "green",
    "yellow",
    "blue",
    "magenta",
    "cyan",
    "white",
    "brightBlack",
    "brightRed",
    "brightGreen",
    "brightYellow",
    "brightBlue",
    "brightMagenta",
    "brightCyan",
    "brightWhite",
];

/// A theme's name as the built-in themes are named ("Solarized Dark" is `solarized-dark`).
fn theme_key(name: &str) -> String {
    name.trim().to_ascii_lowercase().replace([' ', '_'], "-")
}

/// `file:line:col` of `step`'s value.
fn located(step: &Step) -> String {
    format!("{}:{}:{}", step.file.display(), step.line, step.value_col)
}

/// The note for the fonts of `FontFamily` (at `step`) that are not on this machine: what is
/// drawn instead.
fn fonts_not_here(step: &Step, missing: &[String], settings: &Settings) -> String {
    let names: Vec<String> = missing.iter().map(|m| format!("{m:?}")).collect();
    let instead = match &settings.font_family {
        Some(rest) => rest.clone(),
        None => format!(
            "the default font ({})",
            phux_encoders::font::discovery::BUNDLED_FAMILY
        ),
    };
    format!(
        "{}: FontFamily {} {} not installed here, so {instead} is used",
        located(step),
        names.join(", "),
        if missing.len() == 1 { "is" } else { "are" },
    )
}

/// The theme a JSON object of colours spells out.
fn json_theme(text: &str, step: &Step) -> Result<Theme, TapeError> {
    let map: serde_json::Map<String, serde_json::Value> = serde_json::from_str(text)
        .map_err(|e| step.value_error(format!("the theme is not a JSON object: {e}")))?;
    let color = |key: &str| -> Result<Rgb, TapeError> {
        let alias = match key {
            "magenta" => "purple",
            "brightMagenta" => "brightPurple",
            other => other,
        };
        let value = map
            .get(key)
            .or_else(|| map.get(alias))
            .and_then(|v| v.as_str())
            .ok_or_else(|| {
                step.value_error(format!(
                    "the theme has no {key:?} colour: it needs foreground, background and \
                     {}",
                    ANSI_KEYS.join(", ")
                ))
            })?;
        Rgb::parse_hex(value).map_err(|_| {
            step.value_error(format!(
                "the theme's {key:?} is {value:?}: expected \"#rrggbb\""
            ))
        })
    };
    let palette = ANSI_KEYS
        .iter()
        .map(|k| color(k))
        .collect::<Result<Vec<_>, _>>()?;
    let (fg, bg) = (color("foreground")?, color("background")?);
    let mut theme =
        Theme::from_cast(fg, bg, &palette).map_err(|e| step.value_error(e.to_string()))?;
    if map.contains_key("cursor") {
        theme.cursor = Some(color("cursor")?);
    }
    Ok(theme)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parser::parse_text;
    use std::path::Path;

    fn plan_of(text: &str) -> Result<Plan, TapeError> {
        plan(parse_text(Path::new("t.tape"), text)?)
    }

    #[test]
    fn pixels_become_a_grid_at_the_nearest_scale() {
        // The bitmap font: FontSize picks the nearest integer scale of its 8x16 cells.
        let p = plan_of(
            "Set FontFamily unifont\nSet Width 600\nSet Height 300\nSet Padding 20\nSet FontSize 32",
        )
        .unwrap();
        assert_eq!(p.settings.scale(), 2);
        assert_eq!(p.grid, ((600 - 40) / 16, (300 - 40) / 32));
        // TrueType (the default): glyphs at FontSize itself, the grid in the font's own cells.
        let default = plan_of("").unwrap();
        assert_eq!(default.settings.scale(), 1);
        let (w, h) = default.settings.cell().unwrap();
        assert_eq!(h, 22, "LineHeight 1.0 at FontSize 22");
        let fit = |room: u32, cell: u32| u16::try_from(room / cell).unwrap();
        assert_eq!(default.grid, (fit(1200 - 120, w), fit(600 - 120, h)));
    }

    #[test]
    fn a_setting_after_an_action_is_refused_but_typing_speed() {
        let err = plan_of("Type \"a\"\nSet Width 400")
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("t.tape:2:1: Set comes after the first action (line 1, column 1)"),
            "{err}"
        );
        let ok = plan_of("Type \"a\"\nSet TypingSpeed 10ms\nType \"b\"").unwrap();
        assert_eq!(ok.actions.len(), 3);
    }

    #[test]
    fn themes_by_name_and_by_json() {
        let p = plan_of("Set Theme \"Dracula\"").unwrap();
        assert_eq!(p.settings.theme, Theme::builtin("dracula").unwrap());
        let mut json = String::from("{");
        for (i, k) in ANSI_KEYS.iter().enumerate() {
            json.push_str(&format!("\"{k}\": \"#0000{i:02x}\", "));
        }
        json.push_str("\"foreground\": \"#ffffff\", \"background\": \"#101010\"}");
        let p = plan_of(&format!("Set Theme {json}")).unwrap();
        assert_eq!(p.settings.theme.bg, Rgb(0x10, 0x10, 0x10));
        assert_eq!(p.settings.theme.palette[9], Rgb(0, 0, 9));
        assert_eq!(p.settings.theme.cursor, None);
        // VHS theme files name magenta `purple`, and may give the cursor's colour.
        let vhs = json
            .replace("\"magenta\"", "\"purple\"")
            .replace("\"brightMagenta\"", "\"brightPurple\"")
            .replace("\"foreground\"", "\"cursor\": \"#ff8800\", \"foreground\"");
        let p = plan_of(&format!("Set Theme {vhs}")).unwrap();
        assert_eq!(p.settings.theme.palette[5], Rgb(0, 0, 5));
        assert_eq!(p.settings.theme.palette[13], Rgb(0, 0, 13));
        assert_eq!(p.settings.theme.cursor, Some(Rgb(0xff, 0x88, 0x00)));
        let err = plan_of("Set Theme {\"foreground\": \"#fff\"}")
            .unwrap_err()
            .to_string();
        assert!(err.contains("has no \"black\""), "{err}");
    }

    #[test]
    fn a_vhs_setting_phux_does_not_honour_is_noted_not_refused() {
        let p = plan_of("Set CursorBlink true\nSet CursorBlink false").unwrap();
        assert_eq!(
            p.notes,
            vec!["t.tape:1:1: Set CursorBlink true is not applied: phux draws a steady cursor"]
        );
    }

    #[test]
    fn a_theme_or_font_this_machine_lacks_is_noted_and_the_default_used() {
        // Tapes name VHS's themes and the fonts of the machine they were written on.
        let p = plan_of("Set Theme \"Catppuccin Mocha\"\nSet Width 600").unwrap();
        assert_eq!(p.settings.theme, Theme::default());
        assert!(
            p.notes[0].starts_with("t.tape:1:11: Theme \"Catppuccin Mocha\" is not one phux has")
                && p.notes[0].contains("dracula"),
            "{:?}",
            p.notes
        );
        let p = plan_of("Set FontFamily \"Nope Font\"").unwrap();
        assert_eq!(p.settings.font_family, None);
        assert_eq!(
            p.notes,
            vec![
                "t.tape:1:16: FontFamily \"Nope Font\" is not installed here, so the default \
                  font (JetBrains Mono) is used"
            ]
        );
        // In a chain, the names that are here stay, in order.
        let p = plan_of("Set FontFamily \"Nope Font, unifont\"").unwrap();
        assert_eq!(p.settings.font_family.as_deref(), Some("unifont"));
        assert!(p.notes[0].ends_with("so unifont is used"), "{:?}", p.notes);
        // A font file that is there but broken is still refused: it was named on purpose.
        let dir = tempfile::tempdir().unwrap();
        let broken = dir.path().join("broken.ttf");
        std::fs::write(&broken, b"not a font").unwrap();
        let err = plan_of(&format!("Set FontFamily \"{}\"", broken.display()))
            .unwrap_err()
            .to_string();
        assert!(err.contains("cannot use font file"), "{err}");
    }

    #[test]
    fn a_frame_with_no_room_is_refused() {
        let err = plan_of("Set Width 100\nSet Padding 60")
            .unwrap_err()
            .to_string();
        assert!(err.contains("leaves no room"), "{err}");
    }

    #[test]
    fn a_bad_value_is_reported_at_the_value() {
        let at = |text: &str| plan_of(text).unwrap_err().to_string();
        // A font that cannot be loaded is the FontFamily's value, not the default settings'.
        let dir = tempfile::tempdir().unwrap();
        let broken = dir.path().join("broken.ttf");
        std::fs::write(&broken, b"not a font").unwrap();
        let err = at(&format!(
            "Set FontSize 20\nSet FontFamily \"{}\"\nSet Width 600",
            broken.display()
        ));
        assert!(
            err.starts_with("t.tape:2:16: cannot use font file"),
            "{err}"
        );
        let err = at("Set Width 100000");
        assert!(err.starts_with("t.tape:1:11: Width 100000"), "{err}");
        let err = at("Set MarginFill \"red\"");
        assert!(err.starts_with("t.tape:1:16: MarginFill"), "{err}");
    }
}
