//! Which hook events a pane's watch event is, and the JSON document a hook reads on stdin.

use phux_core::documents::{WatchEvent, WatchEventKind};
use phux_core::ids::{PaneId, TerminalAddr};

/// The hook event names `kind` fires. A pane appearing or ending also changes its session.
pub fn hook_events(kind: &WatchEventKind) -> &'static [&'static str] {
    match kind {
        WatchEventKind::Idle => &["pane.idle"],
        WatchEventKind::PaneSpawned => &["pane.spawned", "session.changed"],
        WatchEventKind::PaneClosed { .. } => &["pane.exited", "session.changed"],
        WatchEventKind::TitleChanged { .. } => &["pane.title"],
        WatchEventKind::Bell => &["pane.bell"],
        WatchEventKind::AgentState(_) => &["agent.state"],
        WatchEventKind::Asked { .. } => &["agent.asked"],
        _ => &[],
    }
}

/// `{"schema_version":1,"event":"pane.exited","terminal":"@3","terminal_id":3,"session":..,
/// "unix_ms":..,"watch":{the watch event}}` and a newline.
/// `watch` is null for an event no pane event caused (a session renamed).
pub fn payload(
    name: &str,
    pane: PaneId,
    kind: Option<&WatchEventKind>,
    session: Option<&str>,
) -> Vec<u8> {
    let unix_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    let watch = kind.map(|kind| WatchEvent {
        terminal: Some(TerminalAddr::local(pane)),
        kind: kind.clone(),
        t: None,
        ts: Some(unix_ms as f64 / 1000.0),
    });
    let document = serde_json::json!({
        "schema_version": 1,
        "event": name,
        "terminal": pane.to_string(),
        "terminal_id": pane.0,
        "session": session,
        "unix_ms": unix_ms,
        "watch": watch,
    });
    let mut bytes = serde_json::to_vec(&document).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}
