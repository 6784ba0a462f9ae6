//! The owner's view of an attack: `phux ls --json` run again and again while the attack runs,
//! each run's outcome and latency kept. Tests assert the success rate and print the latencies
//! (a wall-clock figure is printed, never asserted).

use std::time::{Duration, Instant};

use crate::{run_with_deadline, stderr, TestServer};

/// How often the owner asks.
const PACE: Duration = Duration::from_millis(150);
/// The fewest `ls` runs a figure is made from, however short the attack.
const AT_LEAST: usize = 10;

/// What the owner saw during one attack.
#[derive(Debug, Clone)]
pub struct OwnerFigures {
    pub name: String,
    pub ok: usize,
    pub total: usize,
    pub p99: Duration,
    pub max: Duration,
    /// The first failure's stderr, to show when the rate is asserted.
    pub first_failure: Option<String>,
}

impl OwnerFigures {
    /// Fails the test unless every `ls` succeeded.
    pub fn assert_all_ok(&self) {
        assert_eq!(
            self.ok,
            self.total,
            "{}: the owner's ls failed {} of {} times during the attack; first: {:?}",
            self.name,
            self.total - self.ok,
            self.total,
            self.first_failure
        );
    }
}

impl std::fmt::Display for OwnerFigures {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: owner ls {}/{} ok, p99 {:?}, max {:?}",
            self.name, self.ok, self.total, self.p99, self.max
        )
    }
}

/// Runs `attack` on a thread of its own and the owner's `ls` on this one until the attack
/// returns (and at least [`AT_LEAST`] times); prints and returns the owner's figures with
/// what the attack returned.
pub fn during<T: Send>(
    server: &TestServer,
    name: &str,
    attack: impl FnOnce() -> T + Send,
) -> (OwnerFigures, T) {
    std::thread::scope(|scope| {
        let attacker = scope.spawn(attack);
        let mut latencies = Vec::new();
        let mut ok = 0;
        let mut first_failure = None;
        while !attacker.is_finished() || latencies.len() < AT_LEAST {
            let started = Instant::now();
            let output =
                run_with_deadline(&mut server.phux(&["ls", "--json"]), Duration::from_secs(30));
            latencies.push(started.elapsed());
            if output.status.success() {
                ok += 1;
            } else if first_failure.is_none() {
                first_failure = Some(stderr(&output));
            }
            std::thread::sleep(PACE.saturating_sub(started.elapsed()));
        }
        let returned = attacker.join().expect("the attack thread");
        let figures = figures(name, latencies, ok, first_failure);
        println!("{figures}");
        (figures, returned)
    })
}

fn figures(
    name: &str,
    mut latencies: Vec<Duration>,
    ok: usize,
    first_failure: Option<String>,
) -> OwnerFigures {
    latencies.sort();
    let at = (latencies.len() * 99).div_ceil(100).saturating_sub(1);
    OwnerFigures {
        name: name.to_owned(),
        ok,
        total: latencies.len(),
        p99: latencies[at],
        max: latencies[latencies.len() - 1],
        first_failure,
    }
}
