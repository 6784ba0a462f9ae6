//! Handing descriptors to the process an exec starts, without `unsafe`: before the exec they
//! are sent (SCM_RIGHTS) over a datagram socket pair whose receiving end becomes stdin; the
//! kernel keeps them open while in flight, so the exec closing every other copy loses nothing;
//! the new process receives them from its stdin and puts /dev/null back there.

use std::io::{IoSlice, IoSliceMut};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};

use rustix::net::{
    recvmsg, sendmsg, socketpair, AddressFamily, RecvAncillaryBuffer, RecvAncillaryMessage,
    RecvFlags, SendAncillaryBuffer, SendAncillaryMessage, SendFlags, SocketFlags, SocketType,
};

/// Descriptors per message, under the kernel's limit of 253.
const PER_MESSAGE: usize = 200;

/// Sends `fds` (in order) into a new socket pair and makes its receiving end stdin. Returns the
/// sending end, which the exec closes (what it sent stays queued at the receiving end).
pub fn stage(fds: &[BorrowedFd<'_>]) -> std::io::Result<OwnedFd> {
    let (sender, receiver) = socketpair(
        AddressFamily::UNIX,
        SocketType::DGRAM,
        SocketFlags::CLOEXEC,
        None,
    )?;
    for chunk in fds.chunks(PER_MESSAGE) {
        let mut space =
            vec![std::mem::MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(PER_MESSAGE))];
        let mut ancillary = SendAncillaryBuffer::new(&mut space);
        if !ancillary.push(SendAncillaryMessage::ScmRights(chunk)) {
            return Err(std::io::Error::other(
                "too many descriptors for one message",
            ));
        }
        sendmsg(
            &sender,
            &[IoSlice::new(b"f")],
            &mut ancillary,
            SendFlags::empty(),
        )?;
    }
    rustix::stdio::dup2_stdin(&receiver)?;
    Ok(sender)
}

/// Puts /dev/null back on stdin (after `stage`, when the exec did not happen, or once the new
/// process has received what was sent).
pub fn reset_stdin() -> std::io::Result<()> {
    let null = std::fs::File::open("/dev/null")?;
    rustix::stdio::dup2_stdin(&null)?;
    Ok(())
}

/// Receives the `count` descriptors the previous process sent to our stdin, in order.
pub fn receive(count: usize) -> std::io::Result<Vec<OwnedFd>> {
    let stdin = std::io::stdin();
    let source = stdin.as_fd().try_clone_to_owned()?;
    let mut fds = Vec::with_capacity(count);
    while fds.len() < count {
        let mut byte = [0u8; 1];
        let mut space =
            vec![std::mem::MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(PER_MESSAGE))];
        let mut ancillary = RecvAncillaryBuffer::new(&mut space);
        let received = recvmsg(
            &source,
            &mut [IoSliceMut::new(&mut byte)],
            &mut ancillary,
            RecvFlags::CMSG_CLOEXEC | RecvFlags::DONTWAIT,
        )?;
        if received.bytes == 0 {
            break;
        }
        for message in ancillary.drain() {
            if let RecvAncillaryMessage::ScmRights(rights) = message {
                fds.extend(rights);
            }
        }
    }
    drop(source);
    reset_stdin()?;
    if fds.len() != count {
        return Err(std::io::Error::other(format!(
            "received {} of the {count} descriptors handed over",
            fds.len()
        )));
    }
    Ok(fds)
}
