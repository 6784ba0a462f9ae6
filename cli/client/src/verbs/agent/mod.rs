//! The `agent` verbs' operations that are more than one client call.

pub mod answer;
pub mod explain;
pub mod prompt;
pub mod send_keys;
pub mod start;
