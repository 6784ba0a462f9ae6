//! `rec -o demo.html` (and a tape's `Output demo.html`): one self-contained page that plays a
//! recording offline in any browser, drawn by ghostty-web — Ghostty's VT engine compiled to
//! WebAssembly, the engine that made the recording — with play/pause, a seek bar and a speed.
//! The page holds the cast's output events (idle-clamped), its colours, and the renderer's
//! script (the caller hands it over: phux keeps the pinned release in its data directory).

use std::io::Write;
use std::path::{Path, PathBuf};

use phux_recorder::{Cast, EventKind, Timeline};
use serde_json::json;

use crate::error::EncodeError;
use crate::output_file::OutputFile;
use crate::theme::{Rgb, Theme};

const TEMPLATE: &str = include_str!("html/player.html");
const PLAYER: &str = include_str!("html/player.js");

/// What the page is made from besides the cast.
#[derive(Debug, Clone)]
pub struct HtmlOptions<'a> {
    /// The colours when the cast carries none (or `--theme` overrides it).
    pub theme: Theme,
    pub prefer_cast_theme: bool,
    /// Gaps longer than this many seconds are shortened to it.
    pub idle_limit: Option<f64>,
    pub speed: f64,
    pub overwrite: bool,
    /// ghostty-web's ES module, as the npm package ships it.
    pub renderer: &'a str,
}

/// What was written.
#[derive(Debug, Clone, PartialEq)]
pub struct HtmlSummary {
    pub path: PathBuf,
    pub bytes: u64,
    pub duration_ms: u64,
    pub events: u64,
}

pub fn write_html(
    cast: &Cast,
    out: &Path,
    options: &HtmlOptions<'_>,
) -> Result<HtmlSummary, EncodeError> {
    let renderer = renderer_as_script(options.renderer).ok_or_else(|| {
        EncodeError::io(
            "use the web terminal's script for",
            out,
            std::io::Error::other("it is not the ghostty-web release phux pins (no export list)"),
        )
    })?;
    let theme = crate::replay::cast_theme(cast)
        .filter(|_| options.prefer_cast_theme)
        .unwrap_or(options.theme);
    let (events, duration) = timeline(cast, options.idle_limit, options.speed)?;
    let event_count = events.len() as u64;
    let data = json!({
        "cols": cast.header.cols,
        "rows": cast.header.rows,
        "theme": theme_json(&theme),
        "events": events,
    });
    let title = cast
        .header
        .title
        .clone()
        .unwrap_or_else(|| "terminal recording".to_owned());
    let page = TEMPLATE
        .replace("{{TITLE}}", &escape_html(&title))
        .replace("{{PAGE_BG}}", "#111317")
        .replace("{{BG}}", &hex(theme.bg))
        .replace("{{RENDERER}}", &packed(renderer.as_bytes()))
        .replace("{{PLAYER}}", PLAYER)
        .replace("{{CAST}}", &packed(data.to_string().as_bytes()));
    let mut file = OutputFile::create(out, options.overwrite)?;
    file.file()
        .write_all(page.as_bytes())
        .map_err(|e| file.write_error(e))?;
    let bytes = file.persist()?;
    Ok(HtmlSummary {
        path: out.to_path_buf(),
        bytes,
        duration_ms: (duration * 1000.0).round() as u64,
        events: event_count,
    })
}

/// The output and resize events at their playback times, and the end: the recorder's one
/// `Timeline` (idle clamp, then speed), as every other format and `play` time them.
fn timeline(
    cast: &Cast,
    idle_limit: Option<f64>,
    speed: f64,
) -> Result<(Vec<serde_json::Value>, f64), EncodeError> {
    let mut timeline =
        Timeline::new(idle_limit, speed).map_err(|e| EncodeError::Timing(e.to_string()))?;
    let mut events = Vec::new();
    let mut at = 0.0_f64;
    for event in &cast.events {
        at = timeline.playback_time(event.time);
        let t = (at * 1000.0).round() / 1000.0;
        match &event.kind {
            EventKind::Output(data) => events.push(json!([t, "o", data])),
            EventKind::Resize { cols, rows } => {
                events.push(json!([t, "r", format!("{cols}x{rows}")]))
            }
            _ => {}
        }
    }
    Ok((events, at))
}

fn theme_json(theme: &Theme) -> serde_json::Value {
    const NAMES: [&str; 16] = [
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
    let mut object = serde_json::Map::new();
    object.insert("foreground".into(), hex(theme.fg).into());
    object.insert("background".into(), hex(theme.bg).into());
    object.insert(
        "cursor".into(),
        hex(theme.cursor.unwrap_or(theme.fg)).into(),
    );
    for (name, colour) in NAMES.iter().zip(theme.palette.iter()) {
        object.insert((*name).into(), hex(*colour).into());
    }
    serde_json::Value::Object(object)
}

fn hex(Rgb(r, g, b): Rgb) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// zlib-compressed, then base64: what the page inflates with the browser's own
/// `DecompressionStream` (a page a third of the size; base64 cannot end a `<script>`).
fn packed(bytes: &[u8]) -> String {
    phux_core::base64::encode(&miniz_oxide::deflate::compress_to_vec_zlib(bytes, 9))
}

fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// ghostty-web's module, ready to be imported from a `blob:` URL: its one dynamic import is a
/// bundler's stand-in for Node's `fs` (a fallback the page never needs: the WebAssembly is
/// inline), which a page opened from a file cannot load, so it reads as an empty module.
/// `None` when the script is not an ES module with exports.
fn renderer_as_script(module: &str) -> Option<String> {
    module.rfind("\nexport {")?;
    Some(module.replace(
        "await import(\"./__vite-browser-external-2447137e.js\")",
        "({})",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_renderer_must_be_a_module_and_loses_its_node_import() {
        let script = renderer_as_script(
            "const a = await import(\"./__vite-browser-external-2447137e.js\");\nexport { a as init };",
        )
        .unwrap();
        assert!(script.starts_with("const a = ({});"), "{script}");
        assert!(renderer_as_script("no exports").is_none());
    }

    #[test]
    fn packed_data_inflates_back_and_cannot_close_the_script_element() {
        let text = "</script><script>alert(1)</script>".repeat(20);
        let packed = packed(text.as_bytes());
        assert!(packed
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"+/=".contains(&b)));
        assert!(packed.len() < text.len());
    }

    #[test]
    fn the_page_times_events_as_the_gif_does() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("gaps.cast");
        std::fs::write(
            &path,
            "{\"version\":2,\"width\":10,\"height\":2}\n[1.0,\"o\",\"a\"]\n[5.0,\"o\",\"b\"]\n",
        )
        .unwrap();
        let cast = phux_recorder::read_cast(&path).unwrap();
        let times = |limit, speed| -> Vec<f64> {
            let (events, _) = timeline(&cast, limit, speed).unwrap();
            events.iter().map(|e| e[0].as_f64().unwrap()).collect()
        };
        assert_eq!(times(Some(2.0), 1.0), [1.0, 3.0]);
        assert_eq!(times(Some(2.0), 2.0), [0.5, 1.5]);
        // A limit of 0 clamps nothing (it used to put every event at 0 in the page).
        assert_eq!(times(Some(0.0), 1.0), [1.0, 5.0]);
        // A speed that is no speed is refused, not silently 1.
        for bad in [0.0, -1.0, f64::NAN] {
            assert!(timeline(&cast, None, bad).is_err(), "{bad}");
        }
    }
}
