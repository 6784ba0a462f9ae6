//! The frame decoder on arbitrary bytes: it never panics, and no single allocation it makes
//! exceeds the 16 MiB frame limit, whatever length a header claims.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on the unexpected
#![warn(clippy::undocumented_unsafe_blocks)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use phux_core::wire::{FrameReader, WireError, MAX_FRAME_LEN};
use proptest::prelude::*;

/// Records the largest allocation request made by this test binary.
struct Largest;

static LARGEST: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded unchanged to the system allocator; only sizes are noted.
unsafe impl GlobalAlloc for Largest {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LARGEST.fetch_max(layout.size(), Ordering::Relaxed);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LARGEST.fetch_max(new_size, Ordering::Relaxed);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Largest = Largest;

fn drain(bytes: &[u8]) {
    let mut reader = FrameReader::new(bytes);
    // Every frame either decodes or ends the stream with an error; none loops forever.
    for _ in 0..bytes.len() + 1 {
        if reader.read_frame().is_err() {
            return;
        }
    }
}

#[test]
fn a_huge_claimed_length_with_little_data_allocates_little() {
    let mut bytes = MAX_FRAME_LEN.to_be_bytes().to_vec();
    bytes.extend_from_slice(b"\x01{}");
    let before = LARGEST.load(Ordering::Relaxed);
    let result = FrameReader::new(bytes.as_slice()).read_frame();
    assert!(matches!(result, Err(WireError::Truncated { .. })));
    let largest = LARGEST.load(Ordering::Relaxed);
    assert!(
        largest <= before.max(128 * 1024),
        "a 16 MiB claim allocated {largest} bytes"
    );
}

proptest! {
    #[test]
    fn decoder_never_panics_on_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        drain(&bytes);
        prop_assert!(LARGEST.load(Ordering::Relaxed) <= MAX_FRAME_LEN as usize);
    }

    #[test]
    fn decoder_never_panics_on_frame_shaped_bytes(
        len in prop_oneof![0u32..64, Just(MAX_FRAME_LEN), Just(MAX_FRAME_LEN + 1), any::<u32>()],
        kind in prop_oneof![Just(1u8), Just(2u8), any::<u8>()],
        body in proptest::collection::vec(any::<u8>(), 0..64),
    ) {
        let mut bytes = len.to_be_bytes().to_vec();
        bytes.push(kind);
        bytes.extend(body);
        drain(&bytes);
        prop_assert!(LARGEST.load(Ordering::Relaxed) <= MAX_FRAME_LEN as usize);
    }
}
