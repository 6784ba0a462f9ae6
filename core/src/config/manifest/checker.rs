//! The checks of a manifest, each problem reported with its file, line, table and id: unknown
//! keys, ids present and unique per table, non-empty argv commands, known vocabularies, the
//! `min_phux_version` floor, and `[[workspaces]]` references that resolve.

use std::collections::HashMap;
use std::path::Path;

use super::super::location::line_of;
use super::super::version;
use super::{valid_id, Manifest, Problem, EVENT_NAMES};

const CONTEXTS: &[&str] = &["workspace", "pane"];
const PLACEMENTS: &[&str] = &["split", "tab", "zoomed"];
const PLATFORMS: &[&str] = &["linux", "macos"];
const AGENT_STATES: &[&str] = &["unknown", "idle", "working", "blocked"];
const ATTENTIONS: &[&str] = &["none", "low", "normal", "high"];

/// The keys each part of a manifest may have (every key the format documents); anything else
/// is a warning, never a refusal: the format grows, and a newer plugin must still load.
const TOP_KEYS: &[&str] = &[
    "id",
    "name",
    "version",
    "min_phux_version",
    "description",
    "platforms",
    "build",
    "actions",
    "events",
    "panes",
    "links",
    "agents",
    "workspaces",
    "widgets",
];
const TABLE_KEYS: &[(&str, &[&str])] = &[
    ("build", &["id", "title", "description", "command"]),
    (
        "actions",
        &["id", "title", "description", "contexts", "command", "keys"],
    ),
    ("events", &["id", "title", "description", "on", "command"]),
    (
        "panes",
        &["id", "title", "description", "placement", "command"],
    ),
    (
        "links",
        &[
            "id",
            "title",
            "description",
            "contexts",
            "patterns",
            "command",
        ],
    ),
    (
        "agents",
        &[
            "id",
            "label",
            "description",
            "state",
            "attention",
            "contexts",
        ],
    ),
    (
        "workspaces",
        &[
            "id",
            "title",
            "description",
            "contexts",
            "agents",
            "actions",
            "events",
            "panes",
        ],
    ),
    (
        "widgets",
        &["id", "title", "slot", "kind", "command", "interval"],
    ),
];
const WORKSPACE_PANE_KEYS: &[&str] = &["id", "pane", "role"];

/// The line each `[[table]]` entry starts on, for problems about one entry.
pub(super) struct EntryLines(HashMap<String, Vec<usize>>);

impl EntryLines {
    pub(super) fn of(text: &str, document: &toml_edit::Document<&str>) -> EntryLines {
        let mut lines = HashMap::new();
        for (name, _) in TABLE_KEYS {
            if let Some(array) = document
                .get(name)
                .and_then(toml_edit::Item::as_array_of_tables)
            {
                let starts = array
                    .iter()
                    .map(|t| t.span().map_or(0, |s| line_of(text, s.start)))
                    .collect();
                lines.insert((*name).to_string(), starts);
            }
        }
        EntryLines(lines)
    }

    fn line(&self, table: &str, index: usize) -> Option<usize> {
        self.0
            .get(table)
            .and_then(|l| l.get(index))
            .copied()
            .filter(|&l| l > 0)
    }
}

pub(super) struct Checker<'a> {
    pub(super) file: &'a Path,
    pub(super) lines: &'a EntryLines,
    pub(super) problems: Vec<Problem>,
    /// Keys the format does not know: reported, never refused.
    pub(super) warnings: Vec<Problem>,
}

impl Checker<'_> {
    fn top(&mut self, line: Option<usize>, message: String) {
        self.problems.push(Problem {
            file: self.file.to_path_buf(),
            line,
            table: None,
            id: None,
            message,
        });
    }

    fn entry(&mut self, table: &str, index: usize, id: Option<&str>, message: String) {
        self.problems.push(Problem {
            file: self.file.to_path_buf(),
            line: self.lines.line(table, index),
            table: Some(table.to_string()),
            id: id.map(str::to_string),
            message,
        });
    }

    fn warn(&mut self, table: &str, line: Option<usize>, id: Option<&str>, message: String) {
        self.warnings.push(Problem {
            file: self.file.to_path_buf(),
            line,
            table: Some(table.to_string()),
            id: id.map(str::to_string),
            message,
        });
    }

    pub(super) fn unknown_keys(&mut self, text: &str, document: &toml_edit::Document<&str>) {
        let root = document.as_table();
        for (key, _) in root.iter() {
            if !TOP_KEYS.contains(&key) {
                let line = root
                    .key(key)
                    .and_then(toml_edit::Key::span)
                    .map(|s| line_of(text, s.start));
                self.warnings.push(Problem {
                    file: self.file.to_path_buf(),
                    line,
                    table: None,
                    id: None,
                    message: format!(
                        "unknown key `{key}` (ignored); a manifest has {}",
                        TOP_KEYS.join(", ")
                    ),
                });
            }
        }
        for (table, known) in TABLE_KEYS {
            let Some(item) = root.get(table) else {
                continue;
            };
            let Some(array) = item.as_array_of_tables() else {
                self.top(
                    item.span().map(|s| line_of(text, s.start)),
                    format!("`{table}` must be an array of tables ([[{table}]])"),
                );
                continue;
            };
            for (index, entry) in array.iter().enumerate() {
                let id = entry.get("id").and_then(toml_edit::Item::as_str);
                for (key, value) in entry.iter() {
                    if !known.contains(&key) {
                        let line = entry
                            .key(key)
                            .and_then(toml_edit::Key::span)
                            .map(|s| line_of(text, s.start));
                        self.warn(
                            table,
                            line.or_else(|| self.lines.line(table, index)),
                            id,
                            format!(
                                "unknown key `{key}` (ignored); [[{table}]] has {}",
                                known.join(", ")
                            ),
                        );
                    } else if *table == "workspaces" && key == "panes" {
                        self.workspace_pane_keys(text, index, id, value);
                    }
                }
            }
        }
    }

    fn workspace_pane_keys(
        &mut self,
        text: &str,
        index: usize,
        id: Option<&str>,
        value: &toml_edit::Item,
    ) {
        let Some(panes) = value.as_array_of_tables() else {
            return;
        };
        for pane in panes.iter() {
            for (key, _) in pane.iter() {
                if !WORKSPACE_PANE_KEYS.contains(&key) {
                    let line = pane
                        .key(key)
                        .and_then(toml_edit::Key::span)
                        .map(|s| line_of(text, s.start));
                    self.warn(
                        "workspaces",
                        line.or_else(|| self.lines.line("workspaces", index)),
                        id,
                        format!(
                            "unknown key `{key}` in [[workspaces.panes]] (ignored); it has {}",
                            WORKSPACE_PANE_KEYS.join(", ")
                        ),
                    );
                }
            }
        }
    }

    pub(super) fn top_level(&mut self, manifest: &Manifest) {
        match manifest.id.as_deref() {
            None => self.top(
                None,
                "missing `id` (a reverse-DNS name such as \"com.example.tools\")".into(),
            ),
            Some(id) if !valid_id(id) => self.top(
                None,
                format!(
                    "`id` {id:?} must be dot-separated segments of letters, digits, '-' or '_' \
                     (no empty segment, so neither \".\" nor \"..\")"
                ),
            ),
            Some(_) => {}
        }
        if let Some(floor) = &manifest.min_phux_version {
            match version::phux_satisfies(floor) {
                None => self.top(
                    None,
                    format!("`min_phux_version` {floor:?} is not a version such as \"0.1.0\""),
                ),
                Some(false) => self.top(
                    None,
                    format!(
                        "needs phux {floor} or newer (`min_phux_version`), this is phux {}",
                        version::PHUX_VERSION
                    ),
                ),
                Some(true) => {}
            }
        }
        if let Some(platforms) = &manifest.platforms {
            for platform in platforms {
                if !PLATFORMS.contains(&platform.as_str()) {
                    self.top(
                        None,
                        format!(
                            "unknown platform {platform:?} in `platforms`; known: linux, macos"
                        ),
                    );
                }
            }
            let here = if cfg!(target_os = "macos") {
                "macos"
            } else {
                "linux"
            };
            if !platforms.is_empty() && !platforms.iter().any(|p| p == here) {
                self.top(
                    None,
                    format!(
                        "the plugin supports {} only, not {here}",
                        platforms.join(", ")
                    ),
                );
            }
        }
    }

    pub(super) fn tables(&mut self, m: &Manifest) {
        self.ids("build", m.build.iter().map(|e| e.id.as_deref()).collect());
        self.ids(
            "actions",
            m.actions.iter().map(|e| e.id.as_deref()).collect(),
        );
        self.ids("events", m.events.iter().map(|e| e.id.as_deref()).collect());
        self.ids("panes", m.panes.iter().map(|e| e.id.as_deref()).collect());
        self.ids("links", m.links.iter().map(|e| e.id.as_deref()).collect());
        self.ids("agents", m.agents.iter().map(|e| e.id.as_deref()).collect());
        self.ids(
            "workspaces",
            m.workspaces.iter().map(|e| e.id.as_deref()).collect(),
        );
        self.ids(
            "widgets",
            m.widgets.iter().map(|e| e.id.as_deref()).collect(),
        );
        for (i, e) in m.build.iter().enumerate() {
            self.command("build", i, e.id.as_deref(), e.command.as_ref());
        }
        for (i, e) in m.actions.iter().enumerate() {
            self.command("actions", i, e.id.as_deref(), e.command.as_ref());
            self.vocabulary(
                "actions",
                i,
                e.id.as_deref(),
                "contexts",
                e.contexts.iter().flatten(),
                CONTEXTS,
            );
        }
        for (i, e) in m.events.iter().enumerate() {
            self.command("events", i, e.id.as_deref(), e.command.as_ref());
            match e.on.as_deref() {
                None => self.entry(
                    "events",
                    i,
                    e.id.as_deref(),
                    "missing `on` (the event name)".into(),
                ),
                Some(on) if !EVENT_NAMES.contains(&on) => self.entry(
                    "events",
                    i,
                    e.id.as_deref(),
                    format!(
                        "unknown event {on:?} in `on`; events: {}",
                        EVENT_NAMES.join(", ")
                    ),
                ),
                Some(_) => {}
            }
        }
        for (i, e) in m.panes.iter().enumerate() {
            self.command("panes", i, e.id.as_deref(), e.command.as_ref());
            self.vocabulary(
                "panes",
                i,
                e.id.as_deref(),
                "placement",
                e.placement.iter(),
                PLACEMENTS,
            );
        }
        for (i, e) in m.links.iter().enumerate() {
            self.command("links", i, e.id.as_deref(), e.command.as_ref());
            self.vocabulary(
                "links",
                i,
                e.id.as_deref(),
                "contexts",
                e.contexts.iter().flatten(),
                CONTEXTS,
            );
        }
        for (i, e) in m.agents.iter().enumerate() {
            self.vocabulary(
                "agents",
                i,
                e.id.as_deref(),
                "state",
                e.state.iter(),
                AGENT_STATES,
            );
            self.vocabulary(
                "agents",
                i,
                e.id.as_deref(),
                "attention",
                e.attention.iter(),
                ATTENTIONS,
            );
            self.vocabulary(
                "agents",
                i,
                e.id.as_deref(),
                "contexts",
                e.contexts.iter().flatten(),
                CONTEXTS,
            );
        }
        for (i, e) in m.workspaces.iter().enumerate() {
            self.vocabulary(
                "workspaces",
                i,
                e.id.as_deref(),
                "contexts",
                e.contexts.iter().flatten(),
                CONTEXTS,
            );
        }
        for (i, e) in m.widgets.iter().enumerate() {
            self.command("widgets", i, e.id.as_deref(), e.command.as_ref());
        }
        self.references(m);
    }

    /// Every entry has an id, and no two in one table share it.
    fn ids(&mut self, table: &str, ids: Vec<Option<&str>>) {
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for (index, id) in ids.into_iter().enumerate() {
            match id {
                None | Some("") => self.entry(
                    table,
                    index,
                    None,
                    format!("entry {} has no `id`", index + 1),
                ),
                Some(id) => {
                    if let Some(first) = seen.get(id) {
                        let at = self.lines.line(table, *first).map_or_else(
                            || format!("entry {}", first + 1),
                            |l| format!("line {l}"),
                        );
                        self.entry(
                            table,
                            index,
                            Some(id),
                            format!("duplicate id (first at {at})"),
                        );
                    } else {
                        seen.insert(id, index);
                    }
                }
            }
        }
    }

    fn command(
        &mut self,
        table: &str,
        index: usize,
        id: Option<&str>,
        command: Option<&Vec<String>>,
    ) {
        match command {
            None => self.entry(
                table,
                index,
                id,
                "missing `command` (an argv array such as [\"make\", \"all\"])".into(),
            ),
            Some(argv) if argv.first().is_none_or(|p| p.trim().is_empty()) => self.entry(
                table,
                index,
                id,
                "`command` is empty: it must name a program, then its arguments".into(),
            ),
            Some(_) => {}
        }
    }

    fn vocabulary<'v>(
        &mut self,
        table: &str,
        index: usize,
        id: Option<&str>,
        key: &str,
        values: impl Iterator<Item = &'v String>,
        known: &[&str],
    ) {
        for value in values {
            if !known.contains(&value.as_str()) {
                self.entry(
                    table,
                    index,
                    id,
                    format!("unknown {key} {value:?}; known: {}", known.join(", ")),
                );
            }
        }
    }

    /// `[[workspaces]]` name agents, actions, events and panes by id: each must exist.
    fn references(&mut self, m: &Manifest) {
        let have = |ids: Vec<Option<&String>>| -> Vec<String> {
            ids.into_iter().flatten().cloned().collect()
        };
        let agents = have(m.agents.iter().map(|e| e.id.as_ref()).collect());
        let actions = have(m.actions.iter().map(|e| e.id.as_ref()).collect());
        let events = have(m.events.iter().map(|e| e.id.as_ref()).collect());
        let panes = have(m.panes.iter().map(|e| e.id.as_ref()).collect());
        for (i, w) in m.workspaces.iter().enumerate() {
            let id = w.id.as_deref();
            for (kind, refs, known) in [
                ("agents", &w.agents, &agents),
                ("actions", &w.actions, &actions),
                ("events", &w.events, &events),
            ] {
                for r in refs {
                    if !known.contains(r) {
                        self.entry(
                            "workspaces",
                            i,
                            id,
                            format!(
                                "`{kind}` names {r:?}, which no [[{kind}]] entry has as its id"
                            ),
                        );
                    }
                }
            }
            for pane in &w.panes {
                if let Some(r) = &pane.pane {
                    if !panes.contains(r) {
                        self.entry("workspaces", i, id, format!("[[workspaces.panes]] names pane {r:?}, which no [[panes]] entry has as its id"));
                    }
                }
            }
        }
    }
}
