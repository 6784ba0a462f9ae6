//! Resolving TARGET selectors against the server's state: every pane a selector names, the one
//! pane a single-pane verb acts on, and the exactly-one local pane a layout edit demands.

use phux_core::error_code::ErrorCode;
use phux_core::ids::PaneId;
use phux_core::resolve::{pick_one, resolve, ResolveError};
use phux_core::selector::Selector;
use phux_core::state_view::StateView;

use crate::connection::Client;
use crate::error::ClientError;

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
    /// The satellite the panes live on (the client now talks to its server), for `NAME/@N`.
    satellite: Option<String>,
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

    /// The satellite the panes live on, when the selector was `NAME/@N`.
    pub fn satellite(&self) -> Option<&str> {
        self.satellite.as_deref()
    }

    /// The canonical address of `pane`: `@N`, or `NAME/@N` on a satellite.
    pub fn address(&self, pane: PaneId) -> phux_core::ids::TerminalAddr {
        match &self.satellite {
            Some(host) => phux_core::ids::TerminalAddr::remote(host.clone(), pane),
            None => phux_core::ids::TerminalAddr::local(pane),
        }
    }

    /// The prose warning for a resolution that succeeded against a partial fleet.
    pub fn partial_warning(&self) -> Option<String> {
        partial_warning(&self.state)
    }
}

/// "the view is partial: satellite X is unreachable: …" when the view misses some of the fleet.
pub fn partial_warning(state: &StateView) -> Option<String> {
    (!state.unreachable.is_empty())
        .then(|| format!("the view is partial: {}", state.unreachable.join("; ")))
}

/// Fetches the state and resolves `selector` to every pane it names. A miss is
/// `no_such_target` (exit 1), or `partial_view` (exit 3) when satellites are unreachable.
/// `NAME/@N` turns `client` into a connection to that satellite's server (through the hub)
/// and resolves `@N` there.
pub fn resolve_target(client: &mut Client, selector: &Selector) -> Result<Resolution, ClientError> {
    if let Selector::Remote { host, pane } = selector {
        enter_satellite(client, host)?;
        let state = client.state()?;
        if !state.contains(*pane) {
            return Err(ResolveError::NoSuchTarget {
                selector: selector.to_string(),
            }
            .into());
        }
        return Ok(Resolution {
            state,
            panes: vec![*pane],
            satellite: Some(host.clone()),
        });
    }
    let state = client.state()?;
    match (resolve(selector, &state), selector) {
        (Ok(panes), _) => Ok(Resolution {
            state,
            panes,
            satellite: None,
        }),
        // `#tag` searches the whole fleet: no pane here has it, so look on the satellites.
        (Err(_), Selector::Tag(tag)) => tagged_elsewhere(client, tag),
        (Err(miss), _) => Err(miss.into()),
    }
}

/// The first server of the fleet with panes tagged `tag` (a satellite: none here had it a
/// moment ago), with `client` turned into a connection to it.
fn tagged_elsewhere(client: &mut Client, tag: &str) -> Result<Resolution, ClientError> {
    let first = crate::fleet_search::tagged(client, tag)?.swap_remove(0);
    if let Some(host) = &first.host {
        enter_satellite(client, host)?;
    }
    Ok(Resolution {
        state: client.state()?,
        panes: first.panes,
        satellite: first.host,
    })
}

/// Turns `client` (connected to the hub) into a connection to satellite `host`'s server. An
/// unknown satellite is `no_such_target`; one whose link is down is `partial_view`.
pub fn enter_satellite(client: &mut Client, host: &str) -> Result<(), ClientError> {
    client.tunnel(host)
}

/// The refusal of the verbs whose data is hub-local (agent records): `satellite_target`, exit 2,
/// before anything is read or typed.
pub fn refuse_satellite(selector: &Selector, verb: &str) -> Result<(), ClientError> {
    match selector {
        Selector::Remote { .. } => Err(ClientError::preflight(
            ErrorCode::SatelliteTarget,
            format!(
                "{selector} is a satellite pane; {verb} reads the hub's own agent records, \
                 which do not cross a satellite link"
            ),
            "run the verb against the satellite's own server (e.g. over ssh on that host)",
        )),
        _ => Ok(()),
    }
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
            lease: None,
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
                unplaced: Vec::new(),
            }],
            focus_order: vec![PaneId(4)],
            unreachable: vec![],
            exited: vec![],
            asks: vec![],
            satellites: vec![],
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
            satellite: None,
        };
        assert_eq!(resolution.pane(), PaneId(4));
    }
}
