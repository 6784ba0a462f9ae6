//! `new`'s operation: creates a session, starting a server (and installing the engine) when
//! none runs.

use phux_core::exit_code::FAILURE;
use phux_core::limits::check_session_name;

use crate::failure::Failure;
use crate::lifecycle::{new_session, ProcessSpec};
use crate::Context;
use crate::{on_a_server, ClientError};

/// Creates a session (starting a server, and installing the engine first, when none runs);
/// returns what `--json` prints. `quiet` keeps an engine install's progress off the terminal.
pub fn create(
    name: Option<String>,
    spec: ProcessSpec,
    context: &Context,
    quiet: bool,
) -> Result<phux_core::documents::NewJson, Failure> {
    if let Some(name) = &name {
        check_session_name(name)?;
    }
    crate::engine_setup::prepare_for_server(&context.socket, quiet)?;
    on_a_server(&context.socket, |client| {
        new_session(client, name.clone(), spec.clone())
    })
    .map(|(_, created)| created)
    .map_err(|e| {
        let refused = matches!(e, ClientError::Server { .. });
        let failure = Failure::from(e);
        if refused {
            failure.with_exit_code(FAILURE)
        } else {
            failure
        }
    })
}
