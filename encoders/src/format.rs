//! Chooses the output format from the destination path's extension.

use std::path::{Path, PathBuf};

use crate::error::EncodeError;

/// What a recording can be exported as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OutputFormat {
    /// An asciicast file (written by the recorder, not by this crate).
    Cast,
    /// An animated GIF.
    Gif,
    /// An animated PNG.
    Apng,
    /// A self-contained web page that plays the recording.
    Html,
    /// An animated SVG: text as text, frames as CSS keyframes.
    Svg,
}

impl OutputFormat {
    /// The name used in `--json` documents: `cast`, `gif`, `apng`, `html` or `svg`.
    pub const fn as_str(self) -> &'static str {
        match self {
            OutputFormat::Cast => "cast",
            OutputFormat::Gif => "gif",
            OutputFormat::Apng => "apng",
            OutputFormat::Html => "html",
            OutputFormat::Svg => "svg",
        }
    }
}

impl std::fmt::Display for OutputFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An output path with its format decided (and `.gif` appended when it had no extension).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedOutput {
    /// Where the file goes.
    pub path: PathBuf,
    /// What it will contain.
    pub format: OutputFormat,
}

/// Classifies `path`: `.gif` → GIF, `.png`/`.apng` → APNG, `.cast` → cast, `.html`/`.htm` →
/// a page that plays it, `.svg` → an animated SVG (case-insensitive);
/// no extension → `.gif` is appended; anything else is an error naming the supported ones.
pub fn resolve_output(path: &Path) -> Result<ResolvedOutput, EncodeError> {
    let Some(ext) = path.extension() else {
        let mut with_ext = path.as_os_str().to_owned();
        with_ext.push(".gif");
        return Ok(ResolvedOutput {
            path: PathBuf::from(with_ext),
            format: OutputFormat::Gif,
        });
    };
    let format = match ext.to_string_lossy().to_ascii_lowercase().as_str() {
        "gif" => OutputFormat::Gif,
        "png" | "apng" => OutputFormat::Apng,
        "cast" => OutputFormat::Cast,
        "html" | "htm" => OutputFormat::Html,
        "svg" => OutputFormat::Svg,
        _ => {
            return Err(EncodeError::UnknownExtension {
                extension: ext.to_string_lossy().into_owned(),
                path: path.to_path_buf(),
            })
        }
    };
    Ok(ResolvedOutput {
        path: path.to_path_buf(),
        format,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn format_of(p: &str) -> OutputFormat {
        resolve_output(Path::new(p)).unwrap().format
    }

    #[test]
    fn extensions_map_to_formats() {
        assert_eq!(format_of("a.gif"), OutputFormat::Gif);
        assert_eq!(format_of("dir/a.GIF"), OutputFormat::Gif);
        assert_eq!(format_of("a.png"), OutputFormat::Apng);
        assert_eq!(format_of("a.apng"), OutputFormat::Apng);
        assert_eq!(format_of("a.cast"), OutputFormat::Cast);
        assert_eq!(format_of("a.SVG"), OutputFormat::Svg);
    }

    #[test]
    fn no_extension_appends_gif() {
        let r = resolve_output(Path::new("out/demo")).unwrap();
        assert_eq!(r.path, PathBuf::from("out/demo.gif"));
        assert_eq!(r.format, OutputFormat::Gif);
    }

    #[test]
    fn unknown_extension_names_the_supported_ones() {
        let err = resolve_output(Path::new("demo.mp4"))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("mp4")
                && err.contains(".gif")
                && err.contains(".apng")
                && err.contains(".svg"),
            "{err}"
        );
    }
}
