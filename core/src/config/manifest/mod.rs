//! `phux-plugin.toml`: a plugin's manifest, read into typed tables and checked whole. Every
//! problem is reported (file, line, table, id, what is wrong), never only the first; a
//! malformed manifest (bad TOML, a missing required key, a wrong type, an invalid id) is
//! refused. A key the format does not know is a warning with its file and line: the format
//! grows, and a newer plugin must still load.

mod checker;
mod tables;

use std::fmt;
use std::path::{Path, PathBuf};

use super::location::line_col;
use checker::{Checker, EntryLines};
pub use tables::{
    ActionDecl, AgentDecl, BuildStep, EventHook, LinkHandler, Manifest, PaneProvider, Widget,
    WorkspacePane, WorkspaceProfile,
};

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

impl Problem {
    /// What is wrong and where inside the file (table, id), without the file and line.
    pub fn detail(&self) -> String {
        match (&self.table, &self.id) {
            (Some(table), Some(id)) => format!("[[{table}]] id {id:?} - {}", self.message),
            (Some(table), None) => format!("[[{table}]] - {}", self.message),
            (None, _) => self.message.clone(),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        write!(f, ": {}", self.detail())
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
    /// Larger than a manifest may be, or no regular file (a FIFO, a device).
    #[error(transparent)]
    Refused(crate::bounded_read::BoundedReadError),
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
            ManifestError::Refused(_) => format!(
                "a {MANIFEST_FILE} is a small TOML file: give the plugin's own manifest"
            ),
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
    /// What the manifest holds that phux does not know (ignored, reported).
    pub warnings: Vec<Problem>,
}

/// A manifest that passed every check, and what in it was ignored.
#[derive(Debug, Clone, PartialEq)]
pub struct Checked {
    pub manifest: Manifest,
    pub warnings: Vec<Problem>,
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
    // Bounded before anything is read: a manifest symlinked to /dev/zero is refused at once.
    let text = crate::bounded_read::read_text(
        &manifest_path,
        crate::bounded_read::MAX_TEXT_FILE_BYTES,
        "a plugin manifest",
    )
    .map_err(|e| match e {
        crate::bounded_read::BoundedReadError::Io { path, source } => {
            ManifestError::Unreadable { path, source }
        }
        refused => ManifestError::Refused(refused),
    })?;
    let Checked { manifest, warnings } = check(&manifest_path, &text)?;
    let plugin_root = manifest_path
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    Ok(ValidManifest {
        id: manifest.id.clone().unwrap_or_default(),
        manifest,
        manifest_path,
        plugin_root,
        warnings,
    })
}

/// Parses and checks manifest text; `file` names it in problems and warnings.
pub fn check(file: &Path, text: &str) -> Result<Checked, ManifestError> {
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
        warnings: Vec::new(),
    };
    checker.unknown_keys(text, &document);
    checker.top_level(&manifest);
    checker.tables(&manifest);
    if checker.problems.is_empty() {
        Ok(Checked {
            manifest,
            warnings: checker.warnings,
        })
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

/// A plugin id: reverse-DNS style, segments of `[A-Za-z0-9_-]+` joined by single dots. The id
/// names the plugin's directory, so `.`, `..` and anything with an empty segment or a `/` is
/// refused (`id = ".."` made `plugin install` remove the whole data directory).
pub fn valid_id(id: &str) -> bool {
    id.split('.').all(|segment| {
        !segment.is_empty()
            && segment
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
    })
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

    fn warnings(text: &str) -> Vec<String> {
        match check(Path::new("/p/phux-plugin.toml"), text) {
            Ok(checked) => checked.warnings.iter().map(ToString::to_string).collect(),
            Err(e) => panic!("refused: {e}"),
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
        assert_eq!(warnings(text), Vec::<String>::new());
    }

    /// Upstream's example plugins carry `contexts` on `[[workspaces]]` and were refused whole.
    #[test]
    fn an_upstream_shaped_manifest_loads_and_unknown_keys_are_warnings_with_lines() {
        let text = r#"id = "example.agent-bench"
name = "Agent bench"
version = "0.2.0"
min_phux_version = "0.0.1"
description = "Run agents side by side"
platforms = ["linux", "macos"]
homepage = "https://example.com"

[[actions]]
id = "review"
title = "Review"
description = "Ask the reviewer"
contexts = ["workspace", "pane"]
command = ["./review.sh"]
keys = "C-r"

[[events]]
id = "on-state"
title = "State"
on = "agent.state"
command = ["./state.sh"]
retries = 3

[[panes]]
id = "logs"
title = "Logs"
placement = "split"
command = ["tail", "-f", "log"]

[[agents]]
id = "reviewer"
label = "Reviewer"
state = "idle"
attention = "low"
contexts = ["pane"]

[[workspaces]]
id = "agent-bench"
title = "Agent bench"
description = "Two agents and a log"
contexts = ["workspace"]
agents = ["reviewer"]
actions = ["review"]
events = ["on-state"]

[[workspaces.panes]]
id = "left"
pane = "logs"
role = "log"
width = 40

[[widgets]]
id = "clock"
slot = "right"
kind = "text"
command = ["date"]
interval = 5.0
"#;
        assert_eq!(problems(text), Vec::<String>::new());
        let found = warnings(text);
        assert_eq!(
            found,
            vec![
                "/p/phux-plugin.toml:7: unknown key `homepage` (ignored); a manifest has id, name, version, min_phux_version, description, platforms, build, actions, events, panes, links, agents, workspaces, widgets".to_string(),
                "/p/phux-plugin.toml:22: [[events]] id \"on-state\" - unknown key `retries` (ignored); [[events]] has id, title, description, on, command".to_string(),
                "/p/phux-plugin.toml:50: [[workspaces]] id \"agent-bench\" - unknown key `width` in [[workspaces.panes]] (ignored); it has id, pane, role".to_string(),
            ]
        );
        let checked = check(Path::new("/p/phux-plugin.toml"), text).unwrap();
        assert_eq!(
            checked.manifest.workspaces[0].contexts,
            Some(vec!["workspace".to_string()])
        );
    }

    #[test]
    fn a_wrong_type_or_an_unknown_context_is_still_refused() {
        let found = problems("id = \"a.b\"\n[[workspaces]]\nid = \"w\"\ncontexts = \"pane\"\n");
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].contains("invalid type"), "{found:?}");
        let found = problems("id = \"a.b\"\n[[workspaces]]\nid = \"w\"\ncontexts = [\"window\"]\n");
        assert!(
            found[0].contains("unknown contexts \"window\""),
            "{found:?}"
        );
        assert!(problems("id = \"a/b\"\n")[0].contains("must be dot-separated segments of letters"));
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
        assert!(all.contains("names \"nope\""), "{all}");
        // Unknown keys are warnings, not among the problems.
        assert!(!all.contains("unknown key"), "{all}");
        assert_eq!(found.len(), 6, "{all}");
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
