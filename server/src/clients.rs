//! Attached clients (the TUI): who is attached to which session at what size, the window-size
//! policy that turns those sizes into one size per session, and detach requests.
//!
//! A read-only client (a read-only credential, or `PHUX_READ_ONLY=1`) never sizes anything:
//! the policies count only clients that may write, and a read-only one views the panes at
//! whatever size they have (its front end letterboxes or crops). A client's size is changed
//! only by the connection that attached it, which alone knows its key.
//!
//! A client is not part of the session model: it holds nothing the server needs, and when its
//! connection closes it is simply forgotten (and the sizes are decided again without it).

use crossbeam_channel::{bounded, Receiver, Sender};
use phux_core::documents::GridSize;
use phux_core::ids::SessionId;
use phux_core::wire::ClientNoticeKind;

/// How a session's size follows its clients' (`[defaults] window-size`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum WindowSizePolicy {
    /// Every client sees the whole window; larger clients letterbox.
    #[default]
    Smallest,
    /// The largest client decides; smaller ones crop.
    Largest,
    /// The client that attached or resized last decides.
    Latest,
    /// Only `phux resize` sets sizes.
    Manual,
}

impl WindowSizePolicy {
    pub const NAMES: [&'static str; 4] = ["smallest", "largest", "latest", "manual"];

    pub fn parse(name: &str) -> Option<WindowSizePolicy> {
        Some(match name {
            "smallest" => WindowSizePolicy::Smallest,
            "largest" => WindowSizePolicy::Largest,
            "latest" => WindowSizePolicy::Latest,
            "manual" => WindowSizePolicy::Manual,
            _ => return None,
        })
    }
}

struct AttachedClient {
    id: u32,
    /// What `client_resize` must name besides the id.
    key: String,
    /// Whether its size counts toward its session's (not for a read-only client).
    sizes_panes: bool,
    session: SessionId,
    size: GridSize,
    /// When it last attached or resized, in the attached clients' own ticks (for `latest`).
    touched: u64,
    notices: Sender<ClientNoticeKind>,
}

/// Every attached client.
#[derive(Default)]
pub struct AttachedClients {
    clients: Vec<AttachedClient>,
    next_id: u32,
    tick: u64,
}

/// How many notices a client may have waiting; a notice that does not fit is dropped, since a
/// waiting one already tells the client to act.
const NOTICE_QUEUE: usize = 4;

/// A client's terminal size as the policies may use it: within the grid cap. A client larger
/// than the cap is not refused; it letterboxes the capped grid, as it would a smaller client's.
fn capped(size: GridSize) -> GridSize {
    let (cols, rows) = phux_core::limits::clamp_grid(size.cols, size.rows);
    GridSize { cols, rows }
}

impl AttachedClients {
    /// Registers a client known by `key`, sizing its session's panes unless `read_only`;
    /// returns its id and the queue its notices arrive on.
    pub fn attach(
        &mut self,
        session: SessionId,
        size: GridSize,
        (key, read_only): (String, bool),
    ) -> (u32, Receiver<ClientNoticeKind>) {
        self.next_id += 1;
        self.tick += 1;
        let (tx, rx) = bounded(NOTICE_QUEUE);
        self.clients.push(AttachedClient {
            id: self.next_id,
            key,
            sizes_panes: !read_only,
            session,
            size: capped(size),
            touched: self.tick,
            notices: tx,
        });
        (self.next_id, rx)
    }

    /// The session `client` shows now (it may have switched since attaching).
    pub fn session_of(&self, client: u32) -> Option<SessionId> {
        self.clients
            .iter()
            .find(|c| c.id == client)
            .map(|c| c.session)
    }

    pub fn detach(&mut self, client: u32) -> Option<SessionId> {
        let position = self.clients.iter().position(|c| c.id == client)?;
        Some(self.clients.remove(position).session)
    }

    /// A client's new size (and session, when it switched). Returns the sessions whose sizes
    /// must be decided again, or None for an unknown client or a wrong key.
    pub fn resize(
        &mut self,
        (client, key): (u32, &str),
        size: GridSize,
        session: Option<SessionId>,
    ) -> Option<Vec<SessionId>> {
        self.tick += 1;
        let tick = self.tick;
        let entry = self
            .clients
            .iter_mut()
            .find(|c| c.id == client && keys_match(&c.key, key))?;
        let old = entry.session;
        entry.size = capped(size);
        entry.touched = tick;
        if let Some(session) = session {
            entry.session = session;
        }
        let mut affected = vec![entry.session];
        if old != entry.session {
            affected.push(old);
        }
        Some(affected)
    }

    /// Asks the clients of `session` (every client when None) to detach; returns how many.
    pub fn request_detach(&self, session: Option<SessionId>) -> u32 {
        let mut count = 0;
        for client in &self.clients {
            if session.is_none_or(|s| s == client.session) {
                let _ = client.notices.try_send(ClientNoticeKind::Detach);
                count += 1;
            }
        }
        count
    }

    /// Tells every client of `session` to read the state again.
    pub fn notify_changed(&self, session: SessionId) {
        for client in self.clients.iter().filter(|c| c.session == session) {
            let _ = client.notices.try_send(ClientNoticeKind::StateChanged);
        }
    }

    pub fn count(&self, session: SessionId) -> u32 {
        let n = self.clients.iter().filter(|c| c.session == session).count();
        u32::try_from(n).unwrap_or(u32::MAX)
    }

    /// The size `policy` gives `session`, or None when no client is attached to it (or under
    /// `manual`).
    pub fn size_for(&self, session: SessionId, policy: WindowSizePolicy) -> Option<GridSize> {
        let mut sizes = self
            .clients
            .iter()
            .filter(|c| c.session == session && c.sizes_panes);
        match policy {
            WindowSizePolicy::Manual => None,
            WindowSizePolicy::Smallest => sizes.map(|c| c.size).reduce(|a, b| GridSize {
                cols: a.cols.min(b.cols),
                rows: a.rows.min(b.rows),
            }),
            WindowSizePolicy::Largest => sizes.map(|c| c.size).reduce(|a, b| GridSize {
                cols: a.cols.max(b.cols),
                rows: a.rows.max(b.rows),
            }),
            WindowSizePolicy::Latest => sizes.by_ref().max_by_key(|c| c.touched).map(|c| c.size),
        }
    }
}

/// Compares keys in time that does not depend on where they first differ.
fn keys_match(ours: &str, theirs: &str) -> bool {
    ours.len() == theirs.len()
        && ours
            .bytes()
            .zip(theirs.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
}

/// Counts a recorder on a pane for as long as it lives (its `observe` stream).
pub struct RecordingMark<'a> {
    shared: &'a crate::shared::Shared,
    pane: phux_core::ids::PaneId,
}

impl<'a> RecordingMark<'a> {
    pub fn new(shared: &'a crate::shared::Shared, pane: phux_core::ids::PaneId) -> Self {
        *shared.tree().recorders.entry(pane).or_insert(0) += 1;
        RecordingMark { shared, pane }
    }
}

impl Drop for RecordingMark<'_> {
    fn drop(&mut self) {
        let mut tree = self.shared.tree();
        if let Some(n) = tree.recorders.get_mut(&self.pane) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                tree.recorders.remove(&self.pane);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: SessionId = SessionId(1);

    fn size(cols: u16, rows: u16) -> GridSize {
        GridSize { cols, rows }
    }

    fn writer() -> (String, bool) {
        ("k".to_owned(), false)
    }

    /// A read-only client's `attach_client{cols:2,rows:1}` took its session's panes to 2x1, and
    /// a second connection's `client_resize` of client 1 took them to 1x1.
    #[test]
    fn a_read_only_client_sizes_nothing_and_only_its_key_resizes_a_client() {
        let mut clients = AttachedClients::default();
        let (viewer, _rx_v) = clients.attach(S, size(2, 1), ("v".to_owned(), true));
        assert_eq!(clients.size_for(S, WindowSizePolicy::Smallest), None);
        let (owner, _rx_o) = clients.attach(S, size(120, 38), writer());
        assert!(clients.resize((owner, "v"), size(1, 1), None).is_none());
        assert!(clients.resize((owner, ""), size(1, 1), None).is_none());
        assert!(clients.resize((viewer, "v"), size(1, 1), None).is_some());
        for policy in [WindowSizePolicy::Smallest, WindowSizePolicy::Latest] {
            assert_eq!(clients.size_for(S, policy), Some(size(120, 38)));
        }
    }

    #[test]
    fn each_policy_picks_its_size() {
        let mut clients = AttachedClients::default();
        let (a, _rx_a) = clients.attach(S, size(100, 40), writer());
        let (_b, _rx_b) = clients.attach(S, size(80, 50), writer());
        use WindowSizePolicy::*;
        assert_eq!(clients.size_for(S, Smallest), Some(size(80, 40)));
        assert_eq!(clients.size_for(S, Largest), Some(size(100, 50)));
        assert_eq!(clients.size_for(S, Latest), Some(size(80, 50)));
        assert_eq!(clients.size_for(S, Manual), None);
        clients.resize((a, "k"), size(120, 30), None);
        assert_eq!(clients.size_for(S, Latest), Some(size(120, 30)));
        assert_eq!(clients.size_for(SessionId(2), Smallest), None);
    }

    /// `attach_client`/`client_resize` at 65535x65535 gave the session that size, and its
    /// panes 65535x65534, past the grid cap every other way of sizing a pane is held to.
    #[test]
    fn no_policy_derives_a_size_beyond_the_grid_cap_from_a_huge_client() {
        use phux_core::limits::{MAX_GRID_COLS, MAX_GRID_ROWS};
        let cap = size(MAX_GRID_COLS, MAX_GRID_ROWS);
        let mut clients = AttachedClients::default();
        let (a, _rx_a) = clients.attach(S, size(65535, 65535), writer());
        use WindowSizePolicy::*;
        for policy in [Smallest, Largest, Latest] {
            assert_eq!(clients.size_for(S, policy), Some(cap), "{policy:?}");
        }
        clients.resize((a, "k"), size(80, 24), None);
        let (_b, _rx_b) = clients.attach(S, size(0, 0), writer());
        clients.resize((a, "k"), size(u16::MAX, 30), None);
        assert_eq!(clients.size_for(S, Largest), Some(size(MAX_GRID_COLS, 30)));
        assert_eq!(clients.size_for(S, Smallest), Some(size(1, 1)));
    }

    #[test]
    fn detach_requests_reach_only_the_session_asked_for() {
        let mut clients = AttachedClients::default();
        let (_a, rx_a) = clients.attach(S, size(80, 24), writer());
        let (b, rx_b) = clients.attach(SessionId(2), size(80, 24), writer());
        assert_eq!(clients.request_detach(Some(S)), 1);
        assert_eq!(rx_a.try_recv(), Ok(ClientNoticeKind::Detach));
        assert!(rx_b.try_recv().is_err());
        assert_eq!(clients.count(SessionId(2)), 1);
        assert_eq!(clients.detach(b), Some(SessionId(2)));
        assert_eq!(clients.count(SessionId(2)), 0);
    }
}
