//! Receiving a client's frames so that no client, whatever it sends, holds up another's.
//! Each frame has a deadline measured from its first byte ([`FRAME_DEADLINE`], longer for a
//! large frame by [`LARGE_FRAME_RATE`]); its announced length is checked against what that kind
//! of message may carry before its body is waited for (`phux_core::wire::frame_budget`); and
//! only large frames (input, paste, ...) draw on a budget of bytes being received, one per
//! origin, so a hello or an ordinary request never waits for, or is refused by, anyone's
//! half-sent paste. Sixteen connections that each announced 16 MiB and sent nothing more used
//! to hold the one shared budget and so refused every hello, `ls` and `kill --server`.

use std::io::Read;
use std::os::unix::net::UnixStream;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use phux_core::wire::{
    frame_budget, ClientMessage, FrameHead, FrameReader, HeadVerdict, RequestSize, WireError,
};

use crate::admission::Origin;

/// How long a new connection has to send its whole hello.
pub const HELLO_DEADLINE: Duration = Duration::from_secs(5);
/// How long a frame may take to arrive whole, from its first byte.
pub const FRAME_DEADLINE: Duration = Duration::from_secs(3);
/// The slowest a large frame may arrive, in bytes a second, on top of [`FRAME_DEADLINE`]: a
/// 16 MiB paste may take 19 s.
pub const LARGE_FRAME_RATE: usize = 1 << 20;
/// The bytes of large frames being received at once from the owner's local connections.
pub const MAX_LOCAL_LARGE_FRAME_BYTES: usize = 256 << 20;
/// The same for the remote listener's connections, whatever their credentials.
pub const MAX_REMOTE_LARGE_FRAME_BYTES: usize = 64 << 20;

static LOCAL_LARGE_BYTES: AtomicUsize = AtomicUsize::new(0);
static REMOTE_LARGE_BYTES: AtomicUsize = AtomicUsize::new(0);

/// A connection's frames, read with deadlines and budgets.
pub struct FrameIntake<'a> {
    reader: FrameReader<Deadlined<'a>>,
    origin: Origin,
}

impl<'a> FrameIntake<'a> {
    pub fn new(socket: &'a UnixStream, origin: Origin) -> Self {
        FrameIntake {
            reader: FrameReader::new(Deadlined {
                socket,
                deadline: None,
                per_frame: None,
            }),
            origin,
        }
    }

    /// The hello, whole within [`HELLO_DEADLINE`] of now and at most `MAX_HELLO_LEN` bytes.
    pub fn hello(&mut self, deadline: Duration) -> Result<ClientMessage, WireError> {
        let socket = self.reader.get_mut();
        socket.deadline = Some(Instant::now() + deadline);
        socket.per_frame = None;
        self.reader.read_message_then::<ClientMessage>(|_, head| {
            frame_budget::check_hello(head).map_err(std::io::Error::other)?;
            Ok(HeadVerdict::Accept)
        })
    }

    /// The next request, waited for as long as the client likes; once its first byte has
    /// come, the rest must follow within the frame's deadline.
    pub fn request(&mut self) -> Result<ClientMessage, WireError> {
        let socket = self.reader.get_mut();
        socket.deadline = None;
        socket.per_frame = Some(FRAME_DEADLINE);
        let origin = self.origin;
        // Held until the frame is read (or failed).
        let mut reserved = None;
        self.reader
            .read_message_then::<ClientMessage>(|socket, head| {
                match frame_budget::check_request(head).map_err(std::io::Error::other)? {
                    RequestSize::Small => {}
                    RequestSize::NeedHead => return Ok(HeadVerdict::NeedHead),
                    RequestSize::Large => {
                        socket.extend_deadline(head.len / LARGE_FRAME_RATE);
                        reserved = Some(LargeFrame::reserve(origin, head)?);
                    }
                }
                Ok(HeadVerdict::Accept)
            })
    }
}

/// A large frame's share of its origin's budget, given back when dropped.
struct LargeFrame {
    pool: &'static AtomicUsize,
    len: usize,
}

impl LargeFrame {
    fn reserve(origin: Origin, head: FrameHead<'_>) -> std::io::Result<LargeFrame> {
        let (pool, most) = match origin {
            Origin::Local => (&LOCAL_LARGE_BYTES, MAX_LOCAL_LARGE_FRAME_BYTES),
            Origin::Remote | Origin::RemoteReadOnly => {
                (&REMOTE_LARGE_BYTES, MAX_REMOTE_LARGE_FRAME_BYTES)
            }
        };
        let len = head.len;
        pool.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |held| {
            held.checked_add(len).filter(|&total| total <= most)
        })
        .map(|_| LargeFrame { pool, len })
        .map_err(|_| {
            std::io::Error::other(format!(
                "the server is receiving {} of large requests from {} connections already; \
                 send a smaller one or retry",
                phux_core::bounded_read::human(most as u64),
                origin.name()
            ))
        })
    }
}

impl Drop for LargeFrame {
    fn drop(&mut self) {
        self.pool.fetch_sub(self.len, Ordering::SeqCst);
    }
}

/// The socket read with a deadline that runs across reads (a socket timeout alone restarts
/// with every byte, so a client trickling one byte at a time would never hit it). With
/// `per_frame`, the deadline starts at the first byte that arrives.
pub struct Deadlined<'a> {
    socket: &'a UnixStream,
    deadline: Option<Instant>,
    per_frame: Option<Duration>,
}

impl Deadlined<'_> {
    /// Gives the frame being read `seconds` more.
    fn extend_deadline(&mut self, seconds: usize) {
        let more = Duration::from_secs(u64::try_from(seconds).unwrap_or(u64::MAX));
        self.deadline = self.deadline.map(|d| d + more);
    }
}

impl Read for Deadlined<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let timeout = match self.deadline {
            Some(deadline) => {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return Err(std::io::Error::new(
                        std::io::ErrorKind::TimedOut,
                        "the frame did not arrive whole in time",
                    ));
                }
                Some(left)
            }
            None => None,
        };
        self.socket.set_read_timeout(timeout)?;
        let mut socket = self.socket;
        let got = match socket.read(buf) {
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock && timeout.is_some() => {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    "the frame did not arrive whole in time",
                ))
            }
            read => read?,
        };
        if got > 0 && self.deadline.is_none() {
            if let Some(per_frame) = self.per_frame {
                self.deadline = Some(Instant::now() + per_frame);
            }
        }
        Ok(got)
    }
}
