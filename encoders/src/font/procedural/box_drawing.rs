//! Box drawing U+2500–U+257F: light, heavy and double lines, dashes, arcs and diagonals.
//!
//! Every line is placed on the same centre column/row in every glyph and runs to the cell edge,
//! so adjacent cells join without gaps.

use crate::font::{Glyph, GlyphKind, CELL_WIDTH, GLYPH_HEIGHT};

/// The weight of one arm (the half-line from the centre to an edge).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Arm {
    None,
    Light,
    Heavy,
    Double,
}

/// The centre column of a vertical light line.
const CX: usize = 3;
/// The centre row of a horizontal light line.
const CY: usize = 7;

impl Arm {
    fn from_code(c: u8) -> Arm {
        match c {
            b'l' => Arm::Light,
            b'h' => Arm::Heavy,
            b'd' => Arm::Double,
            _ => Arm::None,
        }
    }

    /// The offsets (relative to the centre line) this arm's strokes occupy across its length.
    fn offsets(self) -> &'static [isize] {
        match self {
            Arm::None => &[],
            Arm::Light => &[0],
            Arm::Heavy => &[-1, 0, 1],
            Arm::Double => &[-1, 1],
        }
    }

    fn present(self) -> bool {
        self != Arm::None
    }
}

/// Arms of U+2500..U+257F as "URDL" (up, right, down, left) with `.` none, `l` light, `h` heavy,
/// `d` double; `*` marks the glyphs drawn separately (dashes, arcs, diagonals).
const ARMS: [&str; 128] = [
    ".l.l", ".h.h", "l.l.", "h.h.", "*", "*", "*", "*", "*", "*", "*", "*", // 2500
    ".ll.", ".hl.", ".lh.", ".hh.", "..ll", "..lh", "..hl", "..hh", // 250C
    "ll..", "lh..", "hl..", "hh..", "l..l", "l..h", "h..l", "h..h", // 2514
    "lll.", "lhl.", "hll.", "llh.", "hlh.", "hhl.", "lhh.", "hhh.", // 251C
    "l.ll", "l.lh", "h.ll", "l.hl", "h.hl", "h.lh", "l.hh", "h.hh", // 2524
    ".lll", ".llh", ".hll", ".hlh", ".lhl", ".lhh", ".hhl", ".hhh", // 252C
    "ll.l", "ll.h", "lh.l", "lh.h", "hl.l", "hl.h", "hh.l", "hh.h", // 2534
    "llll", "lllh", "lhll", "lhlh", "hlll", "llhl", "hlhl", "hllh", // 253C
    "hhll", "llhh", "lhhl", "hhlh", "lhhh", "hlhh", "hhhl", "hhhh", // 2544
    "*", "*", "*", "*", // 254C
    ".d.d", "d.d.", ".dl.", ".ld.", ".dd.", "..ld", "..dl", "..dd", // 2550
    "ld..", "dl..", "dd..", "l..d", "d..l", "d..d", "ldl.", "dld.", // 2558
    "ddd.", "l.ld", "d.dl", "d.dd", ".dld", ".ldl", ".ddd", "ld.d", // 2560
    "dl.l", "dd.d", "ldld", "dldl", "dddd", "*", "*", "*", // 2568
    "*", "*", "*", "*", "...l", "l...", ".l..", "..l.", // 2570
    "...h", "h...", ".h..", "..h.", ".h.l", "l.h.", ".l.h", "h.l.", // 2578
];

/// The drawn glyph for a code point in U+2500..=U+257F.
pub fn draw(cp: u32) -> Option<Glyph> {
    let index = usize::try_from(cp.checked_sub(0x2500)?).ok()?;
    let spec = ARMS.get(index)?.as_bytes();
    let mut g = Glyph::empty(false, GlyphKind::Drawn);
    if let [u, r, d, l] = *spec {
        let arms = [u, r, d, l].map(Arm::from_code);
        draw_arms(&mut g, arms);
    } else {
        draw_special(&mut g, cp)?;
    }
    Some(g)
}

/// Extent of the vertical arms across x (min, max), or the centre when there are none.
fn x_extent(arms: &[Arm; 4]) -> (usize, usize) {
    span(&[arms[0], arms[2]], CX)
}

/// Extent of the horizontal arms across y (min, max), or the centre when there are none.
fn y_extent(arms: &[Arm; 4]) -> (usize, usize) {
    span(&[arms[1], arms[3]], CY)
}

fn span(arms: &[Arm], centre: usize) -> (usize, usize) {
    let offs = arms.iter().flat_map(|a| a.offsets().iter().copied());
    let (lo, hi) = offs.fold((0isize, 0isize), |(lo, hi), o| (lo.min(o), hi.max(o)));
    (
        centre.saturating_add_signed(lo),
        centre.saturating_add_signed(hi),
    )
}

/// Draws all four arms; `arms` is [up, right, down, left].
fn draw_arms(g: &mut Glyph, arms: [Arm; 4]) {
    let [up, right, down, left] = arms;
    let (xmin, xmax) = x_extent(&arms);
    let (ymin, ymax) = y_extent(&arms);
    // A double line passing straight through keeps its gap open: a crossing stroke stops at it.
    let v_through = up == Arm::Double && down == Arm::Double;
    let h_through = left == Arm::Double && right == Arm::Double;
    for off in right.offsets() {
        let y = CY.saturating_add_signed(*off);
        let start = line_start(right, *off, up, down, v_through, (xmin, xmax));
        g.fill(start, y, CELL_WIDTH, y + 1);
    }
    for off in left.offsets() {
        let y = CY.saturating_add_signed(*off);
        let end = line_end(left, *off, up, down, v_through, (xmin, xmax));
        g.fill(0, y, end + 1, y + 1);
    }
    for off in down.offsets() {
        let x = CX.saturating_add_signed(*off);
        let start = line_start(down, *off, left, right, h_through, (ymin, ymax));
        g.fill(x, start, x + 1, GLYPH_HEIGHT);
    }
    for off in up.offsets() {
        let x = CX.saturating_add_signed(*off);
        let end = line_end(up, *off, left, right, h_through, (ymin, ymax));
        g.fill(x, 0, x + 1, end + 1);
    }
}

/// Where a stroke of an arm toward the far edge (right or down) starts.
///
/// `before`/`after` are the perpendicular arms on the stroke's low and high side (up/down for a
/// horizontal arm, left/right for a vertical one); `extent` is the perpendicular strokes' span.
fn line_start(
    arm: Arm,
    off: isize,
    before: Arm,
    after: Arm,
    through: bool,
    extent: (usize, usize),
) -> usize {
    let (lo, hi) = extent;
    if arm == Arm::Double {
        // The outer stroke wraps round the corner; the inner one stops at the near perpendicular.
        let side = if off < 0 { before } else { after };
        return if side.present() { hi } else { lo };
    }
    if through {
        hi
    } else {
        lo
    }
}

/// Where a stroke of an arm toward the near edge (left or up) ends: [`line_start`] seen from
/// the other side, so the perpendicular strokes' span is read from its far end.
fn line_end(
    arm: Arm,
    off: isize,
    before: Arm,
    after: Arm,
    through: bool,
    (lo, hi): (usize, usize),
) -> usize {
    line_start(arm, off, before, after, through, (hi, lo))
}

/// Dashes, arcs and diagonals.
fn draw_special(g: &mut Glyph, cp: u32) -> Option<()> {
    match cp {
        0x2504 => dashes(g, false, Arm::Light, 3),
        0x2505 => dashes(g, false, Arm::Heavy, 3),
        0x2506 => dashes(g, true, Arm::Light, 3),
        0x2507 => dashes(g, true, Arm::Heavy, 3),
        0x2508 => dashes(g, false, Arm::Light, 4),
        0x2509 => dashes(g, false, Arm::Heavy, 4),
        0x250A => dashes(g, true, Arm::Light, 4),
        0x250B => dashes(g, true, Arm::Heavy, 4),
        0x254C => dashes(g, false, Arm::Light, 2),
        0x254D => dashes(g, false, Arm::Heavy, 2),
        0x254E => dashes(g, true, Arm::Light, 2),
        0x254F => dashes(g, true, Arm::Heavy, 2),
        0x256D => arc(g, 1, 1),
        0x256E => arc(g, -1, 1),
        0x256F => arc(g, -1, -1),
        0x2570 => arc(g, 1, -1),
        0x2571 => diagonal(g, true),
        0x2572 => diagonal(g, false),
        0x2573 => {
            diagonal(g, true);
            diagonal(g, false);
        }
        _ => return None,
    }
    Some(())
}

/// `count` dashes along the cell, each segment with a gap at its end so the pattern tiles.
fn dashes(g: &mut Glyph, vertical: bool, weight: Arm, count: usize) {
    let len = if vertical { GLYPH_HEIGHT } else { CELL_WIDTH };
    let gap = (len / count / 3).max(1);
    for i in 0..count {
        let a = i * len / count;
        let b = (i + 1) * len / count - gap;
        for off in weight.offsets() {
            if vertical {
                let x = CX.saturating_add_signed(*off);
                g.fill(x, a, x + 1, b);
            } else {
                let y = CY.saturating_add_signed(*off);
                g.fill(a, y, b, y + 1);
            }
        }
    }
}

/// A rounded corner joining the horizontal arm on side `sx` (+1 right, -1 left) with the
/// vertical arm on side `sy` (+1 down, -1 up), radius 3 px, on the light lines' centres.
fn arc(g: &mut Glyph, sx: i32, sy: i32) {
    const R: f64 = 3.0;
    let (cx, cy) = (CX as f64 + 0.5, CY as f64 + 0.5);
    let (ox, oy) = (cx + f64::from(sx) * R, cy + f64::from(sy) * R);
    for step in 0..=32 {
        let theta = f64::from(step) * std::f64::consts::FRAC_PI_2 / 32.0;
        let x = ox - f64::from(sx) * R * theta.cos();
        let y = oy - f64::from(sy) * R * theta.sin();
        set_f(g, x, y);
    }
    let edge_x = if sx > 0 { CELL_WIDTH as f64 } else { 0.0 };
    let edge_y = if sy > 0 { GLYPH_HEIGHT as f64 } else { 0.0 };
    fill_span(g, ox, edge_x, CY, true);
    fill_span(g, oy, edge_y, CX, false);
}

/// Sets the pixel containing the point (`x`, `y`).
fn set_f(g: &mut Glyph, x: f64, y: f64) {
    if x >= 0.0 && y >= 0.0 {
        g.set(x.floor() as usize, y.floor() as usize);
    }
}

/// A straight light stroke from coordinate `from` to the edge at `to` along row/column `at`.
fn fill_span(g: &mut Glyph, from: f64, to: f64, at: usize, horizontal: bool) {
    let (a, b) = if from < to { (from, to) } else { (to, from) };
    let (a, b) = (a.floor().max(0.0) as usize, b.ceil().max(0.0) as usize);
    if horizontal {
        g.fill(a, at, b, at + 1);
    } else {
        g.fill(at, a, at + 1, b);
    }
}

/// One pixel per row along the cell's diagonal, so diagonals continue across cells.
fn diagonal(g: &mut Glyph, rising: bool) {
    for y in 0..GLYPH_HEIGHT {
        let x = y * CELL_WIDTH / GLYPH_HEIGHT;
        g.set(if rising { CELL_WIDTH - 1 - x } else { x }, y);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glyph(ch: char) -> Glyph {
        draw(u32::from(ch)).unwrap()
    }

    fn show(g: &Glyph) -> String {
        (0..GLYPH_HEIGHT)
            .map(|y| {
                (0..CELL_WIDTH)
                    .map(|x| if g.pixel(x, y) { '#' } else { '.' })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn horizontal_and_vertical_lines_touch_both_edges() {
        let h = glyph('─');
        assert!(h.pixel(0, CY) && h.pixel(CELL_WIDTH - 1, CY));
        let v = glyph('│');
        assert!(v.pixel(CX, 0) && v.pixel(CX, GLYPH_HEIGHT - 1));
    }

    #[test]
    fn corners_meet_at_the_centre() {
        let g = glyph('┌');
        assert!(g.pixel(CX, CY) && g.pixel(CELL_WIDTH - 1, CY) && g.pixel(CX, 15));
        assert!(!g.pixel(CX - 1, CY) && !g.pixel(CX, CY - 1), "{}", show(&g));
    }

    #[test]
    fn double_corner_is_hollow() {
        let g = glyph('╔');
        assert!(g.pixel(CX - 1, CY - 1), "outer corner\n{}", show(&g));
        assert!(g.pixel(CX + 1, CY + 1), "inner corner\n{}", show(&g));
        assert!(
            !g.pixel(CX - 1, CY + 1) || !g.pixel(CX, CY + 1),
            "{}",
            show(&g)
        );
        assert!(!g.pixel(CX, CY), "gap between the strokes\n{}", show(&g));
    }

    #[test]
    fn arcs_reach_their_two_edges() {
        let g = glyph('╭');
        assert!(g.pixel(CELL_WIDTH - 1, CY), "{}", show(&g));
        assert!(g.pixel(CX, GLYPH_HEIGHT - 1), "{}", show(&g));
        let g = glyph('╯');
        assert!(g.pixel(0, CY) && g.pixel(CX, 0), "{}", show(&g));
    }

    #[test]
    fn heavy_lines_are_three_pixels_thick() {
        let g = glyph('━');
        assert!(g.pixel(0, CY - 1) && g.pixel(0, CY) && g.pixel(0, CY + 1));
        assert!(!g.pixel(0, CY - 2) && !g.pixel(0, CY + 2));
    }
}
