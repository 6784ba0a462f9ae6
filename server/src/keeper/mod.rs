//! Panes that outlive their server. Each pane's program runs under a keeper (`phux __keeper`,
//! see `process`): a small process outside the server's process group that is the program's
//! parent and holds its PTY master and its keep (`keep`: the pane's recent output in a ring,
//! and its terminal's last snapshot, in memfds). The server reads the PTY itself and writes the
//! keep as it goes (two `pwrite`s per read, a snapshot when the ring fills); a server that
//! starts where keepers wait (after a `kill -9`, a panic, the OOM killer, a failed upgrade)
//! takes every pane over (`recover`): the same programs and PIDs, each screen rebuilt from its
//! snapshot and the output after it, the sessions and layout from the state file the server
//! keeps beside its socket (`state_file`). Output written while no server ran waits in the
//! PTY.

mod keep;
mod link;
pub mod process;
mod protocol;
mod recover;
pub mod state_file;

pub use keep::{KeepError, KeepFiles, KeepWriters};
pub use link::{
    adopt, directory, hang_up_all, keeper_pids, release, start, withdraw, Held, KeeperError,
    KeeperLink,
};
pub use recover::recover;
