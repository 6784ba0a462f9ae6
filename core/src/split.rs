//! Split direction and ratio of a pane placement, as the CLI names them.

use serde::{Deserialize, Serialize};

use crate::error_code::ErrorCode;
use crate::error_doc::ContractError;

/// The divider as the user sees it: `vertical` = side by side, `horizontal` = stacked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum SplitDirection {
    #[default]
    Horizontal,
    Vertical,
}

/// The default share of the space given to the new pane.
pub const DEFAULT_RATIO: f64 = 0.5;

/// A ratio outside the open interval (0, 1).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("ratio {0} is not strictly between 0 and 1")]
pub struct InvalidRatio(pub f64);

impl ContractError for InvalidRatio {
    fn code(&self) -> ErrorCode {
        ErrorCode::InvalidRatio
    }
    fn remedy(&self) -> String {
        "pass --ratio with a value strictly between 0 and 1, e.g. --ratio 0.5".to_owned()
    }
}

/// Checks that `ratio` is strictly between 0 and 1 (NaN is refused too).
pub fn check_ratio(ratio: f64) -> Result<f64, InvalidRatio> {
    if ratio > 0.0 && ratio < 1.0 {
        Ok(ratio)
    } else {
        Err(InvalidRatio(ratio))
    }
}
