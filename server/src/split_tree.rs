//! A window's split layout: a binary tree whose leaves are panes and whose inner nodes carry a
//! direction (as the user names it: `vertical` = side by side, `horizontal` = stacked) and the
//! share of the space the first child keeps.

use phux_core::ids::PaneId;
use phux_core::split::SplitDirection;

#[derive(Debug, Clone, PartialEq)]
pub enum SplitTree {
    Pane(PaneId),
    Split {
        direction: SplitDirection,
        ratio: f64,
        first: Box<SplitTree>,
        second: Box<SplitTree>,
    },
}

impl SplitTree {
    /// Panes in reading order (first child before second).
    pub fn panes(&self) -> Vec<PaneId> {
        let mut out = Vec::new();
        self.collect(&mut out);
        out
    }

    fn collect(&self, out: &mut Vec<PaneId>) {
        match self {
            SplitTree::Pane(id) => out.push(*id),
            SplitTree::Split { first, second, .. } => {
                first.collect(out);
                second.collect(out);
            }
        }
    }

    pub fn contains(&self, pane: PaneId) -> bool {
        match self {
            SplitTree::Pane(id) => *id == pane,
            SplitTree::Split { first, second, .. } => first.contains(pane) || second.contains(pane),
        }
    }

    /// Splits `target`'s space: `new` gets `ratio` of it, after `target`. False when `target`
    /// is not here.
    pub fn insert(
        &mut self,
        target: PaneId,
        new: PaneId,
        direction: SplitDirection,
        ratio: f64,
    ) -> bool {
        match self {
            SplitTree::Pane(id) if *id == target => {
                let old = SplitTree::Pane(target);
                *self = SplitTree::Split {
                    direction,
                    ratio: 1.0 - ratio,
                    first: Box::new(old),
                    second: Box::new(SplitTree::Pane(new)),
                };
                true
            }
            SplitTree::Pane(_) => false,
            SplitTree::Split { first, second, .. } => {
                first.insert(target, new, direction, ratio)
                    || second.insert(target, new, direction, ratio)
            }
        }
    }

    /// Removes `pane`, giving its space to its sibling. Returns the layout left (None when it
    /// was the only pane).
    pub fn remove(self, pane: PaneId) -> Option<SplitTree> {
        match self {
            SplitTree::Pane(id) if id == pane => None,
            SplitTree::Pane(_) => Some(self),
            SplitTree::Split {
                direction,
                ratio,
                first,
                second,
            } => match (first.remove(pane), second.remove(pane)) {
                (Some(a), Some(b)) => Some(SplitTree::Split {
                    direction,
                    ratio,
                    first: Box::new(a),
                    second: Box::new(b),
                }),
                (Some(only), None) | (None, Some(only)) => Some(only),
                (None, None) => None,
            },
        }
    }

    /// Exchanges the positions of two panes of this layout.
    pub fn swap(&mut self, a: PaneId, b: PaneId) {
        match self {
            SplitTree::Pane(id) if *id == a => *id = b,
            SplitTree::Pane(id) if *id == b => *id = a,
            SplitTree::Pane(_) => {}
            SplitTree::Split { first, second, .. } => {
                first.swap(a, b);
                second.swap(a, b);
            }
        }
    }
}

impl SplitTree {
    /// The tree as clients see it.
    pub fn to_view(&self) -> phux_core::pane_layout::LayoutNode {
        use phux_core::pane_layout::LayoutNode;
        match self {
            SplitTree::Pane(pane) => LayoutNode::Pane { pane: *pane },
            SplitTree::Split {
                direction,
                ratio,
                first,
                second,
            } => LayoutNode::Split {
                split: *direction,
                ratio: *ratio,
                first: Box::new(first.to_view()),
                second: Box::new(second.to_view()),
            },
        }
    }

    /// Sets the ratio of the split reached by `path` from here, if it splits in `direction`.
    pub fn set_ratio_at(
        &mut self,
        path: &[bool],
        direction: SplitDirection,
        new_ratio: f64,
    ) -> bool {
        let SplitTree::Split {
            direction: d,
            ratio,
            first,
            second,
        } = self
        else {
            return false;
        };
        match path.split_first() {
            None if *d == direction => {
                *ratio = new_ratio;
                true
            }
            None => false,
            Some((false, rest)) => first.set_ratio_at(rest, direction, new_ratio),
            Some((true, rest)) => second.set_ratio_at(rest, direction, new_ratio),
        }
    }

    /// Sets the ratio of the innermost `direction` split holding `pane`. False when there is none.
    pub fn set_ratio(&mut self, pane: PaneId, direction: SplitDirection, new_ratio: f64) -> bool {
        let SplitTree::Split {
            direction: d,
            ratio,
            first,
            second,
        } = self
        else {
            return false;
        };
        let inner = if first.contains(pane) {
            first.set_ratio(pane, direction, new_ratio)
        } else if second.contains(pane) {
            second.set_ratio(pane, direction, new_ratio)
        } else {
            return false;
        };
        if inner {
            return true;
        }
        if *d == direction {
            *ratio = new_ratio;
            return true;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: PaneId = PaneId(1);
    const B: PaneId = PaneId(2);
    const C: PaneId = PaneId(3);

    #[test]
    fn insert_remove_swap_keep_reading_order() {
        let mut layout = SplitTree::Pane(A);
        assert!(layout.insert(A, B, SplitDirection::Vertical, 0.3));
        assert!(layout.insert(B, C, SplitDirection::Horizontal, 0.5));
        assert_eq!(layout.panes(), vec![A, B, C]);
        assert!(!layout.insert(PaneId(9), C, SplitDirection::Vertical, 0.5));
        layout.swap(A, C);
        assert_eq!(layout.panes(), vec![C, B, A]);
        let layout = layout.remove(B).unwrap();
        assert_eq!(layout.panes(), vec![C, A]);
        let layout = layout.remove(C).unwrap();
        assert_eq!(layout, SplitTree::Pane(A));
        assert!(layout.remove(A).is_none());
    }

    #[test]
    fn set_ratio_changes_the_innermost_split_of_that_direction() {
        let mut layout = SplitTree::Pane(A);
        layout.insert(A, B, SplitDirection::Vertical, 0.5);
        layout.insert(B, C, SplitDirection::Horizontal, 0.5);
        assert!(layout.set_ratio(C, SplitDirection::Vertical, 0.3));
        assert!(layout.set_ratio(C, SplitDirection::Horizontal, 0.8));
        let SplitTree::Split { ratio, second, .. } = &layout else {
            panic!("split expected")
        };
        assert!((ratio - 0.3).abs() < 1e-9);
        let SplitTree::Split { ratio, .. } = second.as_ref() else {
            panic!("split expected")
        };
        assert!((ratio - 0.8).abs() < 1e-9);
        assert!(!SplitTree::Pane(A).set_ratio(A, SplitDirection::Vertical, 0.5));
    }

    #[test]
    fn the_new_pane_gets_the_requested_share() {
        let mut layout = SplitTree::Pane(A);
        layout.insert(A, B, SplitDirection::Vertical, 0.3);
        let SplitTree::Split { ratio, .. } = layout else {
            panic!("split expected")
        };
        assert!((ratio - 0.7).abs() < 1e-9);
    }
}
