//! The mouse, reported by the outer terminal in SGR form (`CSI < b ; x ; y M|m`): a click
//! focuses a pane, dragging a border moves it, the wheel scrolls history (copy mode); a pane
//! whose program asked for mouse reports gets them instead, in its own coordinates.

use phux_client::ClientError;
use phux_core::pane_layout::Rect;
use phux_core::wire::{ClientMessage, Done, SetSplitRatio};

use crate::app::App;
use crate::modes::Mode;

/// Modes the outer terminal is put in while attached (button events, SGR encoding).
pub const ENABLE: &str = "\x1b[?1000h\x1b[?1002h\x1b[?1006h";
pub const DISABLE: &str = "\x1b[?1006l\x1b[?1002l\x1b[?1000l";

/// Lines one wheel step scrolls.
const WHEEL_LINES: isize = 3;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MouseEvent {
    /// The button code as reported (0 left, 1 middle, 2 right, +32 motion, 64/65 wheel).
    pub code: u16,
    /// 0-based cell.
    pub x: u16,
    pub y: u16,
    pub release: bool,
}

impl MouseEvent {
    fn is_motion(&self) -> bool {
        self.code & 32 != 0
    }

    fn wheel(&self) -> Option<isize> {
        match self.code & !(4 | 8 | 16) {
            64 => Some(-WHEEL_LINES),
            65 => Some(WHEEL_LINES),
            _ => None,
        }
    }
}

/// A mouse report at the start of `bytes`, and its length; None when `bytes` does not start
/// with a complete one.
pub fn parse(bytes: &[u8]) -> Option<(MouseEvent, usize)> {
    let body = bytes.strip_prefix(b"\x1b[<")?;
    let end = body.iter().position(|&b| b == b'M' || b == b'm')?;
    let text = std::str::from_utf8(&body[..end]).ok()?;
    let mut numbers = text.split(';').map(|n| n.parse::<u16>().ok());
    let (code, x, y) = (numbers.next()??, numbers.next()??, numbers.next()??);
    let event = MouseEvent {
        code,
        x: x.saturating_sub(1),
        y: y.saturating_sub(1),
        release: body[end] == b'm',
    };
    Some((event, end + 4))
}

impl App {
    pub fn mouse(&mut self, event: MouseEvent) -> Result<(), ClientError> {
        if let Some(split) = self.drag.clone() {
            if event.release {
                self.drag = None;
                return Ok(());
            }
            let to = match split.split {
                phux_core::split::SplitDirection::Vertical => event.x,
                phux_core::split::SplitDirection::Horizontal => event.y,
            };
            return self.move_border(&split, to);
        }
        let placement = self.model.placement();
        if !event.release && !event.is_motion() && event.code == 0 {
            if let Some(split) = placement
                .splits
                .iter()
                .find(|s| s.is_border(event.x, event.y))
            {
                self.drag = Some(split.clone());
                return Ok(());
            }
        }
        let Some(placed) = placement
            .panes
            .iter()
            .find(|p| p.area.contains(event.x, event.y))
            .copied()
        else {
            return Ok(());
        };
        if self.wants_mouse(placed.pane, &event) && placed.content.contains(event.x, event.y) {
            if Some(placed.pane) != self.model.focused() && !event.is_motion() {
                self.focus(placed.pane)?;
            }
            let bytes = self.encode_for_pane(placed.pane, placed.content, &event);
            return self.type_bytes(bytes);
        }
        if let Some(lines) = event.wheel() {
            return self.wheel(placed.pane, lines);
        }
        if !event.release && !event.is_motion() && Some(placed.pane) != self.model.focused() {
            self.focus(placed.pane)?;
        }
        Ok(())
    }

    fn wants_mouse(&self, pane: phux_core::ids::PaneId, event: &MouseEvent) -> bool {
        let Some(feed) = self.feeds.get(pane) else {
            return false;
        };
        if !matches!(self.mode, Mode::Normal) || !feed.modes.mouse_tracking {
            return false;
        }
        !event.is_motion() || feed.modes.mouse_button_event || feed.modes.mouse_any_event
    }

    /// The report as the pane's program asked for it (SGR or the classic encoding), with
    /// coordinates inside the pane.
    fn encode_for_pane(
        &self,
        pane: phux_core::ids::PaneId,
        content: Rect,
        event: &MouseEvent,
    ) -> Vec<u8> {
        let (x, y) = (event.x - content.x + 1, event.y - content.y + 1);
        let sgr = self.feeds.get(pane).is_some_and(|f| f.modes.mouse_sgr);
        if sgr {
            let end = if event.release { 'm' } else { 'M' };
            return format!("\x1b[<{};{x};{y}{end}", event.code).into_bytes();
        }
        let code = if event.release { 3 } else { event.code };
        let byte = |n: u16| u8::try_from(n + 32).unwrap_or(255);
        vec![0x1b, b'[', b'M', byte(code), byte(x), byte(y)]
    }

    /// The wheel over a pane whose program does not take the mouse: its history, in copy mode.
    fn wheel(&mut self, pane: phux_core::ids::PaneId, lines: isize) -> Result<(), ClientError> {
        if !matches!(&self.mode, Mode::Copy(copy) if copy.pane == pane) {
            if lines > 0 || !matches!(self.mode, Mode::Normal) {
                return Ok(());
            }
            if Some(pane) != self.model.focused() {
                self.focus(pane)?;
            }
            self.perform(crate::keymap::Action::CopyMode)?;
        }
        if let Mode::Copy(copy) = &mut self.mode {
            copy.scroll(lines);
        }
        Ok(())
    }

    fn move_border(
        &mut self,
        split: &phux_core::pane_layout::SplitPlace,
        to: u16,
    ) -> Result<(), ClientError> {
        let Some(pane) = self.model.focused() else {
            return Ok(());
        };
        let request = SetSplitRatio {
            id: 0,
            pane,
            split: split.split,
            ratio: split.ratio_for(to),
            path: Some(split.path.clone()),
        };
        let Done {} = self
            .control
            .request(ClientMessage::SetSplitRatio(request))?;
        self.send_size()?;
        self.refresh()?;
        // The border moved: keep dragging the split at its new place.
        self.drag = self
            .model
            .placement()
            .splits
            .into_iter()
            .find(|s| s.path == split.path);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sgr_reports_are_read_with_their_length() {
        let (event, len) = parse(b"\x1b[<0;12;5Mrest").unwrap();
        assert_eq!(
            event,
            MouseEvent {
                code: 0,
                x: 11,
                y: 4,
                release: false
            }
        );
        assert_eq!(len, 10);
        assert!(parse(b"\x1b[<65;1;1m").unwrap().0.release);
        assert_eq!(parse(b"\x1b[<64;3;3M").unwrap().0.wheel(), Some(-3));
        assert!(parse(b"\x1b[<0;1").is_none());
        assert!(parse(b"abc").is_none());
    }
}
