//! The JSON error document a `--json` verb prints as the last line of stderr on failure.

use serde::{Deserialize, Serialize};

use crate::error_code::ErrorCode;

/// `schema_version` of [`ErrorDoc`].
pub const ERROR_DOC_SCHEMA_VERSION: u32 = 1;

/// A failure that belongs to the contract: it knows its code and the next thing to try.
/// Library error enums implement this so the binary can print them without a lookup table.
pub trait ContractError: std::error::Error {
    /// The code carried in `error.code`.
    fn code(&self) -> ErrorCode;
    /// The next command to run, in prose. Never empty.
    fn remedy(&self) -> String;
    /// The process status; the code's default unless a verb overrides it.
    fn exit_code(&self) -> i32 {
        self.code().default_exit_code()
    }
}

/// `{"code":…,"message":…}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorBody {
    pub code: ErrorCode,
    pub message: String,
}

/// `{"schema_version":1,"error":{"code":…,"message":…},"remedy":…,"exit_code":…}`.
///
/// Built only through [`ErrorDoc::new`], which refuses an empty remedy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorDoc {
    pub schema_version: u32,
    pub error: ErrorBody,
    pub remedy: String,
    pub exit_code: i32,
}

/// The contract demands a remedy on every error document.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("an error document needs a non-empty remedy (code {0})")]
pub struct EmptyRemedy(pub ErrorCode);

impl ErrorDoc {
    /// A document with the code's default exit status.
    pub fn new(
        code: ErrorCode,
        message: impl Into<String>,
        remedy: impl Into<String>,
    ) -> Result<Self, EmptyRemedy> {
        let remedy = remedy.into();
        if remedy.trim().is_empty() {
            return Err(EmptyRemedy(code));
        }
        Ok(ErrorDoc {
            schema_version: ERROR_DOC_SCHEMA_VERSION,
            error: ErrorBody {
                code,
                message: message.into(),
            },
            remedy,
            exit_code: code.default_exit_code(),
        })
    }

    /// The document for a contract error, with its own exit status.
    pub fn from_error(err: &dyn ContractError) -> Result<Self, EmptyRemedy> {
        Ok(ErrorDoc::new(err.code(), err.to_string(), err.remedy())?
            .with_exit_code(err.exit_code()))
    }

    /// Overrides the exit status, for verbs whose status for this code is already spoken for
    /// (a `partial_view` miss from `snapshot` still exits 1).
    pub fn with_exit_code(mut self, exit_code: i32) -> Self {
        self.exit_code = exit_code;
        self
    }

    /// The document as one line of JSON, without a trailing newline.
    pub fn render(&self) -> String {
        // Strings and integers always serialize; the fallback only guards the contract that
        // something parseable is printed.
        serde_json::to_string(self).unwrap_or_else(|_| {
            format!(
                "{{\"schema_version\":1,\"error\":{{\"code\":\"json_serialize\",\"message\":\"error document failed to render\"}},\"remedy\":\"report this phux bug\",\"exit_code\":{}}}",
                self.exit_code
            )
        })
    }
}
