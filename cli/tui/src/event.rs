//! What wakes the event loop.

use phux_core::ids::PaneId;
use phux_core::wire::ClientNoticeKind;

pub enum Event {
    /// Bytes the person typed (or the outer terminal reported).
    Input(Vec<u8>),
    /// The outer terminal is gone (stdin closed or failed).
    InputClosed,
    /// The outer terminal changed size.
    Resized,
    /// SIGINT, SIGTERM or SIGHUP: end cleanly.
    Stop,
    /// A frame waits in a pane's queue.
    FramesReady,
    /// A pane's stream ended (the pane closed, or the server dropped a stream that fell
    /// behind: `lagged`).
    PaneEnded {
        pane: PaneId,
        stream_id: u64,
        lagged: bool,
    },
    /// From the server, on the attach connection.
    Notice(ClientNoticeKind),
    /// The attach connection ended: the server is gone.
    ServerGone,
    /// A pane's output began or stopped (for the status line's `#` activity mark).
    Output(crate::activity::Output),
    /// A verb run from the command prompt finished; its message for the status line.
    CommandDone(String),
}
