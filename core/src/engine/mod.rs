//! The libghostty-vt binding.
