//! Giving the C heap's free pages back to the kernel. When a pane goes quiet its history is
//! compressed and its kept output packed; the memory they free lies in holes inside malloc's
//! per-thread arenas, which malloc keeps resident (it only returns the top of an arena).
//! Trimming returns them (measured in `server_bench`'s memory row, issue 41). There may be two
//! heaps: a static `phux` has its own malloc, and the engine allocates through the system's
//! `libc.so.6` that loading it brought in.

use std::sync::OnceLock;

type MallocTrim = unsafe extern "C" fn(usize) -> libc::c_int;

/// Returns the free pages of every malloc arena, ours and the engine's, to the kernel.
pub fn release_free_heap() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `malloc_trim` takes no pointers; it walks malloc's own arenas under their locks.
    unsafe {
        libc::malloc_trim(0);
    }
    if let Some(trim) = shared_libc_trim() {
        // SAFETY: as above; the library stays loaded for the life of the process (held in
        // the static), and the symbol has this C signature.
        unsafe {
            trim(0);
        }
    }
}

/// `malloc_trim` of the shared C library, when one is already loaded (never loads one).
fn shared_libc_trim() -> Option<MallocTrim> {
    static TRIM: OnceLock<Option<(libloading::os::unix::Library, MallocTrim)>> = OnceLock::new();
    TRIM.get_or_init(|| {
        // SAFETY: RTLD_NOLOAD only finds a library already loaded: no initialiser runs.
        let library = unsafe {
            libloading::os::unix::Library::open(
                Some("libc.so.6"),
                libc::RTLD_NOW | libc::RTLD_NOLOAD,
            )
        }
        .ok()?;
        // SAFETY: glibc's `int malloc_trim(size_t pad)`.
        let trim: MallocTrim = unsafe { library.get::<MallocTrim>(b"malloc_trim\0") }
            .ok()
            .map(|symbol| *symbol)?;
        Some((library, trim))
    })
    .as_ref()
    .map(|(_, trim)| *trim)
}
