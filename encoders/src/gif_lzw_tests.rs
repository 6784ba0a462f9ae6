//! Round trips through the `gif` crate's decoder, and comparisons with its encoder.

use std::borrow::Cow;

use super::{
    compress, compress_quick, compress_smallest, min_code_size, FullTable, Lookahead, LzwEncoder,
    Parsing, LOOKAHEADS, SEARCH_ALL_UP_TO, TRIAL_LEN, TRIAL_LOOKAHEADS,
};

const FLEXIBLE: Parsing = Parsing::Flexible(Lookahead {
    candidates: 16,
    margin: 1,
});

/// Every parsing this module has, each clearing and keeping a full table.
fn strategies() -> Vec<(Parsing, FullTable)> {
    let parsings = [Parsing::Greedy, FLEXIBLE, Parsing::Flexible(LOOKAHEADS[2])];
    (parsings.into_iter())
        .flat_map(|p| [(p, FullTable::Clear), (p, FullTable::Keep)])
        .collect()
}

/// A small deterministic generator (xorshift), so failures reproduce.
struct Noise(u64);

impl Noise {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u8 {
        (self.next() % n) as u8
    }
}

/// A one-frame GIF of `lzw` (a pre-encoded buffer) as `width`×`height`, decoded to indices.
fn decode(lzw: &[u8], width: u16, height: u16) -> Vec<u8> {
    crate::test_support::decoded_indices(&gif::Frame {
        width,
        height,
        buffer: Cow::Borrowed(lzw),
        ..gif::Frame::default()
    })
}

/// What the `gif` crate (weezl) makes of `indices`.
fn gif_crate(indices: &[u8]) -> Vec<u8> {
    let mut frame = gif::Frame {
        width: 1,
        height: 1,
        buffer: Cow::Owned(indices.to_vec()),
        ..gif::Frame::default()
    };
    frame.make_lzw_pre_encoded();
    frame.buffer.into_owned()
}

fn assert_round_trips(indices: &[u8], width: u16, what: &str) {
    let height = u16::try_from(indices.len() / usize::from(width)).unwrap();
    assert_eq!(usize::from(width) * usize::from(height), indices.len());
    for (parsing, full) in strategies() {
        let compressed = compress(indices, parsing, full);
        let decoded = decode(&compressed.bytes, width, height);
        assert!(
            decoded == indices,
            "{what}: {parsing:?}/{full:?} does not round-trip"
        );
    }
    let smallest = compress_smallest(indices);
    assert_eq!(
        decode(&smallest, width, height),
        indices,
        "{what}: smallest"
    );
    let quick = compress_quick(indices).bytes;
    assert_eq!(decode(&quick, width, height), indices, "{what}: quick");
    assert!(smallest.len() <= quick.len());
}

fn random(noise: &mut Noise, len: usize, bits: u8) -> Vec<u8> {
    let mut v: Vec<u8> = (0..len).map(|_| noise.below(1 << bits)).collect();
    v[len / 2] = ((1u16 << bits) - 1) as u8; // the largest index, so the code size is `bits`
    v
}

/// Runs of random lengths (up to a few thousand) of random symbols.
fn runs(noise: &mut Noise, len: usize, bits: u8) -> Vec<u8> {
    let mut v = Vec::with_capacity(len);
    while v.len() < len {
        let symbol = noise.below(1 << bits);
        let run = 1 + (noise.next() % 3000) as usize;
        v.extend(std::iter::repeat_n(symbol, run.min(len - v.len())));
    }
    v[0] = ((1u16 << bits) - 1) as u8;
    v
}

/// A text-like image: `cols`×`rows` cells of 8×16 glyphs drawn from a small font, with a few
/// antialiasing shades, on a background of index 0.
fn text_like(noise: &mut Noise, cols: usize, rows: usize) -> Vec<u8> {
    let font: Vec<Vec<u8>> = (0..40)
        .map(|_| {
            (0..8 * 16)
                .map(|p| {
                    let (x, y) = (p % 8, p / 8);
                    let inside = (2..6).contains(&x) && (3..13).contains(&y);
                    match noise.below(10) {
                        0..=5 if inside => 1 + noise.below(4),
                        _ => 0,
                    }
                })
                .collect()
        })
        .collect();
    let lines: Vec<Vec<usize>> = (0..rows)
        .map(|_| {
            let filled = noise.next() as usize % cols;
            (0..filled).map(|_| noise.next() as usize % 40).collect()
        })
        .collect();
    let mut image = vec![0u8; cols * 8 * rows * 16];
    for (row, glyphs) in lines.iter().enumerate() {
        for (col, &glyph) in glyphs.iter().enumerate() {
            for (p, &shade) in font[glyph].iter().enumerate() {
                let (x, y) = (col * 8 + p % 8, row * 16 + p / 8);
                image[y * cols * 8 + x] = shade;
            }
        }
    }
    image
}

#[test]
fn min_code_size_covers_the_largest_index_and_is_at_least_two() {
    assert_eq!(min_code_size(&[]), 2);
    assert_eq!(min_code_size(&[0, 1, 3]), 2);
    assert_eq!(min_code_size(&[4]), 3);
    assert_eq!(min_code_size(&[31]), 5);
    assert_eq!(min_code_size(&[32]), 6);
    assert_eq!(min_code_size(&[255]), 8);
}

#[test]
fn greedy_clearing_writes_what_the_gif_crate_writes() {
    // The same parse and the same table: any difference is a code width out of step. Only up to
    // 16 symbols: weezl 0.1 never finds the 17th string it adds after a given code (it assigns
    // the code but leaves it out of its lookup), so with more symbols it emits more codes.
    let mut noise = Noise(7);
    for bits in 2..=4 {
        for indices in [
            random(&mut noise, 20_000, bits),
            runs(&mut noise, 60_000, bits),
        ] {
            let ours = compress(&indices, Parsing::Greedy, FullTable::Clear).bytes;
            let theirs = gif_crate(&indices);
            let first_difference = ours.iter().zip(&theirs).position(|(a, b)| a != b);
            assert!(
                ours == theirs,
                "{bits} bits: {} vs {} bytes, first difference at {first_difference:?}",
                ours.len(),
                theirs.len()
            );
        }
    }
}

#[test]
fn random_data_round_trips_at_every_code_size() {
    let mut noise = Noise(1);
    for bits in 2..=8 {
        for len in [1, 2, 3, 100, 5000] {
            let indices = random(&mut noise, len, bits);
            assert_round_trips(&indices, 1, &format!("random {len} at {bits} bits"));
        }
    }
}

#[test]
fn long_runs_round_trip_at_every_code_size() {
    let mut noise = Noise(2);
    for bits in 2..=8 {
        let indices = runs(&mut noise, 200_000, bits);
        assert_round_trips(&indices, 1000, &format!("runs at {bits} bits"));
        let single = vec![0u8; 100_000];
        assert_round_trips(&single, 1000, "one run");
    }
}

#[test]
fn data_filling_the_table_several_times_round_trips_at_every_code_size() {
    let mut noise = Noise(3);
    for bits in 2..=8 {
        // Random data adds a code every symbol or two: 60 000 fill 4096 entries many times.
        let indices = random(&mut noise, 60_000, bits);
        assert!(compress(&indices, FLEXIBLE, FullTable::Clear).filled_table);
        assert_round_trips(&indices, 600, &format!("table-filling at {bits} bits"));
    }
}

#[test]
fn text_like_images_round_trip() {
    let mut noise = Noise(4);
    let image = text_like(&mut noise, 80, 24);
    assert_round_trips(&image, 640, "text-like");
}

#[test]
fn flexible_parsing_is_never_larger_than_the_gif_crate_on_text_like_images() {
    let mut noise = Noise(5);
    for (cols, rows) in [(80, 24), (20, 5), (120, 40)] {
        let image = text_like(&mut noise, cols, rows);
        let theirs = gif_crate(&image).len();
        let flexible = compress(&image, FLEXIBLE, FullTable::Clear).bytes.len();
        assert!(flexible <= theirs, "{cols}×{rows}: {flexible} > {theirs}");
        assert!(compress_smallest(&image).len() <= flexible);
    }
}

#[test]
fn empty_input_is_a_clear_and_an_end_code() {
    // Two 3-bit codes (4 and 5) in one byte, after the minimum code size.
    assert_eq!(compress_smallest(&[]), vec![2, 0b0010_1100]);
}

#[test]
fn greedy_crossing_runs_in_one_step_writes_the_symbol_by_symbol_parse() {
    // Past 16 colours weezl is no reference: compare with a plain LZW written here.
    let mut noise = Noise(8);
    for indices in [runs(&mut noise, 80_000, 8), text_like(&mut noise, 40, 10)] {
        let ours = compress(&indices, Parsing::Greedy, FullTable::Clear).bytes;
        assert_eq!(ours, plain_greedy_lzw(&indices));
    }
}

/// Textbook greedy LZW with a clear when the table fills, one symbol at a time, through a
/// `HashMap`, packed as GIF packs codes.
fn plain_greedy_lzw(indices: &[u8]) -> Vec<u8> {
    let min_size = min_code_size(indices);
    let clear = 1u16 << min_size;
    let mut table = std::collections::HashMap::new();
    let mut next = clear + 2;
    let mut codes = vec![clear];
    let mut code = u16::from(indices[0]);
    for &symbol in &indices[1..] {
        if let Some(&longer) = table.get(&(code, symbol)) {
            code = longer;
            continue;
        }
        codes.push(code);
        if next == 4096 {
            codes.push(clear);
            table.clear();
            next = clear + 2;
        } else {
            table.insert((code, symbol), next);
            next += 1;
        }
        code = u16::from(symbol);
    }
    codes.push(code);
    codes.push(clear + 1);
    // Widths as the decoder reads them: it adds an entry for every code but the first after a
    // clear, and reads one bit more once its table reaches the current width.
    let mut out = vec![min_size];
    let (mut bits, mut count, mut size, mut adds) = (0u64, 0u32, clear + 2, false);
    for &c in &codes {
        let width = (16 - size.leading_zeros()).min(12);
        bits |= u64::from(c) << count;
        count += width;
        while count >= 8 {
            out.push(bits as u8);
            bits >>= 8;
            count -= 8;
        }
        if c == clear {
            size = clear + 2;
            adds = false;
        } else {
            if adds && size < 4096 {
                size += 1;
            }
            adds = true;
        }
    }
    if count > 0 {
        out.push(bits as u8);
    }
    out
}

#[test]
fn a_large_frame_is_parsed_with_lookahead_only_when_a_trial_pays() {
    // The log-flood regression: every frame, however large, was parsed with lookahead three
    // times over (10x the encode time), for well under 1% on busy screens.
    let mut noise = Noise(9);
    let mut encoder = LzwEncoder::default();
    let first = text_like(&mut noise, 20, 5);
    let quick = encoder.compress_quick(&first, usize::MAX);
    encoder.compress_harder(&first, quick, true);
    assert_eq!(
        encoder.flexible_symbols,
        3 * first.len(),
        "the first frame: all three"
    );
    let busy = random(&mut noise, 8 * SEARCH_ALL_UP_TO, 8);
    let quick = encoder.compress_quick(&busy, usize::MAX);
    let before = encoder.flexible_symbols;
    let bytes = encoder.compress_harder(&busy, quick.clone(), false);
    assert_eq!(
        encoder.flexible_symbols - before,
        TRIAL_LOOKAHEADS.len() * TRIAL_LEN,
        "only the trial"
    );
    assert_eq!(bytes, quick.bytes, "greedy kept");
    let small = text_like(&mut noise, 16, 4);
    assert!(small.len() <= SEARCH_ALL_UP_TO);
    let quick = encoder.compress_quick(&small, usize::MAX);
    let before = encoder.flexible_symbols;
    encoder.compress_harder(&small, quick, false);
    assert_eq!(
        encoder.flexible_symbols - before,
        3 * small.len(),
        "small: all three"
    );
}

#[test]
fn an_encoder_reused_across_frames_writes_what_a_fresh_one_writes() {
    let mut noise = Noise(10);
    let frames = [
        runs(&mut noise, 50_000, 8),
        random(&mut noise, 3_000, 2),
        text_like(&mut noise, 30, 6),
        runs(&mut noise, 20_000, 3),
    ];
    let mut reused = LzwEncoder::default();
    for frame in &frames {
        // Codes cut short at a byte limit leave the table as they found it for the next.
        let cut = reused.compress_quick(frame, 100);
        assert!(!cut.finished);
        let quick = reused.compress_quick(frame, usize::MAX);
        assert_eq!(
            quick,
            LzwEncoder::default().compress_quick(frame, usize::MAX)
        );
        let harder = reused.compress_harder(frame, quick.clone(), false);
        assert_eq!(
            harder,
            LzwEncoder::default().compress_harder(frame, quick, false)
        );
    }
}
