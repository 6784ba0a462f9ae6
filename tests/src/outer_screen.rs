//! `phux attach` run as a person runs it: in a real PTY whose output is fed to an engine
//! terminal standing for the person's terminal, so tests assert on the screen they would see.

#![allow(clippy::expect_used, clippy::unwrap_used)] // the testkit fails loudly by design

use std::io::{Read, Write};
use std::process::Child;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use phux_core::engine::Terminal;
use phux_server::pty::{self, SpawnSpec};

use crate::{phux_bin, TestServer, PANE_SHELL};

/// How long a screen wait lasts before the test fails.
pub const SCREEN_WAIT: Duration = Duration::from_secs(15);

/// A `phux attach` (or `phux`, `phux new`) process on its own PTY, and the screen it drew.
pub struct AttachedTui {
    master: std::fs::File,
    child: Child,
    screen: Arc<Mutex<Terminal>>,
    /// Every byte the client wrote, in order.
    written: Arc<Mutex<Vec<u8>>>,
    /// When the screen last took bytes in, signalled on every write.
    drawn: Arc<(Mutex<Instant>, Condvar)>,
}

impl AttachedTui {
    /// Runs `phux ARGS` against `server` on a `cols`x`rows` terminal.
    pub fn start(server: &TestServer, args: &[&str], cols: u16, rows: u16) -> AttachedTui {
        let mut argv = vec![phux_bin().display().to_string()];
        argv.extend(args.iter().map(|a| a.to_string()));
        let env = vec![
            ("PHUX_SOCKET".into(), server.socket.display().to_string()),
            (
                "PHUX_CONFIG".into(),
                server.config_path().display().to_string(),
            ),
            ("SHELL".into(), PANE_SHELL.into()),
        ];
        Self::spawn(argv, env, server.dir.path(), cols, rows)
    }

    /// Runs any program (another multiplexer, for a benchmark) the same way.
    pub fn spawn(
        argv: Vec<String>,
        mut env: Vec<(String, String)>,
        cwd: &std::path::Path,
        cols: u16,
        rows: u16,
    ) -> AttachedTui {
        env.push(("TERM".into(), "xterm-256color".into()));
        let spec = SpawnSpec {
            argv,
            cwd: Some(cwd.to_path_buf()),
            env,
            cols,
            rows,
            history_limit: 100,
        };
        let process = pty::spawn(&spec, &phux_bin()).expect("start phux on a pty");
        let master = std::fs::File::from(process.master);
        let screen = Arc::new(Mutex::new(Terminal::new(cols, rows, 100).expect("engine")));
        let written = Arc::new(Mutex::new(Vec::new()));
        let mut reader = master.try_clone().expect("dup master");
        let drawn = Arc::new((Mutex::new(Instant::now()), Condvar::new()));
        let (screen_feed, written_feed) = (Arc::clone(&screen), Arc::clone(&written));
        let drawn_feed = Arc::clone(&drawn);
        std::thread::spawn(move || {
            let mut buffer = [0u8; 65536];
            while let Ok(n) = reader.read(&mut buffer) {
                if n == 0 {
                    break;
                }
                written_feed.lock().unwrap().extend_from_slice(&buffer[..n]);
                // The screen and the moment it changed move together (see `shows_after`).
                let mut at = drawn_feed.0.lock().unwrap();
                screen_feed.lock().unwrap().write(&buffer[..n]);
                *at = Instant::now();
                drawn_feed.1.notify_all();
            }
        });
        AttachedTui {
            master,
            child: process.child,
            screen,
            written,
            drawn,
        }
    }

    /// The outer screen, one right-trimmed line per row.
    pub fn lines(&self) -> Vec<String> {
        self.screen.lock().unwrap().viewport_lines()
    }

    pub fn screen(&self) -> String {
        self.lines().join("\n")
    }

    /// Every byte the client wrote so far.
    pub fn written(&self) -> Vec<u8> {
        self.written.lock().unwrap().clone()
    }

    /// Waits until `predicate` holds for the screen, failing with the screen after 15 s.
    pub fn wait_for(&self, what: &str, predicate: impl Fn(&[String]) -> bool) {
        let start = Instant::now();
        loop {
            let lines = self.lines();
            if predicate(&lines) {
                return;
            }
            assert!(
                start.elapsed() < SCREEN_WAIT,
                "timed out waiting until {what}; the screen:\n{}",
                lines.join("\n")
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits until some row of the screen contains `text`.
    pub fn wait_for_text(&self, text: &str) {
        self.wait_for(&format!("the screen shows {text:?}"), |lines| {
            lines.iter().any(|l| l.contains(text))
        });
    }

    /// Types `bytes` as the person's terminal sends them.
    pub fn type_bytes(&self, bytes: &[u8]) {
        (&self.master).write_all(bytes).expect("write to the pty");
    }

    /// Types the prefix (`C-a`) and then `key`.
    pub fn prefix(&self, key: &[u8]) {
        self.type_bytes(b"\x01");
        std::thread::sleep(Duration::from_millis(30));
        self.type_bytes(key);
    }

    /// Resizes the person's terminal (the client gets SIGWINCH).
    pub fn resize(&self, cols: u16, rows: u16) {
        self.screen.lock().unwrap().resize(cols, rows).unwrap();
        let fd = rustix::fd::AsFd::as_fd(&self.master);
        rustix::termios::tcsetwinsize(
            fd,
            rustix::termios::Winsize {
                ws_row: rows,
                ws_col: cols,
                ws_xpixel: 0,
                ws_ypixel: 0,
            },
        )
        .expect("resize the pty");
    }

    /// Waits (up to `limit`) for the client to exit; its status code.
    pub fn wait_exit(&mut self, limit: Duration) -> Option<i32> {
        let start = Instant::now();
        while start.elapsed() < limit {
            if let Some(status) = self.child.try_wait().ok().flatten() {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        None
    }

    /// How many bytes the client wrote so far.
    pub fn written_len(&self) -> usize {
        self.written.lock().unwrap().len()
    }

    /// How long after `since` the screen came to show `text`: the moment the bytes that drew
    /// it were taken in, not when a poll noticed (for latency figures). Fails after `limit`.
    pub fn shows_after(&self, text: &str, since: Instant, limit: Duration) -> Duration {
        let (lock, signal) = &*self.drawn;
        let mut at = lock.lock().unwrap();
        loop {
            if self.shows(text) {
                return at.saturating_duration_since(since);
            }
            assert!(
                since.elapsed() < limit,
                "{text:?} not shown within {limit:?}"
            );
            at = signal.wait_timeout(at, limit).unwrap().0;
        }
    }

    /// Whether some row of the screen contains `text`, now.
    pub fn shows(&self, text: &str) -> bool {
        self.lines().iter().any(|l| l.contains(text))
    }

    /// The first cell of `text` on the screen (ASCII text: one cell per character).
    pub fn cell_of_text(&self, text: &str) -> Option<phux_core::engine::CellData> {
        let lines = self.lines();
        let (y, x) = lines
            .iter()
            .enumerate()
            .find_map(|(y, l)| l.find(text).map(|at| (y, l[..at].chars().count())))?;
        let screen = self.screen.lock().unwrap();
        screen.viewport_cell(x as u16, y as u16)
    }

    /// The foreground colour of the first cell of `text` on the screen.
    pub fn fg_of_text(&self, text: &str) -> Option<phux_core::engine::CellColor> {
        self.cell_of_text(text).map(|cell| cell.style.fg)
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for AttachedTui {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
