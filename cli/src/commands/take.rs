//! `phux take TARGET [--ttl DURATION] [--as NAME] [--seize] [--json]`: takes the pane's input
//! lease. While it is held, input from anyone but its holder (send-keys, paste, run, the agent
//! verbs, MCP, another attached client) is refused with `input_lease_held` and nothing is
//! written. Writes say who types with `PHUX_AS=NAME`; an attached client types as its user.
//! The lease lasts `--ttl` (10 minutes by default) after its holder last typed, and ends when
//! the shell or script that ran `take` has died.

use phux_core::error_code::ErrorCode;
use phux_core::exit_code::SUCCESS;

use crate::client::{lease, target};
use crate::commands::values::{connect, parse_duration_ms, resolve_single_pane};
use crate::commands::Context;
use crate::failure::{conclude, Failure, VerbResult};
use crate::output;

/// Take a pane's input: only the holder's keys reach it until it is given back
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Give it back by itself once its holder has not typed for DURATION (30s, 10m, 2h; at
    /// most 24h); it also ends when the shell or script that ran `take` has died
    #[arg(long, value_name = "DURATION", value_parser = parse_duration_ms, default_value = "10m")]
    pub ttl: u64,
    /// The holder's name: writes typed with PHUX_AS=NAME get through [default: $PHUX_AS, else
    /// $USER]
    #[arg(long = "as", value_name = "NAME")]
    pub holder: Option<String>,
    /// Take it even when someone else holds it
    #[arg(long)]
    pub seize: bool,
    /// Print {schema_version,terminal_id,lease}
    #[arg(long)]
    pub json: bool,
    /// The pane
    #[arg(value_name = "TARGET")]
    pub target: String,
}

pub fn run(args: Args, context: &Context) -> i32 {
    conclude(args.json, execute(&args, context))
}

fn execute(args: &Args, context: &Context) -> VerbResult {
    let (mut client, pane) = leased_pane(&args.target, context)?;
    let holder = args.holder.clone().unwrap_or_else(lease::default_holder);
    let ttl = std::time::Duration::from_millis(args.ttl);
    let process = phux_core::process_identity::ProcessIdentity::parent();
    let answer = lease::take_for(&mut client, pane, (&holder, process), args.seize, ttl)?;
    if args.json {
        output::print_json(&serde_json::json!({
            "schema_version": 1,
            "terminal_id": pane,
            "lease": answer.lease,
        }));
    } else {
        output::print_line(&format!(
            "{pane} taken by {}: other input is refused until `phux give {pane}`, {} s pass \
             without its holder typing, or the shell that took it ends",
            phux_core::limits::for_display(&holder),
            ttl.as_secs()
        ));
    }
    Ok(SUCCESS)
}

/// The one pane TARGET names, on a connection to its server (`take` and `give`).
pub fn leased_pane(
    target: &str,
    context: &Context,
) -> Result<(crate::client::Client, phux_core::ids::PaneId), Failure> {
    let selector = target::parse(target)?;
    refuse_satellite(&selector)?;
    let mut client = connect(context)?;
    let pane = resolve_single_pane(&mut client, &selector)?;
    Ok((client, pane))
}

/// A satellite's pane is leased on the satellite's own server.
fn refuse_satellite(selector: &phux_core::selector::Selector) -> Result<(), Failure> {
    if let phux_core::selector::Selector::Remote { .. } = selector {
        return Err(Failure::new(
            ErrorCode::SatelliteTarget,
            format!("{selector} is a satellite pane; its input lease is the satellite's to give"),
            "take it on the satellite's own server (e.g. `ssh HOST phux take @N`)",
        ));
    }
    Ok(())
}
