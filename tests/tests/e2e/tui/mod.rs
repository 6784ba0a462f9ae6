//! The TUI (`phux attach`) driven through a real PTY: attaching, keys, sessions, switching.

mod tui_attach;
mod tui_keys;
mod tui_sessions;
mod tui_switching;
mod tui_wide_clusters;
