//! What is waiting to be typed into a pane, bounded in bytes rather than entries: a program
//! that stops reading its input can make the server hold at most [`MAX_QUEUED_INPUT_BYTES`]
//! for it, whatever the size of each paste. Input that could never fit is `input_too_large`;
//! input that does not fit now is `input_busy` (retry once the program reads). Input may carry
//! an acknowledgement: the writer says how many of its bytes reached the PTY.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use crossbeam_channel::{bounded, unbounded, Receiver, Sender, TrySendError};

use super::PaneError;

/// Bytes of input a pane may have waiting for its program.
pub const MAX_QUEUED_INPUT_BYTES: usize = 8 * 1024 * 1024;

/// One piece of input waiting for the writer, and who wants to hear how much of it was written.
pub struct QueuedInput {
    pub bytes: Vec<u8>,
    pub ack: Option<Sender<usize>>,
}

/// The sending side, cloned into every handle of the pane.
#[derive(Clone)]
pub struct InputQueue {
    tx: Sender<QueuedInput>,
    queued: Arc<AtomicUsize>,
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
    (InputQueue { tx, queued }, source)
}

impl InputQueue {
    /// Queues `bytes` whole, or refuses them whole: nothing is written in part.
    pub fn push(&self, bytes: Vec<u8>) -> Result<(), PaneError> {
        self.enqueue(QueuedInput { bytes, ack: None })
    }

    /// Queues `bytes` like [`push`](Self::push); the receiver hears how many of them reached
    /// the PTY once the writer is done with them. It hears nothing (a disconnect) when they
    /// were dropped unwritten with the pane.
    pub fn push_acked(&self, bytes: Vec<u8>) -> Result<Receiver<usize>, PaneError> {
        let (ack, written) = bounded(1);
        self.enqueue(QueuedInput {
            bytes,
            ack: Some(ack),
        })?;
        Ok(written)
    }

    fn enqueue(&self, input: QueuedInput) -> Result<(), PaneError> {
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
    fn an_acknowledged_push_hears_nothing_when_its_input_is_dropped_unwritten() {
        let (queue, source) = input_queue();
        let written = queue.push_acked(b"abc".to_vec()).unwrap();
        let taken = source.rx.recv().unwrap();
        assert_eq!(taken.bytes, b"abc");
        drop(taken);
        assert!(written.recv().is_err());
    }
}
