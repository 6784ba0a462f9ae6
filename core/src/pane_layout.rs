//! A window's split tree as clients see it, and where it puts each pane on a grid. The server
//! sizes panes with [`place`] and the TUI draws them with it, so both agree cell for cell.
//!
//! Geometry: every pane gets a title row on top of its content (it doubles as the divider
//! between stacked panes); panes side by side are separated by one column.

use serde::{Deserialize, Serialize};

use crate::ids::PaneId;
use crate::split::SplitDirection;

/// A node of the split tree: a pane, or a split whose `first` child keeps `ratio` of the space.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum LayoutNode {
    Pane {
        pane: PaneId,
    },
    Split {
        split: SplitDirection,
        ratio: f64,
        first: Box<LayoutNode>,
        second: Box<LayoutNode>,
    },
}

// Ratios are checked to lie strictly between 0 and 1 before they enter a tree, so never NaN.
impl Eq for LayoutNode {}

/// A rectangle of cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Rect {
    pub x: u16,
    pub y: u16,
    pub cols: u16,
    pub rows: u16,
}

impl Rect {
    pub fn new(x: u16, y: u16, cols: u16, rows: u16) -> Rect {
        Rect { x, y, cols, rows }
    }

    pub fn contains(&self, x: u16, y: u16) -> bool {
        x >= self.x
            && y >= self.y
            && u32::from(x) < u32::from(self.x) + u32::from(self.cols)
            && u32::from(y) < u32::from(self.y) + u32::from(self.rows)
    }
}

/// Where one pane goes: its title row and its content below it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placed {
    pub pane: PaneId,
    /// The whole area: title row plus content.
    pub area: Rect,
    /// The content (the pane's own grid size).
    pub content: Rect,
}

/// A divider column between panes side by side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Divider {
    pub x: u16,
    pub y: u16,
    pub rows: u16,
}

/// Where a split is: the way to it from the root (`false` = first child, `true` = second), the
/// area it divides, and the column (side by side) or row (stacked) where its second child
/// begins' border lies: the divider column, or the second child's title row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitPlace {
    pub path: Vec<bool>,
    pub split: SplitDirection,
    pub area: Rect,
    pub at: u16,
}

impl SplitPlace {
    /// Whether the cell (x, y) is this split's border, which a mouse can drag.
    pub fn is_border(&self, x: u16, y: u16) -> bool {
        match self.split {
            SplitDirection::Vertical => x == self.at && self.area.contains(x, y),
            SplitDirection::Horizontal => y == self.at && self.area.contains(x, y),
        }
    }

    /// The ratio that puts the border at `to` (a column or a row).
    pub fn ratio_for(&self, to: u16) -> f64 {
        let (start, total, divider) = match self.split {
            SplitDirection::Vertical => (self.area.x, self.area.cols, 1),
            SplitDirection::Horizontal => (self.area.y, self.area.rows, 0),
        };
        let usable = total.saturating_sub(divider).max(2);
        let first = to.saturating_sub(start).clamp(1, usable - 1);
        f64::from(first) / f64::from(usable)
    }
}

/// Every pane and divider of `node` laid out in `area`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Placement {
    pub panes: Vec<Placed>,
    pub dividers: Vec<Divider>,
    pub splits: Vec<SplitPlace>,
}

impl Placement {
    pub fn of(&self, pane: PaneId) -> Option<&Placed> {
        self.panes.iter().find(|p| p.pane == pane)
    }
}

/// Lays `node` out in `area`.
pub fn place(node: &LayoutNode, area: Rect) -> Placement {
    let mut out = Placement::default();
    place_into(node, area, &mut Vec::new(), &mut out);
    out
}

/// How many cells the first child gets out of `total` (one of them goes to a divider for a
/// side-by-side split): at least one for each side when there is room.
pub fn first_share(total: u16, ratio: f64, divider: u16) -> u16 {
    let usable = total.saturating_sub(divider);
    if usable < 2 {
        return usable;
    }
    let wanted = (f64::from(usable) * ratio.clamp(0.0, 1.0)).round() as u16;
    wanted.clamp(1, usable - 1)
}

fn place_into(node: &LayoutNode, area: Rect, path: &mut Vec<bool>, out: &mut Placement) {
    match node {
        LayoutNode::Pane { pane } => {
            let content = Rect::new(
                area.x,
                area.y.saturating_add(1),
                area.cols,
                area.rows.saturating_sub(1).max(1),
            );
            out.panes.push(Placed {
                pane: *pane,
                area,
                content,
            });
        }
        LayoutNode::Split {
            split,
            ratio,
            first,
            second,
        } => match split {
            SplitDirection::Vertical => {
                let a = first_share(area.cols, *ratio, 1);
                let b = area.cols.saturating_sub(a + 1);
                out.splits.push(SplitPlace {
                    path: path.clone(),
                    split: *split,
                    area,
                    at: area.x + a,
                });
                path.push(false);
                place_into(first, Rect::new(area.x, area.y, a, area.rows), path, out);
                path.pop();
                out.dividers.push(Divider {
                    x: area.x + a,
                    y: area.y,
                    rows: area.rows,
                });
                path.push(true);
                let second_area = Rect::new(area.x + a + 1, area.y, b, area.rows);
                place_into(second, second_area, path, out);
                path.pop();
            }
            SplitDirection::Horizontal => {
                let a = first_share(area.rows, *ratio, 0);
                let b = area.rows.saturating_sub(a);
                out.splits.push(SplitPlace {
                    path: path.clone(),
                    split: *split,
                    area,
                    at: area.y + a,
                });
                path.push(false);
                place_into(first, Rect::new(area.x, area.y, area.cols, a), path, out);
                path.pop();
                path.push(true);
                place_into(
                    second,
                    Rect::new(area.x, area.y + a, area.cols, b),
                    path,
                    out,
                );
                path.pop();
            }
        },
    }
}

/// The ratio that moves the divider of the innermost `split` around `pane` by `delta` cells
/// (negative: left or up), with the tree laid out in `area`. None when there is no such split
/// or it cannot move.
pub fn ratio_after_move(
    node: &LayoutNode,
    area: Rect,
    pane: PaneId,
    split: SplitDirection,
    delta: i32,
) -> Option<f64> {
    let LayoutNode::Split {
        split: here,
        ratio,
        first,
        second,
    } = node
    else {
        return None;
    };
    let (divider, total) = match here {
        SplitDirection::Vertical => (1, area.cols),
        SplitDirection::Horizontal => (0, area.rows),
    };
    let a = first_share(total, *ratio, divider);
    let (first_area, second_area) = match here {
        SplitDirection::Vertical => (
            Rect::new(area.x, area.y, a, area.rows),
            Rect::new(
                area.x + a + 1,
                area.y,
                area.cols.saturating_sub(a + 1),
                area.rows,
            ),
        ),
        SplitDirection::Horizontal => (
            Rect::new(area.x, area.y, area.cols, a),
            Rect::new(area.x, area.y + a, area.cols, area.rows.saturating_sub(a)),
        ),
    };
    let inner = if first.panes().contains(&pane) {
        ratio_after_move(first, first_area, pane, split, delta)
    } else if second.panes().contains(&pane) {
        ratio_after_move(second, second_area, pane, split, delta)
    } else {
        return None;
    };
    if inner.is_some() || *here != split {
        return inner;
    }
    let usable = i32::from(total.saturating_sub(divider));
    if usable < 2 {
        return None;
    }
    let wanted = (i32::from(a) + delta).clamp(1, usable - 1);
    Some(f64::from(wanted) / f64::from(usable))
}

impl LayoutNode {
    /// Panes in reading order.
    pub fn panes(&self) -> Vec<PaneId> {
        match self {
            LayoutNode::Pane { pane } => vec![*pane],
            LayoutNode::Split { first, second, .. } => {
                let mut out = first.panes();
                out.extend(second.panes());
                out
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pane(n: u32) -> Box<LayoutNode> {
        Box::new(LayoutNode::Pane { pane: PaneId(n) })
    }

    #[test]
    fn side_by_side_panes_share_the_width_around_one_divider() {
        let node = LayoutNode::Split {
            split: SplitDirection::Vertical,
            ratio: 0.5,
            first: pane(1),
            second: pane(2),
        };
        let placed = place(&node, Rect::new(0, 0, 81, 24));
        assert_eq!(placed.panes[0].content, Rect::new(0, 1, 40, 23));
        assert_eq!(placed.panes[1].content, Rect::new(41, 1, 40, 23));
        assert_eq!(
            placed.dividers,
            vec![Divider {
                x: 40,
                y: 0,
                rows: 24
            }]
        );
    }

    #[test]
    fn stacked_panes_each_keep_a_title_row() {
        let node = LayoutNode::Split {
            split: SplitDirection::Horizontal,
            ratio: 0.5,
            first: pane(1),
            second: pane(2),
        };
        let placed = place(&node, Rect::new(0, 0, 80, 24));
        assert_eq!(placed.panes[0].content, Rect::new(0, 1, 80, 11));
        assert_eq!(placed.panes[1].area, Rect::new(0, 12, 80, 12));
        assert_eq!(placed.panes[1].content, Rect::new(0, 13, 80, 11));
    }

    #[test]
    fn a_tiny_area_still_gives_every_pane_a_cell() {
        assert_eq!(first_share(3, 0.01, 1), 1);
        assert_eq!(first_share(3, 0.99, 1), 1);
        assert_eq!(first_share(1, 0.5, 1), 0);
    }

    #[test]
    fn moving_a_divider_gives_the_ratio_of_the_new_share() {
        let node = LayoutNode::Split {
            split: SplitDirection::Vertical,
            ratio: 0.5,
            first: pane(1),
            second: pane(2),
        };
        let area = Rect::new(0, 0, 81, 24);
        let ratio = ratio_after_move(&node, area, PaneId(2), SplitDirection::Vertical, -5);
        assert_eq!(ratio, Some(35.0 / 80.0));
        assert_eq!(
            ratio_after_move(&node, area, PaneId(1), SplitDirection::Horizontal, 5),
            None
        );
    }

    #[test]
    fn each_split_knows_its_path_and_border() {
        let node = LayoutNode::Split {
            split: SplitDirection::Vertical,
            ratio: 0.5,
            first: pane(1),
            second: Box::new(LayoutNode::Split {
                split: SplitDirection::Horizontal,
                ratio: 0.5,
                first: pane(2),
                second: pane(3),
            }),
        };
        let placed = place(&node, Rect::new(0, 0, 81, 24));
        assert_eq!(placed.splits.len(), 2);
        assert_eq!(placed.splits[1].path, vec![true]);
        assert!(placed.splits[0].is_border(40, 10));
        assert!(placed.splits[1].is_border(60, 12));
        assert!(!placed.splits[1].is_border(20, 12));
        assert!((placed.splits[0].ratio_for(20) - 0.25).abs() < 1e-9);
    }

    #[test]
    fn the_tree_round_trips_through_json() {
        let node = LayoutNode::Split {
            split: SplitDirection::Vertical,
            ratio: 0.25,
            first: pane(1),
            second: pane(2),
        };
        let json = serde_json::to_string(&node).unwrap();
        assert_eq!(
            json,
            r#"{"split":"vertical","ratio":0.25,"first":{"pane":1},"second":{"pane":2}}"#
        );
        assert_eq!(serde_json::from_str::<LayoutNode>(&json).unwrap(), node);
    }
}
