//! Maps pixels to GIF colour indices: one exact global palette while the recording has at most
//! 256 colours, exact local palettes for frames beyond that, and as last resort, for a frame of
//! more than 256 colours, its 256 most used colours kept exact and the rest drawn in the nearest
//! of them (backgrounds and text cover the most pixels, so they stay exact; antialiased edges
//! and rare colours move).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::theme::Rgb;

/// Colours to palette indices. A frame's every pixel that differs from the one before it is
/// looked up here, so the hash is one multiply rather than std's SipHash (which took a third of
/// the lookups' time on a log flood); the indices, and so the files, are the same.
type ColorIndex = HashMap<u32, u8, BuildHasherDefault<ColorHasher>>;

/// Hashes a `0x00RRGGBB` pixel: a multiply spreads every channel over the high bits and the
/// fold brings them down to the low ones, which pick the bucket.
#[derive(Default)]
struct ColorHasher(u64);

impl Hasher for ColorHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u32(u32::from(b));
        }
    }

    fn write_u32(&mut self, color: u32) {
        let h = (self.0 ^ u64::from(color)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = h ^ (h >> 32);
    }
}

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
    index: ColorIndex,
}

/// A frame's pixels as indices, with the local palette they refer to (none: the global one).
#[derive(Debug, Clone)]
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

    /// `frame` (indexed against this palette) against a local palette of only the colours it
    /// uses, when that narrows its LZW codes: they start one bit wider than the frame's
    /// minimum code size, which follows its highest index, so three colours at global indices
    /// 0, 9 and 17 code with 6-bit codes, and with 3-bit ones as local indices 0, 1 and 2.
    /// `None` when the local indices would need codes as wide.
    pub fn compact(&self, frame: &IndexedFrame) -> Option<IndexedFrame> {
        if frame.local_palette.is_some() {
            return None;
        }
        let mut local: [Option<u8>; 256] = [None; 256];
        let mut used: Vec<u8> = Vec::new();
        for &i in &frame.indices {
            let slot = &mut local[usize::from(i)];
            if slot.is_none() {
                *slot = Some(u8::try_from(used.len()).ok()?);
                used.push(i);
            }
        }
        let highest = used.iter().copied().max()?;
        if min_code_size(used.len()) >= min_code_size(usize::from(highest) + 1) {
            return None;
        }
        let colors: Vec<u32> = used
            .iter()
            .map(|&i| self.colors.get(usize::from(i)).copied().unwrap_or(0))
            .collect();
        Some(IndexedFrame {
            indices: (frame.indices.iter())
                .map(|&i| local[usize::from(i)].unwrap_or(0))
                .collect(),
            local_palette: Some(rgb_bytes(&colors)),
            transparent: frame.transparent.and_then(|t| local[usize::from(t)]),
            exact: frame.exact,
        })
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

/// A frame with its own palette: exact when it has at most 256 colours, else its most used ones.
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
    popular_frame(pixels)
}

/// The 256 most used colours exactly (ties: first seen), every other colour as the nearest of
/// them by squared RGB distance.
fn popular_frame(pixels: &[u32]) -> IndexedFrame {
    let mut counts: HashMap<u32, (usize, usize)> = HashMap::new();
    for (i, p) in pixels.iter().enumerate() {
        counts.entry(*p).or_insert((0, i)).0 += 1;
    }
    let mut by_use: Vec<(u32, usize, usize)> =
        counts.iter().map(|(c, (n, i))| (*c, *n, *i)).collect();
    by_use.sort_by(|a, b| b.1.cmp(&a.1).then(a.2.cmp(&b.2)));
    let palette: Vec<u32> = by_use.iter().take(MAX_COLORS).map(|e| e.0).collect();
    let mut index: HashMap<u32, u8> = palette
        .iter()
        .enumerate()
        .map(|(i, c)| (*c, u8::try_from(i).unwrap_or(u8::MAX)))
        .collect();
    let mut indices = Vec::with_capacity(pixels.len());
    for p in pixels {
        let i = match index.get(p) {
            Some(i) => *i,
            None => {
                let i = nearest(&palette, *p);
                index.insert(*p, i);
                i
            }
        };
        indices.push(i);
    }
    IndexedFrame {
        indices,
        local_palette: Some(rgb_bytes(&palette)),
        transparent: None,
        exact: false,
    }
}

/// The index of the colour in `palette` closest to `color`.
fn nearest(palette: &[u32], color: u32) -> u8 {
    let Rgb(r, g, b) = Rgb::from_packed(color);
    let distance = |c: &u32| {
        let Rgb(pr, pg, pb) = Rgb::from_packed(*c);
        let d = |x: u8, y: u8| (i32::from(x) - i32::from(y)).pow(2);
        d(r, pr) + d(g, pg) + d(b, pb)
    };
    let best = palette
        .iter()
        .enumerate()
        .min_by_key(|(_, c)| distance(c))
        .map_or(0, |(i, _)| i);
    u8::try_from(best).unwrap_or(u8::MAX)
}

/// The LZW minimum code size of indices below `colors` (GIF's floor is 2).
fn min_code_size(colors: usize) -> u32 {
    colors.max(4).next_power_of_two().trailing_zeros()
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
    fn more_than_256_colours_in_one_frame_keep_the_most_used_exact() {
        let mut p = GlobalPalette::default();
        // 300 colours, each used once, except colour 299 used a hundred times.
        let mut pixels: Vec<u32> = (0..300).map(|i| i * 50_000).collect();
        pixels.extend(std::iter::repeat_n(299 * 50_000, 100));
        let f = p.index_frame(&pixels);
        assert_eq!(p.len(), 0);
        let local = f.local_palette.unwrap();
        assert_eq!(local.len(), 3 * 256);
        let colour = |i: u8| {
            let i = 3 * usize::from(i);
            Rgb(local[i], local[i + 1], local[i + 2]).packed()
        };
        assert_eq!(
            colour(f.indices[299]),
            299 * 50_000,
            "the most used is exact"
        );
        assert_eq!(colour(f.indices[0]), 0, "first seen wins ties");
        // A colour that did not make it is drawn in its nearest neighbour.
        let dropped = f.indices[298];
        let got = Rgb::from_packed(colour(dropped));
        let want = Rgb::from_packed(298 * 50_000);
        let d = |a: u8, b: u8| (i32::from(a) - i32::from(b)).abs();
        assert!(
            d(got.0, want.0) + d(got.1, want.1) + d(got.2, want.2) < 120,
            "{got:?} {want:?}"
        );
    }
}
