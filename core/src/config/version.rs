//! Dotted version numbers (`0.1.0`, `1.2`) compared numerically, for `min_phux_version`.

use std::cmp::Ordering;

/// This phux's version.
pub const PHUX_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The numeric parts of `text` (`"v1.2.3-beta"` → `[1, 2, 3]`), or `None` when it is not a
/// dotted version.
pub fn parse(text: &str) -> Option<Vec<u64>> {
    let core = text.trim().trim_start_matches('v');
    let core = core.split(['-', '+']).next().unwrap_or_default();
    if core.is_empty() {
        return None;
    }
    core.split('.').map(|part| part.parse().ok()).collect()
}

/// Compares two parsed versions, a missing part counting as 0 (`1.2` == `1.2.0`).
pub fn compare(a: &[u64], b: &[u64]) -> Ordering {
    let len = a.len().max(b.len());
    (0..len)
        .map(|i| {
            a.get(i)
                .copied()
                .unwrap_or(0)
                .cmp(&b.get(i).copied().unwrap_or(0))
        })
        .find(|o| o.is_ne())
        .unwrap_or(Ordering::Equal)
}

/// Whether this phux is at least `floor`; `None` when `floor` is not a version.
pub fn phux_satisfies(floor: &str) -> Option<bool> {
    let floor = parse(floor)?;
    let ours = parse(PHUX_VERSION)?;
    Some(compare(&ours, &floor).is_ge())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_compare_by_number_not_text() {
        let v = |s| parse(s).unwrap();
        assert_eq!(compare(&v("0.10.0"), &v("0.9.9")), Ordering::Greater);
        assert_eq!(compare(&v("1.2"), &v("1.2.0")), Ordering::Equal);
        assert_eq!(compare(&v("v1.2.3-rc1"), &v("1.2.4")), Ordering::Less);
        assert!(parse("one.two").is_none());
        assert_eq!(phux_satisfies("0.0.1"), Some(true));
        assert_eq!(phux_satisfies("999.0.0"), Some(false));
    }
}
