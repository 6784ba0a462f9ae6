//! `phux-plugin.toml`: a plugin's manifest, read into typed tables and checked whole. Every
//! problem is reported (file, line, table, id, what is wrong), never only the first; a
//! manifest with any problem is refused.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::location::{line_col, line_of};
use super::version;

/// The manifest's file name inside a plugin directory.
pub const MANIFEST_FILE: &str = "phux-plugin.toml";

/// The events a hook can be `on`.
pub const EVENT_NAMES: &[&str] = &[
    "pane.idle",
    "pane.exited",
    "pane.spawned",
    "pane.title",
    "pane.bell",
    "session.changed",
    "agent.state",
    "agent.asked",
];
const CONTEXTS: &[&str] = &["workspace", "pane"];
const PLACEMENTS: &[&str] = &["split", "tab", "zoomed"];
const PLATFORMS: &[&str] = &["linux", "macos"];
const AGENT_STATES: &[&str] = &["unknown", "idle", "working", "blocked"];
const ATTENTIONS: &[&str] = &["none", "low", "normal", "high"];

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Manifest {
    pub id: Option<String>,
    pub name: Option<String>,
    pub version: Option<String>,
    pub min_phux_version: Option<String>,
    pub description: Option<String>,
    pub platforms: Option<Vec<String>>,
    pub build: Vec<BuildStep>,
    pub actions: Vec<ActionDecl>,
    pub events: Vec<EventHook>,
    pub panes: Vec<PaneProvider>,
    pub links: Vec<LinkHandler>,
    pub agents: Vec<AgentDecl>,
    pub workspaces: Vec<WorkspaceProfile>,
    pub widgets: Vec<Widget>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct BuildStep {
    pub id: Option<String>,
    pub title: Option<String>,
    pub description: Option<String>,
    pub command: Option<Vec<String>>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ActionDecl {
    pub id: Option<String>,
    pub title: Option<String>,
    pub description: Option<String>,
    pub contexts: Option<Vec<String>>,
    pub command: Option<Vec<String>>,
    pub keys: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct EventHook {
    pub id: Option<String>,
    pub title: Option<String>,
    pub description: Option<String>,
    pub on: Option<String>,
    pub command: Option<Vec<String>>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PaneProvider {
    pub id: Option<String>,
    pub title: Option<String>,
    pub description: Option<String>,
    pub placement: Option<String>,
    pub command: Option<Vec<String>>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LinkHandler {
    pub id: Option<String>,
    pub title: Option<String>,
    pub description: Option<String>,
    pub contexts: Option<Vec<String>>,
    pub patterns: Option<Vec<String>>,
    pub command: Option<Vec<String>>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AgentDecl {
    pub id: Option<String>,
    pub label: Option<String>,
    pub description: Option<String>,
    pub state: Option<String>,
    pub attention: Option<String>,
    pub contexts: Option<Vec<String>>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct WorkspaceProfile {
    pub id: Option<String>,
    pub title: Option<String>,
    pub description: Option<String>,
    pub agents: Vec<String>,
    pub actions: Vec<String>,
    pub events: Vec<String>,
    pub panes: Vec<WorkspacePane>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct WorkspacePane {
    pub id: Option<String>,
    pub pane: Option<String>,
    pub role: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Widget {
    pub id: Option<String>,
    pub title: Option<String>,
    pub slot: Option<String>,
    pub kind: Option<String>,
    pub command: Option<Vec<String>>,
    pub interval: Option<f64>,
}

/// The keys each part of a manifest may have; anything else is a problem.
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

/// One thing wrong with a manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub file: PathBuf,
    pub line: Option<usize>,
    /// `[[actions]]`, or `None` for the top level.
    pub table: Option<String>,
    pub id: Option<String>,
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        write!(f, ": ")?;
        if let Some(table) = &self.table {
            write!(f, "[[{table}]] ")?;
            if let Some(id) = &self.id {
                write!(f, "id {id:?} ")?;
            }
            write!(f, "- ")?;
        }
        write!(f, "{}", self.message)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    #[error("no plugin manifest at {}: {source}", path.display())]
    Unreadable {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}", problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))]
    Invalid { problems: Vec<Problem> },
}

impl ManifestError {
    pub fn remedy(&self) -> String {
        match self {
            ManifestError::Unreadable { path, .. } => format!(
                "give a plugin directory holding {MANIFEST_FILE}, or the manifest itself (looked at {})",
                path.display()
            ),
            ManifestError::Invalid { .. } => {
                "fix each problem listed, then `phux plugin validate`".into()
            }
        }
    }
}

/// A manifest that passed every check.
#[derive(Debug, Clone, PartialEq)]
pub struct ValidManifest {
    pub id: String,
    pub manifest: Manifest,
    pub manifest_path: PathBuf,
    pub plugin_root: PathBuf,
}

/// `path` is a plugin directory or its manifest: the manifest's path.
pub fn manifest_path_of(path: &Path) -> PathBuf {
    let names_a_file = path.is_file() || path.extension().is_some_and(|e| e == "toml");
    if names_a_file {
        path.to_path_buf()
    } else {
        path.join(MANIFEST_FILE)
    }
}

/// Reads and checks the manifest at `path` (a directory or the file itself).
pub fn load(path: &Path) -> Result<ValidManifest, ManifestError> {
    let manifest_path = manifest_path_of(path);
    let manifest_path = std::fs::canonicalize(&manifest_path).unwrap_or(manifest_path);
    let text =
        std::fs::read_to_string(&manifest_path).map_err(|source| ManifestError::Unreadable {
            path: manifest_path.clone(),
            source,
        })?;
    let manifest = check(&manifest_path, &text)?;
    let plugin_root = manifest_path
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    Ok(ValidManifest {
        id: manifest.id.clone().unwrap_or_default(),
        manifest,
        manifest_path,
        plugin_root,
    })
}

/// Parses and checks manifest text; `file` names it in problems.
pub fn check(file: &Path, text: &str) -> Result<Manifest, ManifestError> {
    let problem_at = |span: Option<std::ops::Range<usize>>, message: String| Problem {
        file: file.to_path_buf(),
        line: Some(line_col(text, span.map_or(0, |s| s.start)).0),
        table: None,
        id: None,
        message,
    };
    let document = toml_edit::Document::parse(text).map_err(|e| ManifestError::Invalid {
        problems: vec![with_column(
            problem_at(e.span(), format!("not valid TOML: {}", e.message().trim())),
            text,
            e.span(),
        )],
    })?;
    let manifest: Manifest = toml::from_str(text).map_err(|e| ManifestError::Invalid {
        problems: vec![with_column(
            problem_at(e.span(), e.message().trim().to_string()),
            text,
            e.span(),
        )],
    })?;
    let lines = EntryLines::of(text, &document);
    let mut checker = Checker {
        file,
        lines: &lines,
        problems: Vec::new(),
    };
    checker.unknown_keys(text, &document);
    checker.top_level(&manifest);
    checker.tables(&manifest);
    if checker.problems.is_empty() {
        Ok(manifest)
    } else {
        Err(ManifestError::Invalid {
            problems: checker.problems,
        })
    }
}

fn with_column(mut problem: Problem, text: &str, span: Option<std::ops::Range<usize>>) -> Problem {
    let (_, column) = line_col(text, span.map_or(0, |s| s.start));
    problem.message = format!("column {column}: {}", problem.message);
    problem
}

/// The line each `[[table]]` entry starts on, for problems about one entry.
struct EntryLines(HashMap<String, Vec<usize>>);

impl EntryLines {
    fn of(text: &str, document: &toml_edit::Document<&str>) -> EntryLines {
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

struct Checker<'a> {
    file: &'a Path,
    lines: &'a EntryLines,
    problems: Vec<Problem>,
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

    fn unknown_keys(&mut self, text: &str, document: &toml_edit::Document<&str>) {
        let root = document.as_table();
        for (key, _) in root.iter() {
            if !TOP_KEYS.contains(&key) {
                let line = root
                    .key(key)
                    .and_then(toml_edit::Key::span)
                    .map(|s| line_of(text, s.start));
                self.top(
                    line,
                    format!(
                        "unknown key `{key}`; a manifest has {}",
                        TOP_KEYS.join(", ")
                    ),
                );
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
                        self.entry(
                            table,
                            index,
                            id,
                            format!("unknown key `{key}`; [[{table}]] has {}", known.join(", ")),
                        );
                    } else if *table == "workspaces" && key == "panes" {
                        self.workspace_pane_keys(index, id, value);
                    }
                }
            }
        }
    }

    fn workspace_pane_keys(&mut self, index: usize, id: Option<&str>, value: &toml_edit::Item) {
        let Some(panes) = value.as_array_of_tables() else {
            return;
        };
        for pane in panes.iter() {
            for (key, _) in pane.iter() {
                if !WORKSPACE_PANE_KEYS.contains(&key) {
                    self.entry(
                        "workspaces",
                        index,
                        id,
                        format!(
                            "unknown key `{key}` in [[workspaces.panes]]; it has {}",
                            WORKSPACE_PANE_KEYS.join(", ")
                        ),
                    );
                }
            }
        }
    }

    fn top_level(&mut self, manifest: &Manifest) {
        match manifest.id.as_deref() {
            None => self.top(
                None,
                "missing `id` (a reverse-DNS name such as \"com.example.tools\")".into(),
            ),
            Some(id) if !valid_id(id) => self.top(
                None,
                format!("`id` {id:?} must be letters, digits, '.', '-' or '_', and not empty"),
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

    fn tables(&mut self, m: &Manifest) {
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

/// A plugin id: reverse-DNS style, `[A-Za-z0-9._-]+`.
pub fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems(text: &str) -> Vec<String> {
        match check(Path::new("/p/phux-plugin.toml"), text) {
            Ok(_) => Vec::new(),
            Err(ManifestError::Invalid { problems }) => {
                problems.iter().map(ToString::to_string).collect()
            }
            Err(e) => vec![e.to_string()],
        }
    }

    #[test]
    fn a_good_manifest_passes() {
        let text = "id = \"example.tools\"\nname = \"Tools\"\nversion = \"0.1.0\"\nmin_phux_version = \"0.0.2\"\n\
                    [[actions]]\nid = \"hello\"\ntitle = \"Hello\"\ncommand = [\"echo\", \"hi\"]\n\
                    [[events]]\nid = \"on-exit\"\non = \"pane.exited\"\ncommand = [\"true\"]\n\
                    [[agents]]\nid = \"codex\"\nstate = \"working\"\n\
                    [[workspaces]]\nid = \"dev\"\nagents = [\"codex\"]\nactions = [\"hello\"]\n";
        assert_eq!(problems(text), Vec::<String>::new());
    }

    #[test]
    fn every_problem_is_reported_with_its_table_id_and_line() {
        let text = "name = \"x\"\ncolour = 1\nmin_phux_version = \"99.0.0\"\n\
                    [[actions]]\nid = \"a\"\ncommand = [\"true\"]\n\
                    [[actions]]\nid = \"a\"\ncommand = []\n\
                    [[events]]\nid = \"e\"\non = \"pane.exploded\"\ncommand = [\"true\"]\nwhen = 1\n\
                    [[workspaces]]\nid = \"w\"\nactions = [\"nope\"]\n";
        let found = problems(text);
        let all = found.join("\n");
        assert!(all.contains("missing `id`"), "{all}");
        assert!(
            all.contains("/p/phux-plugin.toml:2: unknown key `colour`"),
            "{all}"
        );
        assert!(all.contains("needs phux 99.0.0 or newer"), "{all}");
        assert!(
            all.contains(":7: [[actions]] id \"a\" - duplicate id (first at line 4)"),
            "{all}"
        );
        assert!(
            all.contains("[[actions]] id \"a\" - `command` is empty"),
            "{all}"
        );
        assert!(all.contains("unknown event \"pane.exploded\""), "{all}");
        assert!(
            all.contains("[[events]] id \"e\" - unknown key `when`"),
            "{all}"
        );
        assert!(all.contains("names \"nope\""), "{all}");
        assert_eq!(found.len(), 8, "{all}");
    }

    #[test]
    fn text_that_is_not_toml_names_line_and_column() {
        let found = problems("id = \"x\"\nname = \n");
        assert_eq!(found.len(), 1);
        assert!(
            found[0].starts_with("/p/phux-plugin.toml:2: column 8: not valid TOML"),
            "{found:?}"
        );
    }
}
