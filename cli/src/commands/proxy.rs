//! `phux proxy`: what a hub runs on a satellite over ssh (`ssh -T HOST phux proxy`). It bridges
//! its stdin and stdout to this host's server socket, starting the server if none runs: each
//! channel of the link (see `phux_core::hosts::link_frame`) is one connection to the socket.
//! It speaks first, saying its protocol version, so the hub can refuse a mismatch up front.

use std::collections::HashMap;
use std::io::Write;
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};

use phux_core::exit_code::SUCCESS;
use phux_core::hosts::link_frame::{
    self, LinkFrame, LinkFrameError, ProxyHello, CONTROL_CHANNEL, MAX_CHUNK,
};
use phux_core::wire::PROTOCOL;

use crate::client::ensure_server;
use crate::commands::Context;
use crate::failure::{conclude, Failure, VerbResult};

/// Bridge stdin/stdout to this host's server (run by a hub over ssh)
#[derive(Debug, clap::Args)]
#[command(after_help = "\
A hub runs `ssh -T -o BatchMode=yes HOST phux proxy`; nothing else is installed on HOST. The
proxy starts this host's server if none runs, says its protocol version first, then carries
each of the hub's connections to the socket as a channel. It ends when the hub hangs up or this
host's server stops.")]
pub struct Args {}

pub fn run(_args: Args, context: &Context) -> i32 {
    conclude(false, execute(context))
}

fn execute(context: &Context) -> VerbResult {
    // Start the server now, so the first connection does not wait for it, and keep a
    // connection of our own: when the server stops, the link ends with it (the hub then
    // dials again, which starts a new server here).
    let mut watch = ensure_server(&context.socket)?;
    watch.welcome()?;
    watch.set_read_timeout(None)?;
    let watched = watch.into_stream();
    std::thread::Builder::new()
        .name("proxy-watch".into())
        .spawn(move || {
            let mut byte = [0u8; 1];
            let _ = std::io::Read::read(&mut &watched, &mut byte);
            eprintln!("phux proxy: the server on this host stopped");
            std::process::exit(1);
        })
        .map_err(|e| transport(&e))?;
    // Unbuffered: stdout's line buffering would split frames at every newline of the output.
    let out = std::os::fd::AsFd::as_fd(&std::io::stdout())
        .try_clone_to_owned()
        .map_err(|e| transport(&e))?;
    // Best effort: a wider pipe to ssh lets a whole frame through per wake-up.
    let _ = rustix::pipe::fcntl_setpipe_size(&out, phux_core::hosts::link::LINK_PIPE_BYTES);
    let out: Out = Arc::new(Mutex::new(std::fs::File::from(out)));
    let hello = ProxyHello {
        protocol: PROTOCOL,
        version: env!("CARGO_PKG_VERSION").to_owned(),
    };
    let hello = serde_json::to_vec(&hello).map_err(|e| transport(&e))?;
    send(&out, CONTROL_CHANNEL, &hello).map_err(|e| transport(&e))?;
    let bridge = Bridge {
        socket: context.socket.clone(),
        out,
        channels: Arc::new(Mutex::new(HashMap::new())),
    };
    let mut input = std::io::stdin().lock();
    loop {
        match link_frame::read_frame(&mut input) {
            Ok(LinkFrame::Data { channel, .. }) if channel == CONTROL_CHANNEL => {}
            Ok(LinkFrame::Data { channel, bytes }) => bridge.deliver(channel, &bytes),
            Ok(LinkFrame::Close { channel }) => bridge.close(channel),
            // The hub hung up: every connection ends with us.
            Err(LinkFrameError::Closed) => return Ok(SUCCESS),
            Err(e) => return Err(transport(&e)),
        }
    }
}

fn transport(error: &dyn std::fmt::Display) -> Failure {
    Failure::new(
        phux_core::error_code::ErrorCode::Transport,
        format!("phux proxy: {error}"),
        "the hub dials again on its own; check the server log on this host",
    )
}

type Out = Arc<Mutex<std::fs::File>>;

fn send(out: &Out, channel: u32, bytes: &[u8]) -> std::io::Result<()> {
    let mut out = out.lock().unwrap_or_else(|p| p.into_inner());
    link_frame::write_frame(&mut *out, channel, bytes)
}

struct Bridge {
    socket: std::path::PathBuf,
    out: Out,
    channels: Arc<Mutex<HashMap<u32, UnixStream>>>,
}

impl Bridge {
    fn channels(&self) -> MutexGuard<'_, HashMap<u32, UnixStream>> {
        self.channels.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Writes `bytes` to the channel's connection, connecting it on its first frame.
    fn deliver(&self, channel: u32, bytes: &[u8]) {
        let existing = self
            .channels()
            .get(&channel)
            .and_then(|s| s.try_clone().ok());
        let mut stream = match existing {
            Some(stream) => stream,
            None => match self.open(channel) {
                Some(stream) => stream,
                None => {
                    let _ = send(&self.out, channel, &[]);
                    return;
                }
            },
        };
        if stream.write_all(bytes).is_err() {
            self.close(channel);
            let _ = send(&self.out, channel, &[]);
        }
    }

    fn open(&self, channel: u32) -> Option<UnixStream> {
        let stream = connect(&self.socket)?;
        let reading = stream.try_clone().ok()?;
        self.channels().insert(channel, stream.try_clone().ok()?);
        let out = Arc::clone(&self.out);
        let channels = Arc::clone(&self.channels);
        std::thread::Builder::new()
            .name(format!("proxy-{channel}"))
            .spawn(move || pump(channel, reading, &out, &channels))
            .ok()?;
        Some(stream)
    }

    fn close(&self, channel: u32) {
        if let Some(stream) = self.channels().remove(&channel) {
            let _ = stream.shutdown(std::net::Shutdown::Both);
        }
    }
}

/// A connection to this host's server, checked as every client's is (a private directory, a
/// server of this user); `None` closes the channel.
fn connect(socket: &Path) -> Option<UnixStream> {
    crate::client::checked_stream(socket).ok()
}

/// Copies what the server says on one connection into its channel; closes the channel when
/// the server ends the connection.
fn pump(
    channel: u32,
    mut stream: UnixStream,
    out: &Out,
    channels: &Mutex<HashMap<u32, UnixStream>>,
) {
    let mut buf = vec![0u8; MAX_CHUNK];
    loop {
        match std::io::Read::read(&mut stream, &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                if send(out, channel, &buf[..n]).is_err() {
                    break;
                }
            }
        }
    }
    let was_open = channels
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .remove(&channel)
        .is_some();
    if was_open {
        let _ = send(out, channel, &[]);
    }
}
