//! The built-in manifests against composed screens of each agent in each state, including the
//! hard ones: a transcript quoting a dialog or a status line, a spinner glyph in ordinary
//! output, a transcript viewer over the live status, a dialog drawn inside the input area with
//! its hints, the input's bottom rule and a footer below it.
//!
//! Two sets: the corpus under `core/tests/agent-screens/` (every agent at 80x24, 120x36 and
//! 200x50, with and without a footer; `expected.tsv` says what each must read, and on a blocked
//! screen which choices its dialog offers), and the older fixtures under
//! `tests/fixtures/agent-screens/` (named `KIND__EXPECTED__LABEL.txt`). `held-STATE` means a
//! freeze rule must hold STATE. A rule change that flips any screen fails. Prints the accuracy
//! table (agent × state).

#![forbid(unsafe_code)]
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on the unexpected

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use phux_core::agents::{evaluate, AgentState, ManifestSet, Screen};

/// One screen and what it must read.
struct Case {
    kind: String,
    expected: String,
    label: String,
    lines: Vec<String>,
    /// On a blocked screen of the corpus: the dialog's choices, in order.
    choices: Option<Vec<String>>,
}

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/agent-screens")
}

fn read_lines(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines().map(str::to_owned).collect()
}

fn corpus() -> Vec<Case> {
    let dir = corpus_dir();
    let table = std::fs::read_to_string(dir.join("expected.tsv")).expect("expected.tsv");
    let mut cases = Vec::new();
    for row in table
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let fields: Vec<&str> = row.split('\t').collect();
        let (file, expected) = (fields[0], fields[1]);
        let choices = fields
            .get(2)
            .map(|c| c.split(" | ").map(str::to_owned).collect());
        cases.push(Case {
            kind: file.split('/').next().unwrap().to_owned(),
            expected: expected.to_owned(),
            label: file.to_owned(),
            lines: read_lines(&dir.join(file)),
            choices,
        });
    }
    cases
}

fn fixtures() -> Vec<Case> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/agent-screens");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("fixture dir") {
        let path = entry.expect("entry").path();
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let parts: Vec<&str> = stem.split("__").collect();
        assert_eq!(parts.len(), 3, "fixture name {stem}");
        out.push(Case {
            kind: parts[0].to_owned(),
            expected: parts[1].to_owned(),
            label: format!("fixture {stem}"),
            lines: read_lines(&path),
            choices: None,
        });
    }
    out.sort_by(|a, b| a.label.cmp(&b.label));
    out
}

/// (kind, expected state) → (screens read right, screens).
type Table = BTreeMap<(String, String), (u32, u32)>;

/// Runs every case; returns the table and the failures.
fn run(cases: &[Case]) -> (Table, Vec<String>) {
    let set = ManifestSet::builtin().expect("builtins load");
    let mut table = Table::new();
    let mut failures = Vec::new();
    for case in cases {
        let manifest = set
            .get(&case.kind)
            .unwrap_or_else(|| panic!("no manifest {}", case.kind));
        let (want, previous) = match case.expected.strip_prefix("held-") {
            Some(held) => (
                held.parse::<AgentState>().unwrap(),
                Some(held.parse().unwrap()),
            ),
            None => (
                case.expected.parse::<AgentState>().unwrap(),
                Some(AgentState::Working),
            ),
        };
        let screen = Screen {
            lines: &case.lines,
            title: "",
            osc_progress: "",
        };
        let got = evaluate(manifest, &screen, previous);
        let cell = table
            .entry((case.kind.clone(), case.expected.clone()))
            .or_default();
        cell.1 += 1;
        let mut right = got.detector_state == want;
        if !right {
            failures.push(format!(
                "{}: expected {want}, got {} (rule {:?})",
                case.label, got.detector_state, got.matched_rule
            ));
        }
        // A false `blocked` is the costly mistake: never on a screen that is not blocked.
        if want != AgentState::Blocked && got.detector_state == AgentState::Blocked {
            failures.push(format!("{}: false blocked", case.label));
        }
        if let Some(choices) = &case.choices {
            let read = got.dialog.as_ref().map(|d| d.choices.clone());
            if read.as_ref() != Some(choices) {
                right = false;
                failures.push(format!(
                    "{}: the dialog's choices read {read:?}, expected {choices:?}",
                    case.label
                ));
            }
        }
        if right {
            cell.0 += 1;
        }
    }
    (table, failures)
}

fn print(title: &str, table: &Table) {
    println!("{title}\nagent      state          right/screens");
    for ((kind, state), (right, total)) in table {
        println!("{kind:<10} {state:<14} {right}/{total}");
    }
}

#[test]
fn every_builtin_says_the_right_state_on_every_corpus_screen() {
    let cases = corpus();
    let (table, failures) = run(&cases);
    print("corpus (core/tests/agent-screens)", &table);
    assert!(failures.is_empty(), "{failures:#?}");
    assert!(
        cases.len() >= 60,
        "the corpus holds {} screens",
        cases.len()
    );
    for kind in ["claude", "codex", "opencode", "pi", "omp"] {
        for state in ["idle", "working", "blocked"] {
            assert!(
                table.contains_key(&(kind.to_owned(), state.to_owned())),
                "no {kind} {state} screen"
            );
        }
        for size in ["80x24", "120x36", "200x50"] {
            for footer in [true, false] {
                let suffix = format!("{size}{}.txt", if footer { "-footer" } else { "" });
                assert!(
                    cases
                        .iter()
                        .any(|c| c.kind == kind && c.label.ends_with(&format!("--{suffix}"))),
                    "no {kind} screen at {suffix}"
                );
            }
        }
    }
}

#[test]
fn every_builtin_says_the_right_state_on_every_older_fixture() {
    let (table, failures) = run(&fixtures());
    print("fixtures (tests/fixtures/agent-screens)", &table);
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Every corpus screen is as wide and as tall as its name says, so a region's row counts are
/// tested at the sizes people run agents in.
#[test]
fn every_corpus_screen_has_the_size_its_name_says() {
    for case in corpus() {
        let size = case.label.rsplit("--").next().unwrap();
        let size = size.trim_end_matches(".txt").trim_end_matches("-footer");
        let (cols, rows) = size.split_once('x').unwrap();
        let (cols, rows): (usize, usize) = (cols.parse().unwrap(), rows.parse().unwrap());
        assert_eq!(case.lines.len(), rows, "{}", case.label);
        assert!(
            case.lines.iter().all(|l| l.chars().count() <= cols),
            "{}",
            case.label
        );
    }
}

/// Codex's title starts with a braille spinner while a turn runs: working, even where the
/// status row is not on screen; the same screen under a still title is idle.
#[test]
fn codex_s_title_spinner_reads_working() {
    let set = ManifestSet::builtin().expect("builtins load");
    let codex = set.get("codex").unwrap();
    let lines = read_lines(&corpus_dir().join("codex/idle--prompt--80x24-footer.txt"));
    let screen = |title| Screen {
        lines: &lines,
        title,
        osc_progress: "",
    };
    let busy = evaluate(codex, &screen("⠙ codex"), None);
    assert_eq!(busy.detector_state, AgentState::Working);
    assert_eq!(busy.matched_rule.as_deref(), Some("title-spinner"));
    let still = evaluate(codex, &screen("codex"), None);
    assert_eq!(still.detector_state, AgentState::Idle);
}
