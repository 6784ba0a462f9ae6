//! Remembers that a library file hashed to the pin, so the next process need not read and hash
//! its 10 MB again (6–8 ms, a third of a small `phux rec --from`): a stamp beside the library
//! (`libghostty-vt.so.verified`) records the file's identity when it was hashed, its device,
//! inode, size, and modification and change times in nanoseconds. Any write to the file, a
//! rename over it or a `touch` changes at least one of them (the change time cannot be set back
//! by anyone but root), so a file that differs from the one hashed is hashed again.
//!
//! Timestamps tick coarsely (a few ms), so a file changed within the same tick as the stamp was
//! taken could keep its identity: a stamp is only written for a file whose last change is
//! [`SETTLED`] old. The stamp sits in the library's own directory, so whoever could forge it
//! could replace the library itself; where that directory is not writable, nothing is
//! remembered and every load hashes, as before.

use std::io::Read;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// The longest stamp: a sha256 in hex and five numbers of at most 20 digits, with the
/// nanoseconds and separators, fit well within it.
const STAMP_MAX: u64 = 256;

/// How long ago a file must have last changed for its hash to be remembered.
const SETTLED: Duration = Duration::from_secs(2);

/// The stamp of the library at `library`.
fn stamp_path(library: &Path) -> PathBuf {
    let mut name = library.file_name().unwrap_or_default().to_os_string();
    name.push(".verified");
    library.with_file_name(name)
}

/// What tells one file from another without reading it: any write, rename over it or `touch`
/// changes at least one of these.
#[derive(PartialEq, Eq)]
struct Identity {
    device: u64,
    inode: u64,
    size: u64,
    /// Modification and change times, (seconds, nanoseconds).
    modified: (i64, i64),
    changed: (i64, i64),
}

impl Identity {
    fn of(meta: &std::fs::Metadata) -> Self {
        Identity {
            device: meta.dev(),
            inode: meta.ino(),
            size: meta.size(),
            modified: (meta.mtime(), meta.mtime_nsec()),
            changed: (meta.ctime(), meta.ctime_nsec()),
        }
    }

    /// Whether the file last changed at least [`SETTLED`] ago.
    fn settled(&self) -> bool {
        let (seconds, nanos) = self.changed;
        let changed = SystemTime::UNIX_EPOCH
            + Duration::new(
                u64::try_from(seconds).unwrap_or(0),
                u32::try_from(nanos).unwrap_or(0),
            );
        changed.elapsed().is_ok_and(|age| age >= SETTLED)
    }

    /// The stamp's one line for this file hashed to `sha256`.
    fn stamp_line(&self, sha256: &str) -> String {
        let Identity {
            device,
            inode,
            size,
            modified: (m, m_ns),
            changed: (c, c_ns),
        } = self;
        format!("{sha256} {device} {inode} {size} {m}.{m_ns:09} {c}.{c_ns:09}\n")
    }
}

/// Whether the stamp beside `library` says this very file (`meta`) hashed to `sha256`. At
/// most [`STAMP_MAX`] bytes are read: anything longer is not a stamp.
pub fn remembers(library: &Path, meta: &std::fs::Metadata, sha256: &str) -> bool {
    let expected = Identity::of(meta).stamp_line(sha256);
    let mut stamp = String::new();
    std::fs::File::open(stamp_path(library))
        .and_then(|file| file.take(STAMP_MAX).read_to_string(&mut stamp))
        .is_ok_and(|_| stamp == expected)
}

/// Writes the stamp for `library` (`meta` read before it was hashed to `sha256`) when the
/// file has settled; quietly does nothing where it cannot (a read-only directory, say).
pub fn remember(library: &Path, meta: &std::fs::Metadata, sha256: &str) {
    let hashed = Identity::of(meta);
    // The identity must still be the one hashed: a file replaced while it was read is not.
    let unchanged = std::fs::metadata(library).is_ok_and(|now| Identity::of(&now) == hashed);
    if !hashed.settled() || !unchanged {
        return;
    }
    let stamp = stamp_path(library);
    let partial = stamp.with_extension(format!("verified.{}", std::process::id()));
    let written = std::fs::write(&partial, hashed.stamp_line(sha256))
        .and_then(|()| std::fs::rename(&partial, &stamp));
    if written.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
}
