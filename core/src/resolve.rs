//! Resolving a parsed selector against a [`StateView`], and narrowing a match set to one pane.

use crate::error_code::ErrorCode;
use crate::error_doc::ContractError;
use crate::ids::PaneId;
use crate::selector::Selector;
use crate::state_view::StateView;

/// A selector that parsed but does not name a pane here.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResolveError {
    /// A miss against a complete view.
    #[error("no such target: {selector}")]
    NoSuchTarget { selector: String },
    /// A miss against a view missing some satellites: the target may live there. The message
    /// deliberately makes no claim of absence.
    #[error("cannot answer for {selector}: {}", unreachable.join("; "))]
    PartialView {
        selector: String,
        unreachable: Vec<String>,
    },
    /// A selector this caller cannot use (`=` without an attached client).
    #[error("selector {selector} is not supported here: {reason}")]
    Unsupported {
        selector: String,
        reason: &'static str,
    },
}

impl ContractError for ResolveError {
    fn code(&self) -> ErrorCode {
        match self {
            ResolveError::NoSuchTarget { .. } => ErrorCode::NoSuchTarget,
            ResolveError::PartialView { .. } => ErrorCode::PartialView,
            ResolveError::Unsupported { .. } => ErrorCode::InvalidSelector,
        }
    }

    fn remedy(&self) -> String {
        match self {
            ResolveError::NoSuchTarget { .. } => {
                "list what exists with `phux ls --json`, then pass one of its terminals".to_owned()
            }
            ResolveError::PartialView { .. } => {
                "retry once the satellite is reachable; `phux ls --json` shows `unreachable`"
                    .to_owned()
            }
            ResolveError::Unsupported { .. } => {
                "name the pane explicitly, e.g. @N from `phux ls --json`".to_owned()
            }
        }
    }
}

/// Every pane `selector` names, in snapshot order, never empty.
pub fn resolve(selector: &Selector, state: &StateView) -> Result<Vec<PaneId>, ResolveError> {
    let matches: Vec<PaneId> = match selector {
        Selector::Previous => {
            return Err(ResolveError::Unsupported {
                selector: selector.to_string(),
                reason: "`=` needs an attached client's focus history",
            })
        }
        Selector::Focused => state.focused().into_iter().collect(),
        Selector::Session(name) => state
            .session(name)
            .map(|s| s.pane_ids().collect())
            .unwrap_or_default(),
        Selector::WindowIndex { session, index } => state
            .session(session)
            .and_then(|s| s.windows.iter().find(|w| w.index == *index))
            .map(|w| w.pane_ids().collect())
            .unwrap_or_default(),
        Selector::WindowName { session, window } => state
            .session(session)
            .and_then(|s| s.windows.iter().find(|w| &w.name == window))
            .map(|w| w.pane_ids().collect())
            .unwrap_or_default(),
        Selector::Pane {
            session,
            window,
            pane,
        } => state
            .session(session)
            .and_then(|s| s.windows.iter().find(|w| w.index == *window))
            .and_then(|w| usize::try_from(*pane).ok().and_then(|p| w.panes.get(p)))
            .map(|p| vec![p.id])
            .unwrap_or_default(),
        Selector::Terminal(id) => state
            .panes()
            .filter(|p| p.id == *id)
            .map(|p| p.id)
            .collect(),
        Selector::Tag(tag) => state
            .panes()
            .filter(|p| p.tags.iter().any(|t| t == tag))
            .map(|p| p.id)
            .collect(),
        // A merged view (`get_fleet`) lists each satellite's terminals; a plain state does not,
        // and the client reaches `NAME/@N` through the hub's tunnel instead.
        Selector::Remote { host, pane } => state
            .satellites
            .iter()
            .filter(|s| &s.name == host && s.terminals.contains(pane))
            .map(|_| *pane)
            .collect(),
        Selector::Reserved(_) => Vec::new(),
    };
    if !matches.is_empty() {
        return Ok(matches);
    }
    // A session whose last pane ended is gone, but the pane is still kept and readable: the
    // name still reaches it (the latest to end), as `@N` does.
    if let Selector::Session(name) = selector {
        if let Some(ended) = state
            .exited
            .iter()
            .filter(|e| e.session == *name)
            .max_by_key(|e| (e.ended_at, e.id.0))
        {
            return Ok(vec![ended.id]);
        }
    }
    let selector_text = selector.to_string();
    if selector.can_be_partial() && !state.unreachable.is_empty() {
        return Err(ResolveError::PartialView {
            selector: selector_text,
            unreachable: state.unreachable.clone(),
        });
    }
    Err(ResolveError::NoSuchTarget {
        selector: selector_text,
    })
}

/// Narrows a match set to one pane: the focused pane if it is among the matches, else the
/// first match in snapshot order. `None` only for an empty set.
pub fn pick_one(matches: &[PaneId], state: &StateView) -> Option<PaneId> {
    match state.focused() {
        Some(focused) if matches.contains(&focused) => Some(focused),
        _ => matches.first().copied(),
    }
}
