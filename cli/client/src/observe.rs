//! Reading a pane's observe stream: the screen's repaint, then every output chunk with the
//! time the server read it, resizes, and the stream's end. `rec` (`record`), the tape runner
//! and the TUI read it through [`ObserveReader`], so the three agree on what ends a stream and
//! say the same when the server dropped a reader that fell behind ([`StreamEnd::Lagged`]).

use std::io::BufReader;
use std::os::unix::net::UnixStream;

use phux_core::documents::WatchEventKind;
use phux_core::wire::{Frame, FrameReader, ServerMessage};

use crate::output;

/// One item of an observe stream, decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Observed {
    /// Bytes the pane's program wrote: `seq` counts the stream's chunks, `t_ns` is the
    /// server's monotonic time of the PTY read.
    Output { seq: u64, t_ns: u64, bytes: Vec<u8> },
    /// The pane's grid changed size at `t_ns`.
    Resized { t_ns: u64, cols: u16, rows: u16 },
    /// The stream is over; nothing follows.
    Ended(StreamEnd),
}

/// Why an observe stream ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamEnd {
    /// The pane closed at `t_ns`; its program's exit status when it had one.
    PaneClosed { t_ns: u64, exit_status: Option<i32> },
    /// The server dropped this reader for falling behind (`dropped_bytes` of output it did
    /// not send): what was read is whole, but the rest of the pane's output is missing.
    Lagged { dropped_bytes: u64 },
    /// The connection ended (the server stopped, or the reader's socket was shut down).
    Disconnected,
}

impl StreamEnd {
    /// What every reader says on stderr when the server dropped it for falling behind: the
    /// recording (or the tape's) ends there.
    pub const LAGGED_WARNING: &'static str =
        "the server ended the stream (the recorder fell behind); the recording ends there";

    /// Whether the reader fell behind (a `Disconnected` stream may have too: the server drops
    /// a reader's connection when even its notice cannot be queued).
    pub fn lagged(self) -> bool {
        matches!(self, StreamEnd::Lagged { .. })
    }
}

/// Says on stderr that the server dropped a recorder for falling behind.
pub fn warn_lagged() {
    output::warn(StreamEnd::LAGGED_WARNING);
}

/// The reading end of an observe stream (after its `ObserveStart` answer).
pub struct ObserveReader {
    frames: FrameReader<BufReader<UnixStream>>,
    ended: bool,
}

impl ObserveReader {
    /// Reads the stream on `stream`, buffering `capacity` bytes of it.
    pub fn new(stream: UnixStream, capacity: usize) -> ObserveReader {
        ObserveReader {
            frames: FrameReader::new(BufReader::with_capacity(capacity, stream)),
            ended: false,
        }
    }

    /// The next item, waiting for it; after an [`Observed::Ended`], `None`.
    pub fn next_item(&mut self) -> Option<Observed> {
        if self.ended {
            return None;
        }
        loop {
            let Ok(frame) = self.frames.read_frame() else {
                self.ended = true;
                return Some(Observed::Ended(StreamEnd::Disconnected));
            };
            if let Some(item) = decode(frame) {
                self.ended = matches!(item, Observed::Ended(_));
                return Some(item);
            }
        }
    }

    /// Whether more of the stream is already read from the socket (the next item would not
    /// wait), so a reader can hand items over in batches.
    pub fn has_buffered(&mut self) -> bool {
        !self.frames.get_mut().buffer().is_empty()
    }
}

impl Iterator for ObserveReader {
    type Item = Observed;

    fn next(&mut self) -> Option<Observed> {
        self.next_item()
    }
}

/// What `frame` means to an observer; `None` for a frame an observer skips (another event, a
/// kind this build does not know).
fn decode(frame: Frame) -> Option<Observed> {
    match frame {
        Frame::Output(chunk) => Some(Observed::Output {
            seq: chunk.seq,
            t_ns: chunk.t_ns,
            bytes: chunk.bytes,
        }),
        Frame::Json(_) => match frame.decode::<ServerMessage>() {
            Ok(ServerMessage::Resized(r)) => Some(Observed::Resized {
                t_ns: r.t_ns,
                cols: r.cols,
                rows: r.rows,
            }),
            Ok(ServerMessage::Event(event)) => match event.event {
                WatchEventKind::PaneClosed { exit_status } => {
                    Some(Observed::Ended(StreamEnd::PaneClosed {
                        t_ns: event.t_ns,
                        exit_status,
                    }))
                }
                _ => None,
            },
            Ok(ServerMessage::ObserverLagged(lagged)) => Some(Observed::Ended(StreamEnd::Lagged {
                dropped_bytes: lagged.dropped_bytes,
            })),
            _ => None,
        },
        Frame::Unknown { .. } => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use phux_core::ids::PaneId;
    use phux_core::wire::{FrameWriter, ObserverLagged, OutputChunk, Resized};

    fn stream_of(frames: &[Frame]) -> ObserveReader {
        let (ours, theirs) = UnixStream::pair().unwrap();
        let mut writer = FrameWriter::new(theirs);
        for frame in frames {
            writer.write_frame(frame).unwrap();
        }
        drop(writer);
        ObserveReader::new(ours, 1024)
    }

    #[test]
    fn output_and_resizes_come_in_order_and_a_lag_ends_the_stream() {
        let chunk = Frame::Output(OutputChunk {
            pane: 1,
            seq: 7,
            t_ns: 5,
            bytes: b"hi".to_vec(),
        });
        let resized = Frame::json(&ServerMessage::Resized(Resized {
            pane: PaneId(1),
            cols: 100,
            rows: 30,
            t_ns: 6,
        }))
        .unwrap();
        let lagged = Frame::json(&ServerMessage::ObserverLagged(ObserverLagged {
            pane: PaneId(1),
            dropped_bytes: 4096,
        }))
        .unwrap();
        let items: Vec<Observed> = stream_of(&[chunk, resized, lagged.clone(), lagged]).collect();
        assert_eq!(
            items,
            vec![
                Observed::Output {
                    seq: 7,
                    t_ns: 5,
                    bytes: b"hi".to_vec()
                },
                Observed::Resized {
                    t_ns: 6,
                    cols: 100,
                    rows: 30
                },
                Observed::Ended(StreamEnd::Lagged {
                    dropped_bytes: 4096
                }),
            ]
        );
    }

    #[test]
    fn a_closed_connection_is_an_end_too() {
        let items: Vec<Observed> = stream_of(&[]).collect();
        assert_eq!(items, vec![Observed::Ended(StreamEnd::Disconnected)]);
    }
}
