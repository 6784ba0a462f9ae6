//! The two threads beside every pane actor: the reader, which stamps each PTY read with the
//! monotonic time it was read and hands it over, and the writer, which owns blocking writes to
//! the PTY so a program that stops reading its input can never stall the actor.

use crossbeam_channel::{Receiver, Sender};
use std::io::{Read, Write};
use std::sync::Arc;
use std::time::Instant;

/// One read from the PTY.
pub struct Chunk {
    pub t_ns: u64,
    pub bytes: Arc<[u8]>,
}

/// Reads until EOF (the last holder of the terminal closed it); then drops `tx`.
pub fn spawn_reader(mut master: std::fs::File, tx: Sender<Chunk>, epoch: Instant, name: String) {
    let spawned = std::thread::Builder::new().name(name).spawn(move || {
        let mut buffer = vec![0u8; 64 * 1024];
        loop {
            match master.read(&mut buffer) {
                Ok(0) => break,
                Ok(n) => {
                    let t_ns = crate::bus::now_ns(epoch);
                    if tx
                        .send(Chunk {
                            t_ns,
                            bytes: Arc::from(&buffer[..n]),
                        })
                        .is_err()
                    {
                        break;
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                // EIO is how Linux reports that the slave side is gone.
                Err(_) => break,
            }
        }
    });
    if let Err(e) = spawned {
        crate::log::line(&format!("cannot start a PTY reader: {e}"));
    }
}

/// Writes queued input to the PTY in order until the queue closes.
pub fn spawn_writer(mut master: std::fs::File, rx: Receiver<Vec<u8>>, name: String) {
    let spawned = std::thread::Builder::new().name(name).spawn(move || {
        for bytes in rx {
            if master
                .write_all(&bytes)
                .and_then(|()| master.flush())
                .is_err()
            {
                break;
            }
        }
    });
    if let Err(e) = spawned {
        crate::log::line(&format!("cannot start a PTY writer: {e}"));
    }
}
