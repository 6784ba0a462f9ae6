//! Hardening: the socket's permissions, connection and size limits, hostile files and panes.

mod hardening_connections;
mod hardening_display;
mod hardening_files;
mod hardening_limits;
mod hardening_lockout;
mod hardening_panes;
mod hardening_reads;
mod hardening_socket;
mod hardening_words;
