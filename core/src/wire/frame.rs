//! Frames: a `u32` big-endian length, then a kind byte and its body. Bounded at 16 MiB.

use std::io::{ErrorKind, Read, Write};

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::wire::error::WireError;
use crate::wire::frame_budget::{FrameHead, HeadVerdict, HEAD_LEN};

/// The largest payload (kind byte + body) a frame may carry.
pub const MAX_FRAME_LEN: u32 = 16 * 1024 * 1024;
/// A JSON message.
pub const KIND_JSON: u8 = 0x01;
/// A binary output chunk.
pub const KIND_OUTPUT: u8 = 0x02;

/// Payload bytes are read this many at a time, so a claimed length alone never allocates.
const READ_CHUNK: usize = 64 * 1024;
/// pane u32 + seq u64 + t_ns u64.
const OUTPUT_HEADER_LEN: usize = 4 + 8 + 8;

/// Bytes a pane produced, as read from its PTY.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputChunk {
    pub pane: u32,
    /// Contiguous per pane and stream.
    pub seq: u64,
    /// Monotonic time of the PTY read, in nanoseconds.
    pub t_ns: u64,
    pub bytes: Vec<u8>,
}

impl OutputChunk {
    /// Appends an output frame of `bytes` to `out`, without first copying them into a chunk.
    pub fn encode_parts(
        out: &mut Vec<u8>,
        pane: u32,
        seq: u64,
        t_ns: u64,
        bytes: &[u8],
    ) -> Result<(), WireError> {
        let mut header = [0u8; OUTPUT_HEADER_LEN];
        header[..4].copy_from_slice(&pane.to_be_bytes());
        header[4..12].copy_from_slice(&seq.to_be_bytes());
        header[12..].copy_from_slice(&t_ns.to_be_bytes());
        encode_parts(out, KIND_OUTPUT, &header, bytes)
    }
}

/// Appends a frame of `kind` whose body is `head` then `body`: length, kind, body.
fn encode_parts(out: &mut Vec<u8>, kind: u8, head: &[u8], body: &[u8]) -> Result<(), WireError> {
    let body_len = head.len() + body.len();
    let len = u64::try_from(body_len + 1).unwrap_or(u64::MAX);
    let len = u32::try_from(len)
        .ok()
        .filter(|&l| l <= MAX_FRAME_LEN)
        .ok_or(WireError::TooLarge {
            len,
            max: MAX_FRAME_LEN,
        })?;
    out.reserve(4 + 1 + body_len);
    out.extend_from_slice(&len.to_be_bytes());
    out.push(kind);
    out.extend_from_slice(head);
    out.extend_from_slice(body);
    Ok(())
}

/// One decoded frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Frame {
    /// A JSON message, still encoded (the reader does not know which side it is on).
    Json(Vec<u8>),
    Output(OutputChunk),
    /// A kind this build does not know; skipped by length.
    Unknown {
        kind: u8,
        payload: Vec<u8>,
    },
}

impl Frame {
    /// A JSON frame holding `message`.
    pub fn json<T: Serialize>(message: &T) -> Result<Frame, WireError> {
        Ok(Frame::Json(serde_json::to_vec(message)?))
    }

    /// Decodes a JSON frame as `T`.
    pub fn decode<T: DeserializeOwned>(&self) -> Result<T, WireError> {
        match self {
            Frame::Json(bytes) => Ok(serde_json::from_slice(bytes)?),
            _ => Err(WireError::Unexpected(
                "a binary frame where a JSON message was expected",
            )),
        }
    }

    /// The whole frame as bytes: length, kind, body.
    pub fn encode(&self) -> Result<Vec<u8>, WireError> {
        let mut out = Vec::new();
        self.encode_into(&mut out)?;
        Ok(out)
    }

    /// Appends the whole frame to `out` (several frames can go out in one write).
    pub fn encode_into(&self, out: &mut Vec<u8>) -> Result<(), WireError> {
        match self {
            Frame::Json(json) => encode_parts(out, KIND_JSON, &[], json),
            Frame::Output(chunk) => {
                OutputChunk::encode_parts(out, chunk.pane, chunk.seq, chunk.t_ns, &chunk.bytes)
            }
            Frame::Unknown { kind, payload } => encode_parts(out, *kind, &[], payload),
        }
    }

    /// Decodes a payload (kind byte + body) whose length was already checked.
    fn from_payload(mut payload: Vec<u8>) -> Result<Frame, WireError> {
        let Some(&kind) = payload.first() else {
            return Err(WireError::Malformed("empty frame"));
        };
        payload.remove(0);
        match kind {
            KIND_JSON => Ok(Frame::Json(payload)),
            KIND_OUTPUT => {
                if payload.len() < OUTPUT_HEADER_LEN {
                    return Err(WireError::Malformed("output chunk shorter than its header"));
                }
                let bytes = payload.split_off(OUTPUT_HEADER_LEN);
                let mut header = [0u8; OUTPUT_HEADER_LEN];
                header.copy_from_slice(&payload);
                let [p0, p1, p2, p3, s0, s1, s2, s3, s4, s5, s6, s7, t0, t1, t2, t3, t4, t5, t6, t7] =
                    header;
                Ok(Frame::Output(OutputChunk {
                    pane: u32::from_be_bytes([p0, p1, p2, p3]),
                    seq: u64::from_be_bytes([s0, s1, s2, s3, s4, s5, s6, s7]),
                    t_ns: u64::from_be_bytes([t0, t1, t2, t3, t4, t5, t6, t7]),
                    bytes,
                }))
            }
            kind => Ok(Frame::Unknown { kind, payload }),
        }
    }
}

/// Reads frames from a byte stream.
pub struct FrameReader<R> {
    inner: R,
}

impl<R: Read> FrameReader<R> {
    pub fn new(inner: R) -> Self {
        FrameReader { inner }
    }

    pub fn into_inner(self) -> R {
        self.inner
    }

    /// The next frame. [`WireError::Closed`] at a clean end of stream between frames.
    pub fn read_frame(&mut self) -> Result<Frame, WireError> {
        self.read_frame_then(|_, _| Ok(HeadVerdict::Accept))
    }

    /// The next frame; `check` runs once the length has arrived (with no head) and, if it
    /// asks for them, again once the payload's first bytes (at most [`HEAD_LEN`]) have,
    /// before the rest is waited for: the server checks the length against what that kind of
    /// message may carry, budgets the body's bytes and sets its deadline there. An error from
    /// it ends the read.
    pub fn read_frame_then(
        &mut self,
        mut check: impl FnMut(&mut R, FrameHead<'_>) -> std::io::Result<HeadVerdict>,
    ) -> Result<Frame, WireError> {
        let mut header = [0u8; 4];
        let got = read_full(&mut self.inner, &mut header)?;
        if got == 0 {
            return Err(WireError::Closed);
        }
        if got < header.len() {
            return Err(WireError::Truncated {
                expected: 4,
                got: got as u64,
            });
        }
        let len = u32::from_be_bytes(header);
        if len > MAX_FRAME_LEN {
            return Err(WireError::TooLarge {
                len: u64::from(len),
                max: MAX_FRAME_LEN,
            });
        }
        let len = len as usize;
        // Grown as bytes arrive, never to the claimed length at once.
        let mut payload = Vec::new();
        let first = FrameHead { len, head: None };
        if check(&mut self.inner, first)? == HeadVerdict::NeedHead {
            self.read_more(&mut payload, len.min(HEAD_LEN), len)?;
            let head = Some(payload.as_slice());
            check(&mut self.inner, FrameHead { len, head })?;
        }
        while payload.len() < len {
            let step = READ_CHUNK.min(len - payload.len());
            self.read_more(&mut payload, step, len)?;
        }
        Frame::from_payload(payload)
    }

    /// Appends exactly `step` more bytes of a `len`-byte payload to `payload`.
    fn read_more(
        &mut self,
        payload: &mut Vec<u8>,
        step: usize,
        len: usize,
    ) -> Result<(), WireError> {
        let start = payload.len();
        payload.resize(start + step, 0);
        let got = read_full(&mut self.inner, &mut payload[start..])?;
        if got < step {
            return Err(WireError::Truncated {
                expected: len as u64,
                got: (start + got) as u64,
            });
        }
        Ok(())
    }

    /// The next frame decoded as a JSON message `T`.
    pub fn read_message<T: DeserializeOwned>(&mut self) -> Result<T, WireError> {
        self.read_frame()?.decode()
    }

    /// [`Self::read_frame_then`], decoded as a JSON message `T`.
    pub fn read_message_then<T: DeserializeOwned>(
        &mut self,
        check: impl FnMut(&mut R, FrameHead<'_>) -> std::io::Result<HeadVerdict>,
    ) -> Result<T, WireError> {
        self.read_frame_then(check)?.decode()
    }

    /// The reader underneath.
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.inner
    }
}

/// Fills `buf` unless the stream ends first; returns how many bytes were read.
fn read_full<R: Read>(reader: &mut R, buf: &mut [u8]) -> Result<usize, WireError> {
    let mut filled = 0;
    while filled < buf.len() {
        match reader.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(WireError::Io(e)),
        }
    }
    Ok(filled)
}

/// Writes frames to a byte stream, one `write_all` + flush per frame or per encoded batch.
pub struct FrameWriter<W> {
    inner: W,
}

impl<W: Write> FrameWriter<W> {
    pub fn new(inner: W) -> Self {
        FrameWriter { inner }
    }

    pub fn into_inner(self) -> W {
        self.inner
    }

    pub fn write_frame(&mut self, frame: &Frame) -> Result<(), WireError> {
        let bytes = frame.encode()?;
        self.inner.write_all(&bytes)?;
        self.inner.flush()?;
        Ok(())
    }

    /// Writes frames already encoded with [`Frame::encode_into`], in one `write_all` + flush.
    pub fn write_encoded(&mut self, frames: &[u8]) -> Result<(), WireError> {
        self.inner.write_all(frames)?;
        self.inner.flush()?;
        Ok(())
    }

    /// Sends `message` as a JSON frame.
    pub fn send<T: Serialize>(&mut self, message: &T) -> Result<(), WireError> {
        self.write_frame(&Frame::json(message)?)
    }
}
