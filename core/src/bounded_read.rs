//! Reading what a user hands phux as a file, or a line from a stream, with a size limit checked
//! before reading (the file's length) and while reading (what actually arrives): `/dev/zero`
//! given as a cast, a tape or a config passed 4 GB. Where a file is expected, anything but a
//! regular file (a device, a FIFO, a directory) is refused before a byte is read.

use std::fs::File;
use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};

/// Casts are read whole (`play`, `rec --from`): a day of busy terminal fits.
pub const MAX_CAST_BYTES: u64 = 512 << 20;
/// One line of a cast (one event): the server sends output in far smaller chunks.
pub const MAX_CAST_LINE_BYTES: u64 = 64 << 20;
/// `config.toml`, a plugin manifest, an agent-rules file, a tape.
pub const MAX_TEXT_FILE_BYTES: u64 = 4 << 20;
/// A screen capture (`agent explain --file`) or a workspace archive: a screenful of JSON per
/// pane, with history.
pub const MAX_DOCUMENT_BYTES: u64 = 64 << 20;
/// One JSON-RPC message on `phux mcp`'s input.
pub const MAX_MESSAGE_LINE_BYTES: u64 = 16 << 20;

/// Why a bounded read gave nothing.
#[derive(Debug, thiserror::Error)]
pub enum BoundedReadError {
    #[error("{} is larger than {}, the most phux reads for {what}", path.display(), human(*limit))]
    TooLarge {
        path: PathBuf,
        what: &'static str,
        limit: u64,
    },
    #[error("{} is {kind}, not a regular file: phux reads {what} only from a file", path.display())]
    NotAFile {
        path: PathBuf,
        what: &'static str,
        kind: &'static str,
    },
    #[error("cannot read {}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl BoundedReadError {
    /// The I/O error behind it, if that is what it is (a missing file is often not an error).
    pub fn io_kind(&self) -> Option<std::io::ErrorKind> {
        match self {
            BoundedReadError::Io { source, .. } => Some(source.kind()),
            _ => None,
        }
    }

    /// One sentence saying what to do about it.
    pub fn remedy(&self) -> String {
        match self {
            BoundedReadError::TooLarge { limit, .. } => {
                format!("give phux a file of at most {}", human(*limit))
            }
            BoundedReadError::NotAFile { .. } => "name a regular file".into(),
            BoundedReadError::Io { .. } => "check the path and its permissions".into(),
        }
    }
}

/// `n` bytes the way a person reads a limit: `16 MiB`, `512 KiB`, `100 bytes`.
pub fn human(n: u64) -> String {
    if n >= 1 << 20 && n % (1 << 20) == 0 {
        format!("{} MiB", n >> 20)
    } else if n >= 1 << 10 && n % (1 << 10) == 0 {
        format!("{} KiB", n >> 10)
    } else {
        format!("{n} bytes")
    }
}

/// Opens `path` for reading if it is a regular file (after following symlinks) of at most
/// `limit` bytes; `what` names what phux wanted it for, in the errors.
pub fn open_file(path: &Path, limit: u64, what: &'static str) -> Result<File, BoundedReadError> {
    let io = |source| BoundedReadError::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = File::open(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    let kind = meta.file_type();
    if !kind.is_file() && !is_null_device(&meta) {
        use std::os::unix::fs::FileTypeExt;
        let kind = if kind.is_dir() {
            "a directory"
        } else if kind.is_char_device() || kind.is_block_device() {
            "a device"
        } else if kind.is_fifo() {
            "a FIFO"
        } else if kind.is_socket() {
            "a socket"
        } else {
            "not a file"
        };
        return Err(BoundedReadError::NotAFile {
            path: path.to_path_buf(),
            what,
            kind,
        });
    }
    if meta.len() > limit {
        return Err(BoundedReadError::TooLarge {
            path: path.to_path_buf(),
            what,
            limit,
        });
    }
    Ok(file)
}

/// `/dev/null` reads as an empty file, as everyone expects (`PHUX_CONFIG=/dev/null` means no
/// config); no other device is read.
fn is_null_device(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    meta.file_type().is_char_device()
        && std::fs::metadata("/dev/null").is_ok_and(|null| null.rdev() == meta.rdev())
}

/// The whole regular file at `path`, at most `limit` bytes (checked again while reading: the
/// file may grow after it was measured).
pub fn read_file(path: &Path, limit: u64, what: &'static str) -> Result<Vec<u8>, BoundedReadError> {
    let file = open_file(path, limit, what)?;
    read_all(file, path, limit, what)
}

/// [`read_file`] as UTF-8 text.
pub fn read_text(path: &Path, limit: u64, what: &'static str) -> Result<String, BoundedReadError> {
    let bytes = read_file(path, limit, what)?;
    String::from_utf8(bytes).map_err(|e| BoundedReadError::Io {
        path: path.to_path_buf(),
        source: std::io::Error::new(std::io::ErrorKind::InvalidData, e.utf8_error()),
    })
}

/// Everything `source` gives (stdin, a pipe), at most `limit` bytes; `name` stands for it in
/// the errors (`-`, `stdin`).
pub fn read_all(
    source: impl Read,
    name: &Path,
    limit: u64,
    what: &'static str,
) -> Result<Vec<u8>, BoundedReadError> {
    let mut bytes = Vec::new();
    source
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|source| BoundedReadError::Io {
            path: name.to_path_buf(),
            source,
        })?;
    if bytes.len() as u64 > limit {
        return Err(BoundedReadError::TooLarge {
            path: name.to_path_buf(),
            what,
            limit,
        });
    }
    Ok(bytes)
}

/// A line read by [`read_line`].
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// The line, without its newline.
    Complete(Vec<u8>),
    /// The line was longer than the limit: it was read to its end and dropped, but for its
    /// first and last [`LONG_LINE_ENDS`] bytes (where a JSON-RPC message keeps its `id`, so
    /// the refusal can be addressed to it).
    TooLong { head: Vec<u8>, tail: Vec<u8> },
    /// The stream ended.
    End,
}

/// How much of each end of a too-long line [`read_line`] keeps.
pub const LONG_LINE_ENDS: usize = 4096;

/// The next line of `source`, holding at most `limit` bytes of it in memory: a longer line is
/// consumed to its newline and reported as [`Line::TooLong`], so the reader can go on.
pub fn read_line(source: &mut impl BufRead, limit: u64) -> std::io::Result<Line> {
    let mut line = Vec::new();
    let mut tail: Option<Vec<u8>> = None;
    loop {
        let available = match source.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(match (tail, line.is_empty()) {
                (Some(tail), _) => Line::TooLong { head: line, tail },
                (None, true) => Line::End,
                (None, false) => Line::Complete(line),
            });
        }
        let (chunk, used, ended) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..i], i + 1, true),
            None => (available, available.len(), false),
        };
        match &mut tail {
            None if (line.len() + chunk.len()) as u64 > limit => {
                // From here only the two ends are held.
                let most = usize::try_from(limit).map_or(LONG_LINE_ENDS, |l| l.min(LONG_LINE_ENDS));
                let room = most.saturating_sub(line.len());
                line.extend_from_slice(&chunk[..chunk.len().min(room)]);
                line.truncate(most);
                let mut ends = Vec::new();
                keep_tail(&mut ends, chunk);
                tail = Some(ends);
            }
            None => line.extend_from_slice(chunk),
            Some(ends) => keep_tail(ends, chunk),
        }
        source.consume(used);
        if ended {
            return Ok(match tail {
                Some(tail) => Line::TooLong { head: line, tail },
                None => Line::Complete(line),
            });
        }
    }
}

/// `ends` followed by `chunk`, cut to its last [`LONG_LINE_ENDS`] bytes.
fn keep_tail(ends: &mut Vec<u8>, chunk: &[u8]) {
    ends.extend_from_slice(&chunk[chunk.len().saturating_sub(LONG_LINE_ENDS)..]);
    let cut = ends.len().saturating_sub(LONG_LINE_ENDS);
    ends.drain(..cut);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_device_is_refused_before_a_byte_is_read() {
        let refused = read_file(Path::new("/dev/zero"), 1 << 20, "a test").unwrap_err();
        assert!(matches!(
            refused,
            BoundedReadError::NotAFile {
                kind: "a device",
                ..
            }
        ));
        assert!(
            refused.to_string().contains("/dev/zero is a device"),
            "{refused}"
        );
    }

    #[test]
    fn the_null_device_reads_as_an_empty_file() {
        assert_eq!(
            read_file(Path::new("/dev/null"), 16, "a test").unwrap(),
            b""
        );
    }

    #[test]
    fn a_file_over_the_limit_is_refused_and_the_message_names_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big");
        std::fs::write(&path, vec![b'x'; 2048]).unwrap();
        assert_eq!(read_file(&path, 2048, "a test").unwrap().len(), 2048);
        let refused = read_file(&path, 1024, "a test").unwrap_err();
        assert!(
            refused.to_string().contains("larger than 1 KiB"),
            "{refused}"
        );
    }

    #[test]
    fn a_stream_is_cut_at_the_limit_while_reading() {
        let zeros = std::io::repeat(0);
        let refused = read_all(zeros, Path::new("-"), 4096, "a test").unwrap_err();
        assert!(matches!(
            refused,
            BoundedReadError::TooLarge { limit: 4096, .. }
        ));
    }

    #[test]
    fn a_line_past_the_limit_is_skipped_whole_and_reading_goes_on() {
        let mut input = std::io::Cursor::new(b"short\nxxxxxxxxxxxxxxxx\nnext".to_vec());
        let mut reader = std::io::BufReader::with_capacity(4, &mut input);
        assert_eq!(
            read_line(&mut reader, 8).unwrap(),
            Line::Complete(b"short".to_vec())
        );
        assert!(matches!(
            read_line(&mut reader, 8).unwrap(),
            Line::TooLong { .. }
        ));
        assert_eq!(
            read_line(&mut reader, 8).unwrap(),
            Line::Complete(b"next".to_vec())
        );
        assert_eq!(read_line(&mut reader, 8).unwrap(), Line::End);
        // An endless line holds no more than the limit, and keeps its two ends.
        let mut zeros = std::io::BufReader::new(std::io::repeat(b'z').take(10 << 20));
        let Line::TooLong { head, tail } = read_line(&mut zeros, 1024).unwrap() else {
            panic!("not too long");
        };
        assert_eq!((head.len(), tail.len()), (1024, LONG_LINE_ENDS));
    }

    #[test]
    fn a_too_long_line_keeps_its_first_and_last_bytes() {
        let mut text = b"{\"id\":7,".to_vec();
        text.extend(std::iter::repeat_n(b'x', 20_000));
        text.extend_from_slice(b"\"end\":1}\nnext\n");
        let mut reader = std::io::BufReader::with_capacity(100, std::io::Cursor::new(text));
        let Line::TooLong { head, tail } = read_line(&mut reader, 10_000).unwrap() else {
            panic!("not too long");
        };
        assert!(head.starts_with(b"{\"id\":7,"));
        assert_eq!(head.len(), LONG_LINE_ENDS);
        assert!(tail.ends_with(b"\"end\":1}"));
        assert_eq!(tail.len(), LONG_LINE_ENDS);
        assert_eq!(
            read_line(&mut reader, 10_000).unwrap(),
            Line::Complete(b"next".to_vec())
        );
    }
}
