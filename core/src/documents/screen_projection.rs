//! Client-side projections of a `ScreenState`: `--tail`, `--unwrap`, and soft-wrap-joined lines.

use crate::documents::cell_width::display_width;
use crate::documents::screen_state::{ScreenState, SoftWrap, TRUNCATED_ROW_WINDOW};

/// `--tail` with no value.
pub const TAIL_DEFAULT: usize = 80;
/// What `--tail=0` ("all") is capped at.
pub const TAIL_ALL_CAP: usize = 10_000;

/// One physical row of the history+viewport stream.
struct Row<'a> {
    text: &'a str,
    wraps: bool,
    in_viewport: bool,
}

/// A soft-wrap-joined line, with where it ends.
struct LogicalLine {
    text: String,
    /// Stream index of its first physical row.
    first_row: usize,
    ends_in_viewport: bool,
}

impl ScreenState {
    fn stream(&self) -> Vec<Row<'_>> {
        let wrap = self.soft_wrap.as_ref();
        let wraps = |list: Option<&Vec<u32>>, i: usize| {
            list.is_some_and(|l| l.iter().any(|&w| usize::try_from(w).ok() == Some(i)))
        };
        let history = self.scrollback.iter().enumerate().map(|(i, text)| Row {
            text,
            wraps: wraps(wrap.map(|w| &w.scrollback), i),
            in_viewport: false,
        });
        let viewport = self.lines.iter().enumerate().map(|(i, text)| Row {
            text,
            wraps: wraps(wrap.map(|w| &w.lines), i),
            in_viewport: true,
        });
        history.chain(viewport).collect()
    }

    fn join(&self) -> Vec<LogicalLine> {
        let cols = usize::from(self.cols);
        let mut out = Vec::new();
        let mut open: Option<LogicalLine> = None;
        for (index, row) in self.stream().into_iter().enumerate() {
            let line = open.get_or_insert_with(|| LogicalLine {
                text: String::new(),
                first_row: index,
                ends_in_viewport: false,
            });
            line.text.push_str(row.text);
            line.ends_in_viewport = row.in_viewport;
            if row.wraps {
                // Rows are right-trimmed; a wrapped row was full, so give back its blanks.
                let width = display_width(row.text);
                line.text
                    .extend(std::iter::repeat_n(' ', cols.saturating_sub(width)));
            } else if let Some(done) = open.take() {
                out.push(done);
            }
        }
        out.extend(open);
        out
    }

    /// History and viewport as one stream of lines, soft wraps joined. Without wrap data the
    /// physical rows are returned as they are.
    pub fn logical_lines(&self) -> Vec<String> {
        self.join().into_iter().map(|l| l.text).collect()
    }

    /// `--unwrap`: every soft-wrapped line joined. A line that starts in history and ends in the
    /// viewport belongs to `lines`. The cursor moves with its text; `cells` (row-addressed) is
    /// dropped. Without wrap data there is nothing to join and the screen is returned as is.
    pub fn unwrap(mut self) -> Self {
        if self.soft_wrap.is_none() {
            return self;
        }
        let cols = self.cols;
        let scrollback_rows = self.scrollback.len();
        let joined = self.join();
        let cursor_row = self.cursor.map(|c| scrollback_rows + usize::from(c.y));
        let (history, viewport): (Vec<_>, Vec<_>) =
            joined.into_iter().partition(|l| !l.ends_in_viewport);
        if let (Some(cursor), Some(row)) = (self.cursor.as_mut(), cursor_row) {
            let at = viewport
                .iter()
                .rposition(|l| l.first_row <= row)
                .unwrap_or(0);
            let rows_before = viewport
                .get(at)
                .map_or(0, |l| row.saturating_sub(l.first_row));
            let offset = u16::try_from(rows_before)
                .unwrap_or(u16::MAX)
                .saturating_mul(cols);
            cursor.x = cursor.x.saturating_add(offset);
            cursor.y = u16::try_from(at).unwrap_or(u16::MAX);
        }
        self.scrollback = history.into_iter().map(|l| l.text).collect();
        self.lines = viewport.into_iter().map(|l| l.text).collect();
        self.cells = None;
        self.soft_wrap = Some(SoftWrap::default());
        self
    }

    /// The screen without the viewport rows listed (e.g. the rows holding typed input, for
    /// `wait --output-only`). Wrap flags follow their rows; a kept row that wrapped into a
    /// dropped one no longer wraps. The cursor moves up with its row, or is dropped with it;
    /// `cells` (row-addressed) are dropped.
    pub fn without_viewport_rows(mut self, rows: &[u16]) -> Self {
        let mut rows = rows.to_vec();
        rows.sort_unstable();
        rows.dedup();
        let dropped = |i: usize| rows.iter().any(|&r| usize::from(r) == i);
        let wraps: Vec<bool> = (0..self.lines.len())
            .map(|i| {
                let flagged = self
                    .soft_wrap
                    .as_ref()
                    .is_some_and(|w| w.lines.iter().any(|&f| usize::try_from(f).ok() == Some(i)));
                flagged && !dropped(i + 1)
            })
            .collect();
        let kept: Vec<(String, bool)> = std::mem::take(&mut self.lines)
            .into_iter()
            .zip(wraps)
            .enumerate()
            .filter(|(i, _)| !dropped(*i))
            .map(|(_, row)| row)
            .collect();
        if let Some(wrap) = self.soft_wrap.as_mut() {
            wrap.lines = kept
                .iter()
                .enumerate()
                .filter(|(_, (_, wraps))| *wraps)
                .filter_map(|(i, _)| u32::try_from(i).ok())
                .collect();
        }
        self.lines = kept.into_iter().map(|(text, _)| text).collect();
        self.cursor = self.cursor.and_then(|mut cursor| {
            if dropped(usize::from(cursor.y)) {
                return None;
            }
            let above = rows.iter().filter(|&&r| r < cursor.y).count();
            cursor.y -= u16::try_from(above).unwrap_or(cursor.y);
            Some(cursor)
        });
        self.cells = None;
        self
    }

    /// `--tail N`: the last `N` rows of history+viewport (0 = all, capped at
    /// [`TAIL_ALL_CAP`]). The viewport is a floor and is never cut. Dropping rows marks the
    /// screen `truncated` with reason `row_window`.
    pub fn tail(mut self, n: usize) -> Self {
        let window = if n == 0 { TAIL_ALL_CAP } else { n };
        let keep = window.max(self.lines.len());
        let total = self.scrollback.len() + self.lines.len();
        if total <= keep {
            return self;
        }
        let drop = total - keep;
        self.scrollback.drain(..drop);
        if let Some(wrap) = self.soft_wrap.as_mut() {
            let drop = u32::try_from(drop).unwrap_or(u32::MAX);
            wrap.scrollback = wrap
                .scrollback
                .iter()
                .filter(|&&i| i >= drop)
                .map(|&i| i - drop)
                .collect();
        }
        self.truncated = true;
        self.truncated_reason = Some(TRUNCATED_ROW_WINDOW.to_owned());
        self
    }
}
