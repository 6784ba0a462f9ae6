//! Resolving TARGET selectors against the server's state: every pane a selector names, the one
//! pane a single-pane verb acts on, and the exactly-one local pane a layout edit demands.

use phux_core::error_code::ErrorCode;
use phux_core::ids::PaneId;
use phux_core::resolve::{pick_one, resolve, ResolveError};
use phux_core::selector::Selector;
use phux_core::state_view::StateView;

use crate::client::connection::Client;
use crate::client::error::ClientError;

/// A parsed TARGET; a malformed one is `invalid_selector` (exit 2).
pub fn parse(text: &str) -> Result<Selector, ClientError> {
    Ok(Selector::parse(text)?)
}

/// The state a selector was resolved against and the panes it named.
#[derive(Debug, Clone)]
pub struct Resolution {
    state: StateView,
    /// Never empty (only `resolve` builds it), in snapshot order.
    panes: Vec<PaneId>,
}

impl Resolution {
    pub fn state(&self) -> &StateView {
        &self.state
    }

    /// Every pane the selector named, in snapshot order; never empty.
    pub fn panes(&self) -> &[PaneId] {
        &self.panes
    }

    /// The one pane single-pane verbs act on: the focused pane if it matched, else the first.
    pub fn pane(&self) -> PaneId {
        pick_one(&self.panes, &self.state).unwrap_or(self.panes[0])
    }

    /// The prose warning for a resolution that succeeded against a partial fleet.
    pub fn partial_warning(&self) -> Option<String> {
        partial_warning(&self.state)
    }
}

/// "satellite(s) X unreachable" when the view misses some of the fleet.
pub fn partial_warning(state: &StateView) -> Option<String> {
    (!state.unreachable.is_empty()).then(|| {
        format!(
            "the view is partial: satellite(s) {} unreachable",
            state.unreachable.join(", ")
        )
    })
}

/// Fetches the state and resolves `selector` to every pane it names. A miss is
/// `no_such_target` (exit 1), or `partial_view` (exit 3) when satellites are unreachable.
pub fn resolve_target(client: &mut Client, selector: &Selector) -> Result<Resolution, ClientError> {
    let state = client.state()?;
    let panes = resolve(selector, &state)?;
    Ok(Resolution { state, panes })
}

/// Parses and resolves TARGET text in one step.
pub fn resolve_text(client: &mut Client, text: &str) -> Result<Resolution, ClientError> {
    let selector = parse(text)?;
    resolve_target(client, &selector)
}

/// The exactly-one local pane a layout edit demands, with no tiebreak. `role` names the
/// argument in messages (`TARGET`, `NEW_PANE`, ...). Refusals are exit 2: `satellite_target`,
/// `selector_miss`, `selector_not_single`; a miss against a partial fleet stays
/// `partial_view`.
pub fn single_local_pane(
    selector: &Selector,
    state: &StateView,
    role: &str,
) -> Result<PaneId, ClientError> {
    if let Selector::Remote { .. } = selector {
        return Err(ClientError::preflight(
            ErrorCode::SatelliteTarget,
            format!("{role} {selector} is a satellite pane; layout edits act on local panes only"),
            "run the edit against the satellite's own server",
        ));
    }
    match resolve(selector, state) {
        Ok(panes) if panes.len() == 1 => Ok(panes[0]),
        Ok(panes) => Err(ClientError::preflight(
            ErrorCode::SelectorNotSingle,
            format!(
                "{role} {selector} names {} panes; a layout edit needs exactly one",
                panes.len()
            ),
            "name one pane, e.g. @N from `phux ls --json`",
        )),
        Err(ResolveError::NoSuchTarget { .. }) => Err(ClientError::preflight(
            ErrorCode::SelectorMiss,
            format!("{role} {selector} names no pane"),
            "list what exists with `phux ls --json`, then pass one of its terminals",
        )),
        Err(other) => Err(other.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use phux_core::error_doc::ContractError;
    use phux_core::ids::{SessionId, WindowId};
    use phux_core::state_view::{PaneView, SessionView, WindowView};

    fn pane(id: u32) -> PaneView {
        PaneView {
            id: PaneId(id),
            tags: vec!["t".into()],
            title: None,
            cols: 80,
            rows: 24,
            recording: false,
        }
    }

    fn state() -> StateView {
        StateView {
            sessions: vec![SessionView {
                id: SessionId(1),
                name: "work".into(),
                windows: vec![WindowView {
                    id: WindowId(1),
                    index: 0,
                    name: "main".into(),
                    panes: vec![pane(3), pane(4)],
                    layout: None,
                }],
                attached_clients: 0,
                window_size: None,
            }],
            focus_order: vec![PaneId(4)],
            unreachable: vec![],
            exited: vec![],
            asks: vec![],
        }
    }

    fn code_of(err: ClientError) -> ErrorCode {
        err.code()
    }

    #[test]
    fn a_single_pane_resolves() {
        let sel = Selector::parse("@3").unwrap();
        assert_eq!(
            single_local_pane(&sel, &state(), "TARGET").unwrap(),
            PaneId(3)
        );
    }

    #[test]
    fn a_session_of_two_panes_is_not_single() {
        let sel = Selector::parse("work").unwrap();
        let err = single_local_pane(&sel, &state(), "TARGET").unwrap_err();
        assert_eq!(code_of(err), ErrorCode::SelectorNotSingle);
    }

    #[test]
    fn a_miss_is_selector_miss_and_a_remote_is_satellite_target() {
        let miss = Selector::parse("@99").unwrap();
        let err = single_local_pane(&miss, &state(), "TARGET").unwrap_err();
        assert_eq!(code_of(err), ErrorCode::SelectorMiss);
        let remote = Selector::parse("box/@1").unwrap();
        let err = single_local_pane(&remote, &state(), "TARGET").unwrap_err();
        assert_eq!(code_of(err), ErrorCode::SatelliteTarget);
    }

    #[test]
    fn pick_prefers_the_focused_match() {
        let resolution = Resolution {
            panes: vec![PaneId(3), PaneId(4)],
            state: state(),
        };
        assert_eq!(resolution.pane(), PaneId(4));
    }
}
