//! The framing of a hub ↔ `phux proxy` link (the ssh session's stdin and stdout): many
//! connections to the satellite's socket share one link, each a numbered channel.
//!
//! A frame is `channel: u32 BE, len: u32 BE, bytes`. A channel opens with its first frame (the
//! proxy connects to its local socket then), and `len = 0` closes it, either way. Channel 0 is
//! the proxy's own: its first frame is a JSON [`ProxyHello`], so the hub checks protocol
//! versions before any connection crosses the link.

use std::io::{ErrorKind, Read, Write};

use serde::{Deserialize, Serialize};

use crate::wire::ProtocolVersion;

/// The proxy's channel.
pub const CONTROL_CHANNEL: u32 = 0;
/// The most one frame carries; a length never drives an allocation past it.
pub const MAX_CHUNK: usize = 256 * 1024;

/// What the proxy says first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProxyHello {
    pub protocol: ProtocolVersion,
    /// The satellite's phux version, for messages.
    pub version: String,
}

/// One frame: bytes for a channel, or its close.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkFrame {
    Data { channel: u32, bytes: Vec<u8> },
    Close { channel: u32 },
}

#[derive(Debug, thiserror::Error)]
pub enum LinkFrameError {
    #[error("the link closed")]
    Closed,
    #[error("the link sent a frame of {0} bytes, more than {MAX_CHUNK}")]
    TooLarge(usize),
    #[error("link i/o: {0}")]
    Io(#[from] std::io::Error),
}

/// Writes one frame (callers serialize writers: a frame is written whole).
pub fn write_frame(out: &mut impl Write, channel: u32, bytes: &[u8]) -> std::io::Result<()> {
    debug_assert!(bytes.len() <= MAX_CHUNK);
    let mut header = [0u8; 8];
    header[..4].copy_from_slice(&channel.to_be_bytes());
    header[4..].copy_from_slice(&(bytes.len() as u32).to_be_bytes());
    // One write for the whole frame where the writer allows it (a pipe or file descriptor).
    let mut parts = [std::io::IoSlice::new(&header), std::io::IoSlice::new(bytes)];
    let mut parts = &mut parts[..];
    while !parts.is_empty() {
        match out.write_vectored(parts) {
            Ok(0) => return Err(std::io::ErrorKind::WriteZero.into()),
            Ok(n) => std::io::IoSlice::advance_slices(&mut parts, n),
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    out.flush()
}

/// Writes a channel's close.
pub fn write_close(out: &mut impl Write, channel: u32) -> std::io::Result<()> {
    write_frame(out, channel, &[])
}

/// The frame at the head of `buffer` and the bytes it took, or `None` while it is not whole
/// (for a reader whose bytes come in messages that need not end at a frame's end).
pub fn decode(buffer: &[u8]) -> Result<Option<(LinkFrame, usize)>, LinkFrameError> {
    let Some(header) = buffer.get(..8) else {
        return Ok(None);
    };
    let channel = u32::from_be_bytes([header[0], header[1], header[2], header[3]]);
    let len = u32::from_be_bytes([header[4], header[5], header[6], header[7]]) as usize;
    if len > MAX_CHUNK {
        return Err(LinkFrameError::TooLarge(len));
    }
    let Some(bytes) = buffer.get(8..8 + len) else {
        return Ok(None);
    };
    let frame = if len == 0 {
        LinkFrame::Close { channel }
    } else {
        LinkFrame::Data {
            channel,
            bytes: bytes.to_vec(),
        }
    };
    Ok(Some((frame, 8 + len)))
}

/// Reads one frame; [`LinkFrameError::Closed`] at a clean end between frames.
pub fn read_frame(input: &mut impl Read) -> Result<LinkFrame, LinkFrameError> {
    let mut header = [0u8; 8];
    match input.read_exact(&mut header) {
        Ok(()) => {}
        Err(e) if e.kind() == ErrorKind::UnexpectedEof => return Err(LinkFrameError::Closed),
        Err(e) => return Err(e.into()),
    }
    let channel = u32::from_be_bytes([header[0], header[1], header[2], header[3]]);
    let len = u32::from_be_bytes([header[4], header[5], header[6], header[7]]) as usize;
    if len > MAX_CHUNK {
        return Err(LinkFrameError::TooLarge(len));
    }
    if len == 0 {
        return Ok(LinkFrame::Close { channel });
    }
    let mut bytes = vec![0u8; len];
    input.read_exact(&mut bytes).map_err(|e| match e.kind() {
        ErrorKind::UnexpectedEof => LinkFrameError::Closed,
        _ => LinkFrameError::Io(e),
    })?;
    Ok(LinkFrame::Data { channel, bytes })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_is_decoded_once_whole_and_an_oversize_one_is_refused() {
        let mut buf = Vec::new();
        write_frame(&mut buf, 3, b"abc").unwrap();
        write_close(&mut buf, 3).unwrap();
        assert!(decode(&buf[..10]).unwrap().is_none());
        let (first, used) = decode(&buf).unwrap().unwrap();
        assert_eq!(
            first,
            LinkFrame::Data {
                channel: 3,
                bytes: b"abc".to_vec()
            }
        );
        assert_eq!(
            decode(&buf[used..]).unwrap().unwrap(),
            (LinkFrame::Close { channel: 3 }, 8)
        );
        let huge = [0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff];
        assert!(matches!(decode(&huge), Err(LinkFrameError::TooLarge(_))));
    }

    #[test]
    fn frames_round_trip() {
        let mut buf = Vec::new();
        write_frame(&mut buf, 7, b"hello").unwrap();
        write_close(&mut buf, 7).unwrap();
        let mut input = &buf[..];
        assert_eq!(
            read_frame(&mut input).unwrap(),
            LinkFrame::Data {
                channel: 7,
                bytes: b"hello".to_vec()
            }
        );
        assert_eq!(
            read_frame(&mut input).unwrap(),
            LinkFrame::Close { channel: 7 }
        );
        assert!(matches!(
            read_frame(&mut input),
            Err(LinkFrameError::Closed)
        ));
    }

    #[test]
    fn an_oversize_length_is_refused_before_allocating() {
        let mut buf = vec![0, 0, 0, 1];
        buf.extend_from_slice(&u32::MAX.to_be_bytes());
        assert!(matches!(
            read_frame(&mut &buf[..]),
            Err(LinkFrameError::TooLarge(_))
        ));
    }
}
