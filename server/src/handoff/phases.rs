//! Where a hand-off's frozen time goes: each phase on either side of the exec, timed and
//! written to the server log as one line per process (`upgrade_bench` reads them back and
//! prints the split). Each phase's end is also where a fault can be injected for real
//! (`PHUX_FAULT_AT=SIDE:PHASE`, see `fault`): the process kills itself there, as a crash
//! mid-hand-off would.

use std::time::Instant;

/// The phases timed so far, each from the end of the one before.
pub struct Phases {
    /// `old` (the process handing over) or `new` (the one adopting).
    side: &'static str,
    /// When timing began, on the wall clock (the only one that crosses the exec).
    pub started_unix_ns: u64,
    last: Instant,
    done: Vec<(&'static str, f64)>,
}

impl Phases {
    /// Timing on `side` (`old` or `new`) begins.
    pub fn start(side: &'static str) -> Self {
        Self {
            side,
            started_unix_ns: super::manifest::unix_ns(),
            last: Instant::now(),
            done: Vec::new(),
        }
    }

    /// Ends the phase `name` now.
    pub fn lap(&mut self, name: &'static str) {
        let now = Instant::now();
        self.add(name, (now - self.last).as_secs_f64() * 1e3);
        self.last = now;
        super::fault::at(self.side, name);
    }

    /// Starts the next phase now (what passed since the last is counted by `add`).
    pub fn skip_to_now(&mut self) {
        self.last = Instant::now();
    }

    /// Records a phase measured elsewhere (in ms).
    pub fn add(&mut self, name: &'static str, ms: f64) {
        self.done.push((name, ms));
    }

    /// Records a phase that came before every other one (in ms).
    pub fn add_first(&mut self, name: &'static str, ms: f64) {
        self.done.insert(0, (name, ms));
    }

    /// "upgrade: `side` phases (ms): gate 0.1, snapshots 80.2, ..."
    pub fn line(&self, side: &str) -> String {
        let phases: Vec<String> = (self.done.iter())
            .map(|(name, ms)| format!("{name} {ms:.1}"))
            .collect();
        format!("upgrade: {side} phases (ms): {}", phases.join(", "))
    }
}
