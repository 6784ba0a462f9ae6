//! Dialing a host: runs `ssh … HOST phux proxy` (or `phux __remote-link` for `wss://`),
//! widens the pipes, and checks the proxy's hello (its protocol major) before anything crosses
//! the link. What comes back is a [`Session`] not yet pumped, and the link's stdout to pump.

use std::io::Read;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::hosts::link_frame::{self, LinkFrame, ProxyHello, CONTROL_CHANNEL};
use crate::hosts::{Endpoint, Scheme, WssAuth};
use crate::wire::PROTOCOL;

use super::session::Session;

/// How long the far side has to start `phux proxy` and say hello.
pub const HELLO_LIMIT: Duration = Duration::from_secs(20);
/// The pipe size asked for on the link's stdin and stdout (and by `phux proxy` on its stdout).
pub const LINK_PIPE_BYTES: usize = 1024 * 1024;

/// Runs `ssh … HOST phux proxy` (or, for `wss://`, `phux __remote-link`, which carries the
/// same link over the host's listener) and checks the proxy's hello: the session, not yet
/// pumped.
pub fn dial(
    endpoint: &Endpoint,
    config: Option<&std::path::Path>,
    wss: Option<&WssAuth>,
) -> Result<(Arc<Session>, std::process::ChildStdout), Dial> {
    let via = match endpoint.scheme {
        Scheme::Ssh => "ssh",
        Scheme::Wss => "the wss link",
    };
    let (program, args) = match endpoint.scheme {
        Scheme::Ssh => {
            let (program, mut args) = crate::hosts::ssh::ssh_program(config);
            args.extend(endpoint.ssh_args(&["phux", "proxy"]));
            (program, args)
        }
        Scheme::Wss => {
            let auth = wss.ok_or_else(|| {
                Dial::Failed(format!(
                    "{endpoint} needs token_file and cert_fingerprint in its entry"
                ))
            })?;
            let program = std::env::current_exe()
                .map_err(|e| Dial::Failed(format!("cannot find this phux binary: {e}")))?
                .display()
                .to_string();
            let args = vec![
                "__remote-link".to_owned(),
                endpoint.to_string(),
                "--token-file".to_owned(),
                auth.token_file.clone(),
                "--fingerprint".to_owned(),
                auth.fingerprint.clone(),
            ];
            (program, args)
        }
    };
    let mut child = Command::new(&program)
        .args(&args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| Dial::Failed(format!("cannot run {program}: {e}")))?;
    let (Some(stdin), Some(mut stdout), Some(stderr)) =
        (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        let _ = child.kill();
        let _ = child.wait();
        return Err(Dial::Failed("ssh's pipes are missing".into()));
    };
    // A wider pipe lets a whole 256 KiB frame through per wake-up (best effort).
    let _ = rustix::pipe::fcntl_setpipe_size(&stdout, LINK_PIPE_BYTES);
    let _ = rustix::pipe::fcntl_setpipe_size(&stdin, LINK_PIPE_BYTES);
    let stderr_tail = collect_stderr(stderr);
    let session = Session::new(child, stdin);
    // The proxy's hello, read on a helper so a far side that never answers is cut off.
    let (tx, rx) = crossbeam_channel::bounded(1);
    let reader = std::thread::Builder::new()
        .name("hub-hello".into())
        .spawn(move || {
            let hello = link_frame::read_frame(&mut stdout);
            let _ = tx.send((hello, stdout));
        });
    if reader.is_err() {
        session.end();
        return Err(Dial::Failed("cannot start a thread".into()));
    }
    let failed = |session: &Session, why: String| {
        session.end();
        let said = stderr_tail
            .lock()
            .map(|s| s.trim().to_owned())
            .unwrap_or_default();
        if said.is_empty() {
            Dial::Failed(why)
        } else {
            Dial::Failed(format!("{why}; {via} said: {said}"))
        }
    };
    let (hello, stdout) = match rx.recv_timeout(HELLO_LIMIT) {
        Ok(got) => got,
        Err(_) => {
            return Err(failed(
                &session,
                format!(
                    "no answer from `phux proxy` within {}s",
                    HELLO_LIMIT.as_secs()
                ),
            ))
        }
    };
    let hello: ProxyHello = match hello {
        Ok(LinkFrame::Data { channel, bytes }) if channel == CONTROL_CHANNEL => {
            match serde_json::from_slice(&bytes) {
                Ok(hello) => hello,
                Err(_) => {
                    return Err(failed(
                        &session,
                        "the far side did not speak the phux proxy protocol".into(),
                    ))
                }
            }
        }
        Ok(_) => {
            return Err(failed(
                &session,
                "the far side did not speak the phux proxy protocol".into(),
            ))
        }
        Err(e) => {
            return Err(failed(
                &session,
                match endpoint.scheme {
                    Scheme::Ssh => format!(
                        "ssh ended before `phux proxy` answered ({e}): check that the host is \
                         reachable and that phux is on its PATH"
                    ),
                    Scheme::Wss => format!(
                        "the wss link ended before the listener answered ({e}): check the \
                         address, the token file and the fingerprint"
                    ),
                },
            ))
        }
    };
    if hello.protocol.major != PROTOCOL.major {
        session.end();
        return Err(Dial::Refused(format!(
            "it runs phux {} (protocol {}), this hub speaks protocol {PROTOCOL}: install a \
             phux of protocol {}.x there",
            hello.version, hello.protocol, PROTOCOL.major
        )));
    }
    Ok((session, stdout))
}

/// Why a dial failed: the far side could not be reached, or speaks another protocol.
#[derive(Debug)]
pub enum Dial {
    Failed(String),
    Refused(String),
}

impl std::fmt::Display for Dial {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Dial::Failed(why) | Dial::Refused(why) => f.write_str(why),
        }
    }
}

/// The last KiB ssh wrote on stderr, for diagnostics.
fn collect_stderr(mut stderr: std::process::ChildStderr) -> Arc<Mutex<String>> {
    let tail = Arc::new(Mutex::new(String::new()));
    let sink = Arc::clone(&tail);
    let _ = std::thread::Builder::new()
        .name("hub-ssh-stderr".into())
        .spawn(move || {
            let mut buf = [0u8; 1024];
            while let Ok(n) = stderr.read(&mut buf) {
                if n == 0 {
                    break;
                }
                if let Ok(mut tail) = sink.lock() {
                    tail.push_str(&String::from_utf8_lossy(&buf[..n]));
                    if tail.len() > 1024 {
                        let cut = tail.len() - 1024;
                        let cut = (cut..tail.len())
                            .find(|&i| tail.is_char_boundary(i))
                            .unwrap_or(0);
                        tail.drain(..cut);
                    }
                }
            }
        });
    tail
}
