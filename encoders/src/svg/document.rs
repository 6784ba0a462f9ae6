//! Writes the film out as one SVG document: the style sheet (font, classes, one `@keyframes`
//! per animated part), the defs, the chrome, then the grid — each row a `<use>` of its one look,
//! or a strip of its looks slid by its animation — and the cursor on top. Every animation runs
//! the whole length with `step-end` timing, so a look holds until the next keyframe, and loops
//! as the GIF does. The animated property is CSS `translate` (shorter than `transform`, and
//! kept apart from the `transform` attributes that place rows). No script.

use std::fmt::Write as _;

use crate::frame_chrome::{FrameChrome, Layout};

use super::film::{def_name, Def, Film};
use super::layer::Layer;
use super::metrics::number;
use super::style_sheet::hex;

/// What the document is drawn in and for how long.
pub(crate) struct Frame<'a> {
    pub chrome: &'a FrameChrome,
    pub layout: Layout,
    pub cols: u16,
    pub rows: u16,
    /// The animation's length in hundredths; 0 for a still picture.
    pub end_tick: u64,
}

/// The whole document.
pub(crate) fn render(film: &Film, frame: &Frame<'_>) -> String {
    let m = &film.metrics;
    let (w, h) = (frame.layout.width, frame.layout.height);
    let grid_w = u32::from(frame.cols) * m.cell_w;
    let grid_h = u32::from(frame.rows) * m.cell_h;
    let animated = frame.end_tick > 0;
    let mut out = String::new();
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" xml:space=\"preserve\">"
    );
    style_sheet(&mut out, film, frame);
    out.push_str("<defs>");
    for (n, look) in film.defs().iter().enumerate() {
        let _ = write!(out, "<g id=\"{}\">{look}</g>", def_name(n));
    }
    out.push_str("</defs>");
    out.push_str(&super::chrome::chrome(
        frame.chrome,
        &frame.layout,
        &film.theme,
    ));
    let _ = write!(
        out,
        "<svg x=\"{}\" y=\"{}\" width=\"{grid_w}\" height=\"{grid_h}\" data-cols=\"{}\" data-rows=\"{}\" shape-rendering=\"crispEdges\">",
        frame.layout.grid_x, frame.layout.grid_y, frame.cols, frame.rows
    );
    for (y, layer) in film.rows.iter().enumerate() {
        let top = y as u32 * m.cell_h;
        strip(&mut out, layer, animated, &format!("r{y}"), grid_w, top);
    }
    cursor(&mut out, film, animated);
    out.push_str("</svg></svg>\n");
    out
}

/// The `<style>` element: the font, the animation every strip runs, the classes and each
/// animated part's `@keyframes`.
fn style_sheet(out: &mut String, film: &Film, frame: &Frame<'_>) {
    let m = &film.metrics;
    let _ = write!(
        out,
        "<style>text{{font-family:{};font-size:{}px;fill:{};white-space:pre}}",
        m.font_family(),
        number(m.font_size),
        hex(film.theme.fg)
    );
    let animated = frame.end_tick > 0;
    if animated {
        let _ = write!(
            out,
            "g[style]{{animation:{}s step-end infinite}}",
            seconds(frame.end_tick)
        );
    }
    for rule in film.sheet.rules() {
        out.push_str(rule);
    }
    if animated {
        let grid_w = u32::from(frame.cols) * m.cell_w;
        for (y, layer) in film.rows.iter().enumerate() {
            if layer.is_animated() {
                keyframes(
                    out,
                    &format!("r{y}"),
                    layer.changes(),
                    true,
                    frame,
                    &|place| strip_shift(place, grid_w),
                );
            }
        }
        if film.cursor_look.is_animated() {
            let changes = film.cursor_look.changes();
            keyframes(out, "c", changes, true, frame, &|place| {
                strip_shift(place, 2 * m.cell_w)
            });
        }
        let places = film.cursor_place.states();
        if film.cursor_place.is_animated() {
            let changes = film.cursor_place.changes();
            keyframes(out, "p", changes, false, frame, &|place| {
                let (x, y) = places.get(place).copied().unwrap_or_default();
                let (x, y) = (u32::from(x) * m.cell_w, u32::from(y) * m.cell_h);
                format!("{x}px {y}px")
            });
        }
    }
    out.push_str("</style>");
}

/// `@keyframes name`: at each change, the `translate` of the place shown (`value`); with
/// `implicit_start`, a start at place 0 is left to the implicit 0% (no translate).
fn keyframes(
    out: &mut String,
    name: &str,
    changes: &[(u64, usize)],
    implicit_start: bool,
    frame: &Frame<'_>,
    value: &dyn Fn(usize) -> String,
) {
    let decimals = percent_decimals(frame.end_tick);
    let _ = write!(out, "@keyframes {name}{{");
    // Places shown more than once share one rule: `10%,40%{...}`.
    let mut by_place: Vec<(usize, Vec<String>)> = Vec::new();
    let mut index: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
    for &(tick, place) in changes {
        if implicit_start && (tick, place) == (0, 0) {
            continue;
        }
        let at = percent(tick, frame.end_tick, decimals);
        let i = *index.entry(place).or_insert_with(|| {
            by_place.push((place, Vec::new()));
            by_place.len() - 1
        });
        by_place[i].1.push(at);
    }
    for (place, times) in by_place {
        let _ = write!(out, "{}{{translate:{}}}", times.join(","), value(place));
    }
    out.push('}');
}

/// A row: its one look placed at `top`, or a strip of its looks slid by animation `name`.
fn strip(out: &mut String, layer: &Layer<Def>, animated: bool, name: &str, step: u32, top: u32) {
    let y = if top > 0 {
        format!(" y=\"{top}\"")
    } else {
        String::new()
    };
    if !(animated && layer.is_animated()) {
        if let Some(Some(def)) = layer
            .changes()
            .first()
            .and_then(|(_, p)| layer.states().get(*p))
        {
            let _ = write!(out, "<use href=\"#{}\"{y}/>", def_name(*def));
        }
        return;
    }
    let shift = if top > 0 {
        format!("<g transform=\"translate(0,{top})\">")
    } else {
        "<g>".to_string()
    };
    let _ = write!(out, "{shift}<g style=\"animation-name:{name}\">");
    for (place, state) in layer.states().iter().enumerate() {
        if let Some(def) = state {
            let x = place as u32 * step;
            let x = if x > 0 {
                format!(" x=\"{x}\"")
            } else {
                String::new()
            };
            let _ = write!(out, "<use href=\"#{}\"{x}/>", def_name(*def));
        }
    }
    out.push_str("</g></g>");
}

/// The cursor: its look in a one-glyph window, moved to its place.
fn cursor(out: &mut String, film: &Film, animated: bool) {
    let m = &film.metrics;
    let Some(&(_, first_place)) = film.cursor_place.changes().first() else {
        return;
    };
    let (x, y) = film.cursor_place.states()[first_place];
    let place = if animated && film.cursor_place.is_animated() {
        " style=\"animation-name:p\"".to_string()
    } else {
        format!(
            " transform=\"translate({},{})\"",
            u32::from(x) * m.cell_w,
            u32::from(y) * m.cell_h
        )
    };
    let _ = write!(
        out,
        "<g{place}><svg width=\"{}\" height=\"{}\">",
        2 * m.cell_w,
        m.cell_h
    );
    strip(out, &film.cursor_look, animated, "c", 2 * m.cell_w, 0);
    out.push_str("</svg></g>");
}

/// The strip moved left by `place` steps.
fn strip_shift(place: usize, step: u32) -> String {
    let x = place as u64 * u64::from(step);
    if x == 0 {
        "0".into()
    } else {
        format!("-{x}px")
    }
}

/// Hundredths as CSS seconds.
fn seconds(ticks: u64) -> String {
    let text = format!("{}.{:02}", ticks / 100, ticks % 100);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Decimals that place every hundredth of an `end`-hundredths animation unmistakably.
fn percent_decimals(end: u64) -> usize {
    let mut decimals = 0;
    let mut span = 100u64;
    // An offset then lands within a quarter of a hundredth of its tick.
    while span < end.saturating_mul(4) && decimals < 8 {
        span = span.saturating_mul(10);
        decimals += 1;
    }
    decimals
}

/// `tick` of `end` as a keyframe offset.
fn percent(tick: u64, end: u64, decimals: usize) -> String {
    let value = if end == 0 {
        0.0
    } else {
        tick as f64 * 100.0 / end as f64
    };
    let text = format!("{value:.decimals$}");
    let text = if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.')
    } else {
        &text
    };
    format!("{text}%")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_are_exact_to_a_hundredth() {
        for end in [1u64, 7, 300, 6_000, 60_000, 3_600_000] {
            let decimals = percent_decimals(end);
            for tick in [0, 1, end / 3, end.saturating_sub(1)] {
                let text = percent(tick, end, decimals);
                let value: f64 = text.trim_end_matches('%').parse().unwrap();
                let back = value * end as f64 / 100.0;
                assert!((back - tick as f64).abs() <= 0.25, "{end} {tick} {text}");
            }
        }
        assert_eq!(percent(50, 200, percent_decimals(200)), "25%");
        assert_eq!(seconds(1234), "12.34");
        assert_eq!(seconds(300), "3");
        assert_eq!(seconds(250), "2.5");
    }
}
