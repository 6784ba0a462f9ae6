//! The built-in manifests against composed screens of each agent in each state, including the
//! hard ones: a transcript quoting a dialog, a spinner glyph in ordinary output, a transcript
//! viewer over the live status. Fixture names are `KIND__EXPECTED__LABEL.txt`; `held-STATE`
//! means a freeze rule must hold STATE. Prints the accuracy table (agent × state).

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on the unexpected

use std::collections::BTreeMap;
use std::path::PathBuf;

use phux_core::agents::{evaluate, AgentState, ManifestSet, Screen};

fn fixtures() -> Vec<(String, String, String, Vec<String>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/agent-screens");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("fixture dir") {
        let path = entry.expect("entry").path();
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let parts: Vec<&str> = stem.split("__").collect();
        assert_eq!(parts.len(), 3, "fixture name {stem}");
        let text = std::fs::read_to_string(&path).expect("fixture");
        let lines = text.lines().map(str::to_owned).collect();
        out.push((
            parts[0].to_owned(),
            parts[1].to_owned(),
            parts[2].to_owned(),
            lines,
        ));
    }
    out.sort();
    out
}

#[test]
fn every_builtin_says_the_right_state_on_every_composed_screen() {
    let set = ManifestSet::builtin().expect("builtins load");
    let mut table: BTreeMap<(String, String), (u32, u32)> = BTreeMap::new();
    let mut failures = Vec::new();
    for (kind, expected, label, lines) in fixtures() {
        let manifest = set
            .get(&kind)
            .unwrap_or_else(|| panic!("no manifest {kind}"));
        let (want, previous) = match expected.strip_prefix("held-") {
            Some(held) => (
                held.parse::<AgentState>().unwrap(),
                Some(held.parse().unwrap()),
            ),
            None => (
                expected.parse::<AgentState>().unwrap(),
                Some(AgentState::Working),
            ),
        };
        let screen = Screen {
            lines: &lines,
            title: "",
            osc_progress: "",
        };
        let got = evaluate(manifest, &screen, previous);
        let cell = table.entry((kind.clone(), expected.clone())).or_default();
        cell.1 += 1;
        if got.detector_state == want {
            cell.0 += 1;
        } else {
            failures.push(format!(
                "{kind}/{label}: expected {want}, got {} (rule {:?})",
                got.detector_state, got.matched_rule
            ));
        }
        // A false `blocked` is the costly mistake: never on a screen that is not blocked.
        if want != AgentState::Blocked {
            assert_ne!(
                got.detector_state,
                AgentState::Blocked,
                "{kind}/{label}: false blocked"
            );
        }
    }
    println!("agent      state          right/screens");
    for ((kind, state), (right, total)) in &table {
        println!("{kind:<10} {state:<14} {right}/{total}");
    }
    assert!(failures.is_empty(), "{failures:#?}");
    for kind in ["claude", "codex", "opencode", "pi", "omp"] {
        for state in ["idle", "working", "blocked"] {
            assert!(
                table.contains_key(&(kind.to_owned(), state.to_owned())),
                "no {kind} {state} screen"
            );
        }
    }
}
