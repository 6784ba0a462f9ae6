//! Flag values several verbs share: the checks are `phux_client::values`' (so the MCP tools
//! make the same ones), and the split direction as clap names it.

use clap::ValueEnum;
pub use phux_client::values::*;
use phux_core::split::SplitDirection;

/// `--split`: the divider as the user sees it (`vertical` = side by side).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum SplitArg {
    /// Stacked (one above the other)
    #[default]
    #[value(alias = "h")]
    Horizontal,
    /// Side by side
    #[value(alias = "v")]
    Vertical,
}

impl From<SplitArg> for SplitDirection {
    fn from(split: SplitArg) -> Self {
        match split {
            SplitArg::Horizontal => SplitDirection::Horizontal,
            SplitArg::Vertical => SplitDirection::Vertical,
        }
    }
}
