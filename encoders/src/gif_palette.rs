//! Maps pixels to GIF colour indices: one exact global palette while the recording has at most
//! 256 colours, exact local palettes for frames beyond that, a fixed 6×7×6 cube as last resort.

use std::collections::HashMap;

use crate::theme::Rgb;

/// The value standing for "this pixel did not change": written as the transparent index.
/// No real pixel has it (pixels are `0x00RRGGBB`).
pub const UNCHANGED: u32 = 0xFF00_0000;

/// Colours a GIF palette can hold.
const MAX_COLORS: usize = 256;

/// The palette in the file header, grown in order of first appearance (so output is
/// deterministic) as frames bring new colours.
#[derive(Debug, Default)]
pub struct GlobalPalette {
    colors: Vec<u32>,
    index: HashMap<u32, u8>,
}

/// A frame's pixels as indices, with the local palette they refer to (none: the global one).
#[derive(Debug)]
pub struct IndexedFrame {
    /// One index per pixel.
    pub indices: Vec<u8>,
    /// `r, g, b` triples of a local palette, or `None` for the global one.
    pub local_palette: Option<Vec<u8>>,
    /// The index of [`UNCHANGED`] when the frame has such pixels.
    pub transparent: Option<u8>,
    /// False for the 6×7×6 cube fallback, where colours are approximated.
    pub exact: bool,
}

impl GlobalPalette {
    /// Number of colours so far.
    pub fn len(&self) -> usize {
        self.colors.len()
    }

    /// The palette as `r, g, b` triples.
    pub fn rgb_bytes(&self) -> Vec<u8> {
        rgb_bytes(&self.colors)
    }

    /// Drops colours added after the palette had `len` entries (a frame that was not written).
    pub fn truncate(&mut self, len: usize) {
        for c in self.colors.drain(len.min(self.colors.len())..) {
            self.index.remove(&c);
        }
    }

    /// Indexes `pixels` against the global palette, adding new colours while there is room;
    /// when it overflows, the palette is left as it was and a local palette is used instead.
    pub fn index_frame(&mut self, pixels: &[u32]) -> IndexedFrame {
        let before = self.colors.len();
        match self.map_global(pixels) {
            Some(indices) => IndexedFrame {
                transparent: pixels
                    .contains(&UNCHANGED)
                    .then(|| self.index.get(&UNCHANGED).copied())
                    .flatten(),
                indices,
                local_palette: None,
                exact: true,
            },
            None => {
                self.truncate(before);
                local_frame(pixels)
            }
        }
    }

    fn map_global(&mut self, pixels: &[u32]) -> Option<Vec<u8>> {
        let mut out = Vec::with_capacity(pixels.len());
        let mut last: Option<(u32, u8)> = None;
        for &p in pixels {
            let i = match last {
                Some((c, i)) if c == p => i,
                _ => self.lookup_or_add(p)?,
            };
            last = Some((p, i));
            out.push(i);
        }
        Some(out)
    }

    fn lookup_or_add(&mut self, color: u32) -> Option<u8> {
        if let Some(i) = self.index.get(&color) {
            return Some(*i);
        }
        let i = u8::try_from(self.colors.len()).ok()?;
        self.colors.push(color);
        self.index.insert(color, i);
        Some(i)
    }
}

/// A frame with its own palette: exact when it has at most 256 colours, else the 6×7×6 cube.
fn local_frame(pixels: &[u32]) -> IndexedFrame {
    let mut own = GlobalPalette::default();
    if let Some(indices) = own.map_global(pixels) {
        return IndexedFrame {
            indices,
            local_palette: Some(own.rgb_bytes()),
            transparent: own.index.get(&UNCHANGED).copied(),
            exact: true,
        };
    }
    let indices = pixels.iter().map(|p| cube_index(*p)).collect();
    IndexedFrame {
        indices,
        local_palette: Some(cube_palette()),
        transparent: None,
        exact: false,
    }
}

/// Levels per channel of the fallback cube (green gets the extra level: the eye sees it best).
const CUBE: (u32, u32, u32) = (6, 7, 6);

fn cube_index(p: u32) -> u8 {
    let Rgb(r, g, b) = Rgb::from_packed(p);
    let q = |v: u8, levels: u32| (u32::from(v) * (levels - 1) + 127) / 255;
    let i = (q(r, CUBE.0) * CUBE.1 + q(g, CUBE.1)) * CUBE.2 + q(b, CUBE.2);
    u8::try_from(i).unwrap_or(u8::MAX)
}

fn cube_palette() -> Vec<u8> {
    let level = |i: u32, levels: u32| u8::try_from(i * 255 / (levels - 1)).unwrap_or(u8::MAX);
    let mut out = Vec::with_capacity(3 * MAX_COLORS);
    for r in 0..CUBE.0 {
        for g in 0..CUBE.1 {
            for b in 0..CUBE.2 {
                out.extend([level(r, CUBE.0), level(g, CUBE.1), level(b, CUBE.2)]);
            }
        }
    }
    out
}

fn rgb_bytes(colors: &[u32]) -> Vec<u8> {
    colors
        .iter()
        .flat_map(|c| {
            let Rgb(r, g, b) = Rgb::from_packed(*c);
            [r, g, b]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_get_indices_in_order_of_first_appearance() {
        let mut p = GlobalPalette::default();
        let f = p.index_frame(&[0x00FF_0000, 0x0000_00FF, 0x00FF_0000]);
        assert_eq!(f.indices, vec![0, 1, 0]);
        assert!(f.local_palette.is_none());
        assert_eq!(p.rgb_bytes(), vec![255, 0, 0, 0, 0, 255]);
    }

    #[test]
    fn overflow_uses_an_exact_local_palette_and_keeps_the_global_one() {
        let mut p = GlobalPalette::default();
        let first: Vec<u32> = (0..200).collect();
        p.index_frame(&first);
        let second: Vec<u32> = (1000..1100).collect();
        let f = p.index_frame(&second);
        assert_eq!(p.len(), 200);
        let local = f.local_palette.unwrap();
        assert_eq!(local.len(), 300);
        let i = usize::from(f.indices[7]);
        assert_eq!(
            Rgb(local[3 * i], local[3 * i + 1], local[3 * i + 2]),
            Rgb::from_packed(1007)
        );
    }

    #[test]
    fn more_than_256_colours_in_one_frame_fall_back_to_the_cube() {
        let mut p = GlobalPalette::default();
        let pixels: Vec<u32> = (0..300).map(|i| i * 50_000).collect();
        let f = p.index_frame(&pixels);
        assert_eq!(p.len(), 0);
        assert_eq!(f.local_palette.unwrap().len(), 3 * 252);
        assert!(f.indices.iter().all(|i| *i < 252));
        assert_eq!(cube_index(0x00FF_FFFF), 251);
    }
}
