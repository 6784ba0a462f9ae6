//! Every remedy the adapter can give names only tools that exist, with arguments those tools
//! take and values their schemas accept. Remedies are written where failures are made (the
//! client library, core, this adapter), naming verbs as a person types them; the adapter turns
//! each `` `phux VERB ...` `` into its tool's call. This test reads every command quoted in a
//! string of those crates' sources (a superset of the remedies), fills the placeholders the
//! way a failure does (`{pane}` → `@3`), and holds each translation to the tool's schema. A
//! command whose verb has a tool but that cannot be said as its call must be listed below with
//! the reason, or the test fails.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::path::{Path, PathBuf};

use phux_mcp::schema::validate;
use phux_mcp::tools::catalog::ToolSet;
use phux_mcp::tools::remedy::{arguments_object, for_tools, translate};
use phux_mcp::tools::{all, find};

/// Commands with a tool that stay a person's command, each with why.
const UNTRANSLATED: &[(&str, &str)] = &[
    (
        "phux kill --server",
        "stopping the server is an operator's act; no tool takes it",
    ),
    (
        "phux snapshot --json @N > screen.json",
        "a shell redirect: the file is for `agent explain --file`",
    ),
    (
        "phux rec --from /tmp/f -o /tmp/f",
        "re-encoding a cast is a verb flag with no tool argument",
    ),
];

fn sources() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", "../client/src", "../../core/src"] {
        collect(&root.join(dir), &mut files);
    }
    assert!(files.len() > 50, "the sources were not found: {files:?}");
    files
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// The `` `phux ...` `` quoted in code lines (not comments), placeholders filled.
fn quoted_commands() -> Vec<(String, String)> {
    let mut found = Vec::new();
    for file in sources() {
        let text = std::fs::read_to_string(&file).unwrap();
        for line in text.lines() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            let mut rest = line;
            while let Some(start) = rest.find("`phux ") {
                let after = &rest[start + 1..];
                let Some(end) = after.find('`') else { break };
                let command = after[..end]
                    .replace("{pane}", "@3")
                    .replace("{id}", "x")
                    .replace("{group}", "layout")
                    .replace("{}", "/tmp/f");
                found.push((command, file.display().to_string()));
                rest = &after[end + 1..];
            }
        }
    }
    found
}

#[test]
fn every_remedy_names_only_tools_and_arguments_that_exist() {
    let commands = quoted_commands();
    assert!(
        commands.len() > 40,
        "too few commands found: {}",
        commands.len()
    );
    let mut problems = Vec::new();
    let mut translated = 0;
    for (command, file) in &commands {
        let words: Vec<&str> = command.split_whitespace().collect();
        let has_tool = phux_client::verbs::table::VERBS.iter().any(|verb| {
            matches!(verb.mcp, phux_client::verbs::table::Mcp::Tool(_))
                && words.len() > verb.name.split(' ').count()
                && words[1..=verb.name.split(' ').count()].join(" ") == verb.name
        });
        match translate(command) {
            Some(call) => {
                translated += 1;
                let tool = find(call.tool).expect("a translated tool exists");
                let schema = (tool.schema)();
                for (name, value) in &call.arguments {
                    let property = &schema["properties"][name];
                    if property.is_null() {
                        problems.push(format!("{file}: `{command}`: {} has no {name}", call.tool));
                    } else if let Err(e) = validate(property, value, name) {
                        problems.push(format!("{file}: `{command}`: {e}"));
                    }
                }
                // And the whole call, but for arguments the remedy leaves to the caller.
                let object = arguments_object(&call);
                if let Err(e) = validate(
                    &serde_json::json!({"type": "object", "properties": schema["properties"], "additionalProperties": false}),
                    &object,
                    "",
                ) {
                    problems.push(format!("{file}: `{command}`: {e}"));
                }
            }
            None if has_tool && !UNTRANSLATED.iter().any(|(c, _)| c == command) => {
                problems.push(format!(
                    "{file}: `{command}` has a tool but cannot be said as its call"
                ));
            }
            None => {}
        }
    }
    // The exceptions stay true: each is still quoted somewhere, and still untranslatable.
    for (command, why) in UNTRANSLATED {
        if !commands.iter().any(|(c, _)| c == command) || translate(command).is_some() {
            problems.push(format!("stale exception `{command}` ({why})"));
        }
    }
    assert!(
        translated > 20,
        "only {translated} commands were translated"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The adapter's own words name tools by name (`phux_job`, `phux_run with tail`): each exists.
#[test]
fn every_tool_the_adapter_names_exists() {
    let names: Vec<&str> = all().iter().map(|t| t.name).collect();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    collect(&root, &mut files);
    let mut missing = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for word in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
            if word.starts_with("phux_")
                && !word.starts_with("phux_client")
                && !word.starts_with("phux_core")
                && !word.starts_with("phux_mcp")
                && word != "phux_tests"
                && !word.ends_with('_')
                // `phux_VERB`: a pattern, not a name.
                && !word.chars().any(|c| c.is_ascii_uppercase())
                && !names.contains(&word)
            {
                missing.push(format!("{}: {word}", file.display()));
            }
        }
    }
    missing.sort();
    missing.dedup();
    assert!(missing.is_empty(), "names of no tool: {missing:?}");
}

/// In a session listing only `core`, a remedy naming another group's tool says which group.
#[test]
fn a_remedy_naming_an_unlisted_tool_says_how_to_list_it() {
    let said = for_tools(
        "the cast is valid up to that point (play it with `phux play /tmp/f`)",
        &ToolSet::default(),
    );
    assert!(said.contains("`phux_play` with file: \"/tmp/f\""), "{said}");
    assert!(said.contains("--tools core,layout"), "{said}");
    let listed = for_tools("`phux play /tmp/f`", &ToolSet::all());
    assert_eq!(listed, "`phux_play` with file: \"/tmp/f\"");
}
