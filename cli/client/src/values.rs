//! Values several verbs share (`K=V` environment entries, `COLSxROWS` geometry, durations),
//! checked by plain functions that clap's parsers and the MCP tools both call, and connecting
//! with the failure already shaped for reporting.

use phux_core::documents::GridSize;
use phux_core::error_code::ErrorCode;
use phux_core::ids::PaneId;
use phux_core::selector::Selector;

use crate::failure::Failure;
use crate::output;
use crate::{target, Client, Context};

/// The signals that ask a long-running verb (`rec`, `watch`) to finish what it has and stop
/// with success, rather than die: Ctrl-C, a supervisor's TERM, a closed terminal's HUP.
pub const STOP_SIGNALS: [i32; 3] = [
    signal_hook::consts::SIGINT,
    signal_hook::consts::SIGTERM,
    signal_hook::consts::SIGHUP,
];

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

/// `--timeout SECS`: seconds, fractions allowed (`0.5`), never negative.
pub fn parse_seconds(text: &str) -> Result<std::time::Duration, String> {
    text.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0 && *s < 1e12)
        .map(std::time::Duration::from_secs_f64)
        .ok_or_else(|| format!("expected a number of seconds (e.g. 30 or 0.5), got {text:?}"))
}

/// `60s`, `2m`, `500ms`, `1h`, or bare seconds, in milliseconds.
pub fn parse_duration_ms(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let (number, unit) = text
        .find(|c: char| c.is_ascii_alphabetic())
        .map_or((text, "s"), |i| text.split_at(i));
    let value: f64 = number
        .parse()
        .map_err(|_| format!("{text:?} is not a duration like 60s, 2m or 500ms"))?;
    let scale = match unit {
        "ms" => 1.0,
        "s" => 1_000.0,
        "m" => 60_000.0,
        "h" => 3_600_000.0,
        _ => {
            return Err(format!(
                "unknown unit {unit:?} in {text:?}: use ms, s, m or h"
            ))
        }
    };
    if !(value.is_finite() && value >= 0.0) {
        return Err(format!("{text:?} is not a positive duration"));
    }
    Ok((value * scale) as u64)
}

/// A flag with an optional count (`--tail[=N]`, `--scrollback[=N]`), as clap hands it over:
/// absent, bare, or with a word. Because the value is optional, clap takes the word after a
/// bare flag as its value even when it is the TARGET (`phux snapshot --tail @3`); a word that
/// is not a number is therefore given back as the TARGET when no TARGET was read.
pub fn optional_count(
    flag: &str,
    given: Option<Option<String>>,
    target: &mut Option<String>,
) -> Result<Option<Option<u32>>, Failure> {
    let Some(given) = given else {
        return Ok(None);
    };
    let Some(word) = given else {
        return Ok(Some(None));
    };
    if let Ok(n) = word.parse::<u32>() {
        return Ok(Some(Some(n)));
    }
    if target.is_none() {
        *target = Some(word);
        return Ok(Some(None));
    }
    Err(usage(format!(
        "invalid value {word:?} for --{flag}: expected a number of rows"
    )))
}

/// A usage error found after parsing (exit 2, `invalid_argument`).
pub fn usage(message: impl Into<String>) -> Failure {
    Failure::new(
        ErrorCode::InvalidArgument,
        message,
        "see the verb's --help for its flags",
    )
}

/// A usage error for flags that exclude each other.
pub fn exclusive(a: &str, b: &str) -> Failure {
    usage(format!("--{a} and --{b} cannot be used together"))
}

/// Connects without starting a server.
pub fn connect(context: &Context) -> Result<Client, Failure> {
    Ok(Client::connect(&context.socket)?)
}

/// The one pane TARGET names (the focused one when it names several), for the verbs that share
/// the resolver but keep exit 1 for a partial view; the partial-fleet warning is printed.
pub fn resolve_pane(client: &mut Client, selector: &Selector) -> Result<PaneId, Failure> {
    resolve_pane_as_found(client, selector).map_err(Failure::partial_view_exits_1)
}

/// `resolve_pane` with a partial view's own exit status (3).
fn resolve_pane_as_found(client: &mut Client, selector: &Selector) -> Result<PaneId, Failure> {
    // `@N` names one local pane outright: skip the state round trip (a hot path for agents);
    // the request that follows is refused with `no_such_target` if the pane does not exist.
    if let Selector::Terminal(pane) = selector {
        return Ok(*pane);
    }
    // `NAME/@N`: the same shortcut on the satellite's server, reached through the hub.
    if let Selector::Remote { host, pane } = selector {
        target::enter_satellite(client, host).map_err(Failure::from)?;
        return Ok(*pane);
    }
    let resolved = target::resolve_target(client, selector).map_err(Failure::from)?;
    warn_if_partial(resolved.partial_warning());
    Ok(resolved.pane())
}

/// The one pane TARGET names for the agent verbs: their records are hub-local, so `NAME/@N`
/// is refused with `satellite_target` (exit 2) before anything is read or typed. A miss while
/// a satellite is unreachable is `partial_view` with its own exit status (3), for a `#tag` as
/// for an `@N`; the verbs that keep exit 1 for it (§5.2's shared-resolver verbs) say so
/// themselves (`Failure::partial_view_exits_1`).
pub fn resolve_agent_pane(
    client: &mut Client,
    selector: &Selector,
    verb: &str,
) -> Result<PaneId, Failure> {
    target::refuse_satellite(selector, verb)?;
    resolve_pane_as_found(client, selector)
}

/// The one pane TARGET names for the verbs that act on one pane (snapshot, send-keys, paste's
/// siblings run and wait): like `resolve_pane`, but a `#tag` set that matches several panes is
/// `selector_not_single` (exit 2) naming them, never a silent pick. A session or window still
/// narrows to its focused pane, as the selector grammar says.
pub fn resolve_single_pane(client: &mut Client, selector: &Selector) -> Result<PaneId, Failure> {
    if !matches!(selector, Selector::Tag(_)) {
        return resolve_pane(client, selector);
    }
    let resolved = target::resolve_target(client, selector)
        .map_err(|e| Failure::from(e).partial_view_exits_1())?;
    if let [pane] = resolved.panes() {
        warn_if_partial(resolved.partial_warning());
        return Ok(*pane);
    }
    let names: Vec<String> = resolved.panes().iter().map(ToString::to_string).collect();
    Err(Failure::from(crate::ClientError::preflight(
        ErrorCode::SelectorNotSingle,
        format!(
            "{selector} matches {} panes ({}); this verb acts on one pane",
            names.len(),
            names.join(", ")
        ),
        "name one of them, e.g. its @N",
    )))
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
    fn an_optional_count_gives_a_word_back_as_the_target() {
        let mut target = None;
        let count = optional_count("tail", Some(Some("@3".into())), &mut target).unwrap();
        assert_eq!((count, target.as_deref()), (Some(None), Some("@3")));
        let mut target = Some("@3".to_owned());
        assert_eq!(
            optional_count("tail", Some(Some("200".into())), &mut target).unwrap(),
            Some(Some(200))
        );
        assert_eq!(optional_count("tail", None, &mut target).unwrap(), None);
        assert_eq!(
            optional_count("tail", Some(None), &mut target).unwrap(),
            Some(None)
        );
        let failure = optional_count("tail", Some(Some("x".into())), &mut target).unwrap_err();
        assert_eq!(failure.exit_code, 2);
    }

    #[test]
    fn seconds_may_be_fractional_but_not_negative() {
        assert_eq!(parse_seconds("1.5").unwrap().as_millis(), 1500);
        assert_eq!(parse_seconds("0").unwrap().as_millis(), 0);
        for bad in ["-1", "x", "inf", "NaN", ""] {
            assert!(parse_seconds(bad).is_err(), "{bad}");
        }
    }

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
