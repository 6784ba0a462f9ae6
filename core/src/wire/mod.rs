//! The client↔server protocol over the Unix socket: frames, handshake and messages.

pub mod agents;
pub mod client_msg;
pub mod error;
pub mod frame;
pub mod frame_budget;
pub mod handshake;
pub mod input_tap;
pub mod payloads;
pub mod remote_connections;
pub mod server_msg;

pub use agents::*;
pub use client_msg::*;
pub use error::WireError;
pub use frame::{
    Frame, FrameReader, FrameWriter, OutputChunk, KIND_JSON, KIND_OUTPUT, MAX_FRAME_LEN,
};
pub use frame_budget::{FrameHead, FrameTooLarge, HeadVerdict, RequestSize};
pub use handshake::{check_welcome, negotiate, Hello, ProtocolVersion, Refused, Welcome, PROTOCOL};
pub use input_tap::*;
pub use payloads::*;
pub use remote_connections::*;
pub use server_msg::*;
