//! Evaluation: every rule of a manifest against one screen. The highest-priority matching rule
//! decides (the first declared on a tie); nothing matching is `idle`, the fail-safe; a winning
//! freeze rule holds the previous state. The result carries the evidence `explain` shows.

use serde::Serialize;

use crate::agents::manifest::Manifest;
use crate::agents::predicate::Evidence;
use crate::agents::record::AgentState;
use crate::agents::region::{Region, REGION_NAMES};

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
    let (state, detector_state, fallback_reason) = match rule {
        None => (None, AgentState::Idle, Some(FallbackReason::NoRuleMatched)),
        Some(rule) if rule.skip_state_update => (
            None,
            previous.unwrap_or(AgentState::Idle),
            Some(FallbackReason::Frozen),
        ),
        Some(rule) => (rule.state, rule.state.unwrap_or(AgentState::Idle), None),
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
    }
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
