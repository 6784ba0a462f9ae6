//! `snapshot`'s plan: what to read and how to project it, sorted out of the optional-valued
//! flags (`--scrollback`, `--tail`) and the TARGET they may have taken.

use phux_core::documents::TAIL_DEFAULT;

use crate::values::optional_count;

/// What to read and how to project it, with the TARGET the optional values may have taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    pub target: String,
    pub scrollback: Option<u32>,
    /// `--tail` as rows to keep (0 = all, capped).
    pub tail: Option<usize>,
}

/// Sorts the optional-valued flags out from the TARGET: `--scrollback` (bare = 0 = all) and
/// `--tail` (bare = 80). With `--tail` alone, the read asks for as much history as the tail
/// may keep.
pub fn plan(
    scrollback: Option<Option<String>>,
    tail: Option<Option<String>>,
    target: Option<String>,
) -> Result<Plan, crate::failure::Failure> {
    let mut target = target;
    let scrollback = optional_count("scrollback", scrollback, &mut target)?.map(|n| n.unwrap_or(0));
    let tail = optional_count("tail", tail, &mut target)?
        .map(|n| n.map_or(TAIL_DEFAULT, |n| usize::try_from(n).unwrap_or(usize::MAX)));
    let scrollback = scrollback.or(tail.map(|n| u32::try_from(n).unwrap_or(0)));
    Ok(Plan {
        target: target.unwrap_or_else(|| ".".to_owned()),
        scrollback,
        tail,
    })
}
