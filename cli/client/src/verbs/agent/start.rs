//! `agent start`'s operation: launches a recognised agent in a pane whose foreground is an idle
//! shell (`target_not_shell` otherwise, a shell running a script included): declares the
//! record, types the launch command, and waits until the server has identified the agent and
//! derived its first state (`agent_start_timeout`, 124). Refused before anything is typed: a
//! name another pane's record holds (`agent_name_conflict`), and a wait on a server without
//! detection (`agent_detection_unavailable`).

use std::time::{Duration, Instant};

use phux_core::agents::ManifestSet;
use phux_core::documents::{AgentStartJson, StartReadiness};
use phux_core::error_code::ErrorCode;
use phux_core::ids::{PaneId, TerminalAddr};

use crate::agents::{self, inspect, inspect_server, Declaration};
use crate::failure::Failure;
use crate::pane::{operation_id, send_keys};
use crate::registry::integrations::{self, Available, Prepared};
use crate::run_shell::{script_in_foreground, shell_state};
use crate::target;
use crate::values::{connect, resolve_agent_pane};
use crate::Context;

/// Shells a launch command may be typed into.
const SHELLS: [&str; 6] = ["bash", "zsh", "sh", "dash", "fish", "ksh"];
/// How often readiness is re-read.
const READY_POLL: Duration = Duration::from_millis(50);

/// Launch a recognised agent in a pane's shell and wait until phux sees it
#[derive(Debug, Clone)]
pub struct AgentStartOptions {
    /// The agent's name (`^[a-z][a-z0-9_-]{0,31}$`)
    pub name: String,
    /// The agent's kind: a detection manifest (claude, codex, opencode, pi, omp)
    pub kind: String,
    /// The pane whose shell starts it
    pub target: String,
    /// Give up waiting for readiness after SECS seconds (exit 124) [default: 30]
    pub timeout: Option<Duration>,
    /// Return once the command is typed
    pub no_wait: bool,
    /// Launch through this plugin integration (when several enabled ones claim the kind)
    pub integration: Option<String>,
    /// Arguments for the agent
    pub args: Vec<String>,
}

fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && name.len() <= 32
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-')
}

/// `word` quoted for a POSIX shell.
fn quoted(word: &str) -> String {
    if !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:@%+,".contains(c))
    {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// Types the agent's launch line into a pane at a shell prompt and (unless `--no-wait`) waits
/// until it is recognised; returns what `--json` prints.
pub fn document(args: AgentStartOptions, context: &Context) -> Result<AgentStartJson, Failure> {
    if !valid_name(&args.name) {
        return Err(Failure::new(
            ErrorCode::InvalidAgentName,
            format!("{:?} is not a valid agent name", args.name),
            "use a lowercase letter, then up to 31 lowercase letters, digits, _ or -",
        ));
    }
    if let Some(bad) = args.args.iter().find(|a| a.chars().any(char::is_control)) {
        return Err(Failure::new(
            ErrorCode::InvalidLaunchArgv,
            format!("the launch argument {bad:?} holds a control character (a line break, an escape), so it cannot be typed as one command line; nothing was typed"),
            "pass arguments without control characters (put a multi-line prompt in a file the agent reads)",
        ));
    }
    let (set, _) = phux_core::agents::rules_dir::load();
    let manifest = set
        .get(&args.kind)
        .ok_or_else(|| unsupported(&args.kind, &set))?;
    let program = manifest
        .binaries
        .first()
        .cloned()
        .unwrap_or_else(|| args.kind.clone());
    // An enabled plugin integration that claims the kind launches it its own way.
    let integration = claiming_integration(&args.kind, args.integration.as_deref())?;
    let launch = match &integration {
        Some(prepared) => prepared.argv.clone(),
        None => vec![program],
    };
    let selector = target::parse(&args.target)?;
    let mut client = connect(context)?;
    let pane = resolve_agent_pane(&mut client, &selector, "agent start")?;
    let server = inspect_server(&mut client, Vec::new())?;
    if let Some(holder) = (server.panes.iter())
        .find(|r| r.pane != pane && r.record.as_ref().is_some_and(|a| a.name == args.name))
    {
        return Err(Failure::new(
            ErrorCode::AgentNameConflict,
            format!(
                "the agent name {:?} is already held by {}; nothing was typed",
                args.name, holder.pane
            ),
            format!(
                "choose another name, or clear that record first (`phux agent clear {}`)",
                holder.pane
            ),
        ));
    }
    if server.detection_off && !args.no_wait {
        return Err(Failure::new(
            ErrorCode::AgentDetectionUnavailable,
            "the server runs without agent detection (PHUX_AGENT_DETECT=0), so it could never see the agent start; nothing was typed",
            "restart the server without PHUX_AGENT_DETECT=0, or pass --no-wait to type the launch line without waiting",
        ));
    }
    let Some(report) = server.panes.into_iter().find(|r| r.pane == pane) else {
        return Err(Failure::new(
            ErrorCode::NoSuchTarget,
            format!("no such target: {pane}; nothing was typed"),
            "list what exists with `phux ls --json`",
        ));
    };
    let foreground = (report.occupant.as_ref())
        .and_then(|o| o.names.first().cloned())
        .unwrap_or_default();
    if !SHELLS.contains(&foreground.as_str()) {
        return Err(not_idle_shell(
            pane,
            &format!("runs {foreground:?} in its foreground"),
        ));
    }
    // A shell running a script, or a marked shell between a command's start and end, is busy.
    let shell = shell_state(&mut client, pane, None)?;
    if let Some(script) = script_in_foreground(&shell) {
        let running = format!("is running a {} script (pid {})", script.name, script.pid);
        return Err(not_idle_shell(pane, &running));
    }
    if shell.marked && shell.running {
        return Err(not_idle_shell(pane, "has a command running in its shell"));
    }
    agents::set(
        &mut client,
        pane,
        Declaration {
            name: args.name.clone(),
            kind: Some(args.kind.clone()),
            state: None,
            attention: None,
            session: None,
        },
    )?;
    let line: Vec<String> = (launch.into_iter())
        .chain(args.args)
        .map(|w| quoted(&w))
        .collect();
    let started = Instant::now();
    send_keys(
        &mut client,
        pane,
        vec![line.join(" "), "Enter".into()],
        &operation_id(),
    )?;
    let mut document = AgentStartJson {
        schema_version: 1,
        terminal: TerminalAddr::local(pane),
        name: args.name,
        kind: args.kind.clone(),
        integration: integration.map(|p| p.integration_id),
        started: true,
        ready: false,
        state: None,
        shell_check: "passed".into(),
        readiness: None,
    };
    if !args.no_wait {
        let limit = args.timeout.unwrap_or(Duration::from_secs(30));
        let mut observations = 0;
        loop {
            observations += 1;
            let report = inspect(&mut client, vec![pane])?.into_iter().next();
            let other = (report.as_ref())
                .and_then(|r| r.occupant.as_ref())
                .and_then(|o| o.kind.clone().map(|kind| (kind, o.names.first().cloned())))
                .filter(|(kind, _)| *kind != args.kind);
            if let Some((kind, name)) = other {
                return Err(Failure::new(
                    ErrorCode::AgentKindMismatch,
                    format!(
                        "{pane} came up running {} ({kind}), not the {} that was asked for",
                        name.unwrap_or_default(),
                        args.kind
                    ),
                    format!(
                        "check what `{}` runs on the pane's PATH; the launch command was typed",
                        args.kind
                    ),
                ));
            }
            let seen = report.as_ref().and_then(|r| {
                let occupant = r
                    .occupant
                    .as_ref()
                    .filter(|o| o.kind.as_deref() == Some(args.kind.as_str()))?;
                let detection = r.detection.as_ref()?;
                Some((
                    occupant.names.first().cloned().unwrap_or_default(),
                    detection.state,
                    r.state,
                ))
            });
            if let Some((identity, derived, state)) = seen {
                document.ready = true;
                document.state = state;
                document.readiness = Some(StartReadiness {
                    identity,
                    transition: format!("none -> {derived}"),
                    detector: "screen".into(),
                    latency_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
                    observations,
                });
                break;
            }
            if started.elapsed() >= limit {
                return Err(Failure::new(
                    ErrorCode::AgentStartTimeout,
                    format!("{pane}: {} did not come up within {}s (the launch command was typed)", args.kind, limit.as_secs_f64()),
                    format!("look at the pane with `phux snapshot {pane}`; raise --timeout for a slow start"),
                ));
            }
            std::thread::sleep(READY_POLL);
        }
    }
    Ok(document)
}

fn unsupported(kind: &str, set: &ManifestSet) -> Failure {
    Failure::new(
        ErrorCode::UnsupportedAgentKind,
        format!("phux cannot start or recognise an agent of kind {kind:?}"),
        format!("pass --kind with one of: {}", set.kinds().join(", ")),
    )
}

/// `target_not_shell`: the launch line would land in something other than a shell prompt.
fn not_idle_shell(pane: PaneId, what: &str) -> Failure {
    Failure::new(
        ErrorCode::TargetNotShell,
        format!("{pane} {what}, not an idle shell; nothing was typed"),
        "pick a pane at a shell prompt, or open one with `phux spawn`",
    )
}

/// The enabled plugin integration that claims `kind`, when one does (`--integration ID`
/// chooses among several, and must name one that claims it). A config that cannot be read
/// claims nothing: the agent starts by its own name.
fn claiming_integration(kind: &str, chosen: Option<&str>) -> Result<Option<Prepared>, Failure> {
    let available = crate::registry::registered()
        .and_then(|plugins| integrations::available(&plugins))
        .unwrap_or_default();
    let claimants: Vec<_> = (available.iter())
        .filter(|a| a.agent_kind().as_deref() == Some(kind))
        .collect();
    let named = |a: &&Available| a.label();
    // Only the one launched is prepared (a fresh session id is made for it).
    let workspace = std::env::current_dir().unwrap_or_else(|_| "/".into());
    let prepare = |a: &Available| a.prepare(&workspace, None);
    if let Some(id) = chosen {
        let found = claimants.iter().find(|a| a.integration.id == id);
        return found.map(|a| Some(prepare(a))).ok_or_else(|| {
            let remedy = if claimants.is_empty() {
                format!(
                    "no enabled integration claims {kind:?}: drop --integration to start it by its own name, or enable one (`phux plugin ls`)"
                )
            } else {
                format!(
                    "choose one of: {}",
                    claimants.iter().map(named).collect::<Vec<_>>().join(", ")
                )
            };
            Failure::new(
                ErrorCode::AmbiguousIntegration,
                format!("no enabled integration {id:?} claims the kind {kind:?}; nothing was typed"),
                remedy,
            )
        });
    }
    match claimants.as_slice() {
        [] => Ok(None),
        [one] => Ok(Some(prepare(one))),
        several => Err(Failure::new(
            ErrorCode::AmbiguousIntegration,
            format!(
                "several enabled integrations claim the kind {kind:?}: {}; nothing was typed",
                several.iter().map(named).collect::<Vec<_>>().join(", ")
            ),
            "choose one with --integration ID",
        )),
    }
}
