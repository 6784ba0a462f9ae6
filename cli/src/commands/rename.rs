//! `phux rename SESSION NEW_NAME`. An unknown session and a taken name are both refusals
//! (exit 2): session names are hub-local, so a miss here is a confident answer.

use phux_client::verbs::rename::check_new_name;
use phux_core::exit_code::{SUCCESS, USAGE};

use crate::client::lifecycle::rename_session;
use crate::client::ClientError;
use crate::commands::values::connect;
use crate::commands::Context;
use crate::failure::{conclude, Failure, VerbResult};

/// Rename a session
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The session's current name
    #[arg(value_name = "SESSION")]
    pub session: String,
    /// Its new name
    #[arg(value_name = "NEW_NAME")]
    pub new_name: String,
}

pub fn run(args: Args, context: &Context) -> i32 {
    conclude(false, execute(&args, context))
}

fn execute(args: &Args, context: &Context) -> VerbResult {
    check_new_name(&args.new_name)?;
    let mut client = connect(context)?;
    let renamed = rename_session(&mut client, &args.session, &args.new_name);
    if renamed.is_err() {
        // The answer stands (sessions are this server's own); the listing it came from is
        // still partial, and says so.
        if let Ok(state) = client.state() {
            crate::commands::values::warn_if_partial(crate::client::target::partial_warning(
                &state,
            ));
        }
    }
    renamed.map_err(|e| {
        let refused = matches!(e, ClientError::Server { .. });
        let failure = Failure::from(e);
        if refused {
            failure.with_exit_code(USAGE)
        } else {
            failure
        }
    })?;
    Ok(SUCCESS)
}
