//! The frame around the terminal grid: padding in the theme's background, an optional window
//! bar (coloured dots or rings), rounded window corners and a margin in its own colour.
//!
//! The grid is rasterized on its own canvas; [`Compositor`] paints the chrome once into the
//! full image and places each changed rectangle of the grid into it, reporting which of the
//! rectangle's pixels are really new (the rest can be written as "unchanged" by the encoders).

use crate::error::EncodeError;
use crate::raster::{Canvas, Rect, MAX_CANVAS_PIXELS};
use crate::theme::{Rgb, Theme};

/// The padding `phux rec` draws when the user does not choose: text never touches the image
/// edge. (The library's own default frame is none at all: the image is the grid.)
pub const DEFAULT_PADDING: u32 = 8;
/// Height of a window bar when the caller does not choose.
pub const DEFAULT_WINDOW_BAR_SIZE: u32 = 30;

/// The styles of window bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WindowBar {
    /// Red, yellow and green dots on the left.
    Colorful,
    /// The same dots on the right.
    ColorfulRight,
    /// Three rings on the left.
    Rings,
    /// Three rings on the right.
    RingsRight,
}

impl WindowBar {
    /// The names `--window-bar` and `Set WindowBar` take.
    pub const NAMES: [&'static str; 4] = ["Colorful", "ColorfulRight", "Rings", "RingsRight"];

    /// Parses a name from [`WindowBar::NAMES`] (any case).
    pub fn parse(name: &str) -> Option<WindowBar> {
        let all = [
            WindowBar::Colorful,
            WindowBar::ColorfulRight,
            WindowBar::Rings,
            WindowBar::RingsRight,
        ];
        Self::NAMES
            .iter()
            .position(|n| n.eq_ignore_ascii_case(name))
            .map(|i| all[i])
    }

    fn on_the_right(self) -> bool {
        matches!(self, WindowBar::ColorfulRight | WindowBar::RingsRight)
    }

    fn rings(self) -> bool {
        matches!(self, WindowBar::Rings | WindowBar::RingsRight)
    }
}

/// How the frame around the grid looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FrameChrome {
    /// Pixels of the theme's background between the grid and the window's edge.
    pub padding: u32,
    /// Pixels of `margin_fill` around the window.
    pub margin: u32,
    /// The margin's colour (and the colour outside rounded corners); default: a dark grey.
    pub margin_fill: Option<Rgb>,
    /// A window bar above the grid.
    pub window_bar: Option<WindowBar>,
    /// The bar's height in pixels.
    pub window_bar_size: u32,
    /// Radius of the window's corners in pixels.
    pub border_radius: u32,
    /// A fixed image size: the grid is centred in the window and the rest is padding.
    pub image_size: Option<(u32, u32)>,
}

impl Default for FrameChrome {
    fn default() -> Self {
        FrameChrome {
            padding: 0,
            margin: 0,
            margin_fill: None,
            window_bar: None,
            window_bar_size: DEFAULT_WINDOW_BAR_SIZE,
            border_radius: 0,
            image_size: None,
        }
    }
}

/// The colour of a margin nobody chose.
pub(crate) const DEFAULT_MARGIN_FILL: Rgb = Rgb(0x17, 0x17, 0x17);
/// The three dots of a colourful bar.
const DOTS: [Rgb; 3] = [
    Rgb(0xFF, 0x5F, 0x58),
    Rgb(0xFF, 0xBD, 0x2E),
    Rgb(0x18, 0xC1, 0x32),
];

/// Where everything goes in the image.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// The whole image.
    pub width: u32,
    pub height: u32,
    /// The window (bar, padding and grid) inside the margin.
    pub window: Rect,
    /// The bar's height (0 without a bar).
    pub bar: u32,
    /// The grid's top-left corner.
    pub grid_x: u32,
    pub grid_y: u32,
}

impl FrameChrome {
    fn bar_height(&self) -> u32 {
        if self.window_bar.is_some() {
            self.window_bar_size
        } else {
            0
        }
    }

    /// The grid (in pixels) that fits a fixed image size: what is left inside the margin, the
    /// bar and the padding. `None` when no pixel is left.
    pub fn grid_room(&self, width: u32, height: u32) -> Option<(u32, u32)> {
        let w = width.checked_sub(2 * self.margin + 2 * self.padding)?;
        let h = height.checked_sub(2 * self.margin + 2 * self.padding + self.bar_height())?;
        (w > 0 && h > 0).then_some((w, h))
    }

    /// Places a `grid_w`×`grid_h` pixel grid.
    pub fn layout(&self, grid_w: u32, grid_h: u32) -> Result<Layout, EncodeError> {
        let bar = self.bar_height();
        let natural = (
            grid_w + 2 * self.padding + 2 * self.margin,
            grid_h + 2 * self.padding + 2 * self.margin + bar,
        );
        let (width, height) = match self.image_size {
            Some((w, h)) if w >= natural.0 && h >= natural.1 => (w, h),
            Some((w, h)) => {
                return Err(EncodeError::ChromeTooSmall {
                    width: w,
                    height: h,
                    needed_width: natural.0,
                    needed_height: natural.1,
                })
            }
            None => natural,
        };
        if u64::from(width) * u64::from(height) > MAX_CANVAS_PIXELS
            || width > u32::from(u16::MAX)
            || height > u32::from(u16::MAX)
        {
            return Err(EncodeError::BadDimensions {
                width: width.into(),
                height: height.into(),
                max: u64::from(u16::MAX),
            });
        }
        let window = Rect {
            x: self.margin,
            y: self.margin,
            width: width - 2 * self.margin,
            height: height - 2 * self.margin,
        };
        let grid_x = window.x + (window.width - grid_w) / 2;
        let grid_y = window.y + bar + (window.height - bar - grid_h) / 2;
        Ok(Layout {
            width,
            height,
            window,
            bar,
            grid_x,
            grid_y,
        })
    }
}

/// The full image: the chrome, painted once, with the grid placed into it frame by frame.
#[derive(Debug)]
pub struct Compositor {
    layout: Layout,
    radius: u32,
    image: Canvas,
    first: bool,
}

/// A changed rectangle of the full image: its pixels, and which of them differ from the image
/// before (all of them on the first frame).
#[derive(Debug, Clone)]
pub struct Placed {
    pub rect: Rect,
    pub pixels: Vec<u32>,
    pub changed: Vec<bool>,
}

impl Compositor {
    /// Paints the chrome around a `grid_w`×`grid_h` grid drawn with `theme`.
    pub fn new(
        chrome: &FrameChrome,
        theme: &Theme,
        grid_w: u32,
        grid_h: u32,
    ) -> Result<Compositor, EncodeError> {
        let layout = chrome.layout(grid_w, grid_h)?;
        let outside = chrome.margin_fill.unwrap_or(DEFAULT_MARGIN_FILL).packed();
        let mut this = Compositor {
            layout,
            radius: chrome
                .border_radius
                .min(layout.window.width / 2)
                .min(layout.window.height / 2),
            image: Canvas {
                width: layout.width,
                height: layout.height,
                pixels: vec![outside; layout.width as usize * layout.height as usize],
            },
            first: true,
        };
        this.paint_window(theme);
        if let Some(bar) = chrome.window_bar {
            this.paint_bar(bar, theme);
        }
        Ok(this)
    }

    /// The image as it stands.
    pub fn image(&self) -> &Canvas {
        &self.image
    }

    /// Where things are.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// Whether (`x`, `y`) of the image lies inside the window's rounded outline.
    fn inside_window(&self, x: u32, y: u32) -> bool {
        let w = self.layout.window;
        if x < w.x || y < w.y || x >= w.x + w.width || y >= w.y + w.height {
            return false;
        }
        let r = self.radius;
        if r == 0 {
            return true;
        }
        let (lx, ly) = (x - w.x, y - w.y);
        let cx = if lx < r {
            r
        } else if lx >= w.width - r {
            w.width - r - 1
        } else {
            return true;
        };
        let cy = if ly < r {
            r
        } else if ly >= w.height - r {
            w.height - r - 1
        } else {
            return true;
        };
        let (dx, dy) = (f64::from(lx) - f64::from(cx), f64::from(ly) - f64::from(cy));
        dx * dx + dy * dy <= (f64::from(r) + 0.5) * (f64::from(r) + 0.5)
    }

    fn set(&mut self, x: u32, y: u32, color: u32) {
        let i = y as usize * self.image.width as usize + x as usize;
        if let Some(p) = self.image.pixels.get_mut(i) {
            *p = color;
        }
    }

    fn paint_window(&mut self, theme: &Theme) {
        let w = self.layout.window;
        let bg = theme.bg.packed();
        for y in w.y..w.y + w.height {
            for x in w.x..w.x + w.width {
                if self.inside_window(x, y) {
                    self.set(x, y, bg);
                }
            }
        }
    }

    fn paint_bar(&mut self, bar: WindowBar, theme: &Theme) {
        let w = self.layout.window;
        let height = self.layout.bar;
        let tint = bar_tint(theme).packed();
        for y in w.y..w.y + height {
            for x in w.x..w.x + w.width {
                if self.inside_window(x, y) {
                    self.set(x, y, tint);
                }
            }
        }
        for dot in bar_dots(&self.layout, bar, theme) {
            self.disc(dot.cx, dot.cy, dot.r, dot.color.packed(), dot.ring);
        }
    }

    /// A filled disc, or a one-pixel ring.
    fn disc(&mut self, cx: u32, cy: u32, r: u32, color: u32, ring: bool) {
        let rr = f64::from(r) + 0.3;
        for y in cy.saturating_sub(r)..=cy + r {
            for x in cx.saturating_sub(r)..=cx + r {
                let (dx, dy) = (f64::from(x) - f64::from(cx), f64::from(y) - f64::from(cy));
                let d = (dx * dx + dy * dy).sqrt();
                if d <= rr && (!ring || d >= rr - 1.3) && self.inside_window(x, y) {
                    self.set(x, y, color);
                }
            }
        }
    }

    /// Places `rect` of the grid canvas into the image; the first call returns the whole image.
    pub fn place(&mut self, grid: &Canvas, rect: Rect) -> Placed {
        let (ox, oy) = (self.layout.grid_x, self.layout.grid_y);
        let target = Rect {
            x: rect.x + ox,
            y: rect.y + oy,
            ..rect
        };
        let mut changed = Vec::with_capacity(rect.width as usize * rect.height as usize);
        let corners = self.radius > 0;
        for row in 0..rect.height {
            let src = (rect.y + row) as usize * grid.width as usize + rect.x as usize;
            let y = target.y + row;
            let dst = y as usize * self.image.width as usize + target.x as usize;
            for col in 0..rect.width as usize {
                let new = grid.pixels.get(src + col).copied().unwrap_or(0);
                let keep = corners && !self.inside_window(target.x + col as u32, y);
                let Some(old) = self.image.pixels.get_mut(dst + col) else {
                    changed.push(false);
                    continue;
                };
                let new = if keep { *old } else { new };
                changed.push(*old != new);
                *old = new;
            }
        }
        if std::mem::take(&mut self.first) {
            let all = Rect {
                x: 0,
                y: 0,
                width: self.image.width,
                height: self.image.height,
            };
            return Placed {
                rect: all,
                pixels: self.image.pixels.clone(),
                changed: vec![true; self.image.pixels.len()],
            };
        }
        Placed {
            rect: target,
            pixels: self.image.extract(target),
            changed,
        }
    }
}

/// The bar's colour: the background nudged a little toward the foreground.
pub(crate) fn bar_tint(theme: &Theme) -> Rgb {
    mix(theme.bg, theme.fg, 0.08)
}

/// One of the window bar's three dots (or rings), in image pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BarDot {
    pub cx: u32,
    pub cy: u32,
    pub r: u32,
    pub color: Rgb,
    /// A one-pixel ring rather than a filled disc.
    pub ring: bool,
}

/// Where the bar's dots go in `layout`: every format draws them here.
pub(crate) fn bar_dots(layout: &Layout, bar: WindowBar, theme: &Theme) -> [BarDot; 3] {
    let w = layout.window;
    let height = layout.bar;
    let r = (height / 5).max(2);
    let step = r * 3 + r / 2;
    let cy = w.y + height / 2;
    let first = height / 2 + r;
    std::array::from_fn(|i| {
        let offset = first + step * i as u32 - r;
        let cx = if bar.on_the_right() {
            (w.x + w.width).saturating_sub(offset + 1)
        } else {
            w.x + offset
        };
        let color = if bar.rings() {
            mix(theme.bg, theme.fg, 0.45)
        } else {
            DOTS[i]
        };
        BarDot {
            cx,
            cy,
            r,
            color,
            ring: bar.rings(),
        }
    })
}

/// `a` moved `t` of the way toward `b`.
fn mix(a: Rgb, b: Rgb, t: f64) -> Rgb {
    let m = |x: u8, y: u8| (f64::from(x) + (f64::from(y) - f64::from(x)) * t).round() as u8;
    Rgb(m(a.0, b.0), m(a.1, b.1), m(a.2, b.2))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(w: u32, h: u32, color: u32) -> Canvas {
        Canvas {
            width: w,
            height: h,
            pixels: vec![color; (w * h) as usize],
        }
    }

    #[test]
    fn padding_margin_and_bar_size_the_image() {
        let chrome = FrameChrome {
            padding: 10,
            margin: 5,
            window_bar: Some(WindowBar::Colorful),
            window_bar_size: 30,
            ..FrameChrome::default()
        };
        let l = chrome.layout(80, 32).unwrap();
        assert_eq!((l.width, l.height), (80 + 20 + 10, 32 + 20 + 10 + 30));
        assert_eq!((l.grid_x, l.grid_y), (15, 5 + 30 + 10));
    }

    #[test]
    fn a_fixed_size_centres_the_grid_and_refuses_a_grid_too_large() {
        let chrome = FrameChrome {
            padding: 10,
            image_size: Some((120, 60)),
            ..FrameChrome::default()
        };
        let l = chrome.layout(96, 32).unwrap();
        assert_eq!((l.grid_x, l.grid_y), (12, 14));
        assert_eq!(chrome.grid_room(120, 60), Some((100, 40)));
        assert!(chrome.layout(110, 32).is_err());
    }

    #[test]
    fn the_first_frame_is_the_whole_image_and_later_ones_mark_what_changed() {
        let theme = Theme::default();
        let chrome = FrameChrome {
            padding: 2,
            border_radius: 2,
            ..FrameChrome::default()
        };
        let mut c = Compositor::new(&chrome, &theme, 4, 2).unwrap();
        let mut g = grid(4, 2, theme.bg.packed());
        let all = Rect {
            x: 0,
            y: 0,
            width: 4,
            height: 2,
        };
        let first = c.place(&g, all);
        assert_eq!(
            first.rect,
            Rect {
                x: 0,
                y: 0,
                width: 8,
                height: 6
            }
        );
        assert!(first.changed.iter().all(|c| *c));
        // The rounded corner keeps the margin colour.
        assert_eq!(c.image().pixels[0], DEFAULT_MARGIN_FILL.packed());
        g.pixels[1] = 0x00FF_FFFF;
        let next = c.place(&g, all);
        assert_eq!(
            next.rect,
            Rect {
                x: 2,
                y: 2,
                width: 4,
                height: 2
            }
        );
        assert_eq!(next.changed.iter().filter(|c| **c).count(), 1);
        assert!(next.changed[1]);
    }
}
