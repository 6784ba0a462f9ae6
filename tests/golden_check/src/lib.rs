//! Golden files for every crate's tests: a test's output compared byte for byte with a file
//! kept in the repository, or written to it when `PHUX_BLESS=1` is set (any value blesses).
//! One helper, so every golden drifts, is created and is re-blessed the same way.

#![forbid(unsafe_code)]

use std::path::Path;

/// True when the goldens are being re-blessed (`PHUX_BLESS` is set).
pub fn blessing() -> bool {
    std::env::var_os("PHUX_BLESS").is_some()
}

/// Compares `actual` with the golden file at `path`, or (re-)writes the file when blessing.
/// `Err` says what drifted (or that the file is missing), for a caller that checks many files
/// and reports every drift at once; [`check`] fails on the first.
pub fn compare(path: &Path, actual: &str) -> Result<(), String> {
    if blessing() {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("{}: cannot create it: {e}", dir.display()))?;
        }
        return std::fs::write(path, actual)
            .map_err(|e| format!("{}: cannot write it: {e}", path.display()));
    }
    let expected = std::fs::read_to_string(path).map_err(|e| {
        format!(
            "{}: {e}; run with PHUX_BLESS=1 to create it",
            path.display()
        )
    })?;
    if expected == actual {
        return Ok(());
    }
    Err(format!(
        "{} drifted; if the change is intended, re-bless with PHUX_BLESS=1\n\
         --- expected\n{expected}\n--- actual\n{actual}",
        path.display()
    ))
}

/// Compares `actual` with the golden file at `path` (see [`compare`]), failing the test on
/// drift or a missing file.
#[track_caller]
pub fn check(path: &Path, actual: &str) {
    if let Err(drift) = compare(path, actual) {
        panic!("{drift}");
    }
}

/// Fails the test when `drifts` (collected from [`compare`]) is not empty, listing them all.
#[track_caller]
pub fn assert_none(drifts: &[String]) {
    assert!(drifts.is_empty(), "{}", drifts.join("\n"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_matching_file_passes_and_a_different_one_drifts() {
        if blessing() {
            return;
        }
        let dir = std::env::temp_dir().join(format!("phux-golden-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
        let path = dir.join("g.txt");
        std::fs::write(&path, "same\n").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(compare(&path, "same\n"), Ok(()));
        let drift = compare(&path, "other\n").unwrap_err();
        assert!(
            drift.contains("drifted") && drift.contains("other"),
            "{drift}"
        );
        let missing = compare(&dir.join("none.txt"), "x").unwrap_err();
        assert!(missing.contains("PHUX_BLESS=1"), "{missing}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
