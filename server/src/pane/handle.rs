//! `PaneHandle`: how the rest of the server reaches a pane. Commands that change the pane
//! (resize, signal, subscriptions, close) go to its actor. Reading the screen and typing do not:
//! they take the terminal's lock for a capture or for the key modes, and typed bytes go straight
//! to the PTY writer. Handing them to the actor and waiting for its answer costs two thread
//! switches, which is most of a `snapshot`'s time in the server.

use crossbeam_channel::{bounded, Sender};
use phux_core::docs::ScreenState;
use phux_core::ids::PaneId;
use phux_core::keys::{bracketed_paste, plan_keys, InputAction, KeyModes};
use phux_core::screen_capture::{capture, CaptureRequest};

use super::input_queue::InputQueue;
use super::{lock, PaneCommand, PaneError, SharedTerminal};

#[derive(Clone)]
pub struct PaneHandle {
    pub id: PaneId,
    pub pid: u32,
    tx: Sender<PaneCommand>,
    terminal: SharedTerminal,
    writer: InputQueue,
}

impl PaneHandle {
    pub(super) fn new(
        id: PaneId,
        pid: u32,
        tx: Sender<PaneCommand>,
        terminal: SharedTerminal,
        writer: InputQueue,
    ) -> PaneHandle {
        PaneHandle {
            id,
            pid,
            tx,
            terminal,
            writer,
        }
    }

    pub fn send(&self, command: PaneCommand) -> Result<(), PaneError> {
        self.tx.send(command).map_err(|_| PaneError::Gone)
    }

    /// Sends a command built around a reply channel and waits for the answer.
    pub fn ask<T>(&self, build: impl FnOnce(Sender<T>) -> PaneCommand) -> Result<T, PaneError> {
        let (reply, answer) = bounded(1);
        self.send(build(reply))?;
        answer.recv().map_err(|_| PaneError::Gone)
    }

    /// The screen as the engine holds it now, with all output the actor has fed it.
    pub fn screen(&self, request: CaptureRequest) -> ScreenState {
        capture(&lock(&self.terminal), self.id, request)
    }

    /// Types `keys` (key specs, encoded for the terminal's current key modes) or, when there
    /// are none, `actions`.
    pub fn input(&self, actions: Vec<InputAction>, keys: &[String]) -> Result<(), PaneError> {
        let (app_cursor, bracketed) = {
            let terminal = lock(&self.terminal);
            (
                terminal.application_cursor_keys(),
                terminal.bracketed_paste(),
            )
        };
        let actions = if keys.is_empty() {
            actions
        } else {
            plan_keys(keys, KeyModes { app_cursor })
                .map_err(|e| PaneError::KeySpec(e.to_string()))?
        };
        let mut bytes = Vec::new();
        for action in actions {
            match action {
                InputAction::Bytes(b) => bytes.extend_from_slice(&b),
                InputAction::Paste(text) => bytes.extend(bracketed_paste(&text, bracketed)),
            }
        }
        self.write(bytes)
    }

    /// Pastes `text`, bracketed when the program asked for bracketed paste.
    pub fn paste(&self, text: &str) -> Result<(), PaneError> {
        let bracketed = lock(&self.terminal).bracketed_paste();
        self.write(bracketed_paste(text, bracketed))
    }

    fn write(&self, bytes: Vec<u8>) -> Result<(), PaneError> {
        if bytes.is_empty() {
            return Ok(());
        }
        self.writer.push(bytes)
    }
}
