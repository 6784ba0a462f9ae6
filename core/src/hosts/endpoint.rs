//! `ssh://[user@]host[:port]` or `wss://host[:port]`, parsed strictly: every part ends up in an
//! ssh argv or a dialer's, so nothing may read as an option (`-oProxyCommand=…`), carry a shell
//! metacharacter or smuggle a second argument. A `wss://` host is reached through its remote
//! listener (`phux pair`) instead of ssh.

use std::fmt;

/// A satellite's or remote host's address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoint {
    pub scheme: Scheme,
    pub user: Option<String>,
    pub host: String,
    pub port: Option<u16>,
}

/// How a host is reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheme {
    /// `ssh … phux proxy` (the default).
    Ssh,
    /// The host's TLS WebSocket listener, its certificate pinned.
    Wss,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid endpoint {text:?}: {reason}")]
pub struct EndpointError {
    pub text: String,
    pub reason: &'static str,
}

impl Endpoint {
    pub fn parse(text: &str) -> Result<Endpoint, EndpointError> {
        let fail = |reason| EndpointError {
            text: text.to_owned(),
            reason,
        };
        let (scheme, rest) = match (text.strip_prefix("ssh://"), text.strip_prefix("wss://")) {
            (Some(rest), _) => (Scheme::Ssh, rest),
            (None, Some(rest)) => (Scheme::Wss, rest),
            (None, None) => return Err(fail("it must start with ssh:// or wss://")),
        };
        if rest.contains('/') || rest.contains('?') || rest.contains('#') {
            return Err(fail("it names a host only: no path, query or fragment"));
        }
        let (user, host_port) = match rest.split_once('@') {
            Some((user, rest)) => (Some(user), rest),
            None => (None, rest),
        };
        if user.is_some() && scheme == Scheme::Wss {
            return Err(fail(
                "a wss:// host has no user: its token says who you are",
            ));
        }
        if let Some(user) = user {
            if !is_word(user) {
                return Err(fail(
                    "the user is letters, digits, '.', '_' and '-', not starting with '-'",
                ));
            }
        }
        let (host, port) = split_port(host_port).map_err(fail)?;
        if !is_host(host) {
            return Err(fail(
                "the host is a name or address of letters, digits, '.', '-' (or [IPv6]), \
                 not starting with '-'",
            ));
        }
        Ok(Endpoint {
            scheme,
            user: user.map(str::to_owned),
            host: host.to_owned(),
            port,
        })
    }

    /// `[user@]host`, the destination argument of ssh.
    pub fn destination(&self) -> String {
        let host = self.host.trim_start_matches('[').trim_end_matches(']');
        match &self.user {
            Some(user) => format!("{user}@{host}"),
            None => host.to_owned(),
        }
    }

    /// The ssh arguments reaching this host and running `remote` there:
    /// `-T -o BatchMode=yes [-p PORT] [USER@]HOST REMOTE...`.
    pub fn ssh_args(&self, remote: &[&str]) -> Vec<String> {
        let mut args = vec!["-T".to_owned(), "-o".to_owned(), "BatchMode=yes".to_owned()];
        if let Some(port) = self.port {
            args.push("-p".to_owned());
            args.push(port.to_string());
        }
        args.push(self.destination());
        args.extend(remote.iter().map(|s| (*s).to_owned()));
        args
    }
}

impl fmt::Display for Endpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.scheme {
            Scheme::Ssh => write!(f, "ssh://")?,
            Scheme::Wss => write!(f, "wss://")?,
        }
        if let Some(user) = &self.user {
            write!(f, "{user}@")?;
        }
        write!(f, "{}", self.host)?;
        if let Some(port) = self.port {
            write!(f, ":{port}")?;
        }
        Ok(())
    }
}

fn split_port(text: &str) -> Result<(&str, Option<u16>), &'static str> {
    let (host, port) = if let Some(bracketed) = text.strip_prefix('[') {
        let close = bracketed
            .find(']')
            .ok_or("an IPv6 host needs its closing ']'")?;
        let host = &text[..close + 2];
        match &text[close + 2..] {
            "" => (host, None),
            tail => (
                host,
                Some(
                    tail.strip_prefix(':')
                        .ok_or("only :PORT may follow the host")?,
                ),
            ),
        }
    } else {
        match text.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (text, None),
        }
    };
    let port = match port {
        None => None,
        Some(p) if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) => Some(
            p.parse::<u16>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or("the port is 1 to 65535")?,
        ),
        Some(_) => return Err("the port is 1 to 65535"),
    };
    Ok((host, port))
}

fn is_word(text: &str) -> bool {
    !text.is_empty()
        && text.len() <= 64
        && !text.starts_with('-')
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

fn is_host(text: &str) -> bool {
    if let Some(inner) = text.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
        return !inner.is_empty()
            && inner
                .bytes()
                .all(|b| b.is_ascii_hexdigit() || matches!(b, b':' | b'.'));
    }
    !text.is_empty()
        && text.len() <= 253
        && !text.starts_with('-')
        && !text.starts_with('.')
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn good_endpoints_parse() {
        let e = Endpoint::parse("ssh://devbox").unwrap();
        assert_eq!(e.destination(), "devbox");
        assert_eq!(
            e.ssh_args(&["phux", "proxy"]).join(" "),
            "-T -o BatchMode=yes devbox phux proxy"
        );
        let e = Endpoint::parse("ssh://me@build.example.com:2222").unwrap();
        assert_eq!(e.port, Some(2222));
        assert_eq!(e.to_string(), "ssh://me@build.example.com:2222");
        assert_eq!(
            e.ssh_args(&[]).join(" "),
            "-T -o BatchMode=yes -p 2222 me@build.example.com"
        );
        let e = Endpoint::parse("ssh://[::1]:22").unwrap();
        assert_eq!(e.destination(), "::1");
        let e = Endpoint::parse("wss://box.tailnet:8787").unwrap();
        assert_eq!(e.scheme, Scheme::Wss);
        assert_eq!(e.to_string(), "wss://box.tailnet:8787");
    }

    #[test]
    fn hostile_endpoints_are_refused() {
        for bad in [
            "ssh://-oProxyCommand=x",
            "ssh://host;rm",
            "ssh://host rm",
            "ssh://-l@host",
            "ssh://me@-host",
            "ssh://host:0",
            "ssh://host:99999",
            "ssh://host:",
            "ssh://host/path",
            "ssh://",
            "devbox",
            "http://devbox",
            "wss://me@host:8787",
            "wss://-host:1",
            "ssh://a$(b)",
            "ssh://host\n-oX",
            "ssh://[::1]x",
        ] {
            assert!(Endpoint::parse(bad).is_err(), "{bad} parsed");
        }
    }
}
