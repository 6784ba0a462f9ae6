//! Keeps the hub's links in step with the config file: a satellite added, removed, re-pointed,
//! enabled or disabled there is dialed or dropped within a second, without a restart.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use phux_core::hosts::host_list;

use super::{Hub, Link};

/// How often the config file is looked at.
pub const POLL: Duration = Duration::from_millis(500);

pub fn watch(hub: Arc<Hub>, path: PathBuf) {
    reconcile(&hub, &path, &mut None);
    let weak = Arc::downgrade(&hub);
    drop(hub);
    let _ = std::thread::Builder::new()
        .name("hub-roster".into())
        .spawn(move || {
            let mut last = Some(config_text(&path));
            loop {
                std::thread::sleep(POLL);
                let Some(hub) = weak.upgrade() else { return };
                reconcile(&hub, &path, &mut last);
            }
        });
}

/// Re-reads the host list when the file's text changed (or on the first call, `last = None`)
/// and starts, stops or restarts links to match.
fn reconcile(hub: &Hub, path: &Path, last: &mut Option<String>) {
    let text = config_text(path);
    if last.as_deref() == Some(text.as_str()) {
        return;
    }
    *last = Some(text);
    let wanted = match host_list::enabled_satellites(path) {
        Ok(wanted) => wanted,
        Err(e) => {
            // Keep the links as they are: a half-edited file should not drop the fleet.
            crate::log::line(&format!("satellites unchanged: {e}"));
            return;
        }
    };
    let mut links = hub.links();
    links.retain(|name, link| {
        let keep = wanted
            .iter()
            .any(|w| &w.name == name && w.parsed_endpoint().ok().as_ref() == Some(&link.endpoint));
        if !keep {
            crate::log::line(&format!("satellite {name}: removed"));
            link.stop();
        }
        keep
    });
    for entry in wanted {
        if links.contains_key(&entry.name) {
            continue;
        }
        let Ok(endpoint) = entry.parsed_endpoint() else {
            continue;
        };
        crate::log::line(&format!("satellite {}: dialing {endpoint}", entry.name));
        let wss = entry.wss_auth();
        let link = Link::start(entry.name.clone(), endpoint, Some(path.to_path_buf()), wss);
        links.insert(entry.name, link);
    }
}

/// The config file's text as last seen, bounded like every read of it (a file too large or
/// not a file reads as empty here; the host list's own read says why, once, in the log).
fn config_text(path: &Path) -> String {
    phux_core::config::file::read_text(path)
        .ok()
        .flatten()
        .unwrap_or_default()
}
