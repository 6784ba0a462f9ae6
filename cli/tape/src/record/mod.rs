//! `phux tape record`: writes a tape of what is typed into a pane.
pub mod compose;
pub mod decode;
