//! `#tag` as a search over the whole fleet: the hub's own panes first, then each satellite's,
//! read through the hub's tunnel. Only a tag is searched this way — every other selector names
//! one place (`@N` here, `NAME/@N` there, a session name on the hub).

use phux_core::ids::PaneId;
use phux_core::resolve::ResolveError;
use phux_core::selector::Selector;
use phux_core::state_view::StateView;

use crate::connection::Client;
use crate::error::ClientError;

/// The panes of one server of the fleet: `host` is `None` for the hub's own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FleetPanes {
    pub host: Option<String>,
    pub panes: Vec<PaneId>,
}

/// Every pane tagged `tag`, grouped by server (the hub's own first, then the satellites in the
/// fleet's order); never empty. A miss is `no_such_target`, or `partial_view` when a satellite
/// could not be searched.
pub fn tagged(client: &mut Client, tag: &str) -> Result<Vec<FleetPanes>, ClientError> {
    tagged_partial(client, tag).map(|(found, _)| found)
}

/// [`tagged`], and the warning to print ahead of the answer when a satellite could not be
/// searched (its panes with the tag, if any, are missing from it).
pub fn tagged_partial(
    client: &mut Client,
    tag: &str,
) -> Result<(Vec<FleetPanes>, Option<String>), ClientError> {
    let selector = Selector::Tag(tag.to_owned());
    let mut fleet = client.fleet()?;
    let mut found = Vec::new();
    let local = tagged_in(&fleet, tag);
    if !local.is_empty() {
        found.push(FleetPanes {
            host: None,
            panes: local,
        });
    }
    for satellite in &fleet.satellites {
        match satellite_state(client, &satellite.name) {
            Ok(state) => {
                let panes = tagged_in(&state, tag);
                if !panes.is_empty() {
                    found.push(FleetPanes {
                        host: Some(satellite.name.clone()),
                        panes,
                    });
                }
            }
            // It answered the listing a moment ago; now it cannot be searched: a partial view.
            Err(e) => fleet
                .unreachable
                .push(format!("satellite {}: {e}", satellite.name)),
        }
    }
    if !found.is_empty() {
        return Ok((found, crate::target::partial_warning(&fleet)));
    }
    let selector = selector.to_string();
    Err(if fleet.unreachable.is_empty() {
        ResolveError::NoSuchTarget { selector }
    } else {
        ResolveError::PartialView {
            selector,
            unreachable: fleet.unreachable,
        }
    }
    .into())
}

/// Every pane of the fleet, grouped by server (the hub's own first), and the warning for the
/// satellites that contributed nothing.
pub fn every_pane(client: &mut Client) -> Result<(Vec<FleetPanes>, Option<String>), ClientError> {
    let fleet = client.fleet()?;
    let mut groups = vec![FleetPanes {
        host: None,
        panes: fleet.panes().map(|p| p.id).collect(),
    }];
    groups.extend(fleet.satellites.iter().map(|s| FleetPanes {
        host: Some(s.name.clone()),
        panes: s.terminals.clone(),
    }));
    groups.retain(|g| !g.panes.is_empty());
    Ok((groups, crate::target::partial_warning(&fleet)))
}

fn satellite_state(client: &Client, host: &str) -> Result<StateView, ClientError> {
    Client::connect_routed(client.socket(), Some(host))?.state()
}

/// The panes of `state` (a server's own, not its satellites') tagged `tag`.
fn tagged_in(state: &StateView, tag: &str) -> Vec<PaneId> {
    state
        .panes()
        .filter(|p| p.tags.iter().any(|t| t == tag))
        .map(|p| p.id)
        .collect()
}
