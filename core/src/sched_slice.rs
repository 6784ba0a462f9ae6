//! Scheduler slices: how long a thread may run before a thread woken on its core can take it.
//! Linux (6.12 and later, the EEVDF scheduler) lets any thread ask for its own slice, shorter
//! or longer than the default, and change it again at will. A woken thread whose slice is
//! shorter than the running one's takes the core at once; otherwise it may wait for the next
//! timer tick (4 ms at 250 Hz), which is how a keystroke's echo used to wait behind a flood.
//!
//! phux's threads mostly pass small things along (a keystroke, its echo), so the server and an
//! attached client ask for a short slice, which the threads they start inherit. The threads of
//! a pane that floods output ask for a long one while the flood lasts, and a short one again
//! when it ends. A pane's program gets the kernel's default. Priorities (nice values) are left
//! alone: an unprivileged thread cannot raise its priority again once it lowered it, while a
//! slice goes both ways without any privilege.
//!
//! Every call is a hint. A kernel without per-thread slices ignores the request or refuses it,
//! and phux runs as before.

use std::time::Duration;

/// The slice phux's threads ask for (the shortest the kernel grants): far longer than a
/// keystroke's step through any one thread.
pub const SHORT: Duration = Duration::from_micros(100);

/// The slice a flooding thread asks for: longer than the kernel's default (0.75–3 ms), so that
/// any thread woken on its core (a keystroke's, the kernel's own, another program's) has the
/// shorter slice and takes the core at once.
pub const FLOOD: Duration = Duration::from_millis(20);

/// The calling thread asks for a short slice (threads it starts from now on inherit it).
pub fn ask_short() {
    set_slice(Some(SHORT));
}

/// The calling thread floods: it asks for a long slice.
pub fn ask_long() {
    set_slice(Some(FLOOD));
}

/// The calling thread goes back to the kernel's default slice (a program a pane starts).
pub fn give_back() {
    set_slice(None);
}

/// The slice thread `tid` runs with (0: the calling thread); None where the kernel does not
/// say (before Linux 6.12) or the thread is not a normal one (real-time, idle).
pub fn slice_of(tid: i32) -> Option<Duration> {
    let attr = read_attr(tid)?;
    (attr.runtime_ns > 0).then(|| Duration::from_nanos(attr.runtime_ns))
}

/// Runs `check` (a test of slices) on a fresh thread holding a short slice, since slices are
/// per thread, and says whether it ran: where the kernel has no per-thread slices it does not,
/// and says on stderr why it skipped. `check` panicking fails the caller.
pub fn on_a_short_sliced_thread(check: impl FnOnce() + Send) -> bool {
    std::thread::scope(|scope| {
        scope
            .spawn(|| {
                ask_short();
                let granted = slice_of(0) == Some(SHORT);
                if granted {
                    check();
                } else {
                    eprintln!("skipped: this kernel has no per-thread slices (Linux 6.12+)");
                }
                granted
            })
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// A thread's share of the scheduler as its work comes and goes: while it floods, a long slice
/// and its core yielded after every piece of work; otherwise a short slice. Asks the kernel
/// only when that changes.
#[derive(Debug, Default)]
pub struct FloodSlice {
    long: bool,
}

impl FloodSlice {
    /// The thread floods now, or no longer does.
    pub fn set_flooding(&mut self, flooding: bool) {
        if flooding == self.long {
            return;
        }
        self.long = flooding;
        if flooding {
            ask_long();
        } else {
            ask_short();
        }
    }

    /// A piece of work is done: while flooding, a thread ready to run on this core goes first.
    pub fn make_way(&self) {
        if self.long {
            std::thread::yield_now();
        }
    }
}

/// `struct sched_attr` as the kernel reads and writes it (its first version, 48 bytes).
#[repr(C)]
#[derive(Default)]
struct SchedAttr {
    size: u32,
    policy: u32,
    flags: u64,
    nice: i32,
    priority: u32,
    runtime_ns: u64,
    deadline_ns: u64,
    period_ns: u64,
}

const ATTR_SIZE: u32 = 48;

/// `SCHED_FLAG_RESET_ON_FORK`, the one flag a normal thread's attributes carry.
const RESET_ON_FORK: u64 = 0x01;

/// The policies a slice belongs to: `SCHED_OTHER` and `SCHED_BATCH`.
const NORMAL_POLICIES: [u32; 2] = [0, 3];

#[cfg(target_os = "linux")]
fn read_attr(tid: i32) -> Option<SchedAttr> {
    let mut attr = SchedAttr::default();
    // SAFETY: the kernel writes at most ATTR_SIZE bytes into a live `sched_attr` of that size.
    let read = unsafe { libc::syscall(libc::SYS_sched_getattr, tid, &raw mut attr, ATTR_SIZE, 0) };
    (read == 0 && NORMAL_POLICIES.contains(&attr.policy)).then_some(attr)
}

#[cfg(not(target_os = "linux"))]
fn read_attr(_tid: i32) -> Option<SchedAttr> {
    None
}

/// Sets the calling thread's slice (None: the default), keeping its policy and nice value (a
/// thread may not raise its own priority, so setting the same one again is always allowed).
#[cfg(target_os = "linux")]
fn set_slice(slice: Option<Duration>) {
    let Some(mut attr) = read_attr(0) else {
        return;
    };
    attr.size = ATTR_SIZE;
    attr.flags &= RESET_ON_FORK;
    attr.runtime_ns = slice.map_or(0, |s| u64::try_from(s.as_nanos()).unwrap_or(u64::MAX));
    // SAFETY: the kernel reads ATTR_SIZE bytes from the live, initialised `sched_attr` above.
    // A refusal changes nothing, which is all a hint may do.
    unsafe {
        libc::syscall(libc::SYS_sched_setattr, 0, &raw const attr, 0);
    }
}

#[cfg(not(target_os = "linux"))]
fn set_slice(_slice: Option<Duration>) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thread_moves_between_short_long_and_default_slices_without_privilege() {
        on_a_short_sliced_thread(|| {
            let nice_before = read_attr(0).unwrap().nice;
            ask_long();
            assert_eq!(slice_of(0), Some(FLOOD));
            give_back();
            let default = slice_of(0).unwrap();
            assert!(default > SHORT && default < FLOOD, "default {default:?}");
            ask_short();
            assert_eq!(slice_of(0), Some(SHORT), "a shorter slice again");
            assert_eq!(
                read_attr(0).unwrap().nice,
                nice_before,
                "priority untouched"
            );
        });
    }

    #[test]
    fn threads_inherit_the_slice_of_the_thread_that_starts_them() {
        on_a_short_sliced_thread(|| {
            let child = std::thread::spawn(|| slice_of(0)).join().unwrap();
            assert_eq!(child, Some(SHORT));
        });
    }
}
