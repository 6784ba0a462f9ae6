//! The temporary file an encoder writes into, moved to the destination only on success: renamed
//! over it when replacing is allowed (which replaces a symlink there, never its target), else
//! hard-linked in, which fails if anything at all, a dangling symlink included, is there.

use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

use crate::error::EncodeError;

/// A temp file in the destination's directory, so the final rename never crosses filesystems.
#[derive(Debug)]
pub struct OutputFile {
    dest: PathBuf,
    temp: NamedTempFile,
    overwrite: bool,
}

impl OutputFile {
    /// Creates the temp file next to `dest`.
    pub fn create(dest: &Path, overwrite: bool) -> Result<OutputFile, EncodeError> {
        let dir = match dest.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        // Readable like any file the user makes (0644 less the umask), not a private temp file.
        let readable = std::os::unix::fs::PermissionsExt::from_mode(0o644);
        let temp = tempfile::Builder::new()
            .prefix(".phux-encode-")
            .suffix(".tmp")
            .permissions(readable)
            .tempfile_in(&dir)
            .map_err(|e| EncodeError::io("create a temporary file in", &dir, e))?;
        Ok(OutputFile {
            dest: dest.to_path_buf(),
            temp,
            overwrite,
        })
    }

    /// An unnamed scratch file beside the destination (gone when closed), for an encoder's
    /// intermediate data: on the same filesystem as the output, never in memory.
    pub fn scratch(&self) -> Result<std::fs::File, EncodeError> {
        let dir = match self.dest.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        tempfile::tempfile_in(&dir)
            .map_err(|e| EncodeError::io("create a scratch file in", &dir, e))
    }

    /// Where the temp file is.
    pub fn path(&self) -> &Path {
        self.temp.path()
    }

    /// The open temp file.
    pub fn file(&mut self) -> &mut std::fs::File {
        self.temp.as_file_mut()
    }

    /// An I/O error on the temp file, phrased for the user.
    pub fn write_error(&self, source: std::io::Error) -> EncodeError {
        EncodeError::io("write", self.temp.path(), source)
    }

    /// Flushes to disk, renames over the destination and returns the final size.
    pub fn persist(self) -> Result<u64, EncodeError> {
        let file = self.temp.as_file();
        file.sync_all()
            .map_err(|e| EncodeError::io("sync", self.temp.path(), e))?;
        let bytes = file
            .metadata()
            .map_err(|e| EncodeError::io("stat", self.temp.path(), e))?
            .len();
        let dest = self.dest;
        if self.overwrite {
            self.temp
                .persist(&dest)
                .map_err(|e| EncodeError::io("rename into place as", &dest, e.error))?;
        } else {
            self.temp.persist_noclobber(&dest).map_err(|e| {
                if e.error.kind() == std::io::ErrorKind::AlreadyExists {
                    EncodeError::OutputExists(dest.clone())
                } else {
                    EncodeError::io("link into place as", &dest, e.error)
                }
            })?;
        }
        Ok(bytes)
    }
}
