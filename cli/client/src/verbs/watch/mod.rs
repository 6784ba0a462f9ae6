//! `watch`'s parts the bounded batch (the MCP adapter's `phux_watch`) and the streaming verb
//! share: the watch's clock and how an ended stream is told from a server gone.

mod batch;

use std::time::{Duration, Instant, SystemTime};

use phux_core::error_code::ErrorCode;

pub use batch::{batch, BatchSpec, WatchBatch};

use crate::failure::Failure;
use crate::{Client, Context};

/// When the watch began, on both clocks: `t` is measured against the server's wall-clock stamp
/// when the event has one (same host, same clock), else against the moment it arrived.
pub struct WatchClock {
    instant: Instant,
    unix: Option<Duration>,
}

impl WatchClock {
    pub fn start() -> WatchClock {
        WatchClock {
            instant: Instant::now(),
            unix: SystemTime::now()
                .duration_since(SystemTime::UNIX_EPOCH)
                .ok(),
        }
    }

    /// (`t`, `ts`) of an event stamped `ts_ns` by the server; `t` is negative for an event
    /// from before the watch began (replayed by `--since`).
    pub fn times(&self, ts_ns: Option<u64>) -> (f64, Option<f64>) {
        let ts = ts_ns.map(Duration::from_nanos);
        let t = match (ts, self.unix) {
            (Some(ts), Some(began)) => ts.as_secs_f64() - began.as_secs_f64(),
            _ => self.instant.elapsed().as_secs_f64(),
        };
        (round_us(t), ts.map(|d| round_us(d.as_secs_f64())))
    }
}

/// Microseconds are all a watcher can use; fewer digits keep the lines short.
fn round_us(seconds: f64) -> f64 {
    (seconds * 1e6).round() / 1e6
}

/// Whether a server still answers at the socket: a stream that ended while it does was ended
/// on purpose (the pane closed); one that ended with it gone was cut. It must answer the
/// handshake: a server being torn down may still hold its listening socket for a moment.
pub fn server_is_up(context: &Context) -> bool {
    Client::connect_running(&context.socket).is_ok_and(|mut client| client.welcome().is_ok())
}

pub fn server_gone(context: &Context) -> Failure {
    Failure::new(
        ErrorCode::ServerDisconnected,
        format!(
            "the server at {} went away while watching",
            context.socket.display()
        ),
        "check `phux status`, then watch again",
    )
}
