//! The frame around the grid as SVG shapes — margin, the window with its rounded corners, the
//! window bar and its dots — placed by the same [`Layout`] and coloured by the same rules as
//! the raster formats' [`crate::Compositor`].

use crate::frame_chrome::{bar_dots, bar_tint, FrameChrome, Layout, DEFAULT_MARGIN_FILL};
use crate::theme::Theme;

use super::metrics::number;
use super::style_sheet::hex;

/// The chrome's elements, drawn before the grid.
pub(crate) fn chrome(chrome: &FrameChrome, layout: &Layout, theme: &Theme) -> String {
    let w = layout.window;
    let radius = chrome.border_radius.min(w.width / 2).min(w.height / 2);
    let mut out = String::new();
    let whole = w.x == 0 && w.y == 0 && w.width == layout.width && w.height == layout.height;
    if !whole || radius > 0 {
        let outside = chrome.margin_fill.unwrap_or(DEFAULT_MARGIN_FILL);
        out.push_str(&format!(
            "<rect width=\"100%\" height=\"100%\" fill=\"{}\"/>",
            hex(outside)
        ));
    }
    let window = format!(
        "x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"{}",
        w.x,
        w.y,
        w.width,
        w.height,
        if radius > 0 {
            format!(" rx=\"{radius}\"")
        } else {
            String::new()
        }
    );
    out.push_str(&format!("<rect {window} fill=\"{}\"/>", hex(theme.bg)));
    let Some(bar) = chrome.window_bar.filter(|_| layout.bar > 0) else {
        return out;
    };
    // The bar keeps the window's rounded top corners: drawn clipped to the window's shape.
    out.push_str(&format!(
        "<clipPath id=\"window\"><rect {window}/></clipPath><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" clip-path=\"url(#window)\"/>",
        w.x,
        w.y,
        w.width,
        layout.bar,
        hex(bar_tint(theme))
    ));
    for dot in bar_dots(layout, bar, theme) {
        let r = dot.r as f32 + 0.3;
        if dot.ring {
            // The raster's ring: the pixels between r - 1 and r + 0.3 from the centre.
            out.push_str(&format!(
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"1.3\"/>",
                dot.cx,
                dot.cy,
                number(r - 0.65),
                hex(dot.color)
            ));
        } else {
            out.push_str(&format!(
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\"/>",
                dot.cx,
                dot.cy,
                number(r),
                hex(dot.color)
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame_chrome::WindowBar;

    #[test]
    fn no_frame_is_one_window_rectangle() {
        let chrome_options = FrameChrome::default();
        let layout = chrome_options.layout(80, 32).unwrap();
        let svg = chrome(&chrome_options, &layout, &Theme::default());
        assert_eq!(
            svg,
            "<rect x=\"0\" y=\"0\" width=\"80\" height=\"32\" fill=\"#121314\"/>"
        );
    }

    #[test]
    fn a_bar_has_three_dots_and_rounded_corners_keep_the_margin_colour() {
        let chrome_options = FrameChrome {
            padding: 8,
            margin: 4,
            border_radius: 6,
            window_bar: Some(WindowBar::Colorful),
            ..FrameChrome::default()
        };
        let layout = chrome_options.layout(80, 32).unwrap();
        let svg = chrome(&chrome_options, &layout, &Theme::default());
        assert!(svg.starts_with("<rect width=\"100%\" height=\"100%\" fill=\"#171717\"/>"));
        assert!(svg.contains("rx=\"6\""), "{svg}");
        assert_eq!(svg.matches("<circle").count(), 3, "{svg}");
        assert!(svg.contains("fill=\"#ff5f58\""), "{svg}");
    }
}
