//! Binary snapshot and restore of a whole terminal (screen, history, modes, cursor), in the
//! engine's own format.

use super::abi;
use super::error::EngineError;
use super::terminal::{check, Terminal, TerminalOptions};

impl Terminal {
    /// The whole terminal as bytes `restore` turns back into an equal terminal.
    pub fn snapshot(&self) -> Result<Vec<u8>, EngineError> {
        let mut ptr: *mut u8 = std::ptr::null_mut();
        let mut len = 0usize;
        // SAFETY: valid handle; the allocation is copied and freed by `take_allocation`.
        let code = unsafe {
            (self.sym.ghostty_snapshot_encode_alloc)(
                self.ptr,
                std::ptr::null(),
                &raw mut ptr,
                &raw mut len,
            )
        };
        check("ghostty_snapshot_encode_alloc", code)?;
        Ok(self.take_allocation(code, ptr, len))
    }

    /// A new terminal decoded from `bytes` (made by `snapshot`), with `options`' scrollback
    /// budget and colours; the grid size comes from the snapshot.
    pub fn restore(bytes: &[u8], options: TerminalOptions) -> Result<Terminal, EngineError> {
        let sym = *super::engine()?.symbols();
        let mut decoder: abi::SnapshotDecoderPtr = std::ptr::null_mut();
        // SAFETY: (ptr, len) describe `bytes`, which outlives the decoder.
        let code = unsafe {
            (sym.ghostty_snapshot_decoder_new_buf)(
                std::ptr::null(),
                &raw mut decoder,
                bytes.as_ptr(),
                bytes.len(),
            )
        };
        check("ghostty_snapshot_decoder_new_buf", code)?;
        let mut ptr: abi::TerminalPtr = std::ptr::null_mut();
        // SAFETY: valid decoder; on success `ptr` is a new terminal we own.
        let code = unsafe { (sym.ghostty_snapshot_decoder_decode)(decoder, &raw mut ptr) };
        // SAFETY: created above, freed once.
        unsafe { (sym.ghostty_snapshot_decoder_free)(decoder) };
        check("ghostty_snapshot_decoder_decode", code)?;
        if ptr.is_null() {
            return Err(EngineError::Call {
                call: "ghostty_snapshot_decoder_decode",
                code: abi::result::NO_VALUE,
            });
        }
        Terminal::adopt(ptr, sym, options)
    }
}
