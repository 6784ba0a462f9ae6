//! `phux host enroll 'https://HOST:PORT/#token=…' --fingerprint FP`: enrolls a host paired
//! with `phux pair` there. The token is kept in a 0600 file under the state directory, the link
//! is dialed once over wss (certificate pinned) to check that its server answers, and the host
//! is added with the token file and fingerprint in its entry.

use std::path::PathBuf;

use phux_core::error_code::ErrorCode;
use phux_core::hosts::{host_list, Endpoint, HostEntry, HostRole, WssAuth};

use super::{add_and_report, config_path, host_list_failure};
use crate::failure::{Failure, VerbResult};
use crate::output;

/// A connect link split: where the listener is and the token.
pub struct ConnectLink {
    pub endpoint: Endpoint,
    pub token: String,
}

/// `https://HOST:PORT/#token=T` (or `wss://…#token=T`); `None` when `text` is not one.
pub fn parse(text: &str) -> Option<Result<ConnectLink, Failure>> {
    let rest = text
        .strip_prefix("https://")
        .or_else(|| text.strip_prefix("wss://"))?;
    let bad = |why: &str| {
        Failure::new(
            ErrorCode::InvalidArgument,
            format!("{why}: the connect link is https://HOST:PORT/#token=TOKEN"),
            "copy connect_link from `phux pair --json` on that host",
        )
    };
    let Some((address, fragment)) = rest.split_once('#') else {
        return Some(Err(bad("it has no #token=")));
    };
    let Some(token) = fragment.strip_prefix("token=").filter(|t| !t.is_empty()) else {
        return Some(Err(bad("its fragment is not token=…")));
    };
    if !token.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Some(Err(bad("the token is not hex")));
    }
    let address = address.trim_end_matches('/');
    Some(
        Endpoint::parse(&format!("wss://{address}"))
            .map(|endpoint| ConnectLink {
                endpoint,
                token: token.to_owned(),
            })
            .map_err(|e| bad(&e.to_string())),
    )
}

pub fn execute(
    link: ConnectLink,
    name: Option<String>,
    fingerprint: Option<String>,
    json: bool,
) -> VerbResult {
    let fingerprint = fingerprint.ok_or_else(|| {
        Failure::new(
            ErrorCode::InvalidArgument,
            "a connect link is enrolled with the listener's certificate fingerprint",
            "add --fingerprint FP (cert_fingerprint from `phux pair --json` on that host)",
        )
    })?;
    let name = name.unwrap_or_else(|| {
        link.endpoint
            .host
            .trim_matches(['[', ']'])
            .replace(':', "-")
    });
    host_list::validate_name(&name).map_err(host_list_failure)?;
    let token_file = token_path(&name);
    phux_server::remote::private_file::write(&token_file, format!("{}\n", link.token).as_bytes())
        .map_err(|e| {
        Failure::new(
            ErrorCode::Registry,
            format!("cannot keep the token in {}: {e}", token_file.display()),
            "make the state directory writable by you",
        )
    })?;
    let auth = WssAuth {
        token_file: token_file.display().to_string(),
        fingerprint,
    };
    let checked = phux_core::hosts::link::dial(&link.endpoint, Some(&config_path()), Some(&auth));
    match checked {
        Ok((session, _stdout)) => session.end(),
        Err(e) => {
            let _ = std::fs::remove_file(&token_file);
            return Err(Failure::new(
                ErrorCode::Transport,
                format!("cannot enroll {}: {e}", link.endpoint),
                "check the link, the fingerprint, and that the host's server listens \
                 (`phux server --ws-addr HOST:PORT` there)",
            ));
        }
    }
    if !json {
        output::stderr_line(&format!("{} answered over wss", link.endpoint));
    }
    add_and_report(
        HostEntry {
            name,
            role: HostRole::Satellite,
            endpoint: link.endpoint.to_string(),
            enabled: Some(true),
            token_file: Some(auth.token_file),
            cert_fingerprint: Some(auth.fingerprint),
            session: None,
        },
        json,
    )
}

/// `<state>/hosts/NAME.token`.
fn token_path(name: &str) -> PathBuf {
    phux_core::config::paths::state_dir()
        .join("hosts")
        .join(format!("{name}.token"))
}
