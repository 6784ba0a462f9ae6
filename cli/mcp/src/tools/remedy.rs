//! Remedies in MCP terms: a failure's remedy names the verb a person would type (`phux
//! snapshot @3`, `--overwrite`); a host calls tools, so the adapter says `phux_snapshot`
//! with `target: "@3"` and `overwrite: true` instead. A command is translated only when every
//! word of it is an argument of its tool (read from the tool's input schema and its
//! [`remedy_shapes`](super::remedy_shapes) entry); one that is not stays as the person's
//! command, and a test holds every remedy phux can give to that rule. A tool the session does
//! not list is named with the group that lists it.

use serde_json::{Map, Value};

use super::catalog::{self, ToolSet};
use super::remedy_shapes;
use phux_client::verbs::table::{Mcp, VERBS};

/// A command as a tool call: the tool and its arguments, in the order the command gave them.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    pub tool: &'static str,
    pub arguments: Vec<(String, Value)>,
}

/// `remedy` with every `` `phux VERB ...` `` that has a tool as that tool's call, and bare
/// `--flag`s as arguments; `listed` says which tools this session lists.
pub fn for_tools(remedy: &str, listed: &ToolSet) -> String {
    let mut out = String::with_capacity(remedy.len());
    let mut rest = remedy;
    while let Some(start) = rest.find('`') {
        out.push_str(&flags_as_arguments(&rest[..start]));
        let after = &rest[start + 1..];
        let Some(end) = after.find('`') else {
            out.push_str(&rest[start..]);
            return out;
        };
        let quoted = &after[..end];
        match translate(quoted) {
            Some(call) => out.push_str(&render(&call, listed)),
            None => {
                out.push('`');
                out.push_str(quoted);
                out.push('`');
            }
        }
        rest = &after[end + 1..];
    }
    out.push_str(&flags_as_arguments(rest));
    out
}

/// The tool (and its name) a command's verb words stand for, with the words left after them.
fn tool_of<'a>(words: &'a [&'a str]) -> Option<(&'static str, &'a [&'a str])> {
    let tool_named = |name: &str| {
        VERBS.iter().find_map(|verb| match verb.mcp {
            Mcp::Tool(tool) if verb.name == name => Some(tool),
            _ => None,
        })
    };
    if let [first, second, rest @ ..] = words {
        if let Some(tool) = tool_named(&format!("{first} {second}")) {
            return Some((tool, rest));
        }
    }
    let (first, rest) = words.split_first()?;
    Some((tool_named(first)?, rest))
}

/// `phux snapshot --tail 5 @3` → `phux_snapshot` with `tail: 5, target: "@3"`; `None` when the
/// command is no `phux` verb with a tool, or a word of it has no argument to go to.
pub fn translate(command: &str) -> Option<ToolCall> {
    let words: Vec<&str> = command.split_whitespace().collect();
    let (phux, words) = words.split_first()?;
    if *phux != "phux" {
        return None;
    }
    let (tool, mut words) = tool_of(words)?;
    let schema = (super::find(tool)?.schema)();
    let properties = schema.get("properties")?.as_object()?;
    let shape = remedy_shapes::of(tool);
    let mut arguments = Vec::new();
    if let Some(action) = shape.action {
        if let Some((word, rest)) = words.split_first().filter(|(w, _)| !w.starts_with('-')) {
            words = rest;
            // `ls|add|rm` names the choices, not one of them; `...` elides them.
            if !word.contains('|') && !word.contains("...") {
                arguments.push((action.to_owned(), Value::from(*word)));
            }
        }
    }
    let mut positionals = shape.positionals.iter();
    let mut variadic: Option<(&str, Vec<Value>)> = None;
    let mut i = 0;
    while i < words.len() {
        let word = words[i];
        i += 1;
        if let Some(flag) = word.strip_prefix("--").or_else(|| word.strip_prefix('-')) {
            let (flag, inline) = match flag.split_once('=') {
                Some((flag, value)) => (flag, Some(value)),
                None => (flag, None),
            };
            if flag == "json" {
                continue;
            }
            let name = shape
                .flags
                .iter()
                .find(|(f, _)| *f == flag)
                .map_or_else(|| flag.replace('-', "_"), |(_, a)| (*a).to_owned());
            let property = properties.get(&name)?;
            let next = inline.or_else(|| words.get(i).copied());
            let value = match kinds(property).as_slice() {
                ["boolean"] => Value::Bool(true),
                ["boolean", "integer"] => match next.and_then(|n| n.parse::<u64>().ok()) {
                    Some(n) => {
                        i += usize::from(inline.is_none());
                        Value::from(n)
                    }
                    None => Value::Bool(true),
                },
                _ => {
                    let value = next.filter(|n| inline.is_some() || !n.starts_with('-'))?;
                    i += usize::from(inline.is_none());
                    typed(property, value)
                }
            };
            arguments.push((name, value));
            continue;
        }
        if word.contains("...") || word.contains('…') {
            // An elision (`send-keys @3 ...`): whatever the caller has to say.
            continue;
        }
        if let Some((_, items)) = &mut variadic {
            items.push(Value::from(word));
            continue;
        }
        let positional = positionals.next()?;
        match positional.strip_suffix("...") {
            Some(name) => variadic = Some((name, vec![Value::from(word)])),
            None => {
                let property = properties.get(*positional)?;
                arguments.push(((*positional).to_owned(), typed(property, word)));
            }
        }
    }
    if let Some((name, items)) = variadic {
        arguments.push((name.to_owned(), Value::Array(items)));
    }
    Some(ToolCall { tool, arguments })
}

/// The JSON types a property allows.
fn kinds(property: &Value) -> Vec<&str> {
    match property.get("type") {
        Some(Value::String(kind)) => vec![kind.as_str()],
        Some(Value::Array(kinds)) => kinds.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// `word` as the property takes it: a number for a number, else a string.
fn typed(property: &Value, word: &str) -> Value {
    let numeric = kinds(property)
        .iter()
        .any(|k| *k == "integer" || *k == "number");
    match word.parse::<f64>() {
        Ok(n) if numeric && word.parse::<u64>().is_ok() => Value::from(n as u64),
        Ok(n) if numeric => Value::from(n),
        _ => Value::from(word),
    }
}

/// The call as a sentence: `` `phux_signal` with target: "@3", signal: "interrupt" ``, and the
/// group that lists the tool when this session does not.
pub fn render(call: &ToolCall, listed: &ToolSet) -> String {
    let mut text = format!("`{}`", call.tool);
    if !call.arguments.is_empty() {
        let arguments: Vec<String> = call
            .arguments
            .iter()
            .map(|(name, value)| format!("{name}: {value}"))
            .collect();
        text.push_str(" with ");
        text.push_str(&arguments.join(", "));
    }
    if !listed.lists(call.tool) {
        let group = catalog::meta(call.tool).map_or("all", |m| m.group.name());
        text.push_str(&format!(
            " ({} is in the {group} tool group, which this session does not list: the host \
             starts the adapter with --tools core,{group})",
            call.tool
        ));
    }
    text
}

/// The arguments as an object, to check against the tool's input schema.
pub fn arguments_object(call: &ToolCall) -> Value {
    let mut map = Map::new();
    for (name, value) in &call.arguments {
        map.insert(name.clone(), value.clone());
    }
    Value::Object(map)
}

/// A bare `--overwrite` as the argument `overwrite: true`.
fn flags_as_arguments(text: &str) -> String {
    text.replace("--overwrite", "overwrite: true")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn all() -> ToolSet {
        ToolSet::all()
    }

    #[test]
    fn a_remedy_names_tools_and_arguments() {
        assert_eq!(
            for_tools("list sessions with `phux ls --json`", &all()),
            "list sessions with `phux_ls`"
        );
        assert_eq!(
            for_tools("read its last screen with `phux snapshot @3`", &all()),
            "read its last screen with `phux_snapshot` with target: \"@3\""
        );
        assert_eq!(
            for_tools("pass --overwrite to replace it", &all()),
            "pass overwrite: true to replace it"
        );
        assert_eq!(
            for_tools("see `phux agent show @2`, or `ls -la`", &all()),
            "see `phux_agent_show` with target: \"@2\", or `ls -la`"
        );
    }

    /// Each of these remedies once named an argument its tool does not have.
    #[test]
    fn the_remedies_that_failed_when_followed_name_real_arguments() {
        let call = |command: &str| {
            let call = translate(command).unwrap();
            (call.tool, arguments_object(&call))
        };
        assert_eq!(
            call("phux signal @3 interrupt"),
            (
                "phux_signal",
                json!({"target": "@3", "signal": "interrupt"})
            )
        );
        assert_eq!(
            call("phux wait --idle 500 @3"),
            ("phux_wait", json!({"idle_ms": 500, "target": "@3"}))
        );
        assert_eq!(
            call("phux play /tmp/x.cast"),
            ("phux_play", json!({"file": "/tmp/x.cast"}))
        );
        assert_eq!(
            call("phux snapshot --tail @3"),
            ("phux_snapshot", json!({"tail": true, "target": "@3"}))
        );
        assert_eq!(
            call("phux send-keys @3 ..."),
            ("phux_send_keys", json!({"target": "@3"}))
        );
        assert_eq!(call("phux tag ls|add|rm --json"), ("phux_tag", json!({})));
        // A flag the tool does not have: the person's command stays.
        assert_eq!(translate("phux kill --server"), None);
        assert_eq!(
            for_tools("stop it with `phux kill --server`", &all()),
            "stop it with `phux kill --server`"
        );
    }

    #[test]
    fn a_tool_the_session_does_not_list_is_named_with_its_group() {
        let core = ToolSet::default();
        let said = for_tools("play it with `phux play /tmp/x.cast`", &core);
        assert!(
            said.starts_with("play it with `phux_play` with file: \"/tmp/x.cast\" (phux_play is in the layout tool group"),
            "{said}"
        );
        assert!(said.contains("--tools core,layout"), "{said}");
    }

    /// The shapes name tools that exist and arguments those tools take.
    #[test]
    fn every_shape_names_real_arguments() {
        for tool in remedy_shapes::tools() {
            let schema = (crate::tools::find(tool).unwrap().schema)();
            let shape = remedy_shapes::of(tool);
            let named = shape
                .positionals
                .iter()
                .map(|p| p.trim_end_matches("..."))
                .chain(shape.flags.iter().map(|(_, a)| *a))
                .chain(shape.action);
            for argument in named {
                assert!(
                    schema["properties"][argument].is_object(),
                    "{tool} has no argument {argument}"
                );
            }
        }
    }
}
