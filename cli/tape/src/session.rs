//! The tape's pane: a fresh headless pane running the shell, observed from before the shell
//! starts, with every output chunk kept (stamped with the server's read time) while the tape
//! acts on it through a second connection.

use std::os::unix::net::UnixStream;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;

use phux_client::observe::{ObserveReader, Observed as ObserveItem};
use phux_client::{on_a_server, Client, ClientError};
use phux_core::ids::PaneId;
use phux_core::wire::{ClientMessage, Done, Kill, NewSession, ObserveStart};

/// What the observe stream carried, in order, with the server's times.
#[derive(Debug, Clone)]
pub enum Observed {
    Output { t_ns: u64, bytes: Vec<u8> },
    Resize { t_ns: u64, cols: u16, rows: u16 },
}

impl Observed {
    pub fn t_ns(&self) -> u64 {
        match self {
            Observed::Output { t_ns, .. } | Observed::Resize { t_ns, .. } => *t_ns,
        }
    }
}

#[derive(Debug, Default)]
struct Log {
    observed: Vec<Observed>,
    /// The smallest (arrival here − server stamp): the server clock's offset from ours, with
    /// the least delivery delay in it.
    offset_ns: Option<i128>,
    /// The server dropped the stream for falling behind: the recording ends early.
    lagged: bool,
    /// The stream said the pane closed (its shell exited).
    pane_closed: bool,
}

/// Whether the tape's pane has closed, as its observe stream says: read while the session's
/// input connection is in use (a step that fails because the tape's server ended with its pane).
#[derive(Clone)]
pub struct PaneEnd(Arc<Mutex<Log>>);

impl PaneEnd {
    /// True once the stream has said the pane closed, waiting up to `patience` for it to say
    /// so (the server's last words may still be in flight when a request finds it gone).
    pub fn closed_within(&self, patience: std::time::Duration) -> bool {
        let deadline = Instant::now() + patience;
        loop {
            if lock(&self.0).pane_closed {
                return true;
            }
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }
}

/// A running tape pane.
pub struct Session {
    pub pane: PaneId,
    pub cols: u16,
    pub rows: u16,
    pub input: Client,
    base: Instant,
    stream: UnixStream,
    log: Arc<Mutex<Log>>,
    reader: Option<JoinHandle<()>>,
    socket: std::path::PathBuf,
}

/// What the session recorded, once it is over.
pub struct Recorded {
    pub cols: u16,
    pub rows: u16,
    pub observed: Vec<Observed>,
    offset_ns: i128,
    base: Instant,
    /// When the pane was told to close: what it wrote after that (a shell reacting to being
    /// closed) is not the tape's.
    pub killed: Instant,
    /// The server dropped the recording's stream for falling behind: it ends early.
    pub lagged: bool,
}

impl Recorded {
    /// A moment on our clock as the server's time of it.
    pub fn server_ns(&self, at: Instant) -> u64 {
        let ours = at.saturating_duration_since(self.base).as_nanos() as i128;
        u64::try_from((ours - self.offset_ns).max(0)).unwrap_or(0)
    }
}

impl Session {
    /// Starts `argv` (with `env`) in a `cols`×`rows` pane in `cwd`.
    pub fn start(
        socket: &Path,
        argv: Vec<String>,
        env: Vec<(String, String)>,
        cols: u16,
        rows: u16,
    ) -> Result<Session, ClientError> {
        let request = NewSession {
            id: 0,
            name: Some(format!("tape-{}", std::process::id())),
            cwd: std::env::current_dir()
                .ok()
                .map(|d| d.display().to_string()),
            env,
            command: Some(argv),
            cols: Some(cols),
            rows: Some(rows),
            observe: true,
            history_limit: None,
        };
        let (mut observer, start): (Client, ObserveStart) = on_a_server(socket, |client| {
            client.request(ClientMessage::NewSession(request.clone()))
        })?;
        observer.set_read_timeout(None)?;
        let io = |e: std::io::Error| ClientError::Transport {
            socket: socket.to_path_buf(),
            message: e.to_string(),
        };
        let stream = observer.into_stream();
        let reading = stream.try_clone().map_err(io)?;
        let base = Instant::now();
        let log = Arc::new(Mutex::new(Log::default()));
        let sink = Arc::clone(&log);
        let reader = std::thread::Builder::new()
            .name("phux-tape-record".into())
            .spawn(move || read_stream(reading, &sink, base))
            .map_err(io)?;
        let input = Client::connect(socket)?;
        Ok(Session {
            pane: start.pane,
            cols: start.cols,
            rows: start.rows,
            input,
            base,
            stream,
            log,
            reader: Some(reader),
            socket: socket.to_path_buf(),
        })
    }

    /// A handle that says whether the pane has closed.
    pub fn pane_end(&self) -> PaneEnd {
        PaneEnd(Arc::clone(&self.log))
    }

    /// Removes the pane and hands back what was recorded.
    pub fn finish(mut self) -> Recorded {
        let killed = Instant::now();
        self.kill();
        let _ = self.stream.shutdown(std::net::Shutdown::Both);
        if let Some(reader) = self.reader.take() {
            let _ = reader.join();
        }
        let mut log = lock(&self.log);
        Recorded {
            cols: self.cols,
            rows: self.rows,
            observed: std::mem::take(&mut log.observed),
            offset_ns: log.offset_ns.unwrap_or(0),
            base: self.base,
            killed,
            lagged: log.lagged,
        }
    }

    fn kill(&mut self) {
        if let Ok(mut client) = Client::connect(&self.socket) {
            let _: Result<Done, _> = client.request(ClientMessage::Kill(Kill {
                id: 0,
                panes: vec![self.pane],
            }));
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        if self.reader.is_some() {
            self.kill();
            let _ = self.stream.shutdown(std::net::Shutdown::Both);
        }
    }
}

fn read_stream(stream: UnixStream, log: &Mutex<Log>, base: Instant) {
    let mut reader = ObserveReader::new(stream, 256 * 1024);
    while let Some(item) = reader.next_item() {
        let arrived = base.elapsed().as_nanos() as i128;
        let observed = match item {
            ObserveItem::Output { t_ns, bytes, .. } => Observed::Output { t_ns, bytes },
            ObserveItem::Resized { t_ns, cols, rows } => Observed::Resize { t_ns, cols, rows },
            ObserveItem::Ended(end) => {
                let mut log = lock(log);
                log.lagged = end.lagged();
                log.pane_closed = matches!(end, phux_client::observe::StreamEnd::PaneClosed { .. });
                return;
            }
        };
        let mut log = lock(log);
        let offset = arrived - i128::from(observed.t_ns());
        log.offset_ns = Some(log.offset_ns.map_or(offset, |o| o.min(offset)));
        log.observed.push(observed);
    }
}

fn lock(log: &Mutex<Log>) -> std::sync::MutexGuard<'_, Log> {
    log.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
