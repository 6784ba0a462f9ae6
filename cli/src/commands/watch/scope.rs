//! Which panes a `phux watch` covers and when it is done with them: the panes its TARGETs
//! name (every pane of a session, a window or a `#tag`, several TARGETs together), which of
//! them are still open, and, with `--until EVENT --all`, which have not had the event yet.

use std::collections::BTreeSet;

use phux_core::documents::{WatchEventKind, WatchEventName};
use phux_core::ids::PaneId;

/// What one event means for the watch.
#[derive(Debug, PartialEq, Eq)]
pub enum Step {
    /// Not one of the watched panes: neither printed nor counted.
    Skip,
    /// Print it and keep watching.
    Print,
    /// Print it, then stop with 0: the `--until` condition holds.
    Satisfied,
    /// Print it, then stop with 0: every watched pane closed and no `--until` was asked.
    AllClosed,
    /// Print it, then stop with `pane_exited`: this pane closed without having had any of the
    /// `--until` events, so the condition can no longer hold.
    Unreachable(PaneId),
}

/// The panes a watch covers and its progress through them.
#[derive(Debug)]
pub struct Scope {
    /// The watched panes; `None` prints the events of every pane (no TARGET).
    shown: Option<BTreeSet<PaneId>>,
    /// Watched panes that have not closed yet (only tracked when `shown` is a set).
    open: BTreeSet<PaneId>,
    /// With `--all`, the panes still owing one of the `--until` events.
    pending: Option<BTreeSet<PaneId>>,
    until: Vec<WatchEventName>,
}

impl Scope {
    /// A watch over `shown` (`None`: every pane). With `all`, `every` is the set of panes that
    /// must each have one of `until` (the watched panes, or every pane when it began).
    pub fn new(
        shown: Option<Vec<PaneId>>,
        every: Vec<PaneId>,
        until: Vec<WatchEventName>,
        all: bool,
    ) -> Scope {
        let shown: Option<BTreeSet<PaneId>> = shown.map(|panes| panes.into_iter().collect());
        Scope {
            open: shown.clone().unwrap_or_default(),
            pending: all.then(|| every.into_iter().collect()),
            shown,
            until,
        }
    }

    pub fn until(&self) -> &[WatchEventName] {
        &self.until
    }

    /// Takes one event of `pane` into account and says what to do with it.
    pub fn step(&mut self, pane: Option<PaneId>, kind: &WatchEventKind) -> Step {
        if let Some(shown) = &self.shown {
            if !pane.is_some_and(|pane| shown.contains(&pane)) {
                return Step::Skip;
            }
        }
        let matched = self.until.iter().any(|name| name.as_str() == kind.name());
        let closed = matches!(kind, WatchEventKind::PaneClosed { .. });
        match (&mut self.pending, pane) {
            (None, _) if matched => return Step::Satisfied,
            (Some(pending), Some(pane)) => {
                if matched {
                    pending.remove(&pane);
                }
                if pending.is_empty() {
                    return Step::Satisfied;
                }
                if closed && pending.contains(&pane) {
                    return Step::Unreachable(pane);
                }
            }
            _ => {}
        }
        if let (Some(pane), true, Some(_)) = (pane, closed, &self.shown) {
            self.open.remove(&pane);
            if self.open.is_empty() {
                return if self.until.is_empty() {
                    Step::AllClosed
                } else {
                    Step::Unreachable(pane)
                };
            }
        }
        Step::Print
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn closed(status: i32) -> WatchEventKind {
        WatchEventKind::PaneClosed {
            exit_status: Some(status),
        }
    }

    fn finished() -> WatchEventKind {
        WatchEventKind::CommandFinished { exit_code: Some(0) }
    }

    /// `--until EVENT --all` over panes @1 and @2.
    fn all_of_two(until: WatchEventName) -> Scope {
        let panes = vec![PaneId(1), PaneId(2)];
        Scope::new(Some(panes.clone()), panes, vec![until], true)
    }

    #[test]
    fn all_waits_for_every_pane_and_ignores_others() {
        let mut scope = all_of_two(WatchEventName::CommandFinished);
        assert_eq!(scope.step(Some(PaneId(9)), &finished()), Step::Skip);
        assert_eq!(scope.step(Some(PaneId(1)), &finished()), Step::Print);
        assert_eq!(scope.step(Some(PaneId(1)), &finished()), Step::Print);
        assert_eq!(scope.step(Some(PaneId(2)), &finished()), Step::Satisfied);
    }

    #[test]
    fn a_pane_closing_before_its_event_makes_all_unreachable() {
        let mut scope = all_of_two(WatchEventName::CommandFinished);
        assert_eq!(scope.step(Some(PaneId(1)), &finished()), Step::Print);
        assert_eq!(
            scope.step(Some(PaneId(2)), &closed(1)),
            Step::Unreachable(PaneId(2))
        );
    }

    #[test]
    fn all_pane_closed_counts_each_close() {
        let mut scope = all_of_two(WatchEventName::PaneClosed);
        assert_eq!(scope.step(Some(PaneId(2)), &closed(3)), Step::Print);
        assert_eq!(scope.step(Some(PaneId(1)), &closed(3)), Step::Satisfied);
    }

    #[test]
    fn without_until_the_watch_ends_when_every_pane_closed() {
        let panes = vec![PaneId(1), PaneId(2)];
        let mut scope = Scope::new(Some(panes), Vec::new(), Vec::new(), false);
        assert_eq!(scope.step(Some(PaneId(1)), &closed(0)), Step::Print);
        assert_eq!(scope.step(Some(PaneId(2)), &closed(0)), Step::AllClosed);
    }

    #[test]
    fn without_all_the_first_match_of_any_pane_stops() {
        let mut scope = Scope::new(
            None,
            Vec::new(),
            vec![WatchEventName::CommandFinished],
            false,
        );
        assert_eq!(scope.step(Some(PaneId(5)), &closed(0)), Step::Print);
        assert_eq!(scope.step(Some(PaneId(7)), &finished()), Step::Satisfied);
    }
}
