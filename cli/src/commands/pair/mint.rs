//! `phux pair`: a new credential and its one-time token, with what a device needs to dial.

use std::path::PathBuf;

use phux_client::verbs::listen::ListenerWhere;
use phux_core::error_code::ErrorCode;
use phux_core::exit_code::SUCCESS;
use phux_server::remote::cert::{self, CertPaths};
use phux_server::remote::tokens::{Store, DEFAULT_LIFETIME_SECS};
use serde::Serialize;

use crate::failure::{conclude, Failure, VerbResult};
use crate::output;

#[derive(Debug, clap::Args)]
pub struct Flags {
    /// The token store [default: $PHUX_WS_TOKENS, else ~/.local/state/phux/remote-tokens]
    #[arg(long, value_name = "PATH")]
    pub tokens: Option<PathBuf>,
    /// The listener's certificate (PEM; its key beside it as .key or $PHUX_WS_TLS_KEY)
    /// [default: $PHUX_WS_TLS_CERT, else a self-signed one made beside the token store]
    #[arg(long, value_name = "PEM")]
    pub cert: Option<PathBuf>,
    /// The address devices dial, for the connect link [default: an overlay address of this
    /// machine with the listener's port]
    #[arg(long, value_name = "HOST:PORT|URL")]
    pub host: Option<String>,
    /// Also draw the connect link as a QR code (for a phone's camera)
    #[arg(long)]
    pub qr: bool,
    /// A name for the device, shown by `pair list`
    #[arg(long)]
    pub name: Option<String>,
    /// The credential may watch but not type or change anything
    #[arg(long)]
    pub read_only: bool,
    /// Days until the credential expires (rotation never extends it)
    #[arg(long, value_name = "DAYS", default_value_t = DEFAULT_LIFETIME_SECS / 86_400,
          value_parser = clap::value_parser!(u64).range(1..=3650))]
    pub expires_in: u64,
    /// Print {schema_version, credential_id, generation, token, cert_fingerprint,
    /// overlay_addresses, ws_addr, quic_addr, connect_link, tokens_path}
    #[arg(long)]
    pub json: bool,
}

/// §4.18's document.
#[derive(Debug, Serialize)]
struct Paired {
    schema_version: u32,
    credential_id: String,
    generation: u32,
    token: String,
    cert_fingerprint: String,
    overlay_addresses: Vec<String>,
    ws_addr: Option<String>,
    quic_addr: Option<String>,
    connect_link: Option<String>,
    tokens_path: String,
}

pub fn run(args: Flags, context: &crate::commands::Context) -> i32 {
    conclude(args.json, execute(args, context))
}

fn execute(args: Flags, context: &crate::commands::Context) -> VerbResult {
    let path = super::store_path(args.tokens.clone());
    let dir = path
        .parent()
        .map(|p| p.to_path_buf())
        .unwrap_or_else(|| PathBuf::from("."));
    // The running server's listener (from the file it keeps beside its socket: `pair` never
    // contacts a server); else what a server started now would bind.
    let listener = phux_client::verbs::listen::listener_recorded(&context.socket);
    let ws_addr = listener.addr();
    let overlay = phux_server::remote::overlay::addresses();
    // Everything that can fail is checked before a token exists.
    let link_base = link_base(args.host.as_deref(), ws_addr.as_deref(), &overlay)?;
    let identity =
        cert::load_or_make(&CertPaths::resolve(&dir, args.cert.as_deref())).map_err(|e| {
            Failure::new(
                ErrorCode::Registry,
                e.to_string(),
                "give a PEM certificate and key (--cert, PHUX_WS_TLS_CERT/PHUX_WS_TLS_KEY), or \
                 remove the broken pair beside the token store so a new one is made",
            )
        })?;
    // Minted and saved under the store's lock: the token is printed only once it is stored.
    let minted = Store::update(&path, |store| {
        store.mint(
            &path,
            args.name.clone(),
            args.read_only,
            args.expires_in * 86_400,
        )
    })
    .map_err(super::store_failure)?;
    let document = Paired {
        schema_version: 1,
        connect_link: link_base.map(|base| format!("{base}/#token={}", minted.token)),
        credential_id: minted.credential_id,
        generation: minted.generation,
        token: minted.token,
        // The certificate the running listener presents (it may have been made elsewhere).
        cert_fingerprint: match &listener {
            ListenerWhere::Running { fingerprint, .. } => fingerprint.clone(),
            _ => identity.fingerprint(),
        },
        overlay_addresses: overlay,
        ws_addr,
        quic_addr: None,
        tokens_path: path.display().to_string(),
    };
    if args.json {
        output::print_json(&document);
    } else {
        let mut lines = vec![
            format!(
                "paired credential {} (generation 1{})",
                document.credential_id,
                if args.read_only { ", read-only" } else { "" }
            ),
            format!("token (shown once):   {}", document.token),
            format!("certificate:          {}", document.cert_fingerprint),
        ];
        match &document.connect_link {
            Some(link) => {
                lines.push(format!("open in a browser:    {link}"));
                if args.qr {
                    lines.extend(qr_lines(link));
                }
            }
            None => lines.push(
                "no connect link: give --host HOST:PORT (the address devices dial); an overlay \
                 address is used only when the listener binds 0.0.0.0 or that address"
                    .to_owned(),
            ),
        }
        if let Some(remedy) = listener.remedy() {
            lines.push(remedy);
        }
        output::print_lines(&lines);
    }
    Ok(SUCCESS)
}

/// `text` as a QR code in half-block characters (two modules per character cell), with the
/// quiet zone the standard asks for, dark modules drawn in the terminal's background colour.
fn qr_lines(text: &str) -> Vec<String> {
    let Ok(code) = qrcode::QrCode::new(text.as_bytes()) else {
        return vec!["(the link is too long for a QR code)".to_owned()];
    };
    let width = code.width();
    let colors = code.to_colors();
    let quiet = 2usize;
    let dark = |x: isize, y: isize| {
        x >= 0
            && y >= 0
            && (x as usize) < width
            && (y as usize) < width
            && colors[y as usize * width + x as usize] == qrcode::Color::Dark
    };
    let span = width as isize + 2 * quiet as isize;
    let mut lines = Vec::new();
    let mut y = -(quiet as isize);
    while y < width as isize + quiet as isize {
        let mut line = String::new();
        for x in 0..span {
            let x = x - quiet as isize;
            // Light modules are drawn (white on a dark terminal reads as the paper).
            line.push(match (!dark(x, y), !dark(x, y + 1)) {
                (true, true) => '█',
                (true, false) => '▀',
                (false, true) => '▄',
                (false, false) => ' ',
            });
        }
        lines.push(line);
        y += 2;
    }
    lines
}

/// `https://HOST:PORT` for the connect link: `--host`, else the first overlay address the
/// listener listens on, with its port; `None` when neither is known.
fn link_base(
    host: Option<&str>,
    ws_addr: Option<&str>,
    overlay: &[String],
) -> Result<Option<String>, Failure> {
    let port = ws_addr
        .and_then(|a| a.rsplit_once(':'))
        .map(|(_, p)| p.to_owned());
    if let Some(host) = host {
        let bare = host
            .strip_prefix("https://")
            .or_else(|| host.strip_prefix("wss://"))
            .unwrap_or(host)
            .trim_end_matches('/');
        let valid =
            !bare.is_empty() && !bare.contains(['/', '?', '#', '@', ' ']) && !bare.starts_with('-');
        if !valid {
            return Err(Failure::new(
                ErrorCode::InvalidArgument,
                format!("--host {host:?} is not HOST:PORT or https://HOST:PORT"),
                "give the address devices dial, e.g. --host 100.64.0.2:8787",
            ));
        }
        let has_port = bare
            .rsplit_once(':')
            .is_some_and(|(_, p)| p.parse::<u16>().is_ok() && !bare.ends_with(']'));
        return Ok(match (has_port, port) {
            (true, _) => Some(format!("https://{bare}")),
            (false, Some(port)) => Some(format!("https://{bare}:{port}")),
            (false, None) => Some(format!("https://{bare}")),
        });
    }
    // An overlay address serves only when the listener listens there: on every address
    // (0.0.0.0, [::]) or on that one. A listener bound to 127.0.0.1 is not reached through
    // the overlay, and a link that cannot connect is worse than none.
    let bind_host = ws_addr
        .and_then(|a| a.rsplit_once(':'))
        .map(|(host, _)| host.trim_start_matches('[').trim_end_matches(']'));
    let reachable = |address: &&String| match bind_host {
        Some("0.0.0.0" | "::" | "") => true,
        Some(host) => host == address.as_str(),
        None => false,
    };
    Ok(match (overlay.iter().find(reachable), port) {
        (Some(address), Some(port)) => Some(format!("https://{address}:{port}")),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::link_base;

    #[test]
    fn an_overlay_address_makes_a_link_only_where_the_listener_listens() {
        let overlay = vec!["100.64.0.2".to_owned()];
        let link = |bind: &str| link_base(None, Some(bind), &overlay).unwrap();
        assert_eq!(
            link("0.0.0.0:8787").as_deref(),
            Some("https://100.64.0.2:8787")
        );
        assert_eq!(
            link("[::]:8787").as_deref(),
            Some("https://100.64.0.2:8787")
        );
        assert_eq!(
            link("100.64.0.2:8787").as_deref(),
            Some("https://100.64.0.2:8787")
        );
        assert_eq!(
            link("127.0.0.1:8787"),
            None,
            "loopback is not reached over the overlay"
        );
        assert_eq!(
            link_base(None, None, &overlay).unwrap(),
            None,
            "no port known"
        );
        let host = link_base(Some("h.example:9"), Some("127.0.0.1:8787"), &overlay).unwrap();
        assert_eq!(
            host.as_deref(),
            Some("https://h.example:9"),
            "--host is taken as given"
        );
    }
}
