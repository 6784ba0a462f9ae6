//! How large a client's frame may be, decided from its length and its first bytes before its
//! body is waited for. A hello or an ordinary request is small; only the kinds that carry a
//! person's bytes (typed input, a paste, a metadata value, a new pane's command and
//! environment) may fill a whole frame ([`MAX_FRAME_LEN`]). Sixteen connections that each
//! announced a 16 MiB frame and sent nothing more held every byte the server would receive at
//! once, and so refused everyone's hello.

use crate::wire::frame::{KIND_JSON, MAX_FRAME_LEN};

/// The largest hello (kind byte + JSON): a version, a client name and a flag.
pub const MAX_HELLO_LEN: u32 = 4 * 1024;
/// The largest request of a kind not in [`LARGE_REQUEST_KINDS`]; such frames are received
/// without drawing on the budget of large frames.
pub const MAX_SMALL_REQUEST_LEN: u32 = 64 * 1024;
/// The requests that may be larger than [`MAX_SMALL_REQUEST_LEN`], up to [`MAX_FRAME_LEN`]:
/// a pane takes 8 MiB of queued input, and JSON escapes a control byte in six.
pub const LARGE_REQUEST_KINDS: [&str; 8] = [
    "input",
    "paste",
    "metadata_set",
    "new_session",
    "spawn",
    "new_window",
    "agent_set",
    "ask_answered",
];
/// How many of a frame's first payload bytes the reader holds before the rest: the kind byte
/// and the start of the JSON, where a serialized request names its `type`.
pub const HEAD_LEN: usize = 64;

/// A frame's length and, once asked for, its first payload bytes (at most [`HEAD_LEN`]).
#[derive(Debug, Clone, Copy)]
pub struct FrameHead<'a> {
    /// The payload's length (kind byte + body), as announced.
    pub len: usize,
    /// The payload's first bytes (the kind byte, then the body's start), when read.
    pub head: Option<&'a [u8]>,
}

/// What a frame's check decided from what has arrived so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeadVerdict {
    /// Receive the rest.
    Accept,
    /// Read the head, then ask again: only the kind can tell.
    NeedHead,
}

/// How a request's frame is received.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequestSize {
    /// At most [`MAX_SMALL_REQUEST_LEN`].
    Small,
    /// Of a kind that may be large, and larger.
    Large,
    /// Larger than small; the head must tell its kind.
    NeedHead,
}

/// A frame refused from its head, before its body was waited for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FrameTooLarge {
    #[error("a hello of {len} bytes announced; a hello is at most {MAX_HELLO_LEN}")]
    Hello { len: usize },
    #[error(
        "a {kind} request of {len} bytes announced; only input, paste and a few others may pass \
         {MAX_SMALL_REQUEST_LEN} bytes"
    )]
    Request { len: usize, kind: String },
}

/// Refuses a hello longer than [`MAX_HELLO_LEN`].
pub fn check_hello(head: FrameHead<'_>) -> Result<(), FrameTooLarge> {
    if head.len > MAX_HELLO_LEN as usize {
        return Err(FrameTooLarge::Hello { len: head.len });
    }
    Ok(())
}

/// Refuses a request longer than its kind may be, or says how it is received (the receiver
/// budgets a large one).
pub fn check_request(frame: FrameHead<'_>) -> Result<RequestSize, FrameTooLarge> {
    if frame.len <= MAX_SMALL_REQUEST_LEN as usize {
        return Ok(RequestSize::Small);
    }
    debug_assert!(frame.len <= MAX_FRAME_LEN as usize);
    let Some(head) = frame.head else {
        return Ok(RequestSize::NeedHead);
    };
    match request_kind(head) {
        Some(kind) if LARGE_REQUEST_KINDS.contains(&kind) => Ok(RequestSize::Large),
        kind => Err(FrameTooLarge::Request {
            len: frame.len,
            kind: kind.unwrap_or("unnamed").to_owned(),
        }),
    }
}

/// The `type` a JSON request names first (`{"type":"paste",…`), as serde writes it; None when
/// the head is not such a start.
pub fn request_kind(head: &[u8]) -> Option<&str> {
    let (&kind, json) = head.split_first()?;
    if kind != KIND_JSON {
        return None;
    }
    let text = trim_start(json).strip_prefix(b"{")?;
    let text = trim_start(text).strip_prefix(b"\"type\"")?;
    let text = trim_start(text).strip_prefix(b":")?;
    let text = trim_start(text).strip_prefix(b"\"")?;
    let end = text.iter().position(|&b| b == b'"')?;
    let name = std::str::from_utf8(&text[..end]).ok()?;
    name.bytes()
        .all(|b| b.is_ascii_lowercase() || b == b'_')
        .then_some(name)
}

fn trim_start(bytes: &[u8]) -> &[u8] {
    let skip = bytes.iter().take_while(|b| b.is_ascii_whitespace()).count();
    &bytes[skip..]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(json: &str) -> Vec<u8> {
        let mut bytes = vec![KIND_JSON];
        bytes.extend_from_slice(json.as_bytes());
        bytes.truncate(HEAD_LEN);
        bytes
    }

    /// A 16 MiB announcement with no body held the receive budget: refused from its head.
    #[test]
    fn large_frames_are_refused_unless_their_kind_may_be_large() {
        let big = 8 << 20;
        let paste = head(r#"{"type":"paste","id":3,"pane":1,"text":"aaaa"#);
        let state = head(r#"{"type":"get_state","id":3}"#);
        let check = |bytes: &[u8]| {
            check_request(FrameHead {
                len: big,
                head: Some(bytes),
            })
        };
        assert_eq!(check(&paste), Ok(RequestSize::Large));
        assert!(matches!(check(&state), Err(FrameTooLarge::Request { .. })));
        assert!(check(&[]).is_err(), "no head, no kind");
        assert!(check(&[KIND_JSON, b'{']).is_err());
        let unread = FrameHead {
            len: big,
            head: None,
        };
        assert_eq!(check_request(unread), Ok(RequestSize::NeedHead));
        let small = FrameHead {
            len: 100,
            head: None,
        };
        assert_eq!(check_request(small), Ok(RequestSize::Small));
        assert!(check_hello(FrameHead {
            len: 1 << 20,
            head: None
        })
        .is_err());
        assert!(check_hello(FrameHead {
            len: 200,
            head: None
        })
        .is_ok());
    }

    #[test]
    fn the_kind_is_read_through_whitespace_and_nothing_else() {
        assert_eq!(
            request_kind(&head(" { \"type\" : \"input\" , ")),
            Some("input")
        );
        assert_eq!(request_kind(&head(r#"{"id":1,"type":"input"}"#)), None);
        assert_eq!(request_kind(&head(r#"{"type":"in\u0070ut"}"#)), None);
        assert_eq!(request_kind(&[0x02, b'{']), None);
    }
}
