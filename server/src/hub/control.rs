//! The hub's own connection to a satellite's server, over a channel of the link: the handshake
//! that checks protocol versions when the link comes up, then the state requests listings make.

use std::os::unix::net::UnixStream;
use std::sync::Arc;
use std::time::Duration;

use phux_core::hosts::link::Session;
use phux_core::state_view::StateView;
use phux_core::wire::{
    check_welcome, ClientMessage, FrameReader, FrameWriter, Hello, IdOnly, ServerMessage,
    WireError, PROTOCOL,
};

/// How long a satellite has to answer the hub; a slower one is listed as unreachable.
pub const CONTROL_TIMEOUT: Duration = Duration::from_secs(3);

/// Why the hub could not talk to a satellite's server.
#[derive(Debug)]
pub enum ControlError {
    /// It speaks another protocol major.
    Refused(String),
    Failed(String),
}

#[derive(Debug)]
pub struct ControlClient {
    stream: UnixStream,
    next_id: u64,
}

impl ControlClient {
    /// Opens a channel to the satellite's server and says hello. A satellite of another
    /// protocol major is refused here, with the versions in the message.
    pub fn open(session: &Arc<Session>) -> Result<ControlClient, ControlError> {
        let failed = |e: &dyn std::fmt::Display| ControlError::Failed(e.to_string());
        let (ours, theirs) = UnixStream::pair().map_err(|e| failed(&e))?;
        let channel = session.open_channel(&theirs).map_err(|e| failed(&e))?;
        let forwarding = Arc::clone(session);
        std::thread::Builder::new()
            .name("hub-control".into())
            .spawn(move || forwarding.forward(channel, &theirs))
            .map_err(|e| failed(&e))?;
        ours.set_read_timeout(Some(CONTROL_TIMEOUT))
            .map_err(|e| failed(&e))?;
        let hello = ClientMessage::Hello(Hello {
            protocol: PROTOCOL,
            client: concat!("phux-hub ", env!("CARGO_PKG_VERSION")).to_owned(),
            read_only: false,
        });
        FrameWriter::new(&ours)
            .send(&hello)
            .map_err(|e| failed(&e))?;
        let answer: ServerMessage = FrameReader::new(&ours).read_message().map_err(|e| {
            ControlError::Failed(format!("the satellite's server did not answer: {e}"))
        })?;
        check_welcome(answer).map_err(|e| match e {
            WireError::VersionMismatch { .. } | WireError::Refused(_) => {
                ControlError::Refused(e.to_string())
            }
            other => ControlError::Failed(other.to_string()),
        })?;
        Ok(ControlClient {
            stream: ours,
            next_id: 1,
        })
    }

    /// The satellite's state.
    pub fn state(&mut self) -> Result<StateView, String> {
        let id = self.next_id;
        self.next_id += 1;
        FrameWriter::new(&self.stream)
            .send(&ClientMessage::GetState(IdOnly { id }))
            .map_err(|e| e.to_string())?;
        let mut reader = FrameReader::new(&self.stream);
        loop {
            match reader.read_message::<ServerMessage>() {
                Ok(ServerMessage::Response(response)) if response.id == id => {
                    return response
                        .into_result::<StateView>()
                        .map_err(|e| e.to_string())?
                        .map_err(|body| body.message);
                }
                Ok(_) => continue,
                Err(e) => return Err(format!("did not answer: {e}")),
            }
        }
    }
}
