//! The versioned `--json` documents of the CLI contract, one file per document.

pub mod agent_input;
pub mod agent_state;
pub mod ask;
pub mod cell_width;
pub mod config;
pub mod configured_agents;
pub mod doctor;
pub mod host;
pub mod launch;
pub mod new;
pub mod play;
pub mod plugin;
pub mod rec;
pub mod resize;
pub mod run_result;
pub mod screen_projection;
pub mod screen_state;
pub mod session_list;
pub mod spatial_edit;
pub mod spawn;
pub mod status;
pub mod tag;
pub mod watch_event;
pub mod workspace;

pub use agent_input::{
    AgentAnswerJson, AgentPromptJson, AgentSendKeysJson, AgentStartJson, AnsweredAsk, InputAgent,
    PromptAgent, StartReadiness,
};
pub use agent_state::{
    AgentEdge, AgentEntry, AgentExplainJson, AgentIdentity, AgentSource, AgentStateJson,
    AgentWaitJson, CaptureInfo, WaitAgent, WaitObservations,
};
pub use ask::AskJson;
pub use config::{ConfigCheckJson, ConfigProblem, ConfigShowJson};
pub use configured_agents::{
    ConfiguredAgent, ConfiguredAgentsJson, DeclaredBaseline, RuntimeBinding,
    CONFIGURED_AGENTS_SCHEMA_VERSION,
};
pub use doctor::{CheckStatus, DoctorCheck, DoctorJson, DOCTOR_SCHEMA_VERSION};
pub use launch::{
    IntegrationRow, LaunchJson, LaunchListJson, LaunchPrintJson, LAUNCH_SCHEMA_VERSION,
};
pub use new::NewJson;
pub use play::PlayJson;
pub use plugin::{
    ActionOutcome, ManifestWarning, PluginActionOutput, PluginJson, PluginListJson,
    PluginRemovedJson, PluginWrapJson, PLUGIN_ACTION_SCHEMA_VERSION, PLUGIN_SCHEMA_VERSION,
};
pub use rec::{RecFormat, RecJson};
pub use resize::{GridSize, ResizeJson};
pub use run_result::RunResult;
pub use screen_projection::{TAIL_ALL_CAP, TAIL_DEFAULT};
pub use screen_state::{CellColor, CellInfo, CellStyle, Cursor, ScreenState, Semantic, SoftWrap};
pub use session_list::{SessionEntry, SessionListJson};
pub use spatial_edit::{SpatialEdit, SpatialEditJson};
pub use spawn::SpawnJson;
pub use status::{StatusJson, StatusLogs, StatusProtocol, StatusSession};
pub use tag::{TagJson, TagRow};
pub use watch_event::{
    AgentStateEvent, UnknownEventName, WatchEvent, WatchEventKind, WatchEventName,
};

/// serde helper: skip a `false` flag so an unset flag serializes like the older shape.
pub(crate) fn is_false(b: &bool) -> bool {
    !*b
}
pub use workspace::{
    AgentSession, ArchivedLayout, ArchivedPane, ArchivedSession, ArchivedWindow, RepoInfo,
    WorkspaceArchive, WorkspaceInspectJson, WorkspaceRestoreJson, WorktreeInfo,
    WORKSPACE_ARCHIVE_SCHEMA_VERSION, WORKSPACE_INSPECT_SCHEMA_VERSION,
    WORKSPACE_RESTORE_SCHEMA_VERSION,
};
