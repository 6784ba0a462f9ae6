//! What every thread of the server shares: the session tree (sessions, windows, panes), the
//! server-wide event bus, the clock every PTY read is stamped against, and the shutdown signal.

use crate::bus::{Bus, BusEvent};
use crate::config::ServerConfig;
use crate::session_tree::SessionTree;
use crossbeam_channel::Sender;
use phux_core::ids::PaneId;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

/// How a pane ended, and what stays readable of it.
pub struct PaneEnd {
    pub exit_code: Option<i32>,
    pub signal: Option<i32>,
    pub terminal: crate::pane::SharedTerminal,
    pub output: std::sync::Arc<crate::pane::output_log::OutputLog>,
}

pub struct Shared {
    pub config: ServerConfig,
    pub epoch: Instant,
    pub started_unix: u64,
    tree: Mutex<SessionTree>,
    /// Panes whose program ended, still readable.
    exited: Mutex<crate::exited::ExitedPanes>,
    global_bus: Mutex<Bus>,
    /// Recent watch events of every pane, for `watch --since`; locked only under `global_bus`.
    ring: Mutex<crate::event_ring::EventRing>,
    pub clients: AtomicU32,
    /// Attached front ends (the TUI) and their sizes.
    attached: Mutex<crate::clients::AttachedClients>,
    pub admission: crate::admission::Admission,
    /// Per-pane metadata and agent records.
    pub agents: crate::agents::AgentStore,
    /// The detection manifests, loaded once at start.
    pub manifests: phux_core::agents::ManifestSet,
    /// Operation ids of acknowledged input and what became of them.
    pub deliveries: crate::delivery::Ledger,
    /// The plugins' event hooks.
    pub hooks: crate::hooks::HookRunner,
    /// The satellite links this server dials (none without a config file).
    pub hub: std::sync::Arc<crate::hub::Hub>,
    /// Each pane's one `run` in flight.
    pub run_slots: crate::run_slots::RunSlots,
    /// Who holds each pane's input (`phux take`).
    pub leases: crate::leases::Leases,
    /// The remote listener's admitted connections (for the owner to see and end).
    pub remote: crate::remote::sessions::RemoteSessions,
    /// Who is recording what each pane is typed (`tap_input`).
    pub input_taps: crate::input_tap::InputTaps,
    stopping: std::sync::atomic::AtomicBool,
    shutdown: Sender<()>,
}

impl Shared {
    pub fn new(config: ServerConfig, shutdown: Sender<()>) -> Self {
        let started_unix = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let hooks = crate::hooks::HookRunner::start(&config.hooks, config.socket.clone());
        let config_file = config.config_file.clone();
        Self {
            hooks,
            epoch: Instant::now(),
            started_unix,
            tree: Mutex::new(SessionTree::fresh()),
            exited: Mutex::new(crate::exited::ExitedPanes::new(
                config.keep_exited,
                config.keep_exited_for,
            )),
            global_bus: Mutex::new(Bus::default()),
            ring: Mutex::new(crate::event_ring::EventRing::default()),
            clients: AtomicU32::new(0),
            attached: Mutex::new(crate::clients::AttachedClients::default()),
            admission: crate::admission::Admission::default(),
            agents: crate::agents::AgentStore::default(),
            manifests: crate::agents::load_manifests(),
            deliveries: crate::delivery::Ledger::default(),
            hub: crate::hub::Hub::start(config_file.clone()),
            run_slots: crate::run_slots::RunSlots::default(),
            leases: crate::leases::Leases::default(),
            remote: crate::remote::sessions::RemoteSessions::default(),
            input_taps: crate::input_tap::InputTaps::default(),
            stopping: std::sync::atomic::AtomicBool::new(false),
            shutdown,
            config,
        }
    }

    /// The session tree, even if a thread panicked while holding it (its data stays consistent:
    /// every mutation is a single step).
    pub fn tree(&self) -> MutexGuard<'_, SessionTree> {
        self.tree
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub fn attached(&self) -> MutexGuard<'_, crate::clients::AttachedClients> {
        self.attached
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub fn global_bus(&self) -> MutexGuard<'_, Bus> {
        self.global_bus
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Announces a pane's watch event to every server-wide subscriber and remembers it in the
    /// ring `watch --since` replays (under the bus's lock, so a subscription taken with a
    /// replay sees each event exactly once).
    pub fn publish_global(&self, event: &BusEvent) {
        {
            let mut bus = self.global_bus();
            if let BusEvent::Watch { pane, kind, t_ns } = event {
                self.ring().push(crate::event_ring::PastEvent {
                    pane: *pane,
                    kind: kind.clone(),
                    t_ns: *t_ns,
                    ts_ns: wall_clock_ns(),
                });
            }
            if !bus.is_empty() {
                bus.publish(event);
            }
        }
        if let BusEvent::Watch { pane, kind, .. } = event {
            self.fire_hooks(*pane, kind);
        }
    }

    /// Hands a pane's event to the plugins' hooks (never waits on them). The session is the
    /// pane's, or for a pane that has just exited, the one its exited entry remembers.
    fn fire_hooks(&self, pane: PaneId, kind: &phux_core::documents::WatchEventKind) {
        // Most events have no hook: they cost no lock on the pane's path.
        if !self.hooks.listens(kind) {
            return;
        }
        let live = {
            let tree = self.tree();
            (tree.panes.get(&pane))
                .and_then(|entry| tree.session_by_id(entry.session))
                .map(|s| s.name.clone())
        };
        let session = live.or_else(|| {
            let mut exited = self.exited();
            (exited.get(pane))
                .map(|p| p.view.session.clone())
                .filter(|name| !name.is_empty())
        });
        self.hooks.fire(pane, kind, session.as_deref());
    }

    /// Adds a server-wide subscriber and returns the remembered events since `from_ns`
    /// (monotonic) of `pane` (every pane when `None`), taken at the same instant.
    pub fn subscribe_global_since(
        &self,
        subscriber: crate::bus::Subscriber,
        from_ns: u64,
        pane: Option<PaneId>,
    ) -> Vec<crate::event_ring::PastEvent> {
        let mut bus = self.global_bus();
        let past = self.ring().since(from_ns, pane);
        bus.add(subscriber);
        past
    }

    fn ring(&self) -> MutexGuard<'_, crate::event_ring::EventRing> {
        self.ring
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub fn set_title(&self, pane: PaneId, title: &str) {
        if let Some(entry) = self.tree().panes.get_mut(&pane) {
            entry.title = (!title.is_empty()).then(|| title.to_string());
        }
    }

    pub fn set_size(&self, pane: PaneId, cols: u16, rows: u16) {
        if let Some(entry) = self.tree().panes.get_mut(&pane) {
            entry.cols = cols;
            entry.rows = rows;
        }
    }

    /// The ended panes still kept.
    pub fn exited(&self) -> MutexGuard<'_, crate::exited::ExitedPanes> {
        self.exited
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A pane's program is gone: drop it from its window and keep its last screen readable
    /// (unless it was killed, and so already dropped). True when it was the last live pane:
    /// the caller then shuts the server down, once it has told the watchers.
    pub fn pane_exited(&self, pane: PaneId, end: PaneEnd) -> bool {
        let mut tree = self.tree();
        // Read before the pane goes: its session may go with it.
        let session = tree
            .panes
            .get(&pane)
            .and_then(|e| tree.session_by_id(e.session))
            .map(|s| s.name.clone())
            .unwrap_or_default();
        if let Some(entry) = tree.remove_pane(pane) {
            let view = phux_core::state_view::ExitedPaneView {
                id: pane,
                session,
                tags: entry.tags,
                exit_code: end.exit_code,
                signal: end.signal,
                ended_at: std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_secs()),
            };
            self.exited().add(crate::exited::ExitedPane::new(
                view,
                end.terminal,
                end.output,
            ));
        } else {
            // Closed on purpose: nothing keeps it readable, nor its keeper.
            crate::keeper::release(pane);
        }
        crate::log::line(&format!(
            "pane {pane}: its program {}",
            phux_core::process_end::ending(end.exit_code, end.signal)
        ));
        tree.panes.is_empty() && tree.ever_had_panes
    }

    /// From now on nothing new is created here.
    pub fn mark_stopping(&self) {
        self.stopping.store(true, Ordering::SeqCst);
    }

    pub fn is_stopping(&self) -> bool {
        self.stopping.load(Ordering::SeqCst)
    }

    pub fn shut_down(&self) {
        let _ = self.shutdown.try_send(());
    }

    pub fn client_count(&self) -> u32 {
        self.clients.load(Ordering::Relaxed)
    }
}

/// Now on the wall clock, in nanoseconds since the Unix epoch.
pub fn wall_clock_ns() -> Option<u64> {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .ok()
        .and_then(|d| u64::try_from(d.as_nanos()).ok())
}
