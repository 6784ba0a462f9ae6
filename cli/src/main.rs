//! The `phux` binary.
fn main() {}
