//! `get_fleet`: this server's state with every satellite's terminals merged in. Satellites
//! whose link is down are listed as unreachable from the link's state, without a probe; those
//! that are up are asked in parallel, each bounded by the control timeout.

use phux_core::state_view::{SatelliteView, StateView};

use super::Hub;

/// Fills `state` (the local view) with the satellites' terminals and the unreachable list.
pub fn fleet_state(hub: &Hub, state: &mut StateView) {
    let links: Vec<_> = hub.links().values().cloned().collect();
    let answers: Vec<(String, Result<SatelliteView, String>)> = std::thread::scope(|scope| {
        let asks: Vec<_> = links
            .iter()
            .map(|link| {
                scope.spawn(move || {
                    let Some(control) = link.control() else {
                        return Err(link.down_diagnostic().unwrap_or_default());
                    };
                    let mut control = control.lock().unwrap_or_else(|p| p.into_inner());
                    control
                        .state()
                        .map(|remote| SatelliteView {
                            name: link.name.clone(),
                            terminals: remote.panes().map(|p| p.id).collect(),
                        })
                        .map_err(|why| format!("satellite {} is unreachable: {why}", link.name))
                })
            })
            .collect();
        links
            .iter()
            .zip(asks)
            .map(|(link, ask)| {
                let answer = ask
                    .join()
                    .unwrap_or_else(|_| Err(format!("satellite {} is unreachable", link.name)));
                (link.name.clone(), answer)
            })
            .collect()
    });
    for (_, answer) in answers {
        match answer {
            Ok(view) => state.satellites.push(view),
            Err(diagnostic) => state.unreachable.push(diagnostic),
        }
    }
}
