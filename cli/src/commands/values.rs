//! Flag values several verbs share: `K=V` environment entries, `COLSxROWS` geometry, the split
//! direction, and connecting with the failure already shaped for reporting.

use clap::ValueEnum;
use phux_core::docs::GridSize;
use phux_core::split::SplitDirection;

use crate::client::Client;
use crate::commands::Context;
use crate::failure::Failure;
use crate::output;

/// `KEY=VALUE`; the value may itself contain `=` (only the first one splits).
pub fn parse_env(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((key, value)) if !key.is_empty() => Ok((key.to_owned(), value.to_owned())),
        _ => Err(format!("expected KEY=VALUE, got {text:?}")),
    }
}

/// `COLSxROWS`, each at least 1 (e.g. `120x40`).
pub fn parse_geometry(text: &str) -> Result<GridSize, String> {
    let bad = || format!("expected COLSxROWS with each at least 1 (e.g. 120x40), got {text:?}");
    let (cols, rows) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    let number = |s: &str| -> Result<u16, String> {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        s.parse::<u16>().ok().filter(|&n| n >= 1).ok_or_else(bad)
    };
    Ok(GridSize {
        cols: number(cols)?,
        rows: number(rows)?,
    })
}

/// `--split`: the divider as the user sees it (`vertical` = side by side).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum SplitArg {
    /// Stacked (one above the other)
    #[default]
    #[value(alias = "h")]
    Horizontal,
    /// Side by side
    #[value(alias = "v")]
    Vertical,
}

impl From<SplitArg> for SplitDirection {
    fn from(split: SplitArg) -> Self {
        match split {
            SplitArg::Horizontal => SplitDirection::Horizontal,
            SplitArg::Vertical => SplitDirection::Vertical,
        }
    }
}

/// Connects without starting a server.
pub fn connect(context: &Context) -> Result<Client, Failure> {
    Ok(Client::connect(&context.socket)?)
}

/// Prints the partial-fleet warning, if any, ahead of the verb's output.
pub fn warn_if_partial(warning: Option<String>) {
    if let Some(warning) = warning {
        output::warn(&warning);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_values_keep_their_equals_signs() {
        assert_eq!(parse_env("K=V=W").unwrap(), ("K".into(), "V=W".into()));
        assert_eq!(parse_env("K=").unwrap(), ("K".into(), String::new()));
        assert!(parse_env("=V").is_err());
        assert!(parse_env("KV").is_err());
    }

    #[test]
    fn geometry_is_cols_x_rows_each_at_least_one() {
        assert_eq!(
            parse_geometry("120x40").unwrap(),
            GridSize {
                cols: 120,
                rows: 40
            }
        );
        assert_eq!(
            parse_geometry("1X1").unwrap(),
            GridSize { cols: 1, rows: 1 }
        );
        for bad in [
            "0x40", "120x0", "120", "x40", "120x", "-1x4", "+1x4", "70000x1", "a x b", "1x1x1",
        ] {
            assert!(parse_geometry(bad).is_err(), "{bad}");
        }
    }
}
