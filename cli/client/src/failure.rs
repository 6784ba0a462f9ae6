//! How every verb reports a failure, in one place: with `--json`, stdout stays empty and one
//! `ErrorDoc` line is the last line of stderr; without it, `phux: MESSAGE` and an indented
//! remedy.

use phux_core::error_code::ErrorCode;
use phux_core::error_doc::{ContractError, ErrorDoc};
use phux_core::exit_code::FAILURE;

use crate::output;

/// A failure with its contract code, message, remedy and the status the process exits with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub code: ErrorCode,
    pub message: String,
    pub remedy: String,
    pub exit_code: i32,
}

impl<E: ContractError> From<E> for Failure {
    fn from(error: E) -> Self {
        Failure {
            code: error.code(),
            message: error.to_string(),
            remedy: error.remedy(),
            exit_code: error.exit_code(),
        }
    }
}

/// `text` with each `bare` pane id (not followed by another digit, and not already preceded by
/// `/`) replaced by `full`.
fn replace_id(text: &str, bare: &str, full: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(bare) {
        let after = &rest[at + bare.len()..];
        let whole = !after.starts_with(|c: char| c.is_ascii_digit()) && !rest[..at].ends_with('/');
        out.push_str(&rest[..at]);
        out.push_str(if whole { full } else { bare });
        rest = after;
    }
    out.push_str(rest);
    out
}

impl Failure {
    /// A failure with the code's default exit status.
    pub fn new(code: ErrorCode, message: impl Into<String>, remedy: impl Into<String>) -> Self {
        Failure {
            code,
            message: message.into(),
            remedy: remedy.into(),
            exit_code: code.default_exit_code(),
        }
    }

    /// Overrides the exit status, for verbs that have spoken for a number already.
    pub fn with_exit_code(mut self, exit_code: i32) -> Self {
        self.exit_code = exit_code;
        self
    }

    /// Names a satellite's pane as the caller gave it (`devbox/@2`) where the message and
    /// remedy name its bare id (`@2`), which at the hub is another pane. A no-op unless
    /// `target` is such an address.
    pub fn naming_pane(mut self, pane: phux_core::ids::PaneId, target: &str) -> Self {
        if target.contains('/') {
            let bare = pane.to_string();
            self.message = replace_id(&self.message, &bare, target);
            self.remedy = replace_id(&self.remedy, &bare, target);
        }
        self
    }

    /// For the verbs that share the resolver but cannot spend 3 on a partial view: the code
    /// stays `partial_view`, the status becomes 1.
    pub fn partial_view_exits_1(self) -> Self {
        if self.code == ErrorCode::PartialView {
            self.with_exit_code(FAILURE)
        } else {
            self
        }
    }

    /// The JSON error document.
    pub fn document(&self) -> ErrorDoc {
        let remedy = if self.remedy.trim().is_empty() {
            "see `phux --help`"
        } else {
            &self.remedy
        };
        match ErrorDoc::new(self.code, self.message.clone(), remedy) {
            Ok(doc) => doc.with_exit_code(self.exit_code),
            // Unreachable: the remedy was made non-empty above.
            Err(_) => ErrorDoc {
                schema_version: phux_core::error_doc::ERROR_DOC_SCHEMA_VERSION,
                error: phux_core::error_doc::ErrorBody {
                    code: self.code,
                    message: self.message.clone(),
                },
                remedy: remedy.to_owned(),
                exit_code: self.exit_code,
            },
        }
    }

    /// Prints the failure on stderr (a JSON line with `json`, prose otherwise) and returns the
    /// exit status.
    pub fn report(&self, json: bool) -> i32 {
        if json {
            output::stderr_line(&self.document().render());
        } else {
            output::stderr_line(&format!("phux: {}", self.message));
            if !self.remedy.trim().is_empty() {
                output::stderr_line(&format!("  {}", self.remedy));
            }
        }
        self.exit_code
    }
}

/// What a verb's body returns: its exit status, or a failure to report.
pub type VerbResult = Result<i32, Failure>;

/// Reports `result` as the verb's flags say and returns the process exit status.
pub fn conclude(json: bool, result: VerbResult) -> i32 {
    match result {
        Ok(code) => code,
        Err(failure) => failure.report(json),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_document_carries_the_overridden_exit_code() {
        let failure =
            Failure::new(ErrorCode::PartialView, "cannot answer", "retry").partial_view_exits_1();
        let doc = failure.document();
        assert_eq!(doc.exit_code, 1);
        assert_eq!(doc.error.code, ErrorCode::PartialView);
    }

    #[test]
    fn an_empty_remedy_is_replaced() {
        let doc = Failure::new(ErrorCode::Transport, "x", " ").document();
        assert!(!doc.remedy.trim().is_empty());
    }

    #[test]
    fn a_satellite_pane_is_named_as_given_and_other_ids_are_left_alone() {
        let failure = Failure::new(
            ErrorCode::PaneExited,
            "@2 exited with 7; @23 and devbox/@2 stay",
            "read its last screen with `phux snapshot @2`",
        )
        .naming_pane(phux_core::ids::PaneId(2), "devbox/@2");
        assert_eq!(
            failure.message,
            "devbox/@2 exited with 7; @23 and devbox/@2 stay"
        );
        assert_eq!(
            failure.remedy,
            "read its last screen with `phux snapshot devbox/@2`"
        );
        let local = Failure::new(ErrorCode::PaneExited, "@2 exited", "x")
            .naming_pane(phux_core::ids::PaneId(2), "@2");
        assert_eq!(local.message, "@2 exited");
    }
}
