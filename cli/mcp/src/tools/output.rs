//! Each tool's `outputSchema`: the document its result carries (the verb's `--json` document,
//! see tests/golden/docs), field by field. A document is stated in one line: `name:type` for a
//! field always present (`integer`, `number`, `string`, `boolean`, `array`, `object`; a `?`
//! after the type allows `null`), `name=a/b/c` for a string that is one of those, and fields
//! after ` | ` may be absent. Fields are never refused beyond those named (documents grow
//! additively), so a host validating `structuredContent` keeps working with a newer phux. The
//! golden documents are checked against these schemas, and every result the end-to-end walk
//! gets is too.

use serde_json::{json, Map, Value};

/// The error document every failing call carries instead (`isError: true`).
pub const ERROR_DOCUMENT: &str =
    "schema_version:integer error:object remedy:string exit_code:integer";

const SCREEN: &str = "schema_version:integer pane:integer cols:integer rows:integer cursor:object? lines:array \
    | scrollback:array cells:array soft_wrap:object truncated:boolean truncated_reason:string title:string \
    mark:integer ask:object lease:object";

const AGENT_STATE: &str = "schema_version:integer agents:array";

const INPUT_MARK: &str =
    "schema_version:integer pane:integer | mark:integer delivery:string operation_id:string";

/// Every tool's document.
#[rustfmt::skip]
const DOCUMENTS: &[(&str, &str)] = &[
    ("phux_ls", "schema_version:integer sessions:array terminals:array unreachable:array panes:array | exited:array leases:array"),
    ("phux_status", "schema_version:integer running:boolean pid:integer? socket:string since_unix_secs:integer? protocol:object? \
        clients:integer sessions:array satellite_terminals:array unreachable:array logs:object \
        | exited:array asks:array leases:array unplaced:array listener:object"),
    ("phux_snapshot", SCREEN),
    ("phux_wait", "outcome=met/timed_out/cancelled met:boolean matched:boolean schema_version:integer pane:integer cols:integer \
        rows:integer cursor:object? lines:array | match:object tail_lines:array scrollback:array mark:integer title:string"),
    ("phux_watch", "schema_version:integer events:array count:integer ended=max_events/until/timed_out/pane_closed/cancelled cursor:integer"),
    // With a wait_*, phux_wait's document with the delivery under `sent`.
    ("phux_send_keys", "schema_version:integer pane:integer | mark:integer delivery:string operation_id:string \
        outcome=met/timed_out/cancelled met:boolean matched:boolean match:object sent:object cols:integer rows:integer \
        lines:array scrollback:array"),
    ("phux_paste", INPUT_MARK),
    // A background run answers with its job instead of the RunResult.
    ("phux_run", "schema_version:integer | command:string exit_code:integer output:string duration_ms:integer truncated:boolean \
        mark:integer output_file:string job:string state=running target:string"),
    ("phux_job", "schema_version:integer job:string state=running/done target:string command:string | result:object? error:object?"),
    ("phux_new", "schema_version:integer session:string terminal_id:integer | target:string"),
    ("phux_spawn", "schema_version:integer terminal_id:integer satellite:string? | target:string"),
    ("phux_kill", "schema_version:integer target:string killed:object"),
    ("phux_signal", "schema_version:integer signal=interrupt/freeze/resume/terminate/kill panes:array"),
    ("phux_rec", "schema_version:integer path:string format:string bytes:integer duration_ms:integer frames:integer cols:integer rows:integer truncated:boolean \
        | exit_status:integer played_ms:integer"),
    ("phux_agent_show", AGENT_STATE),
    ("phux_ask", "schema_version:integer event:string terminal:string id:string question:string suggestions:array elapsed_seconds:integer?"),
    ("phux_agent_list", AGENT_STATE),
    // Live (a pane): AgentStateJson; offline (a file): AgentExplainJson.
    ("phux_agent_explain", "schema_version:integer | agents:array capture:object explain:object"),
    ("phux_agent_set", "schema_version:integer terminal:integer record:object"),
    ("phux_agent_clear", "schema_version:integer terminal:integer cleared:boolean"),
    ("phux_agent_wait", "schema_version:integer terminal:string satisfied:boolean edge:object? baseline:string? state:string? agent:object? \
        observations:object detection:object?"),
    ("phux_agent_send_keys", "schema_version:integer terminal:string agent:object keys:integer verified:boolean delivery:string operation_id:string? attempts:integer"),
    ("phux_agent_prompt", "schema_version:integer terminal:string delivery:string operation_id:string? agent:object attempts:integer \
        transition_observed:boolean | pre_submit_state:string? staleness_bound_ms:integer? submit_ms:integer? matched_by:string? \
        edge:object? waited_ms:integer? degraded_to_polling:boolean"),
    ("phux_agent_answer", "schema_version:integer terminal:string ask:object answer:string source:string operation_id:string? delivered:boolean"),
    ("phux_agent_start", "schema_version:integer terminal:string name:string kind:string integration:string? started:boolean ready:boolean \
        state:string? shell_check:string? readiness:object?"),
    ("phux_resize", "schema_version:integer terminal_id:integer requested:object applied:object held:boolean | target:string"),
    ("phux_rename", "schema_version:integer session:string from:string"),
    ("phux_detach", "schema_version:integer detached:integer session:string?"),
    ("phux_tag", "schema_version:integer terminals:array"),
    ("phux_insert_pane", "schema_version:integer operation:string session_id:integer | target_terminal_id:integer new_terminal_id:integer direction:string ratio:number"),
    ("phux_move_pane", "schema_version:integer operation:string session_id:integer | source_terminal_id:integer target_terminal_id:integer direction:string ratio:number \
        source_session_id:integer cross_session:boolean"),
    ("phux_swap_pane", "schema_version:integer operation:string session_id:integer | first_terminal_id:integer second_terminal_id:integer"),
    ("phux_play", "schema_version:integer terminal_id:integer path:string cols:integer rows:integer events:integer speed:number \
        idle_limit:number? duration_ms:integer? passes:integer? | target:string"),
    ("phux_plugin_action", "schema_version:integer plugin_id:string action_id:string command:array cwd:string outcome=completed/timed_out \
        exit_code:integer? stdout:string stderr:string duration_ms:integer"),
    ("phux_config_agents", "schema_version:integer live:boolean agents:array"),
    // One of LaunchJson, LaunchListJson (list), LaunchPrintJson (print).
    ("phux_launch", "schema_version:integer | terminal_id:integer integration:string plugin:string argv:array integrations:array \
        cwd:string working_directory:string target:string"),
    ("phux_doctor", "schema_version:integer ok:boolean failed:integer checks:array"),
    // One of WorkspaceInspectJson, WorkspaceArchive, the written archive, WorkspaceRestoreJson.
    ("phux_workspace", "schema_version:integer | repo:object worktrees:array sessions:array path:string restored:array skipped_existing:array"),
];

/// The `outputSchema` of `tool` (an object with no properties named when it has no entry).
pub fn schema_of(tool: &str) -> Value {
    DOCUMENTS
        .iter()
        .find(|(name, _)| *name == tool)
        .map_or_else(|| json!({"type": "object"}), |(_, spec)| parse(spec))
}

/// Whether `tool` has a document stated here.
pub fn is_stated(tool: &str) -> bool {
    DOCUMENTS.iter().any(|(name, _)| *name == tool)
}

/// The schema a one-line document statement stands for.
pub fn parse(spec: &str) -> Value {
    let (always, maybe) = spec.split_once(" | ").unwrap_or((spec, ""));
    let mut properties = Map::new();
    let mut required = Vec::new();
    for (words, present) in [(always, true), (maybe, false)] {
        for field in words.split_whitespace() {
            let (name, schema) = field_schema(field);
            if present {
                required.push(Value::from(name));
            }
            properties.insert(name.to_owned(), schema);
        }
    }
    json!({"type": "object", "properties": properties, "required": required})
}

fn field_schema(field: &str) -> (&str, Value) {
    if let Some((name, values)) = field.split_once('=') {
        let values: Vec<&str> = values.split('/').collect();
        return (name, json!({"type": "string", "enum": values}));
    }
    let (name, kind) = field.split_once(':').unwrap_or((field, "object"));
    match kind.strip_suffix('?') {
        Some(kind) => (name, json!({"type": [kind, "null"]})),
        None => (name, json!({"type": kind})),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_statement_reads_as_its_schema() {
        let schema = parse("a:integer b=x/y c:string? | d:array");
        assert_eq!(schema["required"], json!(["a", "b", "c"]));
        assert_eq!(schema["properties"]["b"]["enum"], json!(["x", "y"]));
        assert_eq!(schema["properties"]["c"]["type"], json!(["string", "null"]));
        assert_eq!(schema["properties"]["d"]["type"], "array");
    }

    #[test]
    fn every_tool_states_its_document_with_known_types() {
        for tool in super::super::all() {
            assert!(is_stated(tool.name), "{} has no document stated", tool.name);
            let schema = schema_of(tool.name);
            for (name, property) in schema["properties"].as_object().unwrap() {
                let kinds = match &property["type"] {
                    Value::String(kind) => vec![kind.clone()],
                    Value::Array(kinds) => kinds
                        .iter()
                        .map(|k| k.as_str().unwrap().to_owned())
                        .collect(),
                    other => panic!("{}: {name}: {other}", tool.name),
                };
                for kind in kinds {
                    assert!(
                        ["integer", "number", "string", "boolean", "array", "object", "null"]
                            .contains(&kind.as_str()),
                        "{}: {name}: {kind}",
                        tool.name
                    );
                }
            }
        }
    }

    /// The golden documents (the `--json` contract, pinned by the verbs' tests) are what the
    /// tools' output schemas say: each validates, and names no field the schema leaves out.
    #[test]
    fn the_golden_documents_fit_their_tools_output_schemas() {
        #[rustfmt::skip]
        let goldens: &[(&str, &str)] = &[
            ("docs/status_running.json", "phux_status"), ("docs/status_not_running.json", "phux_status"),
            ("docs/screen_state_plain.json", "phux_snapshot"), ("docs/screen_state_cells.json", "phux_snapshot"),
            ("docs/screen_state_no_cursor.json", "phux_snapshot"), ("e2e/send_keys_mark.json", "phux_send_keys"),
            ("docs/run_result.json", "phux_run"), ("e2e/run_result.json", "phux_run"), ("docs/new.json", "phux_new"),
            ("docs/spawn_local.json", "phux_spawn"), ("docs/spawn_satellite.json", "phux_spawn"),
            ("docs/rec.json", "phux_rec"), ("docs/rec_command_failed.json", "phux_rec"), ("docs/ask.json", "phux_ask"),
            ("docs/resize_held.json", "phux_resize"), ("docs/resize_not_held.json", "phux_resize"),
            ("docs/tag.json", "phux_tag"), ("docs/spatial_insert.json", "phux_insert_pane"),
            ("docs/spatial_move.json", "phux_move_pane"), ("docs/spatial_move_cross_session.json", "phux_move_pane"),
            ("docs/spatial_swap.json", "phux_swap_pane"), ("docs/play.json", "phux_play"),
            ("docs/play_forever.json", "phux_play"), ("docs/agent_state.json", "phux_agent_show"),
            ("docs/agent_state.json", "phux_agent_list"), ("docs/agent_state_plugin_report.json", "phux_agent_show"),
            ("docs/agent_wait.json", "phux_agent_wait"), ("docs/agent_wait_timeout.json", "phux_agent_wait"),
            ("docs/agent_send_keys.json", "phux_agent_send_keys"), ("docs/agent_prompt.json", "phux_agent_prompt"),
            ("docs/agent_answer.json", "phux_agent_answer"), ("docs/agent_start.json", "phux_agent_start"),
            ("e2e/agent_explain_claude_blocked.json", "phux_agent_explain"),
            ("docs/plugin_action_completed.json", "phux_plugin_action"),
            ("docs/plugin_action_timed_out.json", "phux_plugin_action"),
            ("docs/configured_agents.json", "phux_config_agents"), ("docs/launch.json", "phux_launch"),
            ("docs/launch_list.json", "phux_launch"), ("docs/launch_print.json", "phux_launch"),
            ("docs/doctor.json", "phux_doctor"), ("docs/workspace_archive.json", "phux_workspace"),
            ("docs/workspace_inspect.json", "phux_workspace"), ("docs/workspace_restore.json", "phux_workspace"),
        ];
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/golden/");
        let mut checked = vec![("docs/error_no_server.json", parse(ERROR_DOCUMENT))];
        checked.extend(goldens.iter().map(|(file, tool)| (*file, schema_of(tool))));
        for (file, schema) in checked {
            let text = std::fs::read_to_string(format!("{root}{file}")).unwrap();
            let document: Value = serde_json::from_str(&text).unwrap();
            crate::schema::validate(&schema, &document, "")
                .unwrap_or_else(|e| panic!("{file}: {e}"));
            for key in document.as_object().unwrap().keys() {
                assert!(
                    !schema["properties"][key].is_null(),
                    "{file}: {key} is not in the output schema"
                );
            }
        }
    }
}
