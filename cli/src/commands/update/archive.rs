//! Checks a downloaded release: its published checksum, then its tar entries, which are read by
//! us (not extracted by `tar`) so nothing lands outside the staging directory: only regular
//! files and directories, relative paths with no `..`, all under `phux-vX.Y.Z-TRIPLE/`, which
//! must hold the `phux` binary.

use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Component, Path, PathBuf};
use std::process::{Command, Stdio};

use phux_core::error_code::ErrorCode;
use sha2::{Digest, Sha256};

use crate::failure::Failure;

/// The most an archive may unpack to.
const MAX_UNPACKED_BYTES: u64 = 512 << 20;
const BLOCK: usize = 512;

/// The SHA-256 a `.sha256` file publishes for `archive_name`: `HEX` or `HEX  NAME` (sha256sum's
/// format), the name, when given, being the archive's.
pub fn published_sha256(text: &[u8], archive_name: &str) -> Result<[u8; 32], Failure> {
    let invalid = |why: &str| {
        Failure::new(
            ErrorCode::UpdateChecksumInvalid,
            format!("the published checksum of {archive_name} is unusable: {why}"),
            "nothing was installed; retry later, or report the broken release",
        )
    };
    let text = std::str::from_utf8(text).map_err(|_| invalid("not text"))?;
    let mut words = text.split_whitespace();
    let hex = words.next().ok_or_else(|| invalid("it is empty"))?;
    if let Some(name) = words.next() {
        if name.trim_start_matches('*') != archive_name || words.next().is_some() {
            return Err(invalid("it names another file"));
        }
    }
    decode_hex(hex).ok_or_else(|| invalid("it is not 64 hexadecimal digits"))
}

fn decode_hex(hex: &str) -> Option<[u8; 32]> {
    if hex.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(out)
}

fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Fails with `update_checksum_mismatch` unless `archive` hashes to `expected`.
pub fn verify(archive: &Path, expected: &[u8; 32], name: &str) -> Result<(), Failure> {
    let mut file = std::fs::File::open(archive).map_err(|e| {
        Failure::new(
            ErrorCode::UpdateFetchFailed,
            format!("cannot read the downloaded {name}: {e}"),
            "retry",
        )
    })?;
    let mut hasher = Sha256::new();
    std::io::copy(&mut file, &mut hasher).map_err(|e| {
        Failure::new(
            ErrorCode::UpdateFetchFailed,
            format!("cannot read the downloaded {name}: {e}"),
            "retry",
        )
    })?;
    let actual: [u8; 32] = hasher.finalize().into();
    if &actual == expected {
        return Ok(());
    }
    Err(Failure::new(
        ErrorCode::UpdateChecksumMismatch,
        format!(
            "{name} hashes to {} but its release publishes {}",
            to_hex(&actual),
            to_hex(expected)
        ),
        "nothing was unpacked or installed; the download was corrupted or tampered with: retry \
         later, and report it if it persists",
    ))
}

fn rejected(why: String) -> Failure {
    Failure::new(
        ErrorCode::UpdateArchiveRejected,
        format!("the release archive was refused: {why}"),
        "nothing was installed; report the release, or pick another with --version",
    )
}

/// Unpacks the gzipped tar `archive` into `staging` and returns the path of its binary,
/// `staging/STEM/phux`. Refuses links, devices, absolute or `..` paths, anything outside
/// `STEM/`, and an archive without the binary.
pub fn unpack(archive: &Path, staging: &Path, stem: &str) -> Result<PathBuf, Failure> {
    let tar = gunzip(archive)?;
    let mut offset = 0;
    let mut binary = None;
    while offset + BLOCK <= tar.len() {
        let header = &tar[offset..offset + BLOCK];
        if header.iter().all(|&b| b == 0) {
            break;
        }
        let entry = Entry::parse(header)?;
        let data_start = offset + BLOCK;
        let data_end = data_start
            .checked_add(
                usize::try_from(entry.size)
                    .map_err(|_| rejected("an entry is too large".into()))?,
            )
            .filter(|&end| end <= tar.len())
            .ok_or_else(|| rejected(format!("{} is cut short", entry.name)))?;
        let relative = checked_path(&entry.name, stem)?;
        let dest = staging.join(&relative);
        match entry.kind {
            b'5' => std::fs::create_dir_all(&dest).map_err(|e| stage_error(&dest, &e))?,
            b'0' | 0 => {
                if let Some(parent) = dest.parent() {
                    std::fs::create_dir_all(parent).map_err(|e| stage_error(parent, &e))?;
                }
                let is_binary = relative == Path::new(stem).join("phux");
                write_new(&dest, &tar[data_start..data_end], is_binary)?;
                if is_binary {
                    binary = Some(dest);
                }
            }
            b'1' | b'2' => return Err(rejected(format!("{} is a link", entry.name))),
            other => {
                return Err(rejected(format!(
                    "{} is an entry of type {:?}, not a file or a directory",
                    entry.name, other as char
                )))
            }
        }
        offset = data_end.div_ceil(BLOCK) * BLOCK;
    }
    binary.ok_or_else(|| rejected(format!("it holds no {stem}/phux")))
}

fn gunzip(archive: &Path) -> Result<Vec<u8>, Failure> {
    let mut child = Command::new("gzip")
        .arg("-dc")
        .arg(archive)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| rejected(format!("cannot run gzip: {e}")))?;
    let body = child.stdout.take().map(|out| {
        phux_core::bounded_read::read_all(out, archive, MAX_UNPACKED_BYTES, "an unpacked release")
    });
    let status = child.wait().map_err(|e| rejected(format!("gzip: {e}")))?;
    match body {
        Some(Ok(bytes)) if status.success() => Ok(bytes),
        Some(Err(e)) => Err(rejected(e.to_string())),
        _ => Err(rejected("it is not gzip-compressed".into())),
    }
}

/// One tar header's fields that matter here.
struct Entry {
    name: String,
    size: u64,
    kind: u8,
}

impl Entry {
    fn parse(header: &[u8]) -> Result<Entry, Failure> {
        let field = |range: std::ops::Range<usize>| {
            let bytes = &header[range];
            let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
            String::from_utf8(bytes[..end].to_vec())
                .map_err(|_| rejected("a name is not UTF-8".into()))
        };
        let stored: u32 = header[148..156]
            .iter()
            .take_while(|&&b| b != 0 && b != b' ')
            .try_fold(0u32, |n, &b| {
                (b'0'..=b'7')
                    .contains(&b)
                    .then(|| n * 8 + u32::from(b - b'0'))
            })
            .ok_or_else(|| rejected("a header's checksum is not a number".into()))?;
        let sum: u32 = header
            .iter()
            .enumerate()
            .map(|(i, &b)| {
                if (148..156).contains(&i) {
                    32
                } else {
                    u32::from(b)
                }
            })
            .sum();
        if sum != stored {
            return Err(rejected(
                "it is not a tar archive (a header's checksum is wrong)".into(),
            ));
        }
        let mut name = field(0..100)?;
        // POSIX ustar only: GNU tar's own format ("ustar  ") keeps other fields there.
        if &header[257..263] == b"ustar\0" {
            let prefix = field(345..500)?;
            if !prefix.is_empty() {
                name = format!("{prefix}/{name}");
            }
        }
        let size_text = field(124..136)?;
        let size = u64::from_str_radix(size_text.trim(), 8)
            .map_err(|_| rejected(format!("{name} has no readable size")))?;
        Ok(Entry {
            name,
            size,
            kind: header[156],
        })
    }
}

/// `name` as a path under `stem/`, refusing absolute paths, `..` and anything outside `stem`.
fn checked_path(name: &str, stem: &str) -> Result<PathBuf, Failure> {
    let path = Path::new(name);
    let mut clean = PathBuf::new();
    for component in path.components() {
        match component {
            Component::Normal(part) => clean.push(part),
            Component::CurDir => {}
            Component::ParentDir => return Err(rejected(format!("{name} climbs out with `..`"))),
            Component::RootDir | Component::Prefix(_) => {
                return Err(rejected(format!("{name} is an absolute path")))
            }
        }
    }
    if clean.as_os_str().is_empty() && (name == "." || name == "./") {
        return Ok(clean);
    }
    if !clean.starts_with(stem) {
        return Err(rejected(format!(
            "{name} is outside {stem}/, the layout a release archive has"
        )));
    }
    Ok(clean)
}

fn write_new(dest: &Path, bytes: &[u8], executable: bool) -> Result<(), Failure> {
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(if executable { 0o755 } else { 0o644 })
        .open(dest)
        .map_err(|e| stage_error(dest, &e))?;
    file.write_all(bytes).map_err(|e| stage_error(dest, &e))
}

fn stage_error(path: &Path, e: &std::io::Error) -> Failure {
    rejected(format!("cannot unpack {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::{checked_path, decode_hex, published_sha256};

    #[test]
    fn paths_stay_under_the_stem() {
        assert!(checked_path("p/phux", "p").is_ok());
        assert!(checked_path("./p/phux", "p").is_ok());
        assert!(checked_path("p/../../etc/passwd", "p").is_err());
        assert!(checked_path("/etc/passwd", "p").is_err());
        assert!(checked_path("other/phux", "p").is_err());
    }

    #[test]
    fn checksum_files_are_sha256sum_lines() {
        let hex = "ab".repeat(32);
        assert!(published_sha256(hex.as_bytes(), "a.tar.gz").is_ok());
        assert!(published_sha256(format!("{hex}  a.tar.gz\n").as_bytes(), "a.tar.gz").is_ok());
        assert!(published_sha256(format!("{hex}  b.tar.gz\n").as_bytes(), "a.tar.gz").is_err());
        assert!(published_sha256(b"not a hash", "a.tar.gz").is_err());
        assert_eq!(decode_hex(&"zz".repeat(32)), None);
    }
}
