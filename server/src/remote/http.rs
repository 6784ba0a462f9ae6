//! The little HTTP the listener speaks before a WebSocket: one request head, read with a size
//! and time bound, and plain responses (the page, its scripts, refusals).

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// The most bytes a request head may have.
pub const MAX_HEAD: usize = 16 * 1024;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub method: String,
    /// The path without its query.
    pub path: String,
    /// Header names lower-cased, in order.
    pub headers: Vec<(String, String)>,
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Whether it asks to become a WebSocket.
    pub fn is_upgrade(&self) -> bool {
        self.header("upgrade")
            .is_some_and(|v| v.eq_ignore_ascii_case("websocket"))
            && self.header("sec-websocket-key").is_some()
    }

    /// The token of an `Authorization: Bearer …` header.
    pub fn bearer(&self) -> Option<&str> {
        let value = self.header("authorization")?;
        let (scheme, token) = value.split_once(' ')?;
        scheme
            .eq_ignore_ascii_case("bearer")
            .then_some(token.trim())
    }
}

#[derive(Debug, thiserror::Error)]
pub enum HeadError {
    #[error("the connection closed before a request")]
    Closed,
    #[error("a request head larger than {MAX_HEAD} bytes")]
    TooLarge,
    #[error("not an HTTP/1.1 request")]
    Malformed,
    #[error("i/o: {0}")]
    Io(#[from] std::io::Error),
}

/// Reads one request head (the body, if any, is never read: no route takes one).
pub async fn read_head<S: AsyncRead + Unpin>(stream: &mut S) -> Result<Request, HeadError> {
    let mut head = Vec::with_capacity(1024);
    let mut byte = [0u8; 1024];
    loop {
        let n = stream.read(&mut byte).await?;
        if n == 0 {
            return Err(HeadError::Closed);
        }
        head.extend_from_slice(&byte[..n]);
        if let Some(end) = find(&head, b"\r\n\r\n") {
            // Anything after the head is the client speaking out of turn: refused.
            if end + 4 != head.len() {
                return Err(HeadError::Malformed);
            }
            return parse(&head[..end]);
        }
        if head.len() > MAX_HEAD {
            return Err(HeadError::TooLarge);
        }
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn parse(head: &[u8]) -> Result<Request, HeadError> {
    let text = std::str::from_utf8(head).map_err(|_| HeadError::Malformed)?;
    let mut lines = text.split("\r\n");
    let first = lines.next().ok_or(HeadError::Malformed)?;
    let mut parts = first.split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(HeadError::Malformed);
    };
    if !version.starts_with("HTTP/1.") || !target.starts_with('/') {
        return Err(HeadError::Malformed);
    }
    let path = target.split(['?', '#']).next().unwrap_or("/").to_owned();
    let mut headers = Vec::new();
    for line in lines {
        let (name, value) = line.split_once(':').ok_or(HeadError::Malformed)?;
        if headers.len() >= 64 {
            return Err(HeadError::Malformed);
        }
        headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
    }
    Ok(Request {
        method: method.to_owned(),
        path,
        headers,
    })
}

/// Writes a whole response and ends the exchange (`Connection: close`).
pub async fn respond<S: AsyncWrite + Unpin>(
    stream: &mut S,
    status: &str,
    content_type: &str,
    body: &[u8],
    extra_headers: &[(&str, &str)],
) -> std::io::Result<()> {
    let mut head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\
         Connection: close\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\
         Referrer-Policy: no-referrer\r\n",
        body.len()
    );
    for (name, value) in extra_headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).await?;
    stream.write_all(body).await?;
    stream.flush().await?;
    let _ = stream.shutdown().await;
    Ok(())
}

/// Accepts a WebSocket upgrade (`101 Switching Protocols`).
pub async fn switch<S: AsyncWrite + Unpin>(stream: &mut S, key: &str) -> std::io::Result<()> {
    let accept = tokio_tungstenite::tungstenite::handshake::derive_accept_key(key.as_bytes());
    let head = format!(
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Accept: {accept}\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).await?;
    stream.flush().await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_head_is_parsed_with_lower_cased_names_and_a_bearer() {
        let request = parse(
            b"GET /link?x=1 HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\n\
              Sec-WebSocket-Key: k\r\nAuthorization: Bearer abc",
        )
        .unwrap();
        assert_eq!(request.path, "/link");
        assert!(request.is_upgrade());
        assert_eq!(request.bearer(), Some("abc"));
        assert!(parse(b"GARBAGE").is_err());
        assert!(parse(b"GET http://x/ HTTP/1.1").is_err());
    }
}
