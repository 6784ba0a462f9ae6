//! Cast events: what each one-letter code means and how its data string is checked and spelled.

use crate::error::CastErrorKind;

/// One event at `time` seconds since the start of the recording.
///
/// `time` is always absolute in memory, whatever the file's version: v3 intervals are summed on
/// read and turned back into intervals on write.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub time: f64,
    pub kind: EventKind,
}

/// What happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EventKind {
    /// `o`: what the program wrote, escape sequences included.
    Output(String),
    /// `i`: typed input. Returned by the reader so nothing is hidden, but never fed to a
    /// terminal and never written by phux.
    Input(String),
    /// `m`: a marker; the data is its label, often empty.
    Marker(String),
    /// `r`: the terminal was resized; data `"COLSxROWS"`.
    Resize { cols: u16, rows: u16 },
    /// `x`: the recorded program exited with this status.
    Exit(i32),
}

impl Event {
    pub fn new(time: f64, kind: EventKind) -> Self {
        Self { time, kind }
    }

    pub fn output(time: f64, data: impl Into<String>) -> Self {
        Self::new(time, EventKind::Output(data.into()))
    }

    pub fn marker(time: f64, label: impl Into<String>) -> Self {
        Self::new(time, EventKind::Marker(label.into()))
    }
}

impl EventKind {
    /// Interprets `[_, code, data]`. `Ok(None)` for a code this crate does not know: such events
    /// are skipped, as the reference readers do (asciinema 3.2 writes `x` even in v2 files).
    pub(crate) fn from_code(code: &str, data: String) -> Result<Option<Self>, CastErrorKind> {
        let kind = match code {
            "o" => Self::Output(data),
            "i" => Self::Input(data),
            "m" => Self::Marker(data),
            "r" => {
                let (cols, rows) = parse_resize(&data).ok_or(CastErrorKind::BadResize(data))?;
                Self::Resize { cols, rows }
            }
            "x" => Self::Exit(data.parse().map_err(|_| CastErrorKind::BadExit(data))?),
            _ => return Ok(None),
        };
        Ok(Some(kind))
    }

    /// The one-letter code written in a cast.
    pub fn code(&self) -> &'static str {
        match self {
            Self::Output(_) => "o",
            Self::Input(_) => "i",
            Self::Marker(_) => "m",
            Self::Resize { .. } => "r",
            Self::Exit(_) => "x",
        }
    }

    /// The data string written in a cast.
    pub fn data(&self) -> String {
        match self {
            Self::Output(s) | Self::Input(s) | Self::Marker(s) => s.clone(),
            Self::Resize { cols, rows } => format!("{cols}x{rows}"),
            Self::Exit(status) => status.to_string(),
        }
    }
}

/// `"120x40"` → `(120, 40)`; both sides plain decimal digits from 1 to 65535.
fn parse_resize(data: &str) -> Option<(u16, u16)> {
    let (cols, rows) = data.split_once('x')?;
    let side = |s: &str| -> Option<u16> {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        s.parse::<u16>().ok().filter(|&n| n >= 1)
    };
    Some((side(cols)?, side(rows)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resize_accepts_cols_x_rows_only() {
        assert_eq!(parse_resize("120x40"), Some((120, 40)));
        assert_eq!(parse_resize("1x1"), Some((1, 1)));
        for bad in [
            "0x0", "80x0", "0x24", "80x", "x24", "80X24", "+80x24", " 80x24", "80x24x1", "70000x1",
            "",
        ] {
            assert_eq!(parse_resize(bad), None, "{bad:?} accepted");
        }
    }

    #[test]
    fn exit_status_must_be_an_integer() {
        assert_eq!(
            EventKind::from_code("x", "-1".into()).unwrap(),
            Some(EventKind::Exit(-1))
        );
        assert!(matches!(
            EventKind::from_code("x", "0.5".into()),
            Err(CastErrorKind::BadExit(_))
        ));
        assert!(matches!(
            EventKind::from_code("x", "".into()),
            Err(CastErrorKind::BadExit(_))
        ));
    }

    #[test]
    fn unknown_codes_are_skipped() {
        assert_eq!(EventKind::from_code("z", "anything".into()).unwrap(), None);
        assert_eq!(EventKind::from_code("", String::new()).unwrap(), None);
    }

    #[test]
    fn code_and_data_spell_each_kind() {
        let r = EventKind::Resize {
            cols: 132,
            rows: 43,
        };
        assert_eq!((r.code(), r.data()), ("r", "132x43".to_owned()));
        assert_eq!(EventKind::Exit(3).data(), "3");
    }
}
