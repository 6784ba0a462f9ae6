//! The panes a `phux watch` over TARGETs covers. Live panes are resolved as every verb resolves
//! them; with `--since`, panes that already ended within the replayed window count too (a
//! session's or a tag's job that finished before the watch began, named by `@N` or by the
//! session or tag it had), so `--until pane_closed --all` sees every job's end.

use std::time::{SystemTime, UNIX_EPOCH};

use phux_core::error_code::ErrorCode;
use phux_core::ids::PaneId;
use phux_core::selector::Selector;
use phux_core::state_view::ExitedPaneView;

use crate::client::{target, Client, ClientError};
use crate::commands::values::warn_if_partial;
use crate::failure::Failure;

/// Every pane `selectors` name, in order, without repeats.
pub fn watched_panes(
    resolver: &mut Client,
    selectors: &[Selector],
    since_ms: Option<u64>,
) -> Result<Vec<PaneId>, Failure> {
    let exited = resolver.state()?.exited;
    // Panes that ended inside the window `--since` replays (none without it).
    let recent: Vec<&ExitedPaneView> = match since_ms {
        Some(ms) => {
            let now = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs());
            let from = now.saturating_sub(ms.div_ceil(1000));
            exited.iter().filter(|e| e.ended_at >= from).collect()
        }
        None => Vec::new(),
    };
    let mut panes: Vec<PaneId> = Vec::new();
    let mut add = |pane: PaneId| {
        if !panes.contains(&pane) {
            panes.push(pane);
        }
    };
    for selector in selectors {
        let ended: Vec<PaneId> = recent
            .iter()
            .filter(|e| names(selector, e))
            .map(|e| e.id)
            .collect();
        if let Selector::Terminal(pane) = selector {
            if let Some(gone) = exited.iter().find(|e| e.id == *pane) {
                if since_ms.is_none() {
                    return Err(Failure::new(
                        ErrorCode::PaneExited,
                        format!("{pane} {}", gone.ending()),
                        format!("replay its end with `phux watch --since 10m {pane}`"),
                    ));
                }
                add(*pane);
                continue;
            }
        }
        match target::resolve_target(resolver, selector) {
            Ok(resolved) => {
                warn_if_partial(resolved.partial_warning());
                // A session whose last pane ended names that kept pane: it has nothing live
                // to watch (its past, with --since).
                if let Some(gone) = resolved
                    .panes()
                    .iter()
                    .find_map(|p| exited.iter().find(|e| e.id == *p))
                {
                    if since_ms.is_none() {
                        return Err(Failure::new(
                            ErrorCode::PaneExited,
                            format!("{} {}", gone.id, gone.ending()),
                            format!("replay its end with `phux watch --since 10m {}`", gone.id),
                        ));
                    }
                }
                resolved.panes().iter().copied().for_each(&mut add);
            }
            // Every pane of the session or tag already ended: their past is still watched.
            Err(ClientError::Resolve(_)) if !ended.is_empty() => {}
            Err(e) => return Err(Failure::from(e).partial_view_exits_1()),
        }
        ended.into_iter().for_each(&mut add);
    }
    Ok(panes)
}

/// Whether `selector` named `pane` while it lived: its session, or one of its tags.
fn names(selector: &Selector, pane: &ExitedPaneView) -> bool {
    match selector {
        Selector::Session(name) => pane.session == *name,
        Selector::Tag(tag) => pane.tags.iter().any(|t| t == tag),
        Selector::Terminal(id) => pane.id == *id,
        _ => false,
    }
}
