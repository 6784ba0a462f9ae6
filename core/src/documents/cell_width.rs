//! An approximate terminal cell width of a string, enough to re-pad right-trimmed wrapped rows.
//!
//! It knows the common wide (CJK, Hangul, fullwidth, emoji) and zero-width (combining) ranges;
//! rarer characters count as one cell.

/// Cells one character occupies (0 for combining marks).
pub fn char_width(c: char) -> usize {
    let c = u32::from(c);
    const ZERO: &[(u32, u32)] = &[
        (0x0300, 0x036F),
        (0x200B, 0x200F),
        (0x20D0, 0x20FF),
        (0xFE00, 0xFE0F),
        (0xFE20, 0xFE2F),
    ];
    const WIDE: &[(u32, u32)] = &[
        (0x1100, 0x115F),
        (0x2E80, 0x303E),
        (0x3041, 0x33FF),
        (0x3400, 0x4DBF),
        (0x4E00, 0x9FFF),
        (0xA000, 0xA4CF),
        (0xAC00, 0xD7A3),
        (0xF900, 0xFAFF),
        (0xFE30, 0xFE4F),
        (0xFF00, 0xFF60),
        (0xFFE0, 0xFFE6),
        (0x1F300, 0x1F64F),
        (0x1F900, 0x1F9FF),
        (0x20000, 0x3FFFD),
    ];
    let within = |ranges: &[(u32, u32)]| ranges.iter().any(|&(lo, hi)| (lo..=hi).contains(&c));
    if within(ZERO) {
        0
    } else if within(WIDE) {
        2
    } else {
        1
    }
}

/// Cells `s` occupies.
pub fn display_width(s: &str) -> usize {
    s.chars().map(char_width).sum()
}
