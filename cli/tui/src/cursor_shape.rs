//! The cursor shape a pane's program asked for (DECSCUSR, `CSI Ps SP q`), read from its output
//! as it streams by: the client draws the focused pane's cursor in that shape.

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CursorShape {
    #[default]
    Block,
    Bar,
    Underline,
}

/// The last DECSCUSR seen in a stream: (shape, blinking).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ShapeTracker {
    pub shape: CursorShape,
    pub blinking: bool,
}

impl ShapeTracker {
    /// Looks for `ESC [ Ps SP q` in `bytes`; the last one wins. (A sequence split across two
    /// chunks is missed, and caught at the program's next one.)
    pub fn scan(&mut self, bytes: &[u8]) {
        let mut i = 0;
        while let Some(at) = bytes[i..].windows(2).position(|w| w == b"\x1b[") {
            let start = i + at + 2;
            let digits = bytes[start..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            let rest = &bytes[start + digits..];
            if rest.starts_with(b" q") {
                let n: u8 = std::str::from_utf8(&bytes[start..start + digits])
                    .ok()
                    .and_then(|s| s.parse().ok())
                    .unwrap_or(0);
                (self.shape, self.blinking) = match n {
                    0 | 1 => (CursorShape::Block, true),
                    2 => (CursorShape::Block, false),
                    3 => (CursorShape::Underline, true),
                    4 => (CursorShape::Underline, false),
                    5 => (CursorShape::Bar, true),
                    _ => (CursorShape::Bar, false),
                };
            }
            i = start;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_decscusr_wins() {
        let mut tracker = ShapeTracker::default();
        tracker.scan(b"abc\x1b[4 qdef\x1b[6 q\x1b[1m");
        assert_eq!(tracker.shape, CursorShape::Bar);
        assert!(!tracker.blinking);
        tracker.scan(b"\x1b[0 q");
        assert_eq!(
            (tracker.shape, tracker.blinking),
            (CursorShape::Block, true)
        );
    }
}
