//! What is waiting to be typed into a pane, bounded in bytes rather than entries: a program
//! that stops reading its input can make the server hold at most [`MAX_QUEUED_INPUT_BYTES`]
//! for it, whatever the size of each paste. Input that could never fit is `input_too_large`;
//! input that does not fit now is `input_busy` (retry once the program reads). Input may carry
//! an acknowledgement: the writer says how many of its bytes reached the PTY.

use std::os::fd::AsFd;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use crossbeam_channel::{bounded, unbounded, Receiver, Sender, TrySendError};

use super::PaneError;

/// Bytes of input a pane may have waiting for its program.
pub const MAX_QUEUED_INPUT_BYTES: usize = 8 * 1024 * 1024;

/// One piece of input waiting for the writer, and who wants to hear how much of it was written.
pub struct QueuedInput {
    pub bytes: Vec<u8>,
    pub ack: Option<Ack>,
}

/// Where the writer says how many bytes of an acknowledged input reached the PTY: those it
/// wrote plus `written_before`, the ones written at once before the rest was queued.
pub struct Ack {
    tx: Sender<usize>,
    written_before: usize,
}

impl Ack {
    /// Tells the waiting request that `written` of the queued bytes reached the PTY.
    pub fn send(self, written: usize) {
        let _ = self.tx.send(self.written_before + written);
    }
}

/// The sending side, cloned into every handle of the pane.
#[derive(Clone)]
pub struct InputQueue {
    tx: Sender<QueuedInput>,
    queued: Arc<AtomicUsize>,
    /// Held while input is queued or written at once (`push_now`), so bytes written at once
    /// never overtake bytes queued before them. Never held across a wait.
    order: Arc<Mutex<()>>,
}

/// The writer's side: takes input in order and says when it is written.
pub struct InputSource {
    pub rx: Receiver<QueuedInput>,
    queued: Arc<AtomicUsize>,
}

/// A new, empty queue.
pub fn input_queue() -> (InputQueue, InputSource) {
    let (tx, rx) = unbounded();
    let queued = Arc::new(AtomicUsize::new(0));
    let source = InputSource {
        rx,
        queued: Arc::clone(&queued),
    };
    (
        InputQueue {
            tx,
            queued,
            order: Arc::new(Mutex::new(())),
        },
        source,
    )
}

impl InputQueue {
    /// Queues `bytes` whole, or refuses them whole: nothing is written in part.
    pub fn push(&self, bytes: Vec<u8>) -> Result<(), PaneError> {
        super::flood_yield::input_arrived();
        self.enqueue(QueuedInput { bytes, ack: None })
    }

    /// Writes `bytes` to `pty` at once when nothing waits before them and the PTY takes them
    /// all without waiting (a keystroke: no hand-over to the writer thread, which is a thread
    /// switch on the way to its echo); otherwise queues what is left, as `push` does.
    pub fn push_now(&self, bytes: Vec<u8>, pty: impl AsFd) -> Result<(), PaneError> {
        self.push_at_once(bytes, pty, None)
    }

    /// [`push_now`](Self::push_now), and the receiver hears how many of `bytes` reached the PTY:
    /// at once when the PTY took them all, once the writer is done with them otherwise. It
    /// hears nothing (a disconnect) when they were dropped unwritten with the pane.
    pub fn push_acked_now(
        &self,
        bytes: Vec<u8>,
        pty: impl AsFd,
    ) -> Result<Receiver<usize>, PaneError> {
        let (tx, written) = bounded(1);
        self.push_at_once(bytes, pty, Some(tx))?;
        Ok(written)
    }

    fn push_at_once(
        &self,
        bytes: Vec<u8>,
        pty: impl AsFd,
        ack: Option<Sender<usize>>,
    ) -> Result<(), PaneError> {
        super::flood_yield::input_arrived();
        let queued = |bytes, written_before| QueuedInput {
            bytes,
            ack: ack.clone().map(|tx| Ack { tx, written_before }),
        };
        if bytes.len() > MAX_QUEUED_INPUT_BYTES {
            return self.enqueue(queued(bytes, 0));
        }
        let _order = self.order.lock().unwrap_or_else(|e| e.into_inner());
        if self.queued.load(Ordering::Acquire) == 0 {
            // The PTY is non-blocking: this never waits for the program to read.
            match rustix::io::write(pty, &bytes) {
                Ok(n) if n == bytes.len() => {
                    if let Some(tx) = &ack {
                        let _ = tx.send(n);
                    }
                    return Ok(());
                }
                Ok(n) => return self.enqueue_in_order(queued(bytes[n..].to_vec(), n)),
                // Full, or failing: the writer waits for room, or meets the failure itself.
                Err(_) => {}
            }
        }
        self.enqueue_in_order(queued(bytes, 0))
    }

    fn enqueue(&self, input: QueuedInput) -> Result<(), PaneError> {
        let _order = self.order.lock().unwrap_or_else(|e| e.into_inner());
        self.enqueue_in_order(input)
    }

    /// `enqueue` with the order lock held.
    fn enqueue_in_order(&self, input: QueuedInput) -> Result<(), PaneError> {
        let bytes = &input.bytes;
        let len = bytes.len();
        if len > MAX_QUEUED_INPUT_BYTES {
            return Err(PaneError::InputTooLarge {
                len,
                max: MAX_QUEUED_INPUT_BYTES,
            });
        }
        let reserved = self
            .queued
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |queued| {
                (queued + len <= MAX_QUEUED_INPUT_BYTES).then_some(queued + len)
            });
        if let Err(queued) = reserved {
            return Err(PaneError::InputBusy { queued });
        }
        match self.tx.try_send(input) {
            Ok(()) => Ok(()),
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => {
                self.queued.fetch_sub(len, Ordering::AcqRel);
                Err(PaneError::Gone)
            }
        }
    }
}

impl InputSource {
    /// `len` bytes reached the PTY (or were given up): their room is free again.
    pub fn written(&self, len: usize) {
        self.queued.fetch_sub(len, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_queue_is_bounded_in_bytes_not_entries() {
        let (queue, source) = input_queue();
        let chunk = vec![b'a'; MAX_QUEUED_INPUT_BYTES / 4];
        for _ in 0..4 {
            queue.push(chunk.clone()).unwrap();
        }
        assert!(matches!(
            queue.push(vec![b'b']),
            Err(PaneError::InputBusy { .. })
        ));
        let taken = source.rx.recv().unwrap();
        source.written(taken.bytes.len());
        queue.push(vec![b'b']).unwrap();
        assert!(matches!(
            queue.push(vec![0; MAX_QUEUED_INPUT_BYTES + 1]),
            Err(PaneError::InputTooLarge { .. })
        ));
    }

    #[test]
    fn push_now_writes_at_once_unless_input_waits_before_it() {
        let (read_end, write_end) = std::os::unix::net::UnixStream::pair().unwrap();
        write_end.set_nonblocking(true).unwrap();
        let (queue, source) = input_queue();
        queue.push_now(b"now".to_vec(), &write_end).unwrap();
        let mut got = [0u8; 3];
        std::io::Read::read_exact(&mut &read_end, &mut got).unwrap();
        assert_eq!(&got, b"now");
        assert!(source.rx.try_recv().is_err(), "nothing was queued");
        // Input already waiting for the writer: the next bytes queue behind it, in order.
        queue.push(b"first".to_vec()).unwrap();
        queue.push_now(b"second".to_vec(), &write_end).unwrap();
        assert_eq!(source.rx.try_recv().unwrap().bytes, b"first");
        assert_eq!(source.rx.try_recv().unwrap().bytes, b"second");
    }

    #[test]
    fn an_acknowledged_push_hears_nothing_when_its_input_is_dropped_unwritten() {
        let (_read_end, write_end) = std::os::unix::net::UnixStream::pair().unwrap();
        let (queue, source) = input_queue();
        queue.push(b"first".to_vec()).unwrap();
        let written = queue.push_acked_now(b"abc".to_vec(), &write_end).unwrap();
        let _first = source.rx.recv().unwrap();
        let taken = source.rx.recv().unwrap();
        assert_eq!(taken.bytes, b"abc");
        drop(taken);
        assert!(written.recv().is_err());
    }

    #[test]
    fn an_acknowledged_push_written_at_once_is_counted_at_once() {
        let (read_end, write_end) = std::os::unix::net::UnixStream::pair().unwrap();
        write_end.set_nonblocking(true).unwrap();
        let (queue, source) = input_queue();
        let written = queue.push_acked_now(b"now".to_vec(), &write_end).unwrap();
        assert_eq!(written.try_recv().unwrap(), 3);
        assert!(source.rx.try_recv().is_err(), "nothing was queued");
        let mut got = [0u8; 3];
        std::io::Read::read_exact(&mut &read_end, &mut got).unwrap();
        assert_eq!(&got, b"now");
        // Behind queued input the bytes wait their turn, and the writer's count is the answer.
        queue.push(b"first".to_vec()).unwrap();
        let written = queue
            .push_acked_now(b"second".to_vec(), &write_end)
            .unwrap();
        assert!(written.try_recv().is_err());
        let _first = source.rx.try_recv().unwrap();
        let second = source.rx.try_recv().unwrap();
        assert_eq!(second.bytes, b"second");
        second.ack.unwrap().send(6);
        assert_eq!(written.try_recv().unwrap(), 6);
    }

    #[test]
    fn what_the_pty_took_at_once_counts_towards_the_acknowledgement() {
        let (read_end, write_end) = std::os::unix::net::UnixStream::pair().unwrap();
        write_end.set_nonblocking(true).unwrap();
        let (queue, source) = input_queue();
        // More than a socket buffer takes without a reader: part is written, the rest queued.
        let bytes = vec![b'x'; 4 * 1024 * 1024];
        let written = queue.push_acked_now(bytes.clone(), &write_end).unwrap();
        let rest = source.rx.try_recv().unwrap();
        let at_once = bytes.len() - rest.bytes.len();
        assert!(at_once > 0 && !rest.bytes.is_empty());
        rest.ack.unwrap().send(bytes.len() - at_once);
        assert_eq!(written.try_recv().unwrap(), bytes.len());
        drop(read_end);
    }
}
