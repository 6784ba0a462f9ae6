//! `PaneHandle`: how the rest of the server reaches a pane. Commands that change the pane
//! (resize, signal, subscriptions, close) go to its pane core. Reading the screen and typing do not:
//! they take the terminal's lock for a capture or for the key modes, and typed bytes go straight
//! to the PTY writer. Handing them to the pane core and waiting for its answer costs two thread
//! switches, which is most of a `snapshot`'s time in the server.

use crossbeam_channel::{bounded, Sender};
use phux_core::documents::ScreenState;
use phux_core::engine::{Terminal, KITTY_REPORT_ALL_KEYS};
use phux_core::ids::PaneId;
use phux_core::keys::{bracketed_paste, parse_keys, InputAction, KeyModes, KeySpec};
use phux_core::screen_capture::{capture, CaptureRequest};

use super::input_queue::InputQueue;
use super::output_log::OutputLog;
use super::shell_track::ShellTrack;
use super::{lock, PaneCommand, PaneError, SharedTerminal};
use rustix::fd::OwnedFd;
use std::sync::Arc;

#[derive(Clone)]
pub struct PaneHandle {
    pub id: PaneId,
    pub pid: u32,
    tx: Sender<PaneCommand>,
    terminal: SharedTerminal,
    writer: InputQueue,
    process: PaneProcess,
}

/// What tells whether the pane's shell is listening: its terminal (for the foreground process
/// group) and what its OSC 133 marks said.
/// A pane's terminal as `phux upgrade` carries it.
pub struct TerminalSnapshot {
    /// The engine's snapshot: screen, history, modes, cursor.
    pub bytes: Vec<u8>,
    /// The rows of history the terminal keeps.
    pub history_limit: usize,
    /// The terminal's count of changes when it was taken (see `Terminal::changes`).
    pub changes: u64,
}

#[derive(Clone)]
pub struct PaneProcess {
    pub master: Arc<OwnedFd>,
    pub shell: Arc<ShellTrack>,
    /// The output position and recent output (`mark`, `wait --after`).
    pub output: Arc<OutputLog>,
    /// The program is held by a keeper (see `crate::keeper`): it outlives this server.
    pub kept: bool,
}

/// The longest line a terminal in canonical mode keeps (Linux: a 4096-byte buffer, one byte
/// kept for the end of the line).
const CANONICAL_LINE_MAX: usize = 4095;

impl PaneHandle {
    /// Whether a keeper holds the pane's program (it outlives this server).
    pub fn kept(&self) -> bool {
        self.process.kept
    }

    pub(super) fn new(
        id: PaneId,
        pid: u32,
        tx: Sender<PaneCommand>,
        terminal: SharedTerminal,
        writer: InputQueue,
        process: PaneProcess,
    ) -> PaneHandle {
        PaneHandle {
            id,
            pid,
            tx,
            terminal,
            writer,
            process,
        }
    }

    /// What the pane's shell marks said (see `ShellTrack`).
    pub fn shell(&self) -> &ShellTrack {
        &self.process.shell
    }

    /// The pane's output position and recent output.
    pub fn output(&self) -> &OutputLog {
        &self.process.output
    }

    /// The terminal's foreground process group, when it is not the pane's own program's.
    pub fn foreground_other(&self) -> Option<u32> {
        let group = rustix::termios::tcgetpgrp(&*self.process.master).ok()?;
        let group = u32::try_from(group.as_raw_nonzero().get()).ok()?;
        (group != self.pid).then_some(group)
    }

    /// The grid size, read under the terminal's lock.
    /// The PTY master, for `phux upgrade` to hand to the next process.
    pub fn master(&self) -> &Arc<OwnedFd> {
        &self.process.master
    }

    /// The whole terminal in the engine's snapshot format, the rows of history it keeps, and
    /// its count of changes when taken (see `Terminal::changes`).
    pub fn snapshot(&self) -> Result<TerminalSnapshot, phux_core::engine::EngineError> {
        let terminal = lock(&self.terminal);
        Ok(TerminalSnapshot {
            bytes: terminal.snapshot()?,
            history_limit: terminal.options().scrollback_rows,
            changes: terminal.changes(),
        })
    }

    /// The terminal's count of changes now: a snapshot taken at this count is still current.
    pub fn changes(&self) -> u64 {
        lock(&self.terminal).changes()
    }

    pub fn size(&self) -> (u16, u16) {
        lock(&self.terminal).size()
    }

    /// Whether the program shows its alternate screen (a pager, an editor) now.
    pub fn alternate_screen(&self) -> bool {
        lock(&self.terminal).alternate_screen()
    }

    pub fn send(&self, command: PaneCommand) -> Result<(), PaneError> {
        self.tx.send(command).map_err(|_| PaneError::Gone)
    }

    /// The pane core's command queue alone, for a stream that asks it for keyframes without
    /// holding the pane's descriptors open.
    pub fn commands(&self) -> Sender<PaneCommand> {
        self.tx.clone()
    }

    /// Sends a command built around a reply channel and waits for the answer.
    pub fn ask<T>(&self, build: impl FnOnce(Sender<T>) -> PaneCommand) -> Result<T, PaneError> {
        let (reply, answer) = bounded(1);
        self.send(build(reply))?;
        answer.recv().map_err(|_| PaneError::Gone)
    }

    /// The screen as the engine holds it now, with all output the pane core has fed it.
    /// Its `mark` is the output position the screen stands at, read under the same lock.
    pub fn screen(&self, request: CaptureRequest) -> ScreenState {
        let terminal = lock(&self.terminal);
        let mut state = capture(&terminal, self.id, request);
        state.mark = Some(self.process.output.mark());
        state
    }

    /// Types `keys` (key specs) or, when there are none, `actions`. Keys are encoded by the
    /// engine for the modes the program set (application cursor keys, modifyOtherKeys, the
    /// Kitty keyboard protocol); text is typed as it is, never pasted, unless the program asked
    /// the Kitty protocol to report every key as an escape code.
    pub fn input(&self, actions: Vec<InputAction>, keys: &[String]) -> Result<(), PaneError> {
        let bytes = self.input_bytes(actions, keys)?;
        self.write(bytes)
    }

    /// Refuses typed `bytes` holding a line longer than the terminal keeps when the pane's
    /// program reads lines (canonical mode): the kernel would drop the rest of it unseen.
    pub fn check_line_length(&self, bytes: &[u8]) -> Result<(), PaneError> {
        // A keystroke cannot hold such a line: no terminal modes to read for it.
        if bytes.len() <= CANONICAL_LINE_MAX {
            return Ok(());
        }
        let Ok(modes) = rustix::termios::tcgetattr(&*self.process.master) else {
            return Ok(());
        };
        if !modes
            .local_modes
            .contains(rustix::termios::LocalModes::ICANON)
        {
            return Ok(());
        }
        let longest = (bytes.split(|b| matches!(b, b'\n' | b'\r')))
            .map(<[u8]>::len)
            .max()
            .unwrap_or(0);
        if longest > CANONICAL_LINE_MAX {
            return Err(PaneError::CanonicalLimit {
                len: longest,
                max: CANONICAL_LINE_MAX,
            });
        }
        Ok(())
    }

    /// The bytes [`input`](Self::input) types, planned against the pane's current modes.
    pub fn input_bytes(
        &self,
        actions: Vec<InputAction>,
        keys: &[String],
    ) -> Result<Vec<u8>, PaneError> {
        let specs = parse_keys(keys).map_err(|e| PaneError::KeySpec(e.to_string()))?;
        let terminal = lock(&self.terminal);
        if !specs.is_empty() {
            return encode_specs(&terminal, &specs);
        }
        let bracketed = terminal.bracketed_paste();
        let mut bytes = Vec::new();
        for action in actions {
            match action {
                InputAction::Bytes(b) => bytes.extend_from_slice(&b),
                InputAction::Paste(text) => bytes.extend(bracketed_paste(&text, bracketed)),
            }
        }
        Ok(bytes)
    }

    /// The bytes of a paste of `text`, bracketed when the program asked for bracketed paste;
    /// refused when it has not and the text holds control characters other than tab and line
    /// breaks, which it would read as keys (an escape sequence, a Ctrl-C) rather than text.
    pub fn paste_bytes(&self, text: &str) -> Result<Vec<u8>, PaneError> {
        let bracketed = lock(&self.terminal).bracketed_paste();
        let key_like = text
            .chars()
            .find(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r'));
        match key_like {
            Some(c) if !bracketed => Err(PaneError::UnsafePaste {
                character: format!("{:?}", c),
            }),
            _ => Ok(bracketed_paste(text, bracketed)),
        }
    }

    pub(crate) fn write(&self, bytes: Vec<u8>) -> Result<(), PaneError> {
        if bytes.is_empty() {
            return Ok(());
        }
        self.writer.push_now(bytes, &*self.process.master)
    }

    /// Writes `bytes` like [`write`](Self::write); the receiver hears how many reached the PTY
    /// (see [`InputQueue::push_acked_now`](super::input_queue::InputQueue::push_acked_now)).
    pub(crate) fn write_acked(
        &self,
        bytes: Vec<u8>,
    ) -> Result<crossbeam_channel::Receiver<usize>, PaneError> {
        self.writer.push_acked_now(bytes, &*self.process.master)
    }
}

/// The bytes of a parsed key batch in `terminal`'s current modes.
fn encode_specs(terminal: &Terminal, specs: &[KeySpec]) -> Result<Vec<u8>, PaneError> {
    let modes = KeyModes {
        app_cursor: terminal.application_cursor_keys(),
    };
    let text_as_keys = terminal.kitty_keyboard_flags() & KITTY_REPORT_ALL_KEYS != 0;
    let mut bytes = Vec::new();
    for spec in specs {
        let encoded = match spec {
            KeySpec::Literal(text) if !text_as_keys => text.as_bytes().to_vec(),
            // The engine's encoder knows every mode; phux's own table is the fallback, and the
            // one that refuses what has no encoding.
            _ => match terminal.encode_key(spec) {
                Ok(encoded) if !encoded.is_empty() => encoded,
                _ => spec
                    .encode(modes)
                    .map_err(|e| PaneError::KeySpec(e.to_string()))?,
            },
        };
        bytes.extend(encoded);
    }
    Ok(bytes)
}
