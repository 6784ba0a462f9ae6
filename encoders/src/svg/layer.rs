//! One animated part of the picture — a row of the grid, the cursor's look, the cursor's
//! place — as the states it takes and when it takes them. A row's states sit side by side on
//! a strip that a CSS animation slides, one cell-grid width a step, so a row that comes back to
//! a look it had (a blank row, a prompt, a line scrolled up) reuses it, and a row that never
//! changes is not animated at all.

use std::collections::HashMap;
use std::hash::Hash;

/// The states of one part and the moments it changes between them.
#[derive(Debug)]
pub(crate) struct Layer<K> {
    /// Each distinct state, in the order first shown: its place on the strip.
    states: Vec<K>,
    places: HashMap<K, usize>,
    /// (tick, place) at every change, the first at tick 0.
    changes: Vec<(u64, usize)>,
}

/// What taking a state cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Change {
    /// The same state as before: nothing.
    None,
    /// A state seen before: one keyframe.
    Known,
    /// A state never seen: one keyframe and a place on the strip.
    New,
}

impl<K: Clone + Eq + Hash> Layer<K> {
    pub fn new() -> Layer<K> {
        Layer {
            states: Vec::new(),
            places: HashMap::new(),
            changes: Vec::new(),
        }
    }

    /// The part shows `state` from `tick` on (ticks never go backwards).
    pub fn show(&mut self, tick: u64, state: &K) -> Change {
        let (place, change) = match self.places.get(state) {
            Some(&place) => (place, Change::Known),
            None => {
                let place = self.states.len();
                self.states.push(state.clone());
                self.places.insert(state.clone(), place);
                (place, Change::New)
            }
        };
        match self.changes.last_mut() {
            Some(&mut (_, last)) if last == place => return Change::None,
            // Two states at one tick: the later one is what shows.
            Some(last) if last.0 == tick => last.1 = place,
            _ => self.changes.push((tick, place)),
        }
        change
    }

    /// How far the layer has come: what [`Layer::truncate`] goes back to.
    pub fn mark(&self) -> (usize, usize) {
        (self.states.len(), self.changes.len())
    }

    /// Forgets the states and changes after `mark` (changes only ever append, one per frame).
    pub fn truncate(&mut self, (states, changes): (usize, usize)) {
        for state in self.states.drain(states.min(self.states.len())..) {
            self.places.remove(&state);
        }
        self.changes.truncate(changes);
    }

    /// The state shown last.
    pub fn current(&self) -> Option<&K> {
        let (_, place) = self.changes.last()?;
        self.states.get(*place)
    }

    /// The distinct states, by place on the strip.
    pub fn states(&self) -> &[K] {
        &self.states
    }

    /// (tick, place) of every change.
    pub fn changes(&self) -> &[(u64, usize)] {
        &self.changes
    }

    /// True when the part changes after it first shows.
    pub fn is_animated(&self) -> bool {
        self.changes.len() > 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_come_back_without_a_new_place() {
        let mut layer = Layer::new();
        assert_eq!(layer.show(0, &"a"), Change::New);
        assert_eq!(layer.show(5, &"a"), Change::None);
        assert_eq!(layer.show(10, &"b"), Change::New);
        assert_eq!(layer.show(20, &"a"), Change::Known);
        assert_eq!(layer.states(), ["a", "b"]);
        assert_eq!(layer.changes(), [(0, 0), (10, 1), (20, 0)]);
        assert!(layer.is_animated());
        let mark = layer.mark();
        layer.show(30, &"c");
        layer.truncate(mark);
        assert_eq!(layer.states(), ["a", "b"]);
        assert_eq!(layer.show(40, &"c"), Change::New);
    }
}
