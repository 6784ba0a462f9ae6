//! `phux host enroll --link-file - --fingerprint FP < link`: enrolls a host paired with `phux
//! pair` there. The link (it holds a token) is read from stdin or a file, never argv. It is
//! dialed once over wss (certificate pinned) to check that its server answers; only then is
//! the token kept in a 0600 file under the state directory and the host added with the token
//! file and fingerprint in its entry. A failed enroll leaves nothing behind.

use std::path::PathBuf;

use phux_core::error_code::ErrorCode;
use phux_core::hosts::{host_list, Endpoint, HostEntry, HostRole, WssAuth};

use super::{add_and_report, host_list_failure};
use crate::failure::{Failure, VerbResult};
use crate::output;

/// The longest connect link read (a link is about a hundred bytes).
const MAX_LINK_BYTES: u64 = 4096;

/// The connect link in `source` (`-`: stdin), trimmed; read with a bound.
pub fn read_link(source: &std::path::Path) -> Result<String, Failure> {
    use std::io::Read;
    let unreadable = |why: String| {
        Failure::new(
            ErrorCode::InvalidArgument,
            format!(
                "cannot read the connect link from {}: {why}",
                source.display()
            ),
            "give a file holding connect_link from `phux pair --json` there, or - for stdin",
        )
    };
    let mut bytes = Vec::new();
    let read = if source.as_os_str() == "-" {
        std::io::stdin()
            .take(MAX_LINK_BYTES + 1)
            .read_to_end(&mut bytes)
    } else {
        std::fs::File::open(source).and_then(|f| f.take(MAX_LINK_BYTES + 1).read_to_end(&mut bytes))
    };
    read.map_err(|e| unreadable(e.to_string()))?;
    if bytes.len() as u64 > MAX_LINK_BYTES {
        return Err(unreadable(format!("more than {MAX_LINK_BYTES} bytes")));
    }
    let text = String::from_utf8(bytes).map_err(|_| unreadable("not UTF-8".into()))?;
    Ok(text.trim().to_owned())
}

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
    // Dialed with the token in memory: nothing is written unless the far side answers.
    let first =
        phux_server::remote::dial::first_link_bytes(&link.endpoint, &link.token, &fingerprint)
            .map_err(|e| unreachable(&link, e))?;
    check_hello(&link, &first)?;
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
    if !json {
        output::stderr_line(&format!("{} answered over wss", link.endpoint));
    }
    let added = add_and_report(
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
    );
    if added.is_err() {
        let _ = std::fs::remove_file(&token_file);
    }
    added
}

fn unreachable(link: &ConnectLink, why: String) -> Failure {
    Failure::new(
        ErrorCode::Transport,
        format!("cannot enroll {}: {why}", link.endpoint),
        "check the link, the fingerprint, and that the host's server listens \
         (`phux server --ws-addr HOST:PORT` there)",
    )
}

/// The far side's first bytes are its proxy hello, of this phux's protocol.
fn check_hello(link: &ConnectLink, first: &[u8]) -> Result<(), Failure> {
    use phux_core::hosts::link_frame::{self, LinkFrame, ProxyHello, CONTROL_CHANNEL};
    let hello = match link_frame::decode(first) {
        Ok(Some((LinkFrame::Data { channel, bytes }, _))) if channel == CONTROL_CHANNEL => {
            serde_json::from_slice::<ProxyHello>(&bytes).ok()
        }
        _ => None,
    };
    let Some(hello) = hello else {
        return Err(unreachable(
            link,
            "its first message is not a proxy hello".into(),
        ));
    };
    if hello.protocol.major != phux_core::wire::PROTOCOL.major {
        return Err(Failure::new(
            ErrorCode::ServerTooOld,
            format!(
                "{} runs phux {} (protocol {}); this phux speaks protocol {}",
                link.endpoint,
                hello.version,
                hello.protocol,
                phux_core::wire::PROTOCOL
            ),
            "install a phux of the same protocol there, then enroll it again",
        ));
    }
    Ok(())
}

/// `<state>/hosts/NAME.token`.
fn token_path(name: &str) -> PathBuf {
    phux_core::config::paths::state_dir()
        .join("hosts")
        .join(format!("{name}.token"))
}
