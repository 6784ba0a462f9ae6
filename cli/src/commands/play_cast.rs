//! `phux __play-cast FILE [flags]` (hidden): the process of a `phux play` pane. It writes the
//! recording to its own PTY (raw output, so the cast's `\n` is not turned into `\r\n`), asks
//! the server to resize its own pane on `r` events (`$PHUX_PANE` over `$PHUX_SOCKET`), and
//! holds the last frame unless `--close`.

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::AsFd;
use std::path::PathBuf;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use phux_core::documents::GridSize;
use phux_core::ids::PaneId;
use phux_player::{follow_cast, play_cast, PlaybackSink, SystemClock};
use phux_recorder::read_cast;
use rustix::termios::{self, LocalModes, OptionalActions, OutputModes, SpecialCodeIndex};

use crate::client::{pane, Client};
use crate::commands::playback_flags::PlaybackFlags;
use crate::commands::Context;

#[derive(clap::Args)]
pub struct Args {
    /// The recording, as an absolute path
    #[arg(value_name = "FILE")]
    file: PathBuf,
    #[command(flatten)]
    playback: PlaybackFlags,
}

/// A DECRQM query for a mode no program uses, and the start of its answer. The pane's terminal
/// answers it only once it has taken in everything written before it, so reading the answer
/// proves that a resize sent next cannot overtake earlier output.
const FENCE_QUERY: &[u8] = b"\x1b[?20999$p";
const FENCE_ANSWER: &[u8] = b"\x1b[?20999;";
/// How long to wait for that answer before resizing anyway.
const FENCE_LIMIT: Duration = Duration::from_secs(2);

pub fn run(args: Args, context: &Context) -> i32 {
    let out = match prepare_terminal() {
        Ok(out) => out,
        Err(e) => return fail(&format!("cannot set up the pane's terminal: {e}"), &args),
    };
    let fitter = (!args.playback.no_fit).then(|| PaneFitter::from_env(context));
    let mut sink = PaneSink {
        out,
        input: TerminalInput::start(),
        fitter: fitter.flatten(),
    };
    let flags = &args.playback;
    let result = if flags.follow {
        let options = flags.options(None);
        follow_cast(&args.file, &options, &mut sink, &mut SystemClock)
    } else {
        read_cast(&args.file)
            .map_err(phux_player::PlayError::from)
            .and_then(|cast| {
                let options = flags.options(cast.header.idle_time_limit);
                play_cast(&cast, &options, &mut sink, &mut SystemClock)
            })
    };
    match result {
        Ok(()) if flags.close => 0,
        Ok(()) => hold(),
        Err(e) => fail(&e.to_string(), &args),
    }
}

/// Says why on the pane itself (its stderr is the PTY), then ends or holds as asked.
fn fail(message: &str, args: &Args) -> i32 {
    eprintln!("phux: {message}");
    if args.playback.close {
        1
    } else {
        hold()
    }
}

/// Keeps the last frame on screen until the pane is killed.
fn hold() -> ! {
    loop {
        std::thread::park();
    }
}

/// Raw output (no `\n` → `\r\n`), no echo (typed keys and the fence's answer must not reach
/// the screen), input byte by byte; returns stdout as a file, unbuffered.
fn prepare_terminal() -> std::io::Result<File> {
    let stdout = std::io::stdout();
    let out = File::from(rustix::io::dup(stdout.as_fd())?);
    if termios::isatty(&out) {
        let mut mode = termios::tcgetattr(&out)?;
        mode.output_modes.remove(OutputModes::OPOST);
        mode.local_modes
            .remove(LocalModes::ICANON | LocalModes::ECHO);
        mode.special_codes[SpecialCodeIndex::VMIN] = 1;
        mode.special_codes[SpecialCodeIndex::VTIME] = 0;
        termios::tcsetattr(&out, OptionalActions::Now, &mode)?;
    }
    Ok(out)
}

/// The pane's PTY, and the connection that resizes the pane.
struct PaneSink {
    out: File,
    input: TerminalInput,
    fitter: Option<PaneFitter>,
}

impl Write for PaneSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.out.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

impl PlaybackSink for PaneSink {
    /// A refused resize is not fatal: the recording plays at the size the pane has.
    fn resize(&mut self, cols: u16, rows: u16) {
        let Some(fitter) = &mut self.fitter else {
            return;
        };
        fence(&mut self.out, &self.input);
        fitter.resize(GridSize { cols, rows });
    }
}

/// Waits until the pane's terminal has processed everything written so far (see
/// `FENCE_QUERY`), or `FENCE_LIMIT` passed.
fn fence(out: &mut File, input: &TerminalInput) {
    input.discard_pending();
    if out.write_all(FENCE_QUERY).is_err() {
        return;
    }
    let deadline = Instant::now() + FENCE_LIMIT;
    let mut seen = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match input.chunks.recv_timeout(left) {
            Ok(chunk) => seen.extend_from_slice(&chunk),
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => return,
        }
        if let Some(at) = find(&seen, FENCE_ANSWER) {
            if find(&seen[at..], b"$y").is_some() {
                return;
            }
        }
    }
}

/// Everything the pane's terminal sends this process: typed keys and answers to queries in
/// the cast, which are dropped, and the fence's answer. Read all the time on a thread, so the
/// PTY's input buffer never fills and blocks the server's writes to it.
struct TerminalInput {
    chunks: Receiver<Vec<u8>>,
}

impl TerminalInput {
    fn start() -> Self {
        let (tx, chunks) = channel();
        let reader = move || {
            let mut stdin = std::io::stdin();
            let mut buffer = [0u8; 1024];
            loop {
                match stdin.read(&mut buffer) {
                    Ok(0) => return,
                    Ok(n) => {
                        if tx.send(buffer[..n].to_vec()).is_err() {
                            return;
                        }
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(_) => return,
                }
            }
        };
        // Without the thread, fences time out and input waits in the PTY: playback goes on.
        let _ = std::thread::Builder::new()
            .name("pane-input".into())
            .spawn(reader);
        Self { chunks }
    }

    /// Drops what arrived before a fence, so only an answer to this fence can end it.
    fn discard_pending(&self) {
        while self.chunks.try_recv().is_ok() {}
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Resizes this process's own pane through the server.
struct PaneFitter {
    context: Context,
    pane: PaneId,
    client: Option<Client>,
}

impl PaneFitter {
    /// `None` outside a phux pane (no `$PHUX_PANE`): nothing to resize.
    fn from_env(context: &Context) -> Option<Self> {
        let pane = std::env::var("PHUX_PANE").ok()?.parse().ok()?;
        Some(Self {
            context: context.clone(),
            pane,
            client: None,
        })
    }

    fn resize(&mut self, size: GridSize) {
        if self.client.is_none() {
            self.client = Client::connect(&self.context.socket).ok();
        }
        if let Some(client) = &mut self.client {
            if pane::resize(client, self.pane, size).is_err() {
                // Reconnect next time: the connection may be what failed.
                self.client = None;
            }
        }
    }
}
