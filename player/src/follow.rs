//! `--follow`: playing a cast that is still being written. [`TailReader`] never reports the
//! end of the file; it waits for the file to grow (woken by the `notify` crate, with a poll as
//! a safety net), so the cast reader above it simply blocks on a partial last line until the
//! writer finishes it.

use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, Receiver};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use notify::{RecommendedWatcher, RecursiveMode, Watcher};
use phux_recorder::{CastReader, EventKind};

use crate::clock::Clock;
use crate::error::PlayError;
use crate::options::{Passes, PlayOptions, StartPoint};
use crate::pass::{Pass, PlaybackSink, StartRule};

/// With a watcher, how long to wait before looking anyway (a missed or coalesced event, a
/// file system that does not report changes).
const SAFETY_POLL: Duration = Duration::from_millis(250);
/// Without one, how often to look.
const FALLBACK_POLL: Duration = Duration::from_millis(20);

/// Reads a file that is still growing: at its current end, waits for more instead of
/// returning 0. The first time it has to wait, it stores that moment in `caught_up`.
pub struct TailReader {
    file: File,
    changes: ChangeWaiter,
    caught_up: Arc<OnceLock<Instant>>,
}

impl TailReader {
    pub fn open(path: &Path, caught_up: Arc<OnceLock<Instant>>) -> Result<Self, PlayError> {
        let failed = |source| PlayError::Follow {
            path: path.to_path_buf(),
            source,
        };
        let file = File::open(path).map_err(failed)?;
        Ok(Self {
            file,
            changes: ChangeWaiter::watch(path),
            caught_up,
        })
    }
}

impl Read for TailReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            let n = self.file.read(buf)?;
            if n > 0 {
                return Ok(n);
            }
            self.caught_up.get_or_init(Instant::now);
            self.changes.wait();
        }
    }
}

/// Wakes the reader when the file changes.
struct ChangeWaiter {
    /// Kept alive for as long as changes are wanted; `None` when watching failed.
    watcher: Option<RecommendedWatcher>,
    changes: Receiver<()>,
}

impl ChangeWaiter {
    fn watch(path: &Path) -> Self {
        let (tx, changes) = channel();
        let watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
            if event.is_ok() {
                let _ = tx.send(());
            }
        })
        .and_then(|mut watcher| {
            watcher.watch(path, RecursiveMode::NonRecursive)?;
            Ok(watcher)
        })
        .ok();
        Self { watcher, changes }
    }

    fn wait(&self) {
        if self.watcher.is_none() {
            std::thread::sleep(FALLBACK_POLL);
            return;
        }
        let _ = self.changes.recv_timeout(SAFETY_POLL);
        // One look at the file answers every change that arrived meanwhile.
        while self.changes.try_recv().is_ok() {}
    }
}

/// Plays the cast at `path` while it is being written, until an `x` (exit) event.
///
/// From the beginning (no `--start`, no `--marker`) it mirrors the recording live: what the
/// file already holds is written at once, and each event appended later plays as soon as its
/// time has come, counted from the moment the file was first read to its end. With a starting
/// point, the recording plays paced from there and keeps going as the file grows.
pub fn follow_cast(
    path: &Path,
    options: &PlayOptions,
    sink: &mut dyn PlaybackSink,
    clock: &mut dyn Clock,
) -> Result<(), PlayError> {
    options.check()?;
    if options.passes != Passes::Count(1) {
        return Err(PlayError::Options(
            "--follow plays a growing recording once; it cannot loop".to_owned(),
        ));
    }
    let caught_up = Arc::new(OnceLock::new());
    let tail = TailReader::open(path, caught_up.clone())?;
    let reader = CastReader::from_bufread(BufReader::new(tail), PathBuf::from(path))?;
    let start = match &options.start {
        StartPoint::Beginning => StartRule::Live(caught_up),
        other => StartRule::from(other),
    };
    let mut pass = Pass::new(options, start)?;
    for event in reader {
        let event = event?;
        pass.play(&event, sink, clock)?;
        if matches!(event.kind, EventKind::Exit(_)) {
            return Ok(());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn a_partial_line_is_read_once_it_is_finished() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("live.cast");
        let mut file = File::create(&path).unwrap();
        file.write_all(b"{\"version\": 2, \"width\": 8, \"height\": 2}\n[0.1, \"o\", \"a")
            .unwrap();
        file.flush().unwrap();
        let caught_up = Arc::new(OnceLock::new());
        let tail = TailReader::open(&path, caught_up.clone()).unwrap();
        let reader = CastReader::from_bufread(BufReader::new(tail), &path).unwrap();
        let writer = std::thread::spawn(move || {
            // Finish the line only once the reader has reached the end and is waiting.
            while caught_up.get().is_none() {
                std::thread::sleep(Duration::from_millis(5));
            }
            file.write_all(b"b\"]\n[0.2, \"x\", \"0\"]\n").unwrap();
        });
        let events: Vec<_> = reader.take(2).map(Result::unwrap).collect();
        writer.join().unwrap();
        assert_eq!(events[0].kind, EventKind::Output("ab".into()));
        assert_eq!(events[1].kind, EventKind::Exit(0));
    }
}
