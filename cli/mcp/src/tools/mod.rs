//! The tools: one per agent-facing verb, named `phux_VERB` (`phux_agent_SUB` for `phux agent
//! SUB`, `phux_config_SUB` for `phux config SUB`; `phux_plugin_action` for `config run`). Each states its input schema, and its call builds the verb's own request and calls
//! the same client library functions the verb calls, returning the document the verb's
//! `--json` prints. A failure is the verb's failure: the adapter turns it into an `isError`
//! result carrying the JSON error document.

mod agent;
pub mod catalog;
mod config;
mod create;
mod drive;
mod jobs;
mod layout;
mod media;
pub mod output;
mod read;
pub mod remedy;
mod remedy_shapes;
mod workspace;

use serde::de::DeserializeOwned;
use serde_json::Value;

use phux_core::error_code::ErrorCode;

use phux_client::failure::Failure;
use phux_client::stop::Stop;
use phux_client::Context;

/// The most bytes a tool's result (its pretty JSON text) may take.
pub const MAX_OUTPUT_BYTES: usize = 1024 * 1024;

/// One tool.
pub struct Tool {
    pub name: &'static str,
    pub description: &'static str,
    /// Its input schema (a strict object).
    pub schema: fn() -> Value,
    pub call: fn(&Call) -> Result<Document, Failure>,
}

/// A tool's result: the JSON text (rendered from the document itself, so its keys keep the
/// order the CLI prints them in) and the same document as a value (`structuredContent`).
#[derive(Debug, Clone)]
pub struct Document {
    pub text: String,
    pub value: Value,
}

/// What a tool's call gets: its validated arguments, where the server is, and the button a
/// client's cancellation presses.
pub struct Call {
    pub arguments: Value,
    pub context: Context,
    pub stop: Stop,
}

impl Call {
    /// The arguments as the tool's own typed struct (already checked against its schema).
    pub fn parse<T: DeserializeOwned>(&self) -> Result<T, Failure> {
        serde_json::from_value(self.arguments.clone())
            .map_err(|e| invalid_argument(format!("invalid arguments: {e}")))
    }
}

/// Every tool, in the order `tools/list` shows them.
pub fn all() -> Vec<Tool> {
    let mut tools = Vec::new();
    tools.extend(read::tools());
    tools.extend(drive::tools());
    tools.extend(jobs::tools());
    tools.extend(create::tools());
    tools.extend(layout::tools());
    tools.extend(media::tools());
    tools.extend(agent::tools());
    tools.extend(config::tools());
    tools.extend(workspace::tools());
    tools
}

/// The tool called `name`.
pub fn find(name: &str) -> Option<Tool> {
    all().into_iter().find(|t| t.name == name)
}

/// The `tools/list` entry of a tool: its name, title, description, input schema, annotations
/// and output schema.
pub fn listing(tool: &Tool) -> Value {
    let mut entry = serde_json::json!({
        "name": tool.name,
        "description": tool.description,
        "inputSchema": (tool.schema)(),
    });
    for (key, value) in catalog::listing_fields(tool.name) {
        entry[key] = value;
    }
    entry
}

/// The tools `set` lists, in `tools/list` order.
pub fn listed(set: &catalog::ToolSet) -> Vec<Tool> {
    all().into_iter().filter(|t| set.lists(t.name)).collect()
}

/// Calls `tool` with `arguments` (null = none): checks them against its schema, refuses a pane
/// id from before a server restart (`instances`), runs it, and holds the result to
/// [`MAX_OUTPUT_BYTES`] (a larger one is kept in a private file, see [`crate::spill`]).
pub fn call(
    tool: &Tool,
    arguments: Value,
    socket: &std::path::Path,
    stop: Stop,
    instances: &crate::instance::Instances,
) -> Result<Document, Failure> {
    let arguments = match arguments {
        Value::Null => Value::Object(serde_json::Map::new()),
        other => other,
    };
    let schema = (tool.schema)();
    let required = schema["required"].as_array().cloned().unwrap_or_default();
    if required.contains(&Value::from("confirm"))
        && arguments.get("confirm") != Some(&Value::Bool(true))
    {
        return Err(confirmation_required(tool.name));
    }
    let arguments = ids_as_targets(arguments);
    crate::schema::validate(&schema, &arguments, "")
        .map_err(|message| invalid_argument(format!("{}: {message}", tool.name)))?;
    let seen = instances.check(socket, &arguments)?;
    let call = Call {
        arguments,
        context: Context {
            socket: socket.to_path_buf(),
        },
        stop,
    };
    let outcome = (tool.call)(&call);
    instances.settle(seen, outcome.is_ok());
    let document = with_target(outcome?);
    if document.text.len() > MAX_OUTPUT_BYTES {
        return Err(too_large(tool.name, &document.text));
    }
    Ok(document)
}

/// `output_too_large` for a result that is kept whole in a private file, named in the answer:
/// whatever the call did is done, and is never to be done again to see its result.
pub fn too_large(tool: &str, text: &str) -> Failure {
    let size = text.len();
    let reads = catalog::meta(tool).is_some_and(|m| m.effect == catalog::Effect::Reads);
    let next_time = if reads {
        " (or call it again asking for less: a smaller `tail`, no `scrollback`, no `cells`)"
    } else {
        ": the call is done, do not repeat it"
    };
    match crate::spill::write(tool, "json", text) {
        Ok(path) => Failure::new(
            ErrorCode::OutputTooLarge,
            format!(
                "{tool}'s result is {size} bytes, over the {MAX_OUTPUT_BYTES} a tool may return; \
                 the whole result (JSON) is kept in {}",
                path.display()
            ),
            format!("read the part you need from {}{next_time}", path.display()),
        ),
        Err(e) => Failure::new(
            ErrorCode::OutputTooLarge,
            format!(
                "{tool}'s result is {size} bytes, over the {MAX_OUTPUT_BYTES} a tool may return, \
                 and it could not be kept in {}: {e}",
                crate::spill::directory().display()
            ),
            if reads {
                "ask for less: a smaller `tail`, no `scrollback`, or no `cells`"
            } else {
                "the call is done, do not repeat it; make phux's state directory writable to keep such results"
            },
        ),
    }
}

/// Pane ids may be given as the integers results carry (`terminal_id: 3`): as a target they
/// are `@3`.
fn ids_as_targets(mut arguments: Value) -> Value {
    for key in ["target", "first", "second", "source", "beside"] {
        if let Some(id) = arguments.get(key).and_then(Value::as_u64) {
            arguments[key] = Value::from(format!("@{id}"));
        }
    }
    if let Some(targets) = arguments.get_mut("targets").and_then(Value::as_array_mut) {
        for target in targets {
            if let Some(id) = target.as_u64() {
                *target = Value::from(format!("@{id}"));
            }
        }
    }
    arguments
}

/// A result that names a new or acted-on pane by its bare `terminal_id` also says how to
/// name it as a target (`"@3"`, or `"NAME/@3"` on a satellite), so it can be fed back as is.
fn with_target(mut document: Document) -> Document {
    let Some(id) = document.value.get("terminal_id").and_then(Value::as_u64) else {
        return document;
    };
    if document.value.get("target").is_some() || !document.text.ends_with('}') {
        return document;
    }
    let target = match document.value.get("satellite").and_then(Value::as_str) {
        Some(host) => format!("{host}/@{id}"),
        None => format!("@{id}"),
    };
    document.text.pop();
    document
        .text
        .push_str(&format!(",\"target\":{}}}", Value::from(target.clone())));
    document.value["target"] = Value::from(target);
    document
}

/// A document as the text block of `--schema`: pretty JSON.
pub fn pretty(document: &Value) -> String {
    serde_json::to_string_pretty(document).unwrap_or_else(|_| document.to_string())
}

/// A small document built field by field, printed in the order given (`schema_version`
/// first, as every document phux prints).
pub struct Fields(pub Vec<(&'static str, Value)>);

impl serde::Serialize for Fields {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (key, value) in &self.0 {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

/// A document as a tool's result (`json_serialize` if it cannot be: a phux bug).
pub fn to_value<T: serde::Serialize>(document: &T) -> Result<Document, Failure> {
    // Compact: the text block is read by a model, and whitespace is tokens.
    let rendered = serde_json::to_string(document)
        .and_then(|text| Ok((text, serde_json::to_value(document)?)));
    match rendered {
        Ok((text, value)) => Ok(Document { text, value }),
        Err(e) => Err(Failure::new(
            ErrorCode::JsonSerialize,
            format!("cannot render the result: {e}"),
            "this is a phux bug; please report it with the tool call that caused it",
        )),
    }
}

pub fn invalid_argument(message: impl Into<String>) -> Failure {
    Failure::new(
        ErrorCode::InvalidArgument,
        message,
        "see the tool's inputSchema in tools/list (or `phux mcp --schema`)",
    )
}

/// The refusal of a destructive call made without `confirm: true`.
pub fn require_confirm(call: &Call, what: &str) -> Result<(), Failure> {
    if call.arguments.get("confirm") == Some(&Value::Bool(true)) {
        return Ok(());
    }
    Err(confirmation_required(what))
}

fn confirmation_required(what: &str) -> Failure {
    Failure::new(
        ErrorCode::ConfirmationRequired,
        format!("{what} destroys or interrupts what runs there, so it needs confirm: true"),
        "call again with \"confirm\": true once you are sure",
    )
}

/// Seconds as a duration.
pub fn seconds(secs: f64) -> std::time::Duration {
    std::time::Duration::from_secs_f64(secs.max(0.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every verb of the command line (`phux_client::verbs::table`, which the binary checks
    /// against its clap description) has its tool, or a reason it has none.
    #[test]
    fn every_verb_has_a_tool_or_a_reason() {
        use phux_client::verbs::table::{Mcp, VERBS};
        let mut missing = Vec::new();
        for verb in VERBS {
            if let Mcp::Tool(tool) = verb.mcp {
                if find(tool).is_none() {
                    missing.push((verb.name, tool));
                }
            }
        }
        assert!(
            missing.is_empty(),
            "verbs whose tool is missing: {missing:?}; add the tool in cli/mcp/src/tools/ or a \
             reason (Mcp::NoTool) in cli/client/src/verbs/table.rs"
        );
    }

    #[test]
    fn docs_mcp_md_lists_every_tool() {
        let doc =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/mcp.md"))
                .unwrap_or_default();
        for tool in all() {
            assert!(
                doc.contains(&format!("| `{}` |", tool.name)),
                "docs/mcp.md has no row for {}",
                tool.name
            );
        }
    }

    #[test]
    fn tool_names_are_unique_and_schemas_strict() {
        let tools = all();
        let mut names: Vec<&str> = tools.iter().map(|t| t.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), tools.len());
        for tool in &tools {
            let schema = (tool.schema)();
            assert_eq!(schema["additionalProperties"], false, "{}", tool.name);
            // The socket is the adapter's own option, never an argument.
            assert!(schema["properties"]["socket"].is_null(), "{}", tool.name);
        }
    }

    #[test]
    fn every_tool_has_a_group_title_and_annotations_and_core_stays_small() {
        for tool in all() {
            let entry = listing(&tool);
            assert!(
                catalog::meta(tool.name).is_some(),
                "{} has no catalog entry",
                tool.name
            );
            assert!(entry["title"].is_string(), "{}", tool.name);
            assert!(
                entry["annotations"]["readOnlyHint"].is_boolean(),
                "{}",
                tool.name
            );
            assert_eq!(entry["outputSchema"]["type"], "object", "{}", tool.name);
            assert!(
                !entry["outputSchema"]["properties"]["schema_version"].is_null()
                    || tool.name == "phux_wait",
                "{} states no document",
                tool.name
            );
        }
        let core = listed(&catalog::ToolSet::default());
        assert!(core.len() <= 15, "core lists {} tools", core.len());
        assert_eq!(listed(&catalog::ToolSet::all()).len(), all().len());
        assert!(catalog::ToolSet::parse("core,bogus").is_err());
    }
}
