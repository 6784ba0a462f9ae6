//! `doctor`'s operation: checks what phux needs (the engine, the socket directory, the server,
//! the config file, the plugins, shell integration, git and ssh) as one DoctorJson document.

use std::path::Path;
use std::process::Command;

use phux_core::documents::{
    CheckStatus, DoctorCheck, DoctorJson, StatusJson, DOCTOR_SCHEMA_VERSION,
};

use crate::listing;
use crate::registry;
use crate::Context;

/// Every check, as the DoctorJson document (the `phux_doctor` tool's result too).
pub fn document(context: &Context) -> DoctorJson {
    // Asked once: the server check and the listener check read the same answer.
    let status = listing::status(&context.socket).ok().filter(|s| s.running);
    let checks = vec![
        engine(),
        socket_dir(&context.socket),
        server(&context.socket, status.as_ref()),
        config(),
        plugins(),
        shell_integration(),
        tool(
            "git",
            &["--version"],
            CheckStatus::Warn,
            "install git: `workspace inspect` and `plugin install` from git need it",
        ),
        tool(
            "ssh",
            &["-V"],
            CheckStatus::Warn,
            "install OpenSSH's client to reach remote hosts",
        ),
        remote_listener(status.as_ref()),
        emoji_font(),
        super::doctor_web::web_assets(),
    ];
    let failed = checks
        .iter()
        .filter(|c| c.status == CheckStatus::Fail)
        .count() as u32;
    DoctorJson {
        schema_version: DOCTOR_SCHEMA_VERSION,
        ok: failed == 0,
        failed,
        checks,
    }
}

fn check(name: &str, status: CheckStatus, detail: String, hint: Option<String>) -> DoctorCheck {
    DoctorCheck {
        name: name.into(),
        status,
        detail,
        hint: if status == CheckStatus::Pass {
            None
        } else {
            hint
        },
    }
}

fn engine() -> DoctorCheck {
    let config = phux_core::engine::LoaderConfig::from_env();
    match phux_core::engine::load_existing(&config) {
        Ok(engine) => check(
            "engine",
            CheckStatus::Pass,
            match engine.info().library_version {
                Some(version) => format!("libghostty-vt {version} loaded"),
                None => "libghostty-vt loaded".into(),
            },
            None,
        ),
        Err(e) => check("engine", CheckStatus::Fail, e.to_string(), Some(e.remedy())),
    }
}

fn socket_dir(socket: &Path) -> DoctorCheck {
    use std::os::unix::fs::PermissionsExt;
    let Some(dir) = socket.parent() else {
        return check(
            "socket directory",
            CheckStatus::Fail,
            "the socket path has no directory".into(),
            None,
        );
    };
    match std::fs::metadata(dir) {
        Err(_) => check(
            "socket directory",
            CheckStatus::Pass,
            format!(
                "{} does not exist yet (created 0700 by the first server)",
                dir.display()
            ),
            None,
        ),
        Ok(meta) if meta.permissions().mode() & 0o077 != 0 => check(
            "socket directory",
            CheckStatus::Fail,
            format!(
                "{} is open to others (mode {:o})",
                dir.display(),
                meta.permissions().mode() & 0o777
            ),
            Some(format!("chmod 700 {}", dir.display())),
        ),
        Ok(_) => check(
            "socket directory",
            CheckStatus::Pass,
            format!("{} (0700)", dir.display()),
            None,
        ),
    }
}

fn server(socket: &Path, status: Option<&StatusJson>) -> DoctorCheck {
    match status {
        Some(status) => check(
            "server",
            CheckStatus::Pass,
            match status.pid {
                Some(pid) => format!("running (pid {pid}, {} session(s))", status.sessions.len()),
                None => format!("running ({} session(s))", status.sessions.len()),
            },
            None,
        ),
        None => check(
            "server",
            CheckStatus::Warn,
            format!("no server at {}", socket.display()),
            Some("`phux` or `phux new` starts one".into()),
        ),
    }
}

fn config() -> DoctorCheck {
    match registry::load_config() {
        Ok(loaded) if !loaded.exists => check(
            "config",
            CheckStatus::Pass,
            format!("{} absent: built-in defaults", loaded.path.display()),
            None,
        ),
        Ok(loaded) if !loaded.warnings.is_empty() => check(
            "config",
            CheckStatus::Warn,
            loaded
                .warnings
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; "),
            Some("`phux config check` lists them".into()),
        ),
        Ok(loaded) => check(
            "config",
            CheckStatus::Pass,
            loaded.path.display().to_string(),
            None,
        ),
        Err(e) => {
            use phux_core::error_doc::ContractError;
            check("config", CheckStatus::Fail, e.to_string(), Some(e.remedy()))
        }
    }
}

/// The remote listener: the running server's own (or, with no server, the configured one):
/// off, loopback only, or open to other machines (the user's explicit choice, but one to be
/// reminded of).
fn remote_listener(status: Option<&StatusJson>) -> DoctorCheck {
    use super::listen::ListenerWhere;
    let place = super::listen::listener_of(status);
    let (addr, detail) = match &place {
        ListenerWhere::Running {
            addr,
            fingerprint,
            admitted,
        } => (
            addr.clone(),
            format!(
                "the running server listens on {addr} (certificate {fingerprint}, {} admitted \
                 connection(s))",
                admitted.unwrap_or(0)
            ),
        ),
        ListenerWhere::RunningWithout { configured } => {
            let remedy = place.remedy();
            let message = match configured {
                Some(addr) => format!(
                    "the running server does not listen ({addr} is configured for servers started \
                     from now on)"
                ),
                None => "the running server does not listen; no listener configured".into(),
            };
            return check("remote", CheckStatus::Pass, message, remedy);
        }
        ListenerWhere::NotRunning {
            configured: Some(addr),
        } => (
            addr.clone(),
            format!("a server started now listens on {addr}"),
        ),
        ListenerWhere::NotRunning { configured: None } => {
            return check(
                "remote",
                CheckStatus::Pass,
                "no remote listener configured (PHUX_WS_ADDR, [listener] ws_addr, `phux listen`)"
                    .into(),
                None,
            );
        }
    };
    let host = addr.rsplit_once(':').map(|(h, _)| h).unwrap_or(&addr);
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let loopback = host == "localhost"
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback());
    if loopback {
        return check(
            "remote",
            CheckStatus::Pass,
            format!("{detail}: this machine only"),
            None,
        );
    }
    check(
        "remote",
        CheckStatus::Warn,
        format!("{detail}: other machines can reach it (only paired tokens are admitted)"),
        Some(
            "bind an overlay or loopback address (e.g. 100.64.0.2:8787 or 127.0.0.1:8787) \
             unless every network that reaches this one is yours; `phux pair list` shows who \
             holds a token"
                .into(),
        ),
    )
}

fn plugins() -> DoctorCheck {
    use phux_core::error_doc::ContractError;
    let result = registry::load_config().and_then(|c| registry::plugins(&c));
    match result {
        Ok(plugins) => {
            let enabled = plugins.iter().filter(|p| p.entry.enabled).count();
            let warnings: Vec<String> = plugins
                .iter()
                .flat_map(registry::Plugin::warnings)
                .map(|w| registry::warning_line(&w))
                .collect();
            if !warnings.is_empty() {
                // Unknown keys are ignored, not refused: a warning, with where each one is.
                return check(
                    "plugins",
                    CheckStatus::Warn,
                    format!(
                        "{} registered, {enabled} enabled, every manifest valid; ignored: {}",
                        plugins.len(),
                        warnings.join("; ")
                    ),
                    Some("remove or correct the keys phux does not know (`phux plugin validate` lists them)".into()),
                );
            }
            check(
                "plugins",
                CheckStatus::Pass,
                format!(
                    "{} registered, {enabled} enabled, every manifest valid",
                    plugins.len()
                ),
                None,
            )
        }
        Err(e) => check(
            "plugins",
            CheckStatus::Fail,
            e.to_string(),
            Some(e.remedy()),
        ),
    }
}

fn shell_integration() -> DoctorCheck {
    let shell = phux_core::config::defaults::default_shell();
    let name = Path::new(&shell)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if matches!(name.as_str(), "bash" | "zsh" | "fish") {
        check(
            "shell integration",
            CheckStatus::Pass,
            format!("{shell}: prompt marks injected"),
            None,
        )
    } else {
        check(
            "shell integration",
            CheckStatus::Warn,
            format!("{shell}: no automatic prompt marks (bash, zsh and fish have them)"),
            Some("`run` and `wait` fall back to screen heuristics; set [defaults] shell to bash, zsh or fish".into()),
        )
    }
}

fn tool(name: &str, args: &[&str], missing: CheckStatus, hint: &str) -> DoctorCheck {
    match Command::new(name).args(args).output() {
        Ok(out) => {
            let text = if out.stdout.is_empty() {
                out.stderr
            } else {
                out.stdout
            };
            let first = String::from_utf8_lossy(&text)
                .lines()
                .next()
                .unwrap_or_default()
                .to_string();
            check(name, CheckStatus::Pass, first, None)
        }
        Err(_) => check(
            name,
            missing,
            format!("{name} not found on PATH"),
            Some(hint.into()),
        ),
    }
}

/// A colour emoji font, for emoji in rendered GIFs, PNGs and SVGs: without one they are
/// one-colour outlines.
fn emoji_font() -> DoctorCheck {
    match phux_encoders::font::color_emoji::installed_font() {
        Some(path) => check(
            "emoji font",
            CheckStatus::Pass,
            format!("colour emoji from {}", path.display()),
            None,
        ),
        None => check(
            "emoji font",
            CheckStatus::Warn,
            "no colour emoji font: rendered emoji are one-colour outlines".into(),
            Some(
                "install one: Debian/Ubuntu `fonts-noto-color-emoji`, Fedora `google-noto-color-emoji-fonts`, Arch `noto-fonts-emoji`"
                    .into(),
            ),
        ),
    }
}
