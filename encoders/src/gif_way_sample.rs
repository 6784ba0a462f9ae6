//! Which way to write a large GIF image, judged on a sample of it. An image can be written up to
//! eight ways (unchanged pixels transparent or continuing runs, global or local palette, rows
//! in order or interlaced), and compressing each whole to keep the shortest took about eight
//! greedy LZW passes for every pixel written (counted on the log flood and the dashboard). On a
//! large image each way is instead compressed over two bands of its rows, the same rows for
//! every way, and only the ways whose band codes project close to the shortest are compressed
//! whole (the best of them kept, as before): on the log flood about a fifth less CPU for the
//! same bytes.

use crate::gif_encoder::table_entries;
use crate::gif_frame_compress::push_interlaced;
use crate::gif_lzw::LzwEncoder;
use crate::gif_palette::IndexedFrame;

/// Images of at least this many pixels (and [`MIN_ROWS`] rows) are written the ways their
/// sample keeps; smaller ones are compressed every way (they cost little, and a sample of them
/// is most of them).
pub(crate) const SAMPLE_FROM_PIXELS: u64 = 150_000;
/// Rows in each of the two bands: a multiple of 8, so a band interlaced has the passes a
/// whole image has.
const BAND_ROWS: usize = 32;
/// The fewest rows an image written by its sample has: room for two bands apart.
pub(crate) const MIN_ROWS: usize = 2 * BAND_ROWS;
/// How much more than the best a way's projected bytes may be and still be compressed whole.
/// Ways that close are what a sample cannot tell apart; on the log flood a margin of 1%
/// chose ways that took 0.1-0.5% more bytes, 6% the same bytes as compressing every way.
const MARGIN: f64 = 0.06;

/// One way of writing an image: its indices, and whether its rows go interlaced.
pub(crate) struct Candidate<'a> {
    pub(crate) indexed: &'a IndexedFrame,
    pub(crate) interlaced: bool,
}

/// The indices in `candidates` (each a `width`-wide image of `rows` rows) worth compressing
/// whole, most promising first: those whose codes over the sample bands, scaled to the whole
/// image, plus their local palette, take at most [`MARGIN`] more bytes than the best's.
/// `candidates` must not be empty.
pub(crate) fn promising(
    lzw: &mut LzwEncoder,
    candidates: &[Candidate<'_>],
    width: usize,
    rows: usize,
) -> Vec<usize> {
    let bands = bands(rows);
    let total = (width * rows) as u64;
    let sampled = (width * BAND_ROWS * bands.len()) as u64;
    let mut sample = Vec::with_capacity(width * BAND_ROWS * bands.len());
    let mut projected: Vec<(u64, usize)> = Vec::with_capacity(candidates.len());
    for (at, candidate) in candidates.iter().enumerate() {
        sample.clear();
        for &first_row in &bands {
            let band = &candidate.indexed.indices[first_row * width..][..BAND_ROWS * width];
            if candidate.interlaced {
                push_interlaced(&mut sample, band, width);
            } else {
                sample.extend_from_slice(band);
            }
        }
        let palette = candidate
            .indexed
            .local_palette
            .as_ref()
            .map_or(0, |p| 3 * table_entries(p.len() / 3));
        // Codes past what would still be kept need not be written.
        let limit = (projected.iter().map(|p| p.0).min()).map_or(usize::MAX, |best| {
            let room = within_margin(best).saturating_sub(palette);
            usize::try_from(room * sampled / total).unwrap_or(usize::MAX)
        });
        let codes = lzw.compress_quick(&sample, limit);
        if codes.finished {
            projected.push((codes.bytes.len() as u64 * total / sampled + palette, at));
        }
    }
    projected.sort_unstable();
    let Some(&(best, _)) = projected.first() else {
        return vec![0];
    };
    (projected.into_iter())
        .take_while(|&(bytes, _)| bytes <= within_margin(best))
        .map(|(_, at)| at)
        .collect()
}

/// The most bytes a way may project and still be kept beside one projecting `best`.
fn within_margin(best: u64) -> u64 {
    (best as f64 * (1.0 + MARGIN)) as u64
}

/// The first rows of the two bands: centred on a quarter and three quarters of the image,
/// starting on a multiple of 8, inside it.
fn bands(rows: usize) -> Vec<usize> {
    let last_start = rows.saturating_sub(BAND_ROWS) / 8 * 8;
    [rows / 4, rows * 3 / 4]
        .iter()
        .map(|&centre| (centre.saturating_sub(BAND_ROWS / 2) / 8 * 8).min(last_start))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn indexed(indices: Vec<u8>) -> IndexedFrame {
        IndexedFrame {
            indices,
            local_palette: None,
            transparent: None,
            exact: true,
        }
    }

    #[test]
    fn the_bands_lie_inside_the_image_on_rows_a_multiple_of_eight_apart() {
        for rows in [64, 65, 100, 600, 601] {
            for first in bands(rows) {
                assert_eq!(first % 8, 0, "{rows}");
                assert!(first + BAND_ROWS <= rows, "{rows}: {first}");
            }
        }
        assert_eq!(bands(600), vec![128, 432]);
    }

    #[test]
    fn the_ways_whose_samples_compress_best_are_kept() {
        // Noise against stripes: the stripes compress far better, in either order.
        let (width, rows) = (200, 80);
        let noise: Vec<u8> = (0..width * rows)
            .map(|i| (i as u32).wrapping_mul(2_654_435_761).rotate_right(13) as u8 & 15)
            .collect();
        let stripes: Vec<u8> = (0..width * rows).map(|i| ((i / width) % 3) as u8).collect();
        let (noise, stripes) = (indexed(noise), indexed(stripes));
        let mut lzw = LzwEncoder::default();
        let candidates = [
            Candidate {
                indexed: &noise,
                interlaced: false,
            },
            Candidate {
                indexed: &stripes,
                interlaced: true,
            },
        ];
        assert_eq!(promising(&mut lzw, &candidates, width, rows), vec![1]);
        assert_eq!(promising(&mut lzw, &candidates[..1], width, rows), vec![0]);
        // Ways a sample cannot tell apart are all compressed whole.
        let same = [
            Candidate {
                indexed: &stripes,
                interlaced: false,
            },
            Candidate {
                indexed: &noise,
                interlaced: false,
            },
            Candidate {
                indexed: &stripes,
                interlaced: false,
            },
        ];
        assert_eq!(promising(&mut lzw, &same, width, rows), vec![0, 2]);
    }

    #[test]
    fn a_band_interlaced_is_its_rows_in_the_four_passes() {
        let band: Vec<u8> = (0..16).collect();
        let mut out = vec![99];
        push_interlaced(&mut out, &band, 1);
        assert_eq!(
            out,
            vec![99, 0, 8, 4, 12, 2, 6, 10, 14, 1, 3, 5, 7, 9, 11, 13, 15]
        );
    }
}
