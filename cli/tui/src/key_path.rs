//! A keystroke's way around the event loop, both ways. A plain keystroke (no prefix key, no
//! mouse report) goes from the thread that reads the outer terminal straight to the focused
//! pane, over a connection of its own; its echo is drawn by the thread that receives the
//! pane's stream, into the last frame, when it changed only the cursor's row. The event loop,
//! which may be busy composing a whole frame while another pane floods, is on neither way,
//! and a keystroke wakes two threads of the client, as many as a single-threaded client's.
//!
//! The event loop opens the route only while everything typed so far has been handled and it
//! has nothing to make of a keystroke (no mode, no prefix pending); the first byte it must
//! see closes the route until it opens it again, so bytes never overtake each other. Frames
//! and echoes are written under one lock (`Screen`), each over what the other drew.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use phux_client::{Client, ClientError};
use phux_core::engine::{CellData, Cursor};
use phux_core::ids::PaneId;
use phux_core::keys::InputAction;
use phux_core::pane_layout::Rect;
use phux_core::wire::{ClientMessage, Done, Input};

use crate::compose::grid_cursor;
use crate::cursor_shape::ShapeTracker;
use crate::grid::Grid;
use crate::outer::{self, MirroredModes};
use crate::recording::ScreenRecorder;
use crate::render;

/// How long after a keystroke the focused pane's output counts as its echo.
pub const ECHO_WINDOW: Duration = Duration::from_millis(100);

/// Where plain keystrokes may go directly, and where their echo is drawn.
pub struct Target {
    pub pane: PaneId,
    /// The pane's change counter (see `panes`): the echo is a change after the keystroke.
    pub generation: Arc<AtomicU64>,
    /// The prefix key: a keystroke holding it is the event loop's.
    pub prefix: u8,
    /// Where the pane's cells are on the outer terminal.
    pub content: Rect,
    /// The modes the outer terminal mirrors for the pane: an echo that changes them is the
    /// event loop's to draw.
    pub modes: MirroredModes,
}

/// A keystroke on its way: when, to which pane, and the pane's change count then.
#[derive(Debug, Clone, Copy)]
pub struct Typed {
    pub at: Instant,
    pub pane: PaneId,
    pub before: u64,
}

/// What the outer terminal shows (the last frame, with every echo drawn into it since) and
/// the recording of it.
pub struct Screen {
    pub last_frame: Option<Grid>,
    pub recorder: Option<ScreenRecorder>,
    /// Where the bytes go: the outer terminal.
    write: fn(&[u8]),
}

impl Default for Screen {
    fn default() -> Screen {
        Screen {
            last_frame: None,
            recorder: None,
            write: outer::write_all,
        }
    }
}

impl Screen {
    /// Writes `bytes` to the outer terminal and the recording.
    pub fn show(&mut self, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        (self.write)(bytes);
        if let Some(recorder) = self.recorder.as_mut() {
            recorder.frame(bytes);
        }
    }
}

/// The focused pane as its stream's thread reads it for an echo.
pub struct PaneNow {
    pub cols: u16,
    pub rows: u16,
    pub cursor: Cursor,
    pub shape: ShapeTracker,
    pub modes: MirroredModes,
    /// The cells of the cursor's row.
    pub cursor_row: Vec<CellData>,
}

/// The route, shared by the outer terminal's reader, the panes' stream threads and the event
/// loop.
#[derive(Default)]
pub struct KeyPath {
    target: Mutex<Option<Target>>,
    /// Input events handed to the event loop, and how many it has handled: equal when
    /// nothing typed is still on its way through the loop.
    handed: AtomicU64,
    handled: AtomicU64,
    typed: Mutex<Option<Typed>>,
    screen: Mutex<Screen>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Whether `bytes` hold nothing the event loop acts on itself.
fn plain(bytes: &[u8], prefix: u8) -> bool {
    !bytes.contains(&prefix) && !bytes.windows(3).any(|w| w == b"\x1b[<")
}

impl KeyPath {
    pub fn new(recorder: Option<ScreenRecorder>) -> KeyPath {
        KeyPath {
            screen: Mutex::new(Screen {
                recorder,
                ..Screen::default()
            }),
            ..KeyPath::default()
        }
    }

    /// The screen, locked: the event loop holds it while it reads the panes and draws.
    pub fn screen(&self) -> MutexGuard<'_, Screen> {
        lock(&self.screen)
    }

    /// The reader thread's side: sends `bytes` straight to the focused pane when the route is
    /// open and they are plain (true), or closes the route and leaves them to the event loop
    /// (false; the caller hands them over).
    pub fn try_send(&self, bytes: &[u8], client: &mut Client) -> bool {
        // Released before `typed` is taken: a stream thread drawing an echo takes them the
        // other way round.
        let (pane, before) = {
            let mut target = lock(&self.target);
            match target.as_ref() {
                Some(t) if plain(bytes, t.prefix) => (t.pane, t.generation.load(Ordering::Acquire)),
                _ => {
                    self.hand_to_loop(&mut target);
                    return false;
                }
            }
        };
        self.typed(pane, before);
        if send_keystroke(client, pane, bytes.to_vec()).is_ok() {
            return true;
        }
        // The pane went away (or the connection): the event loop decides where they go.
        self.hand_to_loop(&mut lock(&self.target));
        false
    }

    /// Closes the route (held locked as `target`) for input handed to the event loop.
    fn hand_to_loop(&self, target: &mut Option<Target>) {
        *target = None;
        self.handed.fetch_add(1, Ordering::AcqRel);
    }

    /// The event loop handled one input event handed to it.
    pub fn handled_one(&self) {
        self.handled.fetch_add(1, Ordering::AcqRel);
    }

    /// The event loop's side: opens the route to `target`, unless input it was handed is still
    /// on its way to it; `None` closes the route.
    pub fn set(&self, target: Option<Target>) {
        let mut current = lock(&self.target);
        let caught_up = self.handed.load(Ordering::Acquire) == self.handled.load(Ordering::Acquire);
        *current = target.filter(|_| caught_up);
    }

    /// A keystroke went to `pane`, whose change count was `before`: its echo is awaited.
    pub fn typed(&self, pane: PaneId, before: u64) {
        *lock(&self.typed) = Some(Typed {
            at: Instant::now(),
            pane,
            before,
        });
    }

    /// The keystroke whose echo is awaited, if any.
    pub fn awaited(&self) -> Option<Typed> {
        *lock(&self.typed)
    }

    /// The echo of the keystroke typed `at` was drawn, or is no longer awaited.
    pub fn forget(&self, at: Instant) {
        let mut typed = lock(&self.typed);
        if typed.is_some_and(|t| t.at == at) {
            *typed = None;
        }
    }

    /// A stream thread's side: `pane`'s screen reached change `generation`. When that is the
    /// echo of an awaited keystroke that changed only the cursor's row, draws that row into
    /// the last frame (`read` reads the pane, under the screen's lock) and returns true;
    /// false leaves it to the event loop.
    pub fn draw_echo(&self, pane: PaneId, generation: u64, read: impl FnOnce() -> PaneNow) -> bool {
        let mut typed = lock(&self.typed);
        let awaited = typed.is_some_and(|t| {
            t.pane == pane && generation > t.before && t.at.elapsed() < ECHO_WINDOW
        });
        if !awaited {
            return false;
        }
        let placed = lock(&self.target)
            .as_ref()
            .filter(|t| t.pane == pane)
            .map(|t| (t.content, t.modes));
        let Some((content, modes)) = placed else {
            return false;
        };
        let mut screen = lock(&self.screen);
        let Screen {
            last_frame: Some(last),
            ..
        } = &mut *screen
        else {
            return false;
        };
        let now = read();
        let same_row = now.cursor.visible
            && last
                .cursor
                .is_some_and(|drawn| content.y + now.cursor.y == drawn.y);
        if (now.cols, now.rows) != (content.cols, content.rows) || now.modes != modes || !same_row {
            return false;
        }
        let cursor = grid_cursor(now.cursor, now.shape, content);
        let bytes = render::row_update(last, content, now.cursor.y, &now.cursor_row, cursor);
        screen.show(&bytes);
        *typed = None;
        true
    }
}

/// Sends a person's keystroke `bytes` to `pane`, the way both the event loop and the key path
/// do.
pub fn send_keystroke(
    client: &mut Client,
    pane: PaneId,
    bytes: Vec<u8>,
) -> Result<(), ClientError> {
    let request = Input {
        id: 0,
        pane,
        actions: vec![InputAction::Bytes(bytes)],
        keys: Vec::new(),
        // A person's keystroke is not acknowledged: the next one must not wait for it.
        operation_id: None,
        actor: None,
        retry: false,
    };
    client
        .request::<Done>(ClientMessage::Input(request))
        .map(|_| ())
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;

    use super::*;
    use crate::cursor_shape::CursorShape;
    use crate::grid::GridCursor;

    const PANE: PaneId = PaneId(3);

    /// The pane's cells start at row 1 of a 20x6 outer terminal.
    fn target() -> Target {
        Target {
            pane: PANE,
            generation: Arc::new(AtomicU64::new(0)),
            prefix: 0x01,
            content: Rect {
                x: 0,
                y: 1,
                cols: 20,
                rows: 4,
            },
            modes: MirroredModes::default(),
        }
    }

    thread_local! {
        static WRITTEN: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    }

    fn collect(bytes: &[u8]) {
        WRITTEN.with(|w| w.borrow_mut().extend_from_slice(bytes));
    }

    /// A key path to `target()` whose last frame shows the cursor on the pane's row 2.
    fn drawn_with_cursor_on_row_2() -> KeyPath {
        let path = KeyPath::default();
        path.set(Some(target()));
        let mut grid = Grid::new(20, 6);
        grid.cursor = Some(GridCursor {
            x: 0,
            y: 3,
            shape: CursorShape::Block,
            blinking: false,
        });
        let mut screen = path.screen();
        screen.last_frame = Some(grid);
        screen.write = collect;
        drop(screen);
        path
    }

    /// The pane now: `text` on row `y`, the cursor after it.
    fn pane_now(y: u16, text: &str) -> PaneNow {
        let cursor_row = text
            .chars()
            .map(|c| CellData {
                text: c.to_string(),
                ..CellData::default()
            })
            .collect();
        PaneNow {
            cols: 20,
            rows: 4,
            cursor: Cursor {
                x: text.len() as u16,
                y,
                visible: true,
            },
            shape: ShapeTracker::default(),
            modes: MirroredModes::default(),
            cursor_row,
        }
    }

    fn shown(path: &KeyPath, x: u16, y: u16) -> String {
        let screen = path.screen();
        let grid = screen.last_frame.as_ref().expect("a frame");
        grid.get(x, y).map(|c| c.text.clone()).unwrap_or_default()
    }

    #[test]
    fn an_awaited_echo_on_the_cursor_row_is_drawn_into_the_last_frame() {
        let path = drawn_with_cursor_on_row_2();
        path.typed(PANE, 7);
        WRITTEN.with(|w| w.borrow_mut().clear());
        assert!(path.draw_echo(PANE, 8, || pane_now(2, "ls")));
        assert_eq!(shown(&path, 0, 3), "l");
        assert_eq!(shown(&path, 1, 3), "s");
        let written = WRITTEN.with(|w| String::from_utf8_lossy(&w.borrow()).into_owned());
        assert!(written.contains("ls"), "{written:?}");
        assert!(
            written.contains("\x1b[4;3H"),
            "the cursor after the echo: {written:?}"
        );
        assert!(path.awaited().is_none(), "the echo was drawn");
        assert!(
            !path.draw_echo(PANE, 9, || pane_now(2, "lsx")),
            "later output is the event loop's"
        );
    }

    #[test]
    fn an_echo_the_stream_thread_cannot_draw_alone_is_left_to_the_event_loop() {
        let drew = |setup: fn(&KeyPath), generation: u64, now: fn() -> PaneNow| {
            let path = drawn_with_cursor_on_row_2();
            setup(&path);
            let drawn = path.draw_echo(PANE, generation, now);
            drawn || !shown(&path, 0, 3).is_empty()
        };
        let typed = |p: &KeyPath| p.typed(PANE, 7);
        assert!(!drew(|_| {}, 8, || pane_now(2, "ls")), "nothing typed");
        assert!(!drew(typed, 7, || pane_now(2, "ls")), "no change yet");
        assert!(
            !drew(|p| p.typed(PaneId(4), 7), 8, || pane_now(2, "ls")),
            "typed into another pane"
        );
        assert!(
            !drew(typed, 8, || pane_now(3, "ls")),
            "the cursor moved to another row"
        );
        assert!(
            !drew(typed, 8, || PaneNow {
                modes: MirroredModes {
                    app_cursor: true,
                    ..MirroredModes::default()
                },
                ..pane_now(2, "ls")
            }),
            "the program changed how keys are sent"
        );
        assert!(
            !drew(
                |p| {
                    p.typed(PANE, 7);
                    p.set(None);
                },
                8,
                || pane_now(2, "ls")
            ),
            "the route is closed (a mode is open)"
        );
    }

    #[test]
    fn plain_keystrokes_hold_no_prefix_and_no_mouse_report() {
        assert!(plain(b"ls -la\r", 0x01));
        assert!(plain(b"\x1b[A", 0x01), "an arrow key is the pane's");
        assert!(!plain(b"a\x01%", 0x01));
        assert!(!plain(b"\x1b[<0;3;4M", 0x01));
    }

    #[test]
    fn the_route_stays_closed_while_handed_input_is_unhandled() {
        let route = KeyPath::default();
        route.set(Some(target()));
        assert!(lock(&route.target).is_some());
        // A prefix key closes the route and is handed to the loop.
        route.hand_to_loop(&mut lock(&route.target));
        assert!(lock(&route.target).is_none());
        route.set(Some(target()));
        assert!(
            lock(&route.target).is_none(),
            "the handed key is not handled yet"
        );
        route.handled_one();
        route.set(Some(target()));
        assert!(lock(&route.target).is_some());
        route.set(None);
        assert!(lock(&route.target).is_none());
    }
}
