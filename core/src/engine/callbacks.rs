//! The state the engine's callbacks write into while `vt_write` runs: answers to queries (DA,
//! DSR, CSI 18 t, OSC 10/11...) bound for the PTY, bells, title and pwd changes. The callbacks
//! are `extern "C"` functions that must never unwind into the engine, so they only do
//! arithmetic and bounded copies.

use super::abi::{GString, SizeReportSize, TerminalPtr};
use std::ffi::c_void;

/// Query answers kept before they are taken; a program flooding the terminal with queries
/// cannot make this grow further (the excess is counted and dropped).
pub const REPLY_BUFFER_CAP: usize = 64 * 1024;

const XTVERSION: &[u8] = concat!("phux ", env!("CARGO_PKG_VERSION")).as_bytes();

#[derive(Default)]
pub struct CallbackState {
    pub replies: Vec<u8>,
    pub dropped_reply_bytes: u64,
    pub bells: u32,
    pub title_changed: bool,
    pub pwd_changed: bool,
    pub cols: u16,
    pub rows: u16,
}

/// # Safety (for every callback below)
/// `userdata` is the `*mut CallbackState` installed by `Terminal`, which outlives the engine
/// terminal and is not otherwise borrowed while `vt_write` runs.
unsafe fn state<'a>(userdata: *mut c_void) -> Option<&'a mut CallbackState> {
    // SAFETY: see above; null is tolerated.
    unsafe { userdata.cast::<CallbackState>().as_mut() }
}

pub unsafe extern "C" fn on_write_pty(
    _t: TerminalPtr,
    userdata: *mut c_void,
    data: *const u8,
    len: usize,
) {
    // SAFETY: the engine passes a valid (data, len) for the duration of the call.
    let Some(state) = (unsafe { state(userdata) }) else {
        return;
    };
    if data.is_null() {
        return;
    }
    let room = REPLY_BUFFER_CAP.saturating_sub(state.replies.len());
    let take = len.min(room);
    // SAFETY: `data` is valid for `len` bytes, and `take <= len`.
    state
        .replies
        .extend_from_slice(unsafe { std::slice::from_raw_parts(data, take) });
    state.dropped_reply_bytes += (len - take) as u64;
}

pub unsafe extern "C" fn on_bell(_t: TerminalPtr, userdata: *mut c_void) {
    // SAFETY: see `state`.
    if let Some(state) = unsafe { state(userdata) } {
        state.bells = state.bells.saturating_add(1);
    }
}

pub unsafe extern "C" fn on_title_changed(_t: TerminalPtr, userdata: *mut c_void) {
    // SAFETY: see `state`.
    if let Some(state) = unsafe { state(userdata) } {
        state.title_changed = true;
    }
}

pub unsafe extern "C" fn on_pwd_changed(_t: TerminalPtr, userdata: *mut c_void) {
    // SAFETY: see `state`.
    if let Some(state) = unsafe { state(userdata) } {
        state.pwd_changed = true;
    }
}

/// Answers CSI 14/16/18 t with the grid size and an 8×16 pixel cell (the GIF renderer's).
pub unsafe extern "C" fn on_size(
    _t: TerminalPtr,
    userdata: *mut c_void,
    out: *mut SizeReportSize,
) -> bool {
    // SAFETY: see `state`; `out` is a valid pointer from the engine.
    let (Some(state), Some(out)) = (unsafe { state(userdata) }, unsafe { out.as_mut() }) else {
        return false;
    };
    *out = SizeReportSize {
        rows: state.rows,
        columns: state.cols,
        cell_width: 8,
        cell_height: 16,
    };
    true
}

pub unsafe extern "C" fn on_xtversion(_t: TerminalPtr, _userdata: *mut c_void) -> GString {
    GString {
        ptr: XTVERSION.as_ptr(),
        len: XTVERSION.len(),
    }
}
