//! phux-core: the types every other crate shares, and the libghostty-vt engine binding.
//!
//! `core` depends on nothing of ours and does no I/O beyond finding, installing and loading the
//! engine library.

pub mod engine;
