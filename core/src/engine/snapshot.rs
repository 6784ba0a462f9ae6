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

/// How far a compression pass got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    /// This build cannot compress.
    Unsupported,
    /// More history is left to compress; call again.
    Pending,
    Complete,
}

impl Terminal {
    /// Compresses history pages the program no longer writes to (they are decompressed on
    /// read, so every read is unchanged). `full` does all of it at once; otherwise one step.
    /// At 80 columns this keeps 10,000 rows in about a tenth of the memory.
    pub fn compress_history(&mut self, full: bool) -> Result<Compression, EngineError> {
        let mode = if full {
            abi::compression::FULL
        } else {
            abi::compression::INCREMENTAL
        };
        let mut result = abi::compression::UNSUPPORTED;
        // SAFETY: valid handle; `result` receives one C enum value.
        let code = unsafe { (self.sym.ghostty_terminal_compress)(self.ptr, mode, &raw mut result) };
        check("ghostty_terminal_compress", code)?;
        Ok(match result {
            abi::compression::PENDING => Compression::Pending,
            abi::compression::COMPLETE => Compression::Complete,
            _ => Compression::Unsupported,
        })
    }
}
