//! `PlayError`: why a playback could not start or could not go on.

use std::io;
use std::path::PathBuf;

use phux_recorder::CastError;

#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// The options were refused before anything was played (the caller's mistake).
    #[error("{0}")]
    Options(String),
    #[error("the recording has no marker named {0:?}")]
    NoSuchMarker(String),
    #[error(transparent)]
    Cast(#[from] CastError),
    #[error("cannot write the playback: {0}")]
    Write(#[source] io::Error),
    #[error("cannot follow {}: {source}", .path.display())]
    Follow {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
}

impl PlayError {
    /// What the user can do about it, in one sentence.
    pub fn remedy(&self) -> String {
        match self {
            Self::Options(_) => "see `phux play --help` for the accepted values".to_owned(),
            Self::NoSuchMarker(_) => {
                "list the markers with `grep '\"m\"' FILE`, or start with --start SECS".to_owned()
            }
            Self::Cast(e) => e.remedy(),
            Self::Write(_) => "the pane was probably closed while playing".to_owned(),
            Self::Follow { .. } => "check that the file exists and is readable".to_owned(),
        }
    }
}
