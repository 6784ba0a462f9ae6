//! Issue 18, item 3: the GIF encoder kept every compressed frame in memory until the end (a
//! 300k-event cast used 1.1 GB). Its peak memory must not grow with the number of frames.
//! Measured with a counting allocator in this test binary, so the figure is exact and every
//! thread (the compression worker included) is counted.

#![allow(clippy::unwrap_used, clippy::expect_used)]
#![warn(clippy::undocumented_unsafe_blocks)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use phux_encoders::{
    AnimationEncoder, Animator, CellColor, EncodeOptions, RenderScreen,
    DEFAULT_LAST_FRAME_HOLD_SECS,
};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// A screen of pseudo-random coloured letters: every frame changes every cell and compresses
/// badly, as a busy recording does.
fn noisy_screen(cols: u16, rows: u16, seed: u64) -> RenderScreen {
    let mut screen = RenderScreen::blank(cols, rows);
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    for y in 0..rows {
        for x in 0..cols {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let letter = char::from(b'!' + ((state >> 33) % 90) as u8);
            let fg = CellColor::Palette(((state >> 20) % 16) as u8);
            screen.put_str(x, y, &letter.to_string(), fg, CellColor::Default);
        }
    }
    screen
}

/// Peak bytes allocated above the starting point while encoding `frames` frames.
fn peak_while_encoding(dir: &std::path::Path, frames: u64) -> usize {
    let path = dir.join(format!("{frames}.gif"));
    let options = EncodeOptions {
        max_bytes: u64::MAX,
        ..EncodeOptions::default()
    };
    let screens: Vec<RenderScreen> = (0..4).map(|s| noisy_screen(40, 12, s)).collect();
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let encoder = AnimationEncoder::create(&path, 40, 12, &options).unwrap();
    let mut animator = Animator::new(encoder, 10);
    for i in 0..frames {
        animator
            .push(i as f64 * 0.1, &screens[(i % 4) as usize])
            .unwrap();
    }
    let summary = animator.finish(DEFAULT_LAST_FRAME_HOLD_SECS).unwrap();
    assert_eq!(u64::from(summary.frames), frames);
    PEAK.load(Ordering::Relaxed) - base
}

#[test]
fn gif_encoding_memory_does_not_grow_with_the_number_of_frames() {
    let dir = tempfile::tempdir().unwrap();
    let short = peak_while_encoding(dir.path(), 40);
    let long = peak_while_encoding(dir.path(), 600);
    let per_frame = std::fs::metadata(dir.path().join("600.gif")).unwrap().len() / 600;
    eprintln!("peak: 40 frames {short} B, 600 frames {long} B; {per_frame} B per frame");
    // What the pipeline may hold at a peak, whatever the length: a few full-canvas patches in
    // flight (4 queued, one held back, one being drawn), each with its pixels (4 bytes a
    // pixel) and its changed-pixel mask (1 byte), and the writer's keyed copy and indices of
    // the frame it is writing (5 bytes a pixel): about 10 canvases. Holding the frames instead
    // would add 560 frames' worth on top, more than twice this.
    let canvas = 40 * 8 * 12 * 16 * 4;
    let slack = 10 * canvas;
    assert!(
        560 * per_frame as usize > 2 * slack,
        "the frames are too small to tell"
    );
    assert!(
        long < short + slack,
        "peak grew from {short} to {long} bytes for 560 more frames of ~{per_frame} bytes"
    );
}
