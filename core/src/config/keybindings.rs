//! `[keybindings]`: the TUI's prefix and chord → action overrides (`"|" = "split-right"`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Keybindings {
    /// The prefix chord (`C-a`).
    pub prefix: Option<String>,
    /// Every other key: a chord after the prefix, and the action it runs.
    #[serde(flatten)]
    pub chords: BTreeMap<String, String>,
}
