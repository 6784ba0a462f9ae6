//! `phux listen HOST:PORT`: start the remote listener in the running server (a server is
//! started when none runs), so paired browsers and hubs can reach it.

use phux_core::exit_code::SUCCESS;

use crate::commands::Context;
use crate::failure::{conclude, VerbResult};
use crate::output;

/// Start the remote listener (TLS WebSocket for paired browsers and hubs) in the running server
#[derive(Debug, clap::Args)]
#[command(after_help = "\
One listener per server: asking again for the address it binds changes nothing; another
address is refused (listener_running). The listener lasts as long as the server (through
`phux upgrade` and a crash's recovery); to start every server with it, set `[listener] ws_addr`
in config.toml or PHUX_WS_ADDR. Then `phux pair --name NAME` mints a token and prints the link.")]
pub struct Args {
    /// The address to bind: 127.0.0.1:8787 (this machine only), an overlay address
    /// (100.64.0.2:8787), or :0-style port 0 for any free port
    #[arg(value_name = "HOST:PORT")]
    pub addr: String,
    /// Print {schema_version, operation, addr, fingerprint, started, admitted}
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args, context: &Context) -> i32 {
    conclude(args.json, execute(&args, context))
}

fn execute(args: &Args, context: &Context) -> VerbResult {
    // A server is started when none runs (said on stderr), as `phux listen` is how a person
    // opens this machine to paired devices whether or not a server ran.
    let mut client = phux_client::ensure_server_saying(&context.socket, args.json)?;
    let document = phux_client::verbs::listen::listen(&mut client, &args.addr)?;
    if args.json {
        output::print_json(&document);
    } else {
        for line in phux_client::verbs::listen::describe(&document) {
            output::print_line(&line);
        }
    }
    Ok(SUCCESS)
}
