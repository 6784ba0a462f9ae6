//! The host list: the `[[satellites]]` a hub dials and the `[[remote]]` hosts `attach`
//! reaches, kept in the user's `config.toml`; the strict `ssh://` and `wss://` endpoint grammar; and the
//! link to a host's `phux proxy` (its framing, its dial and its channel multiplexer).

pub mod endpoint;
pub mod host_list;
pub mod link;
pub mod link_frame;
pub mod ssh;

pub use endpoint::{Endpoint, EndpointError, Scheme};
pub use host_list::{HostEntry, HostListError, HostRole, WssAuth};
