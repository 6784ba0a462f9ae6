//! The per-pane agent store: metadata (key → JSON value), the active ask, the occupant and the
//! detector's last word, and the rules that turn them into one effective state. Every write
//! returns the events it raised (`metadata`, `agent_state`); the caller announces them on the
//! pane's bus once the store's lock is released.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Mutex, MutexGuard, PoisonError};

use phux_core::agents::{
    AgentRecord, AgentState, PluginReport, StateSource, AGENT_RECORD_KEY, PLUGIN_REPORT_KEY,
};
use phux_core::documents::{AgentStateEvent, WatchEventKind};
use phux_core::ids::PaneId;
use phux_core::state_view::PendingAsk;
use phux_core::wire::{ActiveAsk, DetectionReport, Occupant, StateOrigin};
use serde_json::Value;

/// What the server knows about one pane's agent.
#[derive(Debug, Default, Clone)]
pub struct PaneAgent {
    pub metadata: BTreeMap<String, Value>,
    pub ask: Option<ActiveAsk>,
    pub occupant: Option<Occupant>,
    pub detection: Option<DetectionReport>,
    /// The last ask answered while what raised it still shows it (a title keeps its sentinel
    /// until the program sets another, a dialog stays on the screen until it redraws): it is
    /// not raised again while it shows, so it cannot be answered twice.
    pub answered: Option<ActiveAsk>,
}

/// What claiming an ask for an answer found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AskClaim {
    /// The ask was active and is ended: the claimant types the answer.
    Claimed,
    /// No ask is active (another answer claimed it first, or none was raised).
    NoneActive,
    /// Another ask, with this id, is active.
    Other(String),
}

impl PaneAgent {
    /// Ends the active ask if it has `id`, remembering it so neither its title nor its dialog
    /// raises it again while they show it.
    pub fn claim_ask(&mut self, id: &str) -> AskClaim {
        match self.ask.take() {
            None => AskClaim::NoneActive,
            Some(ask) if ask.id != id => {
                let current = ask.id.clone();
                self.ask = Some(ask);
                AskClaim::Other(current)
            }
            Some(ask) => {
                self.answered = (ask.from_title || ask.from_screen).then_some(ask);
                AskClaim::Claimed
            }
        }
    }

    /// Whether `ask`, raised again by the title or the screen that still shows it, is the one
    /// already answered.
    pub fn already_answered(&self, ask: &ActiveAsk) -> bool {
        self.answered.as_ref().is_some_and(|a| {
            a.id == ask.id && a.from_title == ask.from_title && a.from_screen == ask.from_screen
        })
    }

    /// What raised the answered ask no longer shows it (the title changed, the dialog left):
    /// the same ask raised later is a new question.
    pub fn forget_answered(&mut self, from_title: bool) {
        if self
            .answered
            .as_ref()
            .is_some_and(|a| a.from_title == from_title)
        {
            self.answered = None;
        }
    }

    /// The `phux.agent/v1` record, when the key holds one.
    pub fn record(&self) -> Option<AgentRecord> {
        self.metadata
            .get(AGENT_RECORD_KEY)
            .and_then(|v| serde_json::from_value(v.clone()).ok())
    }

    /// A plugin's report, when the key holds one.
    pub fn plugin_report(&self) -> Option<PluginReport> {
        self.metadata
            .get(PLUGIN_REPORT_KEY)
            .and_then(|v| serde_json::from_value(v.clone()).ok())
    }

    /// The effective state and its origin: a declared state first, then an active ask (which
    /// raises a record without a declared state to blocked), then the screen's explicit blocked
    /// or done, then a plugin's report, then the detector's other states.
    pub fn effective(&self) -> (Option<AgentState>, Option<StateOrigin>) {
        let record = self.record();
        let report = self.plugin_report();
        match (record, report) {
            (Some(r), _) if r.state_is_declared() => (r.state, Some(StateOrigin::AgentRecord)),
            _ if self.ask.as_ref().is_some_and(|a| a.from_screen) => {
                (Some(AgentState::Blocked), Some(StateOrigin::Screen))
            }
            _ if self.ask.as_ref().is_some_and(|a| a.from_title) => {
                (Some(AgentState::Blocked), Some(StateOrigin::TitleAsk))
            }
            _ if self.ask.is_some() => (Some(AgentState::Blocked), Some(StateOrigin::ReportedAsk)),
            (
                Some(AgentRecord {
                    state: Some(state @ (AgentState::Blocked | AgentState::Done)),
                    ..
                }),
                _,
            ) => (Some(state), Some(StateOrigin::Screen)),
            (_, Some(report)) => (Some(report.state), Some(StateOrigin::PluginReport)),
            (
                Some(AgentRecord {
                    state: Some(state), ..
                }),
                _,
            ) => (Some(state), Some(StateOrigin::Screen)),
            (Some(_), _) => (Some(AgentState::Unknown), None),
            (None, _) => (None, None),
        }
    }
}

fn pending(pane: PaneId, ask: &ActiveAsk) -> PendingAsk {
    PendingAsk {
        pane,
        id: ask.id.clone(),
        question: ask.question.clone(),
        suggestions: ask.suggestions.clone(),
        source: ask.source().to_owned(),
    }
}

/// Every pane's agent data.
#[derive(Default)]
pub struct AgentStore {
    panes: Mutex<HashMap<PaneId, PaneAgent>>,
}

impl AgentStore {
    fn lock(&self) -> MutexGuard<'_, HashMap<PaneId, PaneAgent>> {
        self.panes.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A copy of the pane's data.
    pub fn get(&self, pane: PaneId) -> PaneAgent {
        self.lock().get(&pane).cloned().unwrap_or_default()
    }

    /// The question `pane` is asking, if any.
    pub fn pending_ask(&self, pane: PaneId) -> Option<PendingAsk> {
        let panes = self.lock();
        let ask = panes.get(&pane)?.ask.as_ref()?;
        Some(pending(pane, ask))
    }

    /// Every question a pane is asking, by pane id.
    pub fn pending_asks(&self) -> Vec<PendingAsk> {
        let panes = self.lock();
        let mut asks: Vec<PendingAsk> = panes
            .iter()
            .filter_map(|(pane, agent)| Some(pending(*pane, agent.ask.as_ref()?)))
            .collect();
        asks.sort_by_key(|ask| ask.pane);
        asks
    }

    pub fn forget(&self, pane: PaneId) {
        self.lock().remove(&pane);
    }

    /// Puts back what `phux upgrade` carried of a pane: its metadata (the agent record among
    /// it) and its ask. The detector's findings are made again from the screen.
    pub fn restore(&self, pane: PaneId, metadata: BTreeMap<String, Value>, ask: Option<ActiveAsk>) {
        if metadata.is_empty() && ask.is_none() {
            return;
        }
        let mut panes = self.lock();
        let entry = panes.entry(pane).or_default();
        entry.metadata = metadata;
        entry.ask = ask;
    }

    /// Changes the pane's data with `change` and returns the events that raised: a `metadata`
    /// event per key whose value changed, and an `agent_state` event when the effective state,
    /// or the record's presence, changed.
    pub fn update<T>(
        &self,
        pane: PaneId,
        change: impl FnOnce(&mut PaneAgent) -> T,
    ) -> (T, Vec<WatchEventKind>) {
        let mut panes = self.lock();
        let entry = panes.entry(pane).or_default();
        let before_meta = entry.metadata.clone();
        let before_record = entry.record();
        let (before_state, _) = entry.effective();
        let out = change(entry);
        let mut events = Vec::new();
        let keys: std::collections::BTreeSet<&String> =
            before_meta.keys().chain(entry.metadata.keys()).collect();
        for key in keys {
            let old = before_meta.get(key);
            let new = entry.metadata.get(key);
            if old != new {
                events.push(WatchEventKind::Metadata {
                    key: key.clone(),
                    value: new.cloned().unwrap_or(Value::Null),
                });
            }
        }
        let record = entry.record();
        let (state, origin) = entry.effective();
        if state != before_state || record.is_some() != before_record.is_some() {
            let shown = record.as_ref().or(before_record.as_ref());
            events.push(WatchEventKind::AgentState(Box::new(AgentStateEvent {
                name: shown.map(|r| r.name.clone()),
                kind: shown.map(|r| r.kind.clone()),
                session: shown.and_then(|r| r.session.clone()),
                state,
                attention: state.map(|s| match &record {
                    Some(r) => r.effective_attention(Some(s)),
                    None => s.derived_attention(),
                }),
                from: before_state,
                source: origin_name(origin).to_owned(),
            })));
        }
        (out, events)
    }
}

pub fn origin_name(origin: Option<StateOrigin>) -> &'static str {
    origin.map_or("none", StateOrigin::as_str)
}

/// Writes (or with `None`, deletes) the record.
pub fn put_record(entry: &mut PaneAgent, record: Option<&AgentRecord>) {
    match record.and_then(|r| serde_json::to_value(r).ok()) {
        Some(value) => {
            entry.metadata.insert(AGENT_RECORD_KEY.to_owned(), value);
        }
        None => {
            entry.metadata.remove(AGENT_RECORD_KEY);
        }
    }
}

/// The detector's new word on the pane: kept for `explain`, and published into the record
/// unless a person or hook declared the state. With no record yet, the detector makes one.
/// A dialog read on a blocked screen becomes the pane's ask (unless a title or `phux ask`
/// ask is active); the screen leaving blocked ends it.
pub fn apply_detection(
    entry: &mut PaneAgent,
    detection: DetectionReport,
    dialog: Option<ActiveAsk>,
) {
    let state = detection.state;
    let mut record = entry.record().unwrap_or_else(|| AgentRecord {
        name: detection.name.clone(),
        kind: detection.kind.clone(),
        state: None,
        attention: None,
        session: None,
        declared: false,
        state_source: None,
    });
    if !record.state_is_declared() {
        record.state = Some(state);
        record.state_source = Some(StateSource::Detector);
    }
    // A new turn of work ends an ask reported outside the title.
    if state == AgentState::Working && entry.ask.as_ref().is_some_and(|a| !a.from_title) {
        entry.ask = None;
    }
    match dialog {
        Some(ask) if entry.already_answered(&ask) => {}
        Some(ask) if entry.ask.as_ref().is_none_or(|a| a.from_screen) => {
            entry.forget_answered(false);
            entry.ask = Some(ask);
        }
        Some(_) => {}
        None => {
            entry.forget_answered(false);
            if entry.ask.as_ref().is_some_and(|a| a.from_screen) {
                entry.ask = None;
            }
        }
    }
    entry.detection = Some(detection);
    put_record(entry, Some(&record));
}

/// The occupant left: a record the detector made goes; a declared one whose state the
/// detector set withdraws to unknown.
pub fn depart(entry: &mut PaneAgent) {
    entry.detection = None;
    if entry.ask.as_ref().is_some_and(|a| a.from_screen) {
        entry.ask = None;
    }
    if let Some(mut record) = entry.record() {
        if !record.declared {
            put_record(entry, None);
        } else if record.state_source == Some(StateSource::Detector) {
            record.state = Some(AgentState::Unknown);
            put_record(entry, Some(&record));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(state: AgentState) -> DetectionReport {
        DetectionReport {
            kind: "claude".into(),
            name: "claude".into(),
            state,
            matched_rule: None,
            visible_idle: false,
            fallback_reason: None,
        }
    }

    fn ask(id: &str, from_title: bool, from_screen: bool) -> ActiveAsk {
        ActiveAsk {
            id: id.into(),
            question: "Proceed?".into(),
            suggestions: vec!["Yes".into(), "No".into()],
            from_title,
            from_screen,
            selected: Some(0),
        }
    }

    /// A dialog on a blocked screen is the pane's ask (origin screen) until the screen leaves
    /// blocked; it never replaces a title's or `phux ask`'s ask.
    #[test]
    fn a_screen_ask_lives_while_the_screen_is_blocked_and_never_replaces_another() {
        let mut entry = PaneAgent::default();
        apply_detection(
            &mut entry,
            report(AgentState::Blocked),
            Some(ask("screen-1", false, true)),
        );
        assert_eq!(entry.ask.as_ref().map(ActiveAsk::source), Some("screen"));
        assert_eq!(
            entry.effective(),
            (Some(AgentState::Blocked), Some(StateOrigin::Screen))
        );
        let pending = pending(PaneId(3), entry.ask.as_ref().unwrap());
        assert_eq!(pending.source, "screen");
        apply_detection(&mut entry, report(AgentState::Idle), None);
        assert_eq!(entry.ask, None);

        entry.ask = Some(ask("deploy", true, false));
        apply_detection(
            &mut entry,
            report(AgentState::Blocked),
            Some(ask("screen-2", false, true)),
        );
        assert_eq!(entry.ask.as_ref().map(|a| a.id.as_str()), Some("deploy"));
        apply_detection(&mut entry, report(AgentState::Idle), None);
        assert_eq!(entry.ask.as_ref().map(|a| a.id.as_str()), Some("deploy"));

        entry.ask = Some(ask("screen-3", false, true));
        depart(&mut entry);
        assert_eq!(entry.ask, None);
    }

    /// An answer claims the ask: a second claim of the same id finds none active, another id
    /// is named as the current ask, and a dialog still on the screen is not raised again until
    /// it has gone away.
    #[test]
    fn an_ask_is_claimed_once_and_its_dialog_is_not_raised_again_while_it_shows() {
        let mut entry = PaneAgent {
            ask: Some(ask("t1", false, false)),
            ..PaneAgent::default()
        };
        assert_eq!(entry.claim_ask("t2"), AskClaim::Other("t1".into()));
        assert_eq!(entry.claim_ask("t1"), AskClaim::Claimed);
        assert_eq!(entry.claim_ask("t1"), AskClaim::NoneActive);

        let dialog = || Some(ask("screen-1", false, true));
        apply_detection(&mut entry, report(AgentState::Blocked), dialog());
        assert_eq!(entry.claim_ask("screen-1"), AskClaim::Claimed);
        apply_detection(&mut entry, report(AgentState::Blocked), dialog());
        assert_eq!(
            entry.ask, None,
            "the answered dialog, still drawn, is not asked again"
        );
        apply_detection(&mut entry, report(AgentState::Working), None);
        apply_detection(&mut entry, report(AgentState::Blocked), dialog());
        assert_eq!(
            entry.ask.as_ref().map(|a| a.id.as_str()),
            Some("screen-1"),
            "drawn again after it left, it is a new question"
        );
    }
}
