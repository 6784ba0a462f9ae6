//! `phux host enroll HOST [--name NAME] [--session S] [--json]`: checks over ssh that `phux
//! proxy` runs on HOST and speaks this phux's protocol, then adds HOST as a satellite (or, with
//! `--session`, as a remote host whose session `attach NAME` opens).

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

use phux_core::error_code::ErrorCode;
use phux_core::hosts::link_frame::{self, LinkFrame, ProxyHello, CONTROL_CHANNEL};
use phux_core::hosts::{host_list, Endpoint, HostEntry, HostRole};
use phux_core::wire::PROTOCOL;

use super::{add_and_report, config_path, host_list_failure};
use crate::failure::{Failure, VerbResult};
use crate::output;

/// How long the host has to start `phux proxy` and answer.
const PROBE_LIMIT: Duration = Duration::from_secs(30);

/// Check a host (over ssh, or a connect link over wss) and add it as a satellite
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("source").required(true).args(["host", "link_file"])))]
pub struct Args {
    /// The host: [user@]host[:port] or ssh://[user@]host[:port] (a connect link goes in
    /// --link-file: it holds a token)
    #[arg(value_name = "HOST")]
    pub host: Option<String>,
    /// A file holding the connect link `phux pair` printed there (https://HOST:PORT/#token=…),
    /// `-` for stdin; with --fingerprint
    #[arg(long, value_name = "FILE|-")]
    pub link_file: Option<std::path::PathBuf>,
    /// The registry name [default: the host's name]
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// Add it as a remote host whose SESSION `attach NAME` opens, instead of a satellite
    #[arg(long, value_name = "SESSION")]
    pub session: Option<String>,
    /// The listener's certificate fingerprint, for a connect link (`phux pair --json`'s
    /// cert_fingerprint there)
    #[arg(long, value_name = "FP")]
    pub fingerprint: Option<String>,
    /// Print the added entry as a document
    #[arg(long)]
    pub json: bool,
}

pub fn execute(args: Args) -> VerbResult {
    if let Some(source) = &args.link_file {
        let text = super::enroll_link::read_link(source)?;
        let link = super::enroll_link::parse(&text).unwrap_or_else(|| {
            Err(Failure::new(
                ErrorCode::InvalidArgument,
                format!("{} does not hold a connect link", source.display()),
                "give the file (or stdin) connect_link from `phux pair --json` on that host",
            ))
        })?;
        return super::enroll_link::execute(link, args.name, args.fingerprint, args.json);
    }
    let host = args.host.clone().unwrap_or_default();
    if super::enroll_link::parse(&host).is_some() {
        // Any user may read a process's arguments (/proc/PID/cmdline): refused before use.
        return Err(Failure::new(
            ErrorCode::InvalidArgument,
            "a connect link holds its token and is never taken as an argument (other users \
             can read a process's arguments)",
            "pass it on stdin: `phux host enroll --link-file - --fingerprint FP < link.txt`, \
             or in a file only you can read: --link-file FILE",
        ));
    }
    let text = if host.starts_with("ssh://") {
        host.clone()
    } else {
        format!("ssh://{host}")
    };
    let endpoint = Endpoint::parse(&text).map_err(|e| host_list_failure(e.into()))?;
    let name = args
        .name
        .clone()
        .unwrap_or_else(|| endpoint.host.trim_matches(['[', ']']).replace(':', "-"));
    host_list::validate_name(&name).map_err(host_list_failure)?;
    let hello = probe(&endpoint)?;
    if !args.json {
        output::stderr_line(&format!(
            "{} runs phux {} (protocol {})",
            endpoint.destination(),
            hello.version,
            hello.protocol
        ));
    }
    let role = match args.session {
        Some(_) => HostRole::Remote,
        None => HostRole::Satellite,
    };
    let entry = HostEntry {
        name,
        role,
        endpoint: endpoint.to_string(),
        enabled: (role == HostRole::Satellite).then_some(true),
        token_file: None,
        cert_fingerprint: None,
        session: args.session,
    };
    add_and_report(entry, args.json)
}

/// Runs `ssh … HOST phux proxy` and reads its hello.
fn probe(endpoint: &Endpoint) -> Result<ProxyHello, Failure> {
    let (program, mut args) = phux_core::hosts::ssh::ssh_program(Some(&config_path()));
    args.extend(endpoint.ssh_args(&["phux", "proxy"]));
    let unreachable = |why: String| {
        Failure::new(
            ErrorCode::Transport,
            format!("cannot enroll {}: {why}", endpoint.destination()),
            format!(
                "check that `{program} {}` logs in without a password prompt, and that \
                 `phux proxy` runs there (install phux on that host, on the PATH of a \
                 non-interactive ssh session)",
                endpoint.ssh_args(&[]).join(" ")
            ),
        )
    };
    let mut child = Command::new(&program)
        .args(&args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| unreachable(format!("cannot run {program}: {e}")))?;
    let mut stdout = child.stdout.take();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let read = stdout
            .as_mut()
            .map(link_frame::read_frame)
            .map(|r| r.map_err(|e| e.to_string()));
        let _ = tx.send(read);
    });
    let answer = rx.recv_timeout(PROBE_LIMIT);
    // Closing stdin ends the proxy; then collect what ssh said.
    drop(child.stdin.take());
    if answer.is_err() {
        let _ = child.kill();
    }
    let output = child.wait_with_output().ok();
    let said = output
        .map(|o| String::from_utf8_lossy(&o.stderr).trim().to_owned())
        .filter(|s| !s.is_empty())
        .map(|s| format!("; ssh said: {s}"))
        .unwrap_or_default();
    let hello = match answer {
        Ok(Some(Ok(LinkFrame::Data { channel, bytes }))) if channel == CONTROL_CHANNEL => {
            serde_json::from_slice::<ProxyHello>(&bytes).ok()
        }
        Err(_) => {
            return Err(unreachable(format!(
                "no answer within {}s{said}",
                PROBE_LIMIT.as_secs()
            )))
        }
        _ => None,
    };
    let Some(hello) = hello else {
        return Err(unreachable(format!(
            "`phux proxy` did not answer there{said}"
        )));
    };
    if hello.protocol.major != PROTOCOL.major {
        return Err(Failure::new(
            ErrorCode::ServerTooOld,
            format!(
                "{} runs phux {} (protocol {}); this phux speaks protocol {PROTOCOL}",
                endpoint.destination(),
                hello.version,
                hello.protocol
            ),
            format!(
                "install a phux of protocol {}.x on {}, then enroll it again",
                PROTOCOL.major,
                endpoint.destination()
            ),
        ));
    }
    let _ = std::io::stderr().flush();
    Ok(hello)
}
