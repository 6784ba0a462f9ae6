//! The bounding box of a frame's changed pixels: what a frame after the first is written as,
//! one rectangle holding every change, so a viewer only ever sees whole frames. Unchanged
//! pixels inside it are the writers' business (transparent, or their own colour).

use crate::raster::Rect;

/// The bounding box, in image coordinates, of the changed pixels of `rect`, whose mask is
/// `changed` (row-major, `rect`'s size); `None` when no pixel changed. Each row is read from
/// its ends, so a row with changes costs only the unchanged pixels at its two ends.
pub fn changed_bounds(rect: Rect, changed: &[bool]) -> Option<Rect> {
    let width = rect.width as usize;
    let mut bounds: Option<(u32, u32, u32, u32)> = None;
    for (y, row) in changed
        .chunks(width.max(1))
        .take(rect.height as usize)
        .enumerate()
    {
        let Some(first) = row.iter().position(|&c| c) else {
            continue;
        };
        let last = row.iter().rposition(|&c| c).unwrap_or(first);
        let (a, b) = (first as u32, last as u32);
        let y = u32::try_from(y).unwrap_or(u32::MAX);
        bounds = Some(match bounds {
            None => (a, y, b, y),
            Some((x0, y0, x1, _)) => (x0.min(a), y0, x1.max(b), y),
        });
    }
    bounds.map(|(x0, y0, x1, y1)| Rect {
        x: rect.x + x0,
        y: rect.y + y0,
        width: x1 - x0 + 1,
        height: y1 - y0 + 1,
    })
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

    fn rect(x: u32, y: u32, width: u32, height: u32) -> Rect {
        Rect {
            x,
            y,
            width,
            height,
        }
    }

    #[test]
    fn changes_far_apart_stay_one_rectangle_spanning_both() {
        // A prompt at the top left and a clock at the bottom right: one picture, one box.
        let m = mask(200, 100, &[(3, 2), (4, 3), (190, 95)]);
        let bounds = changed_bounds(rect(10, 20, 200, 100), &m);
        assert_eq!(bounds, Some(rect(13, 22, 188, 94)));
    }

    #[test]
    fn changes_close_together_are_cropped_to_them() {
        let m = mask(100, 10, &[(5, 1), (40, 8)]);
        assert_eq!(
            changed_bounds(rect(0, 0, 100, 10), &m),
            Some(rect(5, 1, 36, 8))
        );
    }

    #[test]
    fn no_change_is_no_rectangle() {
        assert_eq!(changed_bounds(rect(0, 0, 4, 4), &[false; 16]), None);
    }
}
