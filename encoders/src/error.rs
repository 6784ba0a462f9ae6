//! The crate's error type: what went wrong while rasterizing or encoding, and whose input caused it.

use std::path::PathBuf;

/// Everything that can fail in phux-encoders.
#[derive(Debug, thiserror::Error)]
pub enum EncodeError {
    /// Reading or writing a file failed.
    #[error("{action} {path}: {source}")]
    Io {
        /// What was being done ("create temp file in", "write", "rename to", ...).
        action: &'static str,
        /// The file or directory concerned.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// The output path's extension names no format we write.
    #[error(
        "unknown output extension {extension:?} in {path}: supported are .gif, .png, .apng, .svg, .html, .cast"
    )]
    UnknownExtension {
        /// The extension as given.
        extension: String,
        /// The whole path.
        path: PathBuf,
    },
    /// A `.cast` path was handed to an image encoder.
    #[error("{0} is a cast, not an animation: the recorder writes casts")]
    NotAnAnimation(PathBuf),
    /// A colour string is not `#rrggbb`.
    #[error("bad colour {0:?}: expected #rrggbb")]
    BadColor(String),
    /// A cast theme's palette has neither 8 nor 16 entries.
    #[error("a theme palette needs 8 or 16 colours, got {0}")]
    BadPaletteLength(usize),
    /// No built-in theme has this name.
    #[error("unknown theme {name:?}: known themes are {known}")]
    UnknownTheme {
        /// The name asked for.
        name: String,
        /// The built-in names, comma-separated.
        known: String,
    },
    /// The image would be larger than the format allows (or empty).
    #[error("image of {width}x{height} px is not encodable: each side must be 1..={max} px")]
    BadDimensions {
        /// Width in pixels.
        width: u64,
        /// Height in pixels.
        height: u64,
        /// The format's limit per side.
        max: u64,
    },
    /// The image would need more memory than phux gives an animation.
    #[error(
        "a {cols}x{rows} recording at scale {scale} is a {width}x{height} px image, more than \
         the {max} pixels phux encodes"
    , max = crate::raster::MAX_CANVAS_PIXELS)]
    CanvasTooLarge {
        /// Grid columns.
        cols: u16,
        /// Grid rows.
        rows: u16,
        /// The integer scale.
        scale: u8,
        /// Width in pixels.
        width: u64,
        /// Height in pixels.
        height: u64,
    },
    /// Something appeared at the output path while the animation was being encoded, and
    /// replacing was not allowed.
    #[error("{0} appeared while the animation was being encoded; it was left alone")]
    OutputExists(PathBuf),
    /// `--scale` must be at least 1 (and small enough to stay within the format's limits).
    #[error(
        "an image of {width}x{height} px has no room for the grid and its frame: it needs at \
         least {needed_width}x{needed_height} px"
    )]
    ChromeTooSmall {
        width: u32,
        height: u32,
        needed_width: u32,
        needed_height: u32,
    },
    #[error("scale must be between 1 and 16, got {0}")]
    BadScale(u8),
    /// A font setting is out of range.
    #[error("bad {option} {value:?}: expected {accepted}")]
    BadFontOption {
        /// The option (`--font-size`, ...).
        option: &'static str,
        /// The value given.
        value: String,
        /// What is accepted.
        accepted: &'static str,
    },
    /// No font file or installed family has this name.
    #[error("no font {name:?}: it is not a font file, and no installed family has that name (searched {searched})")]
    FontNotFound {
        /// The name given.
        name: String,
        /// The directories searched, `:`-separated (or "no directories").
        searched: String,
    },
    /// A font file could not be read or parsed.
    #[error("cannot use font file {path}: {reason}")]
    FontUnreadable {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// `finish` was called before any screen was pushed.
    #[error("no frame to encode: no screen was pushed")]
    NoFrames,

    #[error("frame {asked} asked for, but the recording has {available} screen events (frames 1..={available})")]
    FrameOutOfRange { asked: usize, available: usize },
    /// Even the first frame does not fit in the byte limit.
    #[error("the first frame alone needs {needed} bytes, more than the limit of {max_bytes}")]
    MaxBytesTooSmall {
        /// The limit given.
        max_bytes: u64,
        /// What the smallest playable file would need.
        needed: u64,
    },
    /// The `gif` crate refused what we gave it.
    #[error("GIF encoding failed: {0}")]
    Gif(#[from] gif::EncodingError),
    /// The `png` crate refused what we gave it.
    #[error("APNG encoding failed: {0}")]
    Png(#[from] png::EncodingError),
    /// The terminal engine could not replay the recording.
    #[error("the terminal engine could not replay the recording: {0}")]
    Engine(String),
    /// The speed or idle limit cannot make a timeline.
    #[error("cannot time the recording: {0}")]
    Timing(String),
    /// A broken assumption about a dependency's output.
    #[error("internal error: {0}")]
    Internal(&'static str),
    /// The compression thread stopped without a result (it panicked).
    #[error("the compression thread died")]
    WorkerDied,
}

impl EncodeError {
    /// What the person can do about it, in words that hold for every command that encodes
    /// (`phux rec`, `phux tape`); a command may say it with its own flags instead.
    pub fn remedy(&self) -> String {
        match self {
            EncodeError::Io { path, .. } => format!(
                "check that {} is writable (its directory exists, permissions, free disk space)",
                path.display()
            ),
            EncodeError::UnknownExtension { .. } | EncodeError::NotAnAnimation(_) => {
                "name the output .gif, .png (or .apng), .html or .cast".into()
            }
            EncodeError::BadColor(_) => "write colours as #rrggbb, e.g. #1e1e2e".into(),
            EncodeError::BadPaletteLength(_) => {
                "give the theme 8 colours (normal) or 16 (normal then bright)".into()
            }
            EncodeError::UnknownTheme { .. } => "pick one of the known themes listed".into(),
            EncodeError::BadDimensions { .. } | EncodeError::CanvasTooLarge { .. } => {
                "use a smaller scale or font size, or record a smaller grid (a cast keeps any size)"
                    .into()
            }
            EncodeError::OutputExists(path) => format!(
                "move {} away, or write to another path; nothing was replaced",
                path.display()
            ),
            EncodeError::ChromeTooSmall { .. } => {
                "make the image larger, or its padding, margin and window bar smaller".into()
            }
            EncodeError::BadScale(_) => "use a scale from 1 to 16".into(),
            EncodeError::BadFontOption { accepted, .. } => format!("use {accepted}"),
            EncodeError::FontNotFound { .. } | EncodeError::FontUnreadable { .. } => {
                "name an installed family (`fc-list : family` lists them) or a font file".into()
            }
            EncodeError::NoFrames => {
                "the recording shows nothing: record a command that prints, or check the cast's events"
                    .into()
            }
            EncodeError::FrameOutOfRange { available, .. } => {
                format!("ask for a frame from 1 to {available}, or the last one")
            }
            EncodeError::MaxBytesTooSmall { needed, .. } => {
                format!("allow at least {needed} bytes, or make the image smaller")
            }
            EncodeError::Engine(_) => {
                "reinstall the engine with `phux engine install`; `phux doctor` checks it".into()
            }
            EncodeError::Timing(_) => {
                "use a positive speed and idle limit, and a cast whose times are numbers".into()
            }
            EncodeError::Gif(_) | EncodeError::Png(_) => {
                "check the output's disk space and permissions, then encode again".into()
            }
            EncodeError::Internal(_) | EncodeError::WorkerDied => {
                "this is a bug in phux: report it with the recording that caused it".into()
            }
        }
    }

    /// Wraps an I/O error with what was being done and to which path.
    pub fn io(action: &'static str, path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        EncodeError::Io {
            action,
            path: path.into(),
            source,
        }
    }
}
