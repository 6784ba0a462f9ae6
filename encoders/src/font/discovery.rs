//! Finds the faces of a `--font`: a font file, the bundled JetBrains Mono, or a family installed
//! in fontconfig's directories (`PHUX_FONT_DIRS`, `:`-separated, replaces them; set but empty,
//! no installed font is used).

use std::path::{Path, PathBuf};

use ab_glyph::{FontArc, FontRef, FontVec};

use crate::error::EncodeError;

/// The bundled default, under the SIL Open Font License (`encoders/fonts/LICENSE-JetBrainsMono.txt`).
pub const BUNDLED_FAMILY: &str = "JetBrains Mono";
static BUNDLED_REGULAR: &[u8] = include_bytes!("../../fonts/JetBrainsMono-Regular.ttf");
static BUNDLED_BOLD: &[u8] = include_bytes!("../../fonts/JetBrainsMono-Bold.ttf");

/// A generic name that means the bundled font.
const MONOSPACE: &str = "monospace";
/// How deep font directories are walked.
const MAX_DEPTH: usize = 6;

/// One face, with the metrics the rasterizer needs that `ab_glyph` does not expose.
#[derive(Clone)]
pub struct Face {
    /// The outlines.
    pub font: FontArc,
    /// Underline position (negative: below the baseline) and thickness, in font units.
    pub underline: Option<(f32, f32)>,
    /// Strikeout position and thickness, in font units.
    pub strikeout: Option<(f32, f32)>,
}

impl std::fmt::Debug for Face {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Face")
    }
}

/// A family's faces; missing styles are synthesized from the regular face.
#[derive(Debug, Clone)]
pub struct Family {
    /// What the family was asked for as (a name or a path).
    pub name: String,
    /// Upright, normal weight.
    pub regular: Face,
    /// Upright, bold.
    pub bold: Option<Face>,
    /// Italic (or oblique), normal weight.
    pub italic: Option<Face>,
    /// Italic, bold.
    pub bold_italic: Option<Face>,
}

/// The bundled JetBrains Mono: regular and bold (italic is synthesized).
pub fn bundled() -> Family {
    Family {
        name: BUNDLED_FAMILY.to_string(),
        regular: static_face(BUNDLED_REGULAR),
        bold: Some(static_face(BUNDLED_BOLD)),
        italic: None,
        bold_italic: None,
    }
}

fn static_face(data: &'static [u8]) -> Face {
    let metrics = line_metrics(data, 0);
    // Both files are checked by a test; a broken one could only come from editing the repo.
    let font = FontRef::try_from_slice(data)
        .map(FontArc::new)
        .unwrap_or_else(|_| FontArc::new(empty_font()));
    Face {
        font,
        underline: metrics.0,
        strikeout: metrics.1,
    }
}

/// Never reached in practice (see `static_face`): the bundled regular face parsed again.
fn empty_font() -> FontRef<'static> {
    #[allow(clippy::expect_used)] // the bundled file is valid; a test proves it
    FontRef::try_from_slice(BUNDLED_REGULAR).expect("the bundled font parses")
}

/// The directories searched for installed families: `PHUX_FONT_DIRS` when set, else
/// fontconfig's usual ones.
pub fn font_dirs() -> Vec<PathBuf> {
    if let Some(dirs) = std::env::var_os("PHUX_FONT_DIRS") {
        return std::env::split_paths(&dirs)
            .filter(|p| !p.as_os_str().is_empty())
            .collect();
    }
    let mut dirs = vec![
        PathBuf::from("/usr/share/fonts"),
        PathBuf::from("/usr/local/share/fonts"),
    ];
    let data_home = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".local/share")));
    if let Some(d) = data_home {
        dirs.push(d.join("fonts"));
    }
    if let Some(home) = std::env::var_os("HOME") {
        dirs.push(Path::new(&home).join(".fonts"));
    }
    dirs
}

/// Resolves one `--font` value: a file, the bundled family (also for `monospace`), or an
/// installed family.
pub fn resolve(name: &str) -> Result<Family, EncodeError> {
    let path = Path::new(name);
    if looks_like_path(name) || path.is_file() {
        return load_file(path, name);
    }
    let wanted = normalize(name);
    if wanted == normalize(BUNDLED_FAMILY) || wanted == MONOSPACE {
        return Ok(bundled());
    }
    let dirs = font_dirs();
    find_installed(name, &wanted, &dirs)?.ok_or_else(|| EncodeError::FontNotFound {
        name: name.to_string(),
        searched: if dirs.is_empty() {
            "no directories: PHUX_FONT_DIRS is empty".to_string()
        } else {
            dirs.iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(":")
        },
    })
}

fn looks_like_path(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    name.contains('/')
        || [".ttf", ".otf", ".ttc", ".otc"]
            .iter()
            .any(|e| lower.ends_with(e))
}

/// Lower-case letters and digits only, so "JetBrains Mono", "jetbrains-mono" and
/// "JetBrainsMono" are one name.
fn normalize(name: &str) -> String {
    name.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// A font file as one family: its first face, styles synthesized.
fn load_file(path: &Path, name: &str) -> Result<Family, EncodeError> {
    let unreadable = |reason: String| EncodeError::FontUnreadable {
        path: path.to_path_buf(),
        reason,
    };
    let data = std::fs::read(path).map_err(|e| unreadable(e.to_string()))?;
    let face = face_from(data, 0)
        .ok_or_else(|| unreadable("not a TrueType/OpenType font (.ttf, .otf, .ttc)".into()))?;
    Ok(Family {
        name: name.to_string(),
        regular: face,
        bold: None,
        italic: None,
        bold_italic: None,
    })
}

fn face_from(data: Vec<u8>, index: u32) -> Option<Face> {
    let metrics = line_metrics(&data, index);
    let font = FontVec::try_from_vec_and_index(data, index).ok()?;
    Some(Face {
        font: FontArc::new(font),
        underline: metrics.0,
        strikeout: metrics.1,
    })
}

type LineMetrics = (Option<(f32, f32)>, Option<(f32, f32)>);

fn line_metrics(data: &[u8], index: u32) -> LineMetrics {
    let Ok(face) = ttf_parser::Face::parse(data, index) else {
        return (None, None);
    };
    let pair = |m: ttf_parser::LineMetrics| (f32::from(m.position), f32::from(m.thickness));
    (
        face.underline_metrics().map(pair),
        face.strikeout_metrics().map(pair),
    )
}

/// One installed face that belongs to the family asked for.
struct Candidate {
    path: PathBuf,
    index: u32,
    weight: u16,
    italic: bool,
}

/// Finds `wanted` among the installed fonts. Files whose name starts with the family's are read
/// first; only when none of them is the family is every font file read.
fn find_installed(
    name: &str,
    wanted: &str,
    dirs: &[PathBuf],
) -> Result<Option<Family>, EncodeError> {
    let mut files = Vec::new();
    for dir in dirs {
        walk(dir, 0, &mut files);
    }
    files.sort();
    let (likely, rest): (Vec<_>, Vec<_>) = files.into_iter().partition(|p| {
        p.file_stem()
            .is_some_and(|s| normalize(&s.to_string_lossy()).starts_with(wanted))
    });
    let mut found = candidates(&likely, wanted);
    if found.is_empty() {
        found = candidates(&rest, wanted);
    }
    if found.is_empty() {
        return Ok(None);
    }
    let pick = |italic: bool, bold: bool| -> Option<Face> {
        let target: u16 = if bold { 700 } else { 400 };
        let best = found
            .iter()
            .filter(|c| c.italic == italic && (c.weight >= 600) == bold)
            .min_by_key(|c| c.weight.abs_diff(target))?;
        let data = std::fs::read(&best.path).ok()?;
        face_from(data, best.index)
    };
    let regular = pick(false, false)
        .or_else(|| pick(true, false))
        .or_else(|| pick(false, true))
        .or_else(|| pick(true, true));
    let Some(regular) = regular else {
        return Ok(None);
    };
    Ok(Some(Family {
        name: name.to_string(),
        regular,
        bold: pick(false, true),
        italic: pick(true, false),
        bold_italic: pick(true, true),
    }))
}

/// The faces in `files` whose family (typographic or legacy) is `wanted`.
fn candidates(files: &[PathBuf], wanted: &str) -> Vec<Candidate> {
    let mut out = Vec::new();
    for path in files {
        let Ok(data) = std::fs::read(path) else {
            continue;
        };
        let count = ttf_parser::fonts_in_collection(&data).unwrap_or(1);
        for index in 0..count {
            let Ok(face) = ttf_parser::Face::parse(&data, index) else {
                continue;
            };
            let is_family = face.names().into_iter().any(|n| {
                (n.name_id == ttf_parser::name_id::TYPOGRAPHIC_FAMILY
                    || n.name_id == ttf_parser::name_id::FAMILY)
                    && n.to_string().is_some_and(|s| normalize(&s) == wanted)
            });
            if is_family {
                out.push(Candidate {
                    path: path.clone(),
                    index,
                    weight: face.weight().to_number(),
                    italic: face.is_italic() || face.is_oblique(),
                });
            }
        }
    }
    out
}

/// Collects the font files under `dir`, `depth` levels down already.
pub(crate) fn walk(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    if depth > MAX_DEPTH {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() || (kind.is_symlink() && path.is_dir()) {
            walk(&path, depth + 1, out);
        } else if is_font_file(&path) {
            out.push(path);
        }
    }
}

fn is_font_file(path: &Path) -> bool {
    path.extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .is_some_and(|e| matches!(e.as_str(), "ttf" | "otf" | "ttc" | "otc"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ab_glyph::Font;

    #[test]
    fn the_bundled_faces_parse_and_have_latin() {
        let f = bundled();
        assert_ne!(f.regular.font.glyph_id('A').0, 0);
        assert_ne!(f.bold.unwrap().font.glyph_id('A').0, 0);
        assert!(f.regular.underline.is_some());
    }

    #[test]
    fn names_compare_without_case_or_spaces() {
        assert_eq!(normalize("JetBrains Mono"), normalize("jetbrains-mono"));
        assert!(looks_like_path("x/y") && looks_like_path("A.TTF") && !looks_like_path("Noto"));
    }
}
