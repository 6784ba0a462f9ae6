//! Plugin event hooks that run: each enabled plugin's `[[events]]` command, started when its
//! event fires, with the event as one JSON line on stdin and `PHUX_PLUGIN_*`, `PHUX_SOCKET`,
//! `PHUX_TERMINAL_ID` in its environment. A few workers run them (bounded concurrency), each
//! under a time limit; a full queue drops the event, and every failure is logged, so a hook can
//! never block a pane.

mod event;

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{bounded, Sender, TrySendError};
use phux_core::documents::WatchEventKind;
use phux_core::ids::PaneId;

use crate::plugin_exec::{self, PluginCommand};

pub use event::hook_events;

/// Hooks waiting for a worker before new events are dropped.
const QUEUE: usize = 256;
/// How many hooks run at once.
pub const DEFAULT_CONCURRENCY: usize = 4;
/// How long one hook may run before it is killed.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// One `[[events]]` entry of an enabled plugin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hook {
    pub plugin_id: String,
    pub hook_id: String,
    /// The event name (`pane.exited`, ...).
    pub on: String,
    pub argv: Vec<String>,
    pub plugin_root: PathBuf,
}

/// Every hook the server runs, and how.
#[derive(Debug, Clone)]
pub struct HookTable {
    pub hooks: Vec<Hook>,
    pub timeout: Duration,
    pub concurrency: usize,
}

impl Default for HookTable {
    fn default() -> Self {
        HookTable {
            hooks: Vec::new(),
            timeout: DEFAULT_TIMEOUT,
            concurrency: DEFAULT_CONCURRENCY,
        }
    }
}

struct Job {
    hook: Hook,
    pane: PaneId,
    event: String,
    payload: Vec<u8>,
    /// Set for a coalescing event: while this job waits, the same one is not queued again.
    key: Option<WaitingKey>,
}

/// The hook (by index), the event, and the pane or session it is about.
type WaitingKey = (usize, String, String);

/// "Something changed" events: one waiting run per hook and pane (or session) says it all, so
/// a busy pane that settles again and again cannot flood the queue.
const COALESCED: &[&str] = &["pane.idle", "session.changed"];

/// The running side: a queue and its workers. Without hooks it holds nothing and firing is a
/// no-op.
pub struct HookRunner {
    hooks: Vec<Hook>,
    tx: Option<Sender<Job>>,
    /// Hooks queued or running.
    pending: Arc<AtomicUsize>,
    /// The coalescing jobs queued and not yet started.
    waiting: Arc<Mutex<HashSet<WaitingKey>>>,
}

impl HookRunner {
    pub fn start(table: &HookTable, socket: PathBuf) -> HookRunner {
        if table.hooks.is_empty() {
            return HookRunner {
                hooks: Vec::new(),
                tx: None,
                pending: Arc::default(),
                waiting: Arc::default(),
            };
        }
        let (tx, rx) = bounded::<Job>(QUEUE);
        let pending = Arc::new(AtomicUsize::new(0));
        let waiting: Arc<Mutex<HashSet<WaitingKey>>> = Arc::default();
        for _ in 0..table.concurrency.max(1) {
            let rx = rx.clone();
            let socket = socket.clone();
            let timeout = table.timeout;
            let pending = Arc::clone(&pending);
            let waiting = Arc::clone(&waiting);
            thread::spawn(move || {
                for job in rx.iter() {
                    if let Some(key) = &job.key {
                        lock(&waiting).remove(key);
                    }
                    run_one(&job, &socket, timeout);
                    pending.fetch_sub(1, Ordering::SeqCst);
                }
            });
        }
        crate::log::line(&format!(
            "{} event hook(s) armed: {}",
            table.hooks.len(),
            table
                .hooks
                .iter()
                .map(|h| format!("{}/{} on {}", h.plugin_id, h.hook_id, h.on))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        HookRunner {
            hooks: table.hooks.clone(),
            tx: Some(tx),
            pending,
            waiting,
        }
    }

    /// Waits (at most `limit`) for the queued and running hooks, so a server ending with its
    /// last pane still runs that pane's `pane.exited` hooks.
    pub fn drain(&self, limit: Duration) {
        let deadline = Instant::now() + limit;
        while self.pending.load(Ordering::SeqCst) > 0 && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// Whether any hook listens for what `kind` means (false for every event without hooks).
    pub fn listens(&self, kind: &WatchEventKind) -> bool {
        self.tx.is_some()
            && (hook_events(kind).iter()).any(|name| self.hooks.iter().any(|h| h.on == *name))
    }

    /// Queues every hook listening for what `kind` means; never waits.
    pub fn fire(&self, pane: PaneId, kind: &WatchEventKind, session: Option<&str>) {
        for name in hook_events(kind) {
            self.queue(name, pane, Some(kind), session);
        }
    }

    /// `session.changed` for a change no pane event carries (a rename); `pane` is one of the
    /// session's.
    pub fn session_changed(&self, pane: PaneId, session: &str) {
        self.queue("session.changed", pane, None, Some(session));
    }

    fn queue(
        &self,
        name: &str,
        pane: PaneId,
        kind: Option<&WatchEventKind>,
        session: Option<&str>,
    ) {
        let Some(tx) = &self.tx else {
            return;
        };
        {
            let payload = event::payload(name, pane, kind, session);
            for (index, hook) in self.hooks.iter().enumerate().filter(|(_, h)| h.on == name) {
                let key = COALESCED.contains(&name).then(|| {
                    let scope = match (name, session) {
                        ("session.changed", Some(session)) => session.to_string(),
                        _ => pane.to_string(),
                    };
                    (index, name.to_string(), scope)
                });
                if let Some(key) = &key {
                    if !lock(&self.waiting).insert(key.clone()) {
                        continue;
                    }
                }
                let job = Job {
                    hook: hook.clone(),
                    pane,
                    event: name.to_string(),
                    payload: payload.clone(),
                    key,
                };
                self.pending.fetch_add(1, Ordering::SeqCst);
                if let Err(TrySendError::Full(job) | TrySendError::Disconnected(job)) =
                    tx.try_send(job)
                {
                    self.pending.fetch_sub(1, Ordering::SeqCst);
                    if let Some(key) = &job.key {
                        lock(&self.waiting).remove(key);
                    }
                    crate::log::line(&format!(
                        "hook {}/{} dropped for {} on {pane}: {QUEUE} hooks already queued",
                        job.hook.plugin_id, job.hook.hook_id, job.event
                    ));
                }
            }
        }
    }
}

fn lock(set: &Mutex<HashSet<WaitingKey>>) -> std::sync::MutexGuard<'_, HashSet<WaitingKey>> {
    set.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn run_one(job: &Job, socket: &std::path::Path, timeout: Duration) {
    {
        let hook = &job.hook;
        let command = PluginCommand {
            argv: hook.argv.clone(),
            cwd: hook.plugin_root.clone(),
            env: vec![
                ("PHUX_PLUGIN_ID".into(), hook.plugin_id.clone()),
                ("PHUX_PLUGIN_EVENT_ID".into(), hook.hook_id.clone()),
                (
                    "PHUX_PLUGIN_ROOT".into(),
                    hook.plugin_root.display().to_string(),
                ),
                ("PHUX_EVENT".into(), job.event.clone()),
                ("PHUX_SOCKET".into(), socket.display().to_string()),
                ("PHUX_TERMINAL_ID".into(), job.pane.0.to_string()),
                ("PHUX_PANE".into(), job.pane.to_string()),
            ],
            stdin: Some(job.payload.clone()),
            timeout: Some(timeout),
            echo: false,
            cancel: None,
        };
        let name = format!("hook {}/{} ({})", hook.plugin_id, hook.hook_id, job.event);
        match plugin_exec::run(&command) {
            Err(e) => crate::log::line(&format!(
                "{name} could not start `{}`: {e}",
                hook.argv.join(" ")
            )),
            Ok(done) if done.timed_out => crate::log::line(&format!(
                "{name} was killed after {}s (its time limit)",
                timeout.as_secs_f64()
            )),
            Ok(done) if done.exit_code != Some(0) => crate::log::line(&format!(
                "{name} failed: it {}: {}",
                match done.exit_code {
                    Some(code) => format!("exited with {code}"),
                    None => "was ended by a signal".to_owned(),
                },
                String::from_utf8_lossy(&done.stderr).trim()
            )),
            Ok(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pane that settles again and again while its hook runs queues one more run, not one
    /// per settle.
    #[test]
    fn repeated_idle_events_coalesce_while_one_waits() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("runs");
        let table = HookTable {
            hooks: vec![Hook {
                plugin_id: "t".into(),
                hook_id: "idle".into(),
                on: "pane.idle".into(),
                argv: vec![
                    "sh".into(),
                    "-c".into(),
                    format!("echo run >> {}; sleep 0.2", log.display()),
                ],
                plugin_root: dir.path().to_path_buf(),
            }],
            timeout: Duration::from_secs(5),
            concurrency: 1,
        };
        let runner = HookRunner::start(&table, dir.path().join("sock"));
        for _ in 0..20 {
            runner.fire(PaneId(1), &WatchEventKind::Idle, None);
        }
        runner.fire(PaneId(2), &WatchEventKind::Idle, None);
        runner.drain(Duration::from_secs(10));
        let runs = std::fs::read_to_string(&log).unwrap().lines().count();
        assert!((2..=3).contains(&runs), "{runs} runs");
    }
}
