//! Splits a frame's changed rectangle into the few rectangles that hold its changes, when they
//! are far apart: a prompt at the top and a clock at the bottom are two small rectangles, not
//! one that spans the screen. Each rectangle is cropped to its changed pixels, so no
//! transparent margin is written either.
//!
//! A gap is cut when it spans at least the format's smallest worthwhile gap of unchanged
//! pixels: below that, the run of transparent pixels it costs is cheaper than another frame
//! header and a fresh compression dictionary. Cuts go along whole rows or whole columns of
//! the rectangle, the widest gap first, until [`MAX_PIECES`] or no gap is wide enough.

use crate::raster::Rect;

/// Most rectangles one frame is written as.
pub const MAX_PIECES: usize = 8;

/// Which pixels of a rectangle changed, row-major.
struct Mask<'a> {
    changed: &'a [bool],
    width: u32,
}

impl Mask<'_> {
    /// Row `y`'s flags for the columns of `r` (fewer where the mask ends).
    fn row(&self, y: u32, r: Rect) -> &[bool] {
        let len = self.changed.len();
        let start = (y as usize * self.width as usize + r.x as usize).min(len);
        let end = (start + r.width as usize).min(len);
        &self.changed[start..end]
    }

    /// The bounding box of the changed pixels inside `r`, if any.
    fn crop(&self, r: Rect) -> Option<Rect> {
        let mut bounds: Option<(u32, u32, u32, u32)> = None;
        for y in r.y..r.y + r.height {
            let row = self.row(y, r);
            let Some(first) = row.iter().position(|&c| c) else {
                continue;
            };
            let last = row.iter().rposition(|&c| c).unwrap_or(first);
            let (a, b) = (r.x + first as u32, r.x + last as u32);
            bounds = Some(match bounds {
                None => (a, y, b, y),
                Some((x0, y0, x1, _)) => (x0.min(a), y0, x1.max(b), y),
            });
        }
        bounds.map(|(x0, y0, x1, y1)| Rect {
            x: x0,
            y: y0,
            width: x1 - x0 + 1,
            height: y1 - y0 + 1,
        })
    }

    /// The widest run of unchanged rows or columns inside the cropped `r`, as the two cropped
    /// rectangles either side of it and the unchanged pixels it covers. One pass over the rows
    /// finds both the rows and the columns that changed.
    fn best_cut(&self, r: Rect) -> Option<Cut> {
        let mut rows = Vec::with_capacity(r.height as usize);
        let mut cols = vec![false; r.width as usize];
        for y in r.y..r.y + r.height {
            let row = self.row(y, r);
            let changed = row.contains(&true);
            rows.push(changed);
            if changed {
                for (col, &c) in cols.iter_mut().zip(row) {
                    *col |= c;
                }
            }
        }
        let by_rows = widest_gap(&rows).map(|(at, len)| {
            let above = Rect { height: at, ..r };
            let below = Rect {
                y: r.y + at + len,
                height: r.height - at - len,
                ..r
            };
            (above, below, u64::from(len) * u64::from(r.width))
        });
        let by_cols = widest_gap(&cols).map(|(at, len)| {
            let left = Rect { width: at, ..r };
            let right = Rect {
                x: r.x + at + len,
                width: r.width - at - len,
                ..r
            };
            (left, right, u64::from(len) * u64::from(r.height))
        });
        let (a, b, gap) = match (by_rows, by_cols) {
            (Some(rows), Some(cols)) => {
                if cols.2 > rows.2 {
                    cols
                } else {
                    rows
                }
            }
            (rows, cols) => rows.or(cols)?,
        };
        Some(Cut {
            parts: [self.crop(a)?, self.crop(b)?],
            gap,
        })
    }
}

/// A cut of one rectangle into two.
struct Cut {
    parts: [Rect; 2],
    gap: u64,
}

/// The start and length of the longest run of `false` in `used` (whose ends are `true`).
fn widest_gap(used: &[bool]) -> Option<(u32, u32)> {
    let mut best: Option<(u32, u32)> = None;
    let mut run_start = None;
    for (i, &u) in used.iter().enumerate() {
        let i = u32::try_from(i).unwrap_or(u32::MAX);
        match (u, run_start) {
            (false, None) => run_start = Some(i),
            (true, Some(s)) => {
                if best.is_none_or(|(_, len)| i - s > len) {
                    best = Some((s, i - s));
                }
                run_start = None;
            }
            _ => {}
        }
    }
    best
}

/// How a patch may be split: at most `max_pieces` rectangles, cut only along gaps of at least
/// `min_gap` unchanged pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SplitLimits {
    /// Most rectangles.
    pub max_pieces: usize,
    /// Fewest unchanged pixels a gap must cover to be cut out.
    pub min_gap: u64,
}

/// The changed pixels of a `rect` whose mask is `changed` (row-major, `rect`'s size) as
/// rectangles in image coordinates within `limits`, each cropped to its changed pixels, top
/// to bottom and left to right; empty when no pixel changed.
pub fn changed_rects(rect: Rect, changed: &[bool], limits: SplitLimits) -> Vec<Rect> {
    let mask = Mask {
        changed,
        width: rect.width,
    };
    let whole = Rect { x: 0, y: 0, ..rect };
    let Some(first) = mask.crop(whole) else {
        return Vec::new();
    };
    let mut pieces: Vec<(Rect, Option<Cut>)> = vec![(first, mask.best_cut(first))];
    while pieces.len() < limits.max_pieces.max(1) {
        let widest = (pieces.iter().enumerate())
            .filter_map(|(i, (_, cut))| cut.as_ref().map(|c| (i, c.gap)))
            .filter(|(_, gap)| *gap >= limits.min_gap)
            .max_by_key(|(_, gap)| *gap);
        let Some((i, _)) = widest else { break };
        let (_, cut) = pieces.swap_remove(i);
        if let Some(cut) = cut {
            for part in cut.parts {
                pieces.push((part, mask.best_cut(part)));
            }
        }
    }
    let mut rects: Vec<Rect> = pieces
        .into_iter()
        .map(|(r, _)| Rect {
            x: r.x + rect.x,
            y: r.y + rect.y,
            ..r
        })
        .collect();
    rects.sort_by_key(|r| (r.y, r.x));
    rects
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mask(width: u32, height: u32, on: &[(u32, u32)]) -> Vec<bool> {
        let mut m = vec![false; (width * height) as usize];
        for &(x, y) in on {
            m[(y * width + x) as usize] = true;
        }
        m
    }

    fn limits(max_pieces: usize) -> SplitLimits {
        SplitLimits {
            max_pieces,
            min_gap: 4096,
        }
    }

    fn rect(x: u32, y: u32, width: u32, height: u32) -> Rect {
        Rect {
            x,
            y,
            width,
            height,
        }
    }

    #[test]
    fn changes_far_apart_become_two_cropped_rectangles() {
        // A change at the top left and one at the bottom right of a 200x100 rectangle.
        let m = mask(200, 100, &[(3, 2), (4, 3), (190, 95)]);
        let rects = changed_rects(rect(10, 20, 200, 100), &m, limits(MAX_PIECES));
        assert_eq!(rects, vec![rect(13, 22, 2, 2), rect(200, 115, 1, 1)]);
    }

    #[test]
    fn changes_close_together_stay_one_rectangle_cropped_to_them() {
        let m = mask(100, 10, &[(5, 1), (40, 8)]);
        let rects = changed_rects(rect(0, 0, 100, 10), &m, limits(MAX_PIECES));
        assert_eq!(rects, vec![rect(5, 1, 36, 8)]);
    }

    #[test]
    fn side_by_side_changes_are_cut_between_columns() {
        // Two tall changes at the far left and far right, on the same rows.
        let on: Vec<(u32, u32)> = (0..100).flat_map(|y| [(0, y), (299, y)]).collect();
        let m = mask(300, 100, &on);
        let rects = changed_rects(rect(0, 0, 300, 100), &m, limits(MAX_PIECES));
        assert_eq!(rects, vec![rect(0, 0, 1, 100), rect(299, 0, 1, 100)]);
    }

    #[test]
    fn no_change_is_no_rectangle_and_the_count_is_bounded() {
        assert!(changed_rects(rect(0, 0, 4, 4), &[false; 16], limits(MAX_PIECES)).is_empty());
        // Ten changed rows, a hundred rows apart.
        let on: Vec<(u32, u32)> = (0..10)
            .flat_map(|i| (0..100).map(move |x| (x, i * 100)))
            .collect();
        let m = mask(100, 1000, &on);
        assert_eq!(changed_rects(rect(0, 0, 100, 1000), &m, limits(3)).len(), 3);
        assert_eq!(changed_rects(rect(0, 0, 100, 1000), &m, limits(1)).len(), 1);
        assert_eq!(
            changed_rects(rect(0, 0, 100, 1000), &m, limits(100)).len(),
            10
        );
    }
}
