//! The closed vocabulary of JSON error codes (`error.code`) and each code's default exit status.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::exit_code::{FAILURE, PARTIAL_VIEW, RUN_GAVE_UP, USAGE, WAIT_TIMEOUT};

/// Declares the vocabulary once: variant, exact wire string, default exit status.
macro_rules! error_codes {
    ($($variant:ident => $name:literal, $exit:expr;)+) => {
        /// One JSON error code. The list is closed: consumers branch on it, never on messages.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum ErrorCode {
            $($variant,)+
        }

        impl ErrorCode {
            /// Every code, in declaration order.
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$variant,)+];

            /// The exact snake_case string carried in `error.code`.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(ErrorCode::$variant => $name,)+
                }
            }

            /// The process status a failure with this code exits with, unless the verb has
            /// already spent that number (see [`ErrorCode::PartialView`]).
            pub const fn default_exit_code(self) -> i32 {
                match self {
                    $(ErrorCode::$variant => $exit,)+
                }
            }
        }
    };
}

error_codes! {
    // transport
    NoServer => "no_server", FAILURE;
    ServerDisconnected => "server_disconnected", FAILURE;
    // `kill --server`: the server was told to stop but its process still ran at the limit
    ServerStillRunning => "server_still_running", FAILURE;
    Transport => "transport", FAILURE;
    UntrustedSocket => "untrusted_socket", FAILURE;
    ReplyTooLarge => "reply_too_large", FAILURE;
    // resolution
    NoSuchTarget => "no_such_target", FAILURE;
    PartialView => "partial_view", PARTIAL_VIEW;
    InvalidSelector => "invalid_selector", USAGE;
    // spatial edits: preflight refusals
    SelectorMiss => "selector_miss", USAGE;
    SelectorNotSingle => "selector_not_single", USAGE;
    SatelliteTarget => "satellite_target", USAGE;
    CrossSession => "cross_session", USAGE;
    SamePane => "same_pane", USAGE;
    InvalidRatio => "invalid_ratio", USAGE;
    LayoutMissing => "layout_missing", USAGE;
    PaneNotInLayout => "pane_not_in_layout", USAGE;
    PaneAlreadyInLayout => "pane_already_in_layout", USAGE;
    LayoutRejected => "layout_rejected", USAGE;
    // spatial edits: ownership or transport work had begun
    ServerTooOld => "server_too_old", FAILURE;
    MoveRefused => "move_refused", FAILURE;
    PostMoveStateFailed => "post_move_state_failed", FAILURE;
    DestinationChanged => "destination_changed", FAILURE;
    DestinationLayoutFailed => "destination_layout_failed", FAILURE;
    SourceLayoutFailed => "source_layout_failed", FAILURE;
    // registry and local
    Registry => "registry", FAILURE;
    Workspace => "workspace", FAILURE;
    InvalidConfig => "invalid_config", USAGE;
    JsonSerialize => "json_serialize", FAILURE;
    // update
    UpdateInvalidTag => "update_invalid_tag", USAGE;
    UpdateUnsupportedPlatform => "update_unsupported_platform", USAGE;
    UpdateSourceUnsupported => "update_source_unsupported", USAGE;
    UpdateImmutableStore => "update_immutable_store", USAGE;
    UpdatePackageManaged => "update_package_managed", USAGE;
    UpdateFetchFailed => "update_fetch_failed", FAILURE;
    UpdateChecksumInvalid => "update_checksum_invalid", FAILURE;
    UpdateChecksumMismatch => "update_checksum_mismatch", FAILURE;
    UpdateArchiveRejected => "update_archive_rejected", FAILURE;
    UpdateInstallFailed => "update_install_failed", FAILURE;
    UpdateNoBackup => "update_no_backup", FAILURE;
    // upgrade: the new binary could not take over; the old server runs on, nothing lost
    UpgradeFailed => "upgrade_failed", FAILURE;
    // offline explain
    CaptureUnreadable => "capture_unreadable", FAILURE;
    CaptureInvalid => "capture_invalid", FAILURE;
    UnknownAgentKind => "unknown_agent_kind", USAGE;
    // agent lifecycle
    NoAgentRecord => "no_agent_record", USAGE;
    AgentDeparted => "agent_departed", FAILURE;
    AgentMismatch => "agent_mismatch", USAGE;
    InvalidKeySpec => "invalid_key_spec", USAGE;
    // acknowledged input (the spec fixes 1 for the two retry/never-resend codes; the rest are
    // refusals of the request itself, so 2, except a busy lane, which is transient)
    InputBusy => "input_busy", FAILURE;
    InputNotWritten => "input_not_written", FAILURE;
    DeliveryUnknown => "delivery_unknown", FAILURE;
    InputTooLarge => "input_too_large", USAGE;
    InputLeaseHeld => "input_lease_held", USAGE;
    CanonicalLimitExceeded => "canonical_limit_exceeded", USAGE;
    UnsafePaste => "unsafe_paste", USAGE;
    InvalidInputBatch => "invalid_input_batch", USAGE;
    PermissionDenied => "permission_denied", USAGE;
    // ask / answer validation: refusals
    NoActiveAsk => "no_active_ask", USAGE;
    AskUnidentified => "ask_unidentified", USAGE;
    AskStale => "ask_stale", USAGE;
    AnswerChoiceOutOfRange => "answer_choice_out_of_range", USAGE;
    AnswerNotSuggested => "answer_not_suggested", USAGE;
    // agent start
    InvalidAgentName => "invalid_agent_name", USAGE;
    UnsupportedAgentKind => "unsupported_agent_kind", USAGE;
    AgentDetectionUnavailable => "agent_detection_unavailable", FAILURE;
    AgentNameConflict => "agent_name_conflict", USAGE;
    TargetNotShell => "target_not_shell", USAGE;
    InvalidLaunchArgv => "invalid_launch_argv", USAGE;
    AmbiguousIntegration => "ambiguous_integration", USAGE;
    AgentStartTimeout => "agent_start_timeout", WAIT_TIMEOUT;
    AgentKindMismatch => "agent_kind_mismatch", USAGE;
    // watch
    UnknownEventName => "unknown_event_name", USAGE;
    // phux's own additions (the engine, recordings, and server-side failures the upstream
    // vocabulary has no word for); additive, like every key under this contract
    EngineUnavailable => "engine_unavailable", FAILURE;
    InvalidArgument => "invalid_argument", USAGE;
    SessionExists => "session_exists", FAILURE;
    SpawnFailed => "spawn_failed", FAILURE;
    SignalFailed => "signal_failed", FAILURE;
    CastInvalid => "cast_invalid", FAILURE;
    UnsupportedFormat => "unsupported_format", FAILURE;
    OutputExists => "output_exists", FAILURE;
    EncodeFailed => "encode_failed", FAILURE;
    RecordFailed => "record_failed", FAILURE;
    // the pane a `run` or `wait` was following exited before the answer came
    PaneExited => "pane_exited", FAILURE;
    // `run` stopped waiting at --timeout; the command may still be running
    RunTimedOut => "run_timed_out", RUN_GAVE_UP;
    // `wait` reached --timeout before its condition held (the document still goes to stdout)
    WaitTimedOut => "wait_timed_out", WAIT_TIMEOUT;
    // an output path whose directory is missing or not writable, refused before any work
    OutputUnwritable => "output_unwritable", FAILURE;
    // `run` refusals: the pane's shell is running something, or the command would leave it
    // waiting for more input (an open quote or heredoc)
    TargetBusy => "target_busy", USAGE;
    CommandIncomplete => "command_incomplete", USAGE;
    NotATerminal => "not_a_terminal", USAGE;
    NestedAttach => "nested_attach", USAGE;
    // MCP tools: a destructive tool called without `confirm: true`, and a result larger than
    // the 1 MiB a tool may return
    ConfirmationRequired => "confirmation_required", USAGE;
    OutputTooLarge => "output_too_large", FAILURE;
    // MCP: a pane id from before the server at the socket was restarted (it may name another
    // pane now), and a call over the adapter's limit of calls in flight (try again shortly)
    ServerRestarted => "server_restarted", FAILURE;
    TooManyCalls => "too_many_calls", FAILURE;
    // `listen`: the running server already listens on another address; the address could
    // not be bound (or the certificate made)
    ListenerRunning => "listener_running", USAGE;
    ListenerFailed => "listener_failed", FAILURE;
    // `tape`: a tape that does not parse (file:line:col in the message), a `Require`d program
    // (or ffmpeg for video) that is not installed, a `Wait` that never matched
    TapeInvalid => "tape_invalid", USAGE;
    MissingProgram => "missing_program", FAILURE;
    TapeWaitTimedOut => "tape_wait_timed_out", FAILURE;
    TapeInterrupted => "tape_interrupted", FAILURE;
}

/// A string that is not in the vocabulary.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown error code {0:?}")]
pub struct UnknownErrorCode(pub String);

impl FromStr for ErrorCode {
    type Err = UnknownErrorCode;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ErrorCode::ALL
            .iter()
            .copied()
            .find(|code| code.as_str() == s)
            .ok_or_else(|| UnknownErrorCode(s.to_owned()))
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for ErrorCode {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ErrorCode {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = String::deserialize(deserializer)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}
