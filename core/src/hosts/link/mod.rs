//! The link to a host's `phux proxy`, shared by the hub's satellite links (the server) and a
//! client's direct link to a `[[remote]]` host: the dial (the ssh or `wss://` transport and
//! the proxy's hello check) and the session that multiplexes channels over it (framed by
//! [`link_frame`](super::link_frame)). Who keeps a link up, and what else rides on it, is the
//! caller's.

pub mod dial;
pub mod session;

pub use dial::{dial, Dial, HELLO_LIMIT, LINK_PIPE_BYTES};
pub use session::Session;
