//! Evaluation: every rule of a manifest against one screen. The highest-priority matching rule
//! decides (the first declared on a tie); nothing matching is `idle`, the fail-safe, unless a
//! working-looking row is on screen (then `working`: a turn is never reported over while the
//! agent may still be busy); a winning freeze rule holds the previous state. The result
//! carries the evidence `explain` shows, the dialog a blocked screen holds, and, for a screen
//! read as idle beside a working-looking row, why each working rule did not decide.

use serde::Serialize;

use crate::agents::dialog::{self, Dialog};
use crate::agents::manifest::Manifest;
use crate::agents::predicate::Evidence;
use crate::agents::record::AgentState;
use crate::agents::region::{Region, REGION_NAMES};
use crate::agents::working_hint::{near_misses, working_row, NearMiss};

/// What a manifest looks at: the viewport rows, the title, the latest OSC 9;4 payload.
#[derive(Debug, Clone, Copy)]
pub struct Screen<'a> {
    pub lines: &'a [String],
    pub title: &'a str,
    pub osc_progress: &'a str,
}

/// Why `detector_state` is not a state a rule asserted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FallbackReason {
    /// No rule matched: idle, the fail-safe.
    NoRuleMatched,
    /// A freeze rule matched: the previous state is held.
    Frozen,
    /// No rule decided, but a working-looking row is on screen: working, never idle.
    WorkingIndicator,
}

/// One region's preview.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RegionPreview {
    pub region: String,
    pub empty: bool,
    pub lines: Vec<String>,
}

/// One rule's outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleEvaluation {
    pub id: String,
    pub priority: i64,
    pub region: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<AgentState>,
    pub matched: bool,
    pub visible_idle: bool,
    pub skip_state_update: bool,
    pub evidence: Evidence,
}

/// What the manifest did to one screen: the `explain` object of AgentExplainJson.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Evaluation {
    pub kind: String,
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<AgentState>,
    pub detector_state: AgentState,
    pub matched_rule: Option<String>,
    pub freeze: bool,
    pub visible_idle: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fallback_reason: Option<FallbackReason>,
    pub regions: Vec<RegionPreview>,
    pub evaluated_rules: Vec<RuleEvaluation>,
    /// On a blocked screen: the dialog the winning rule's region holds (its question and
    /// choices), which becomes the pane's ask.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dialog: Option<Dialog>,
    /// On a screen read as idle beside a working-looking row: each working rule, and why it
    /// did not decide.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub near_misses: Vec<NearMiss>,
}

/// Evaluates `manifest` on `screen`; `previous` is the state a freeze rule holds (idle when
/// there is none).
pub fn evaluate(
    manifest: &Manifest,
    screen: &Screen<'_>,
    previous: Option<AgentState>,
) -> Evaluation {
    let mut evaluated = Vec::with_capacity(manifest.rules.len());
    let mut winner: Option<usize> = None;
    for (index, rule) in manifest.rules.iter().enumerate() {
        let lines = rule.region.resolve(screen);
        let evidence = rule.predicate.evaluate(&lines);
        if evidence.matched && winner.is_none_or(|w| manifest.rules[w].priority < rule.priority) {
            winner = Some(index);
        }
        evaluated.push(RuleEvaluation {
            id: rule.id.clone(),
            priority: rule.priority,
            region: rule.region.to_string(),
            state: rule.state,
            matched: evidence.matched,
            visible_idle: rule.visible_idle,
            skip_state_update: rule.skip_state_update,
            evidence,
        });
    }
    let rule = winner.map(|w| &manifest.rules[w]);
    let busy = || working_row(screen.lines).is_some();
    let (state, detector_state, fallback_reason) = match rule {
        None if busy() => (
            None,
            AgentState::Working,
            Some(FallbackReason::WorkingIndicator),
        ),
        None => (None, AgentState::Idle, Some(FallbackReason::NoRuleMatched)),
        Some(rule) if rule.skip_state_update => {
            let held = match previous {
                Some(state) => state,
                None if busy() => AgentState::Working,
                None => AgentState::Idle,
            };
            (None, held, Some(FallbackReason::Frozen))
        }
        Some(rule) => (rule.state, rule.state.unwrap_or(AgentState::Idle), None),
    };
    let dialog = match rule {
        Some(rule) if state == Some(AgentState::Blocked) => {
            dialog::read(&dialog_rows(rule.region, screen))
        }
        _ => None,
    };
    Evaluation {
        kind: manifest.kind.clone(),
        name: manifest.name.clone(),
        state,
        detector_state,
        matched_rule: rule.map(|r| r.id.clone()),
        freeze: rule.is_some_and(|r| r.skip_state_update),
        visible_idle: rule.is_some_and(|r| r.visible_idle),
        fallback_reason,
        regions: previews(screen),
        evaluated_rules: evaluated,
        dialog,
        near_misses: near_misses(
            manifest,
            screen,
            detector_state,
            rule.map(|r| r.id.as_str()),
        ),
    }
}

/// The rows a blocked rule's dialog is read from: its region's, with the blank rows that
/// `bottom-lines` drops kept, since they part a dialog's choices from what is above them.
fn dialog_rows(region: Region, screen: &Screen<'_>) -> Vec<String> {
    let Region::BottomLines(count) = region else {
        return region.resolve(screen);
    };
    let filled: Vec<usize> = (0..screen.lines.len())
        .filter(|&i| !screen.lines[i].trim().is_empty())
        .collect();
    let start = filled
        .len()
        .checked_sub(count)
        .map_or(0, |first| filled[first]);
    screen.lines[start..]
        .iter()
        .map(|l| l.trim_end().to_owned())
        .collect()
}

/// Every region of the grammar at its default size, resolved on `screen`.
fn previews(screen: &Screen<'_>) -> Vec<RegionPreview> {
    REGION_NAMES
        .iter()
        .filter_map(|name| Region::parse(name))
        .map(|region| {
            let lines = region.resolve(screen);
            RegionPreview {
                region: region.to_string(),
                empty: lines.iter().all(|l| l.trim().is_empty()),
                lines,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(text: &str) -> Vec<String> {
        text.lines().map(str::to_owned).collect()
    }

    fn run(manifest: &str, screen: &str, previous: Option<AgentState>) -> Evaluation {
        let manifest = Manifest::parse("test", manifest).unwrap();
        let lines = rows(screen);
        let screen = Screen {
            lines: &lines,
            title: "",
            osc_progress: "",
        };
        evaluate(&manifest, &screen, previous)
    }

    const MANIFEST: &str = r#"kind = "x"
[[rules]]
id = "spinner"
state = "working"
priority = 60
region = "bottom-lines(1)"
match = { line-regex = 'esc to interrupt' }
[[rules]]
id = "viewer"
priority = 90
region = "bottom-lines(1)"
skip-state-update = true
match = { contains = "viewer" }
[[rules]]
id = "prompt"
state = "idle"
priority = 10
region = "bottom-lines(1)"
match = { line-regex = '^❯' }
"#;

    /// No rule matching never reads idle while a working-looking row is on screen.
    #[test]
    fn no_rule_matching_beside_a_working_row_is_working() {
        let got = run(MANIFEST, "✻ Kneading… (1s · thinking)\n$ ", None);
        assert_eq!(got.detector_state, AgentState::Working);
        assert_eq!(got.fallback_reason, Some(FallbackReason::WorkingIndicator));
        let got = run(MANIFEST, "plain text\n$ ", None);
        assert_eq!(got.detector_state, AgentState::Idle);
        assert_eq!(got.fallback_reason, Some(FallbackReason::NoRuleMatched));
        // A freeze rule with nothing to hold does not invent idle beside one either.
        let got = run(MANIFEST, "✻ Kneading… (1s · thinking)\nviewer", None);
        assert_eq!(got.detector_state, AgentState::Working);
    }

    /// `explain` names the working rule that would have matched had its region held the row.
    #[test]
    fn an_idle_screen_beside_a_working_row_names_the_rule_that_would_have_matched() {
        let got = run(
            MANIFEST,
            "✻ Pondering… (12s · esc to interrupt)\n❯ ",
            Some(AgentState::Working),
        );
        assert_eq!(got.detector_state, AgentState::Idle);
        assert_eq!(got.near_misses.len(), 1, "{:?}", got.near_misses);
        let miss = &got.near_misses[0];
        assert_eq!(miss.rule, "spinner");
        assert!(miss.would_match);
        assert!(miss.reason.contains("bottom-lines(1)"), "{}", miss.reason);
        assert!(run(MANIFEST, "text\n❯ ", None).near_misses.is_empty());
    }

    #[test]
    fn a_blocked_screen_carries_its_dialog() {
        let manifest = r#"kind = "x"
[[rules]]
id = "dialog"
state = "blocked"
region = "after-last-rule"
match = { contains = "proceed?" }
"#;
        let got = run(
            manifest,
            "  1. quoted\n  2. list\n────────────\n Proceed?\n ❯ 1. Yes\n   2. No",
            None,
        );
        let dialog = got.dialog.unwrap();
        assert_eq!(dialog.question, "Proceed?");
        assert_eq!(dialog.choices, vec!["Yes", "No"]);
    }
}
