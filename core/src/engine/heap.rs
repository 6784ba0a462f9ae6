//! Giving the C heap's free pages back to the kernel. The engine allocates through libc's
//! malloc, as the server does; when a pane goes quiet its history is compressed and its kept
//! output packed, and the memory they free lies in holes inside malloc's per-thread arenas,
//! which malloc keeps resident (it only returns the top of an arena). Trimming returns them:
//! measured in `server_bench`'s memory row (issue 41).

/// Returns the free pages of every malloc arena to the kernel.
pub fn release_free_heap() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `malloc_trim` takes no pointers; it walks malloc's own arenas under their locks.
    unsafe {
        libc::malloc_trim(0);
    }
}
