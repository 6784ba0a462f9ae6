//! A stop button another thread can press: a waiting operation (`wait`, a watch batch) polls
//! its descriptor beside the server's socket and ends as soon as it is pressed. The MCP
//! adapter presses it when a client sends `notifications/cancelled`.

use std::io::Write;
use std::os::fd::{AsFd, BorrowedFd};
use std::os::unix::net::UnixStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Cloneable; every clone is the same button.
#[derive(Debug, Clone)]
pub struct Stop(Arc<Button>);

#[derive(Debug)]
struct Button {
    pressed: Arc<AtomicBool>,
    read_end: UnixStream,
    write_end: UnixStream,
}

impl Stop {
    /// A fresh, unpressed button.
    pub fn new() -> std::io::Result<Stop> {
        let (read_end, write_end) = UnixStream::pair()?;
        write_end.set_nonblocking(true)?;
        Ok(Stop(Arc::new(Button {
            pressed: Arc::new(AtomicBool::new(false)),
            read_end,
            write_end,
        })))
    }

    /// Presses it: every poll on [`Stop::fd`] wakes, now and later.
    pub fn press(&self) {
        if !self.0.pressed.swap(true, Ordering::SeqCst) {
            // One byte, never read: the descriptor stays readable.
            let _ = (&self.0.write_end).write_all(&[1]);
        }
    }

    pub fn is_pressed(&self) -> bool {
        self.0.pressed.load(Ordering::SeqCst)
    }

    /// The flag behind the button, for loops that check a flag rather than poll (a recording).
    pub fn flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.0.pressed)
    }

    /// The descriptor that becomes readable once pressed.
    pub fn fd(&self) -> BorrowedFd<'_> {
        self.0.read_end.as_fd()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pressed_button_stays_pressed_for_every_clone() {
        let stop = Stop::new().unwrap();
        let other = stop.clone();
        assert!(!other.is_pressed());
        stop.press();
        stop.press();
        assert!(other.is_pressed());
    }
}
