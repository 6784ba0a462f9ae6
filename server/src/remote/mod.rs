//! The remote listener (§4.18): HTTPS and WebSocket over TLS on one port, off unless an
//! address is configured (`PHUX_WS_ADDR`, `[listener] ws_addr`, `phux server --ws-addr`).
//! Bearer tokens minted by `phux pair` admit a browser (`/wire`, the page at `/`) or a hub's
//! link (`/link`); the certificate is self-signed on first use and pinned by its fingerprint.
//! The listener runs on its own thread with a single-threaded tokio runtime; each admitted
//! connection is served by the ordinary connection code over a socket pair.

mod bridge;
pub mod cert;
pub mod dial;
mod http;
pub mod listener;
mod log_throttle;
pub mod overlay;
mod page;
pub mod private_file;
pub mod sessions;
pub mod tokens;
mod unauthenticated;

pub use listener::{bound_addr, start, Settings};
