//! `phux ls [--json]`: the sessions (`SessionListJson` v3 with `--json`, one line per session
//! otherwise). Never starts a server: with none, `no_server`, exit 1.

use phux_core::documents::SessionListJson;
use phux_core::exit_code::SUCCESS;

use crate::client::listing::list;
use crate::commands::values::connect;
use crate::commands::Context;
use crate::failure::{conclude, VerbResult};
use crate::output;

/// List sessions
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print a SessionListJson document
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args, context: &Context) -> i32 {
    conclude(args.json, execute(&args, context))
}

fn execute(args: &Args, context: &Context) -> VerbResult {
    let mut client = connect(context)?;
    let listing = list(&mut client)?;
    if !listing.unreachable.is_empty() {
        output::warn(&format!(
            "the list is partial: {}",
            listing.unreachable.join("; ")
        ));
    }
    if args.json {
        output::print_json(&listing);
    } else {
        for line in prose_lines(&listing) {
            output::print_line(&line);
        }
    }
    Ok(SUCCESS)
}

/// `work: 3 windows (attached)`, one line per session, by name; then one line per satellite
/// naming its terminals (`satellite devbox: devbox/@1 devbox/@4`).
pub fn prose_lines(listing: &SessionListJson) -> Vec<String> {
    let mut lines: Vec<String> = listing
        .sessions
        .iter()
        .map(|s| {
            let plural = if s.windows == 1 { "" } else { "s" };
            let attached = if s.attached { " (attached)" } else { "" };
            // A name from an older server may hold anything: print it escaped.
            let name = phux_core::limits::for_display(&s.name);
            format!("{name}: {} window{plural}{attached}", s.windows)
        })
        .collect();
    let mut satellites: Vec<(&str, Vec<String>)> = Vec::new();
    for terminal in &listing.terminals {
        let Some(host) = terminal.host.as_deref() else {
            continue;
        };
        match satellites.iter_mut().find(|(name, _)| *name == host) {
            Some((_, terminals)) => terminals.push(terminal.to_string()),
            None => satellites.push((host, vec![terminal.to_string()])),
        }
    }
    for (host, terminals) in satellites {
        lines.push(format!("satellite {host}: {}", terminals.join(" ")));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use phux_core::documents::SessionEntry;

    #[test]
    fn one_line_per_session() {
        let listing = SessionListJson::new(
            vec![SessionEntry::new("b", 1, 0), SessionEntry::new("a", 3, 2)],
            vec![],
            vec![],
        );
        assert_eq!(
            prose_lines(&listing),
            ["a: 3 windows (attached)", "b: 1 window"]
        );
    }

    #[test]
    fn satellite_terminals_follow_the_sessions() {
        use phux_core::ids::{PaneId, TerminalAddr};
        let listing = SessionListJson::new(
            vec![SessionEntry::new("a", 1, 0)],
            vec![
                TerminalAddr::local(PaneId(1)),
                TerminalAddr::remote("box", PaneId(2)),
                TerminalAddr::remote("box", PaneId(5)),
            ],
            vec![],
        );
        assert_eq!(
            prose_lines(&listing),
            ["a: 1 window", "satellite box: box/@2 box/@5"]
        );
    }
}
