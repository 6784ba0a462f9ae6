//! The host registry: the `[[satellites]]` a hub dials and the `[[remote]]` hosts `attach`
//! reaches, kept in the user's `config.toml`; the strict `ssh://` endpoint grammar; and the
//! framing of the hub ↔ `phux proxy` link.

pub mod endpoint;
pub mod link_frame;
pub mod registry;
pub mod ssh;

pub use endpoint::{Endpoint, EndpointError, Scheme};
pub use registry::{HostEntry, HostRole, RegistryError, WssAuth};
