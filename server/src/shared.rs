//! What every thread of the server shares: the registry, the server-wide event bus, the clock
//! every PTY read is stamped against, and the shutdown signal.

use crate::bus::{Bus, BusEvent};
use crate::config::ServerConfig;
use crate::registry::Registry;
use crossbeam_channel::Sender;
use phux_core::ids::PaneId;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

pub struct Shared {
    pub config: ServerConfig,
    pub epoch: Instant,
    pub started_unix: u64,
    registry: Mutex<Registry>,
    global_bus: Mutex<Bus>,
    pub clients: AtomicU32,
    /// Attached front ends (the TUI) and their sizes.
    attached: Mutex<crate::clients::AttachedClients>,
    pub admission: crate::admission::Admission,
    /// Per-pane metadata and agent records.
    pub agents: crate::agents::AgentStore,
    /// The detection manifests, loaded once at start.
    pub manifests: phux_core::agents::ManifestSet,
    /// The satellite links this server dials (none without a config file).
    pub hub: std::sync::Arc<crate::hub::Hub>,
    stopping: std::sync::atomic::AtomicBool,
    shutdown: Sender<()>,
}

impl Shared {
    pub fn new(config: ServerConfig, shutdown: Sender<()>) -> Self {
        let started_unix = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let config_file = config.config_file.clone();
        Self {
            config,
            epoch: Instant::now(),
            started_unix,
            registry: Mutex::new(Registry::default()),
            global_bus: Mutex::new(Bus::default()),
            clients: AtomicU32::new(0),
            attached: Mutex::new(crate::clients::AttachedClients::default()),
            admission: crate::admission::Admission::default(),
            agents: crate::agents::AgentStore::default(),
            manifests: crate::agents::load_manifests(),
            hub: crate::hub::Hub::start(config_file.clone()),
            stopping: std::sync::atomic::AtomicBool::new(false),
            shutdown,
        }
    }

    /// The registry, even if a thread panicked while holding it (its data stays consistent:
    /// every mutation is a single step).
    pub fn registry(&self) -> MutexGuard<'_, Registry> {
        self.registry
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

    pub fn publish_global(&self, event: &BusEvent) {
        let mut bus = self.global_bus();
        if !bus.is_empty() {
            bus.publish(event);
        }
    }

    pub fn set_title(&self, pane: PaneId, title: &str) {
        if let Some(entry) = self.registry().panes.get_mut(&pane) {
            entry.title = (!title.is_empty()).then(|| title.to_string());
        }
    }

    pub fn set_size(&self, pane: PaneId, cols: u16, rows: u16) {
        if let Some(entry) = self.registry().panes.get_mut(&pane) {
            entry.cols = cols;
            entry.rows = rows;
        }
    }

    /// A pane's program is gone: drop it from its window; the server ends with its last pane.
    pub fn pane_exited(&self, pane: PaneId, exit_status: Option<i32>) {
        let mut registry = self.registry();
        registry.remove_pane(pane);
        crate::log::line(&format!("pane {pane} exited with {exit_status:?}"));
        if registry.panes.is_empty() && registry.ever_had_panes {
            drop(registry);
            self.shut_down();
        }
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
