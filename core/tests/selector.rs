//! Selector grammar, resolution against a state view, and narrowing to one pane.

#![forbid(unsafe_code)]
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on the unexpected

use phux_core::error_code::ErrorCode;
use phux_core::error_doc::ContractError;
use phux_core::ids::{PaneId, SessionId, WindowId};
use phux_core::resolve::{pick_one, resolve, ResolveError};
use phux_core::selector::Selector;
use phux_core::state_view::{PaneView, SessionView, StateView, WindowView};
use proptest::prelude::*;

fn pane(id: u32, tags: &[&str]) -> PaneView {
    PaneView {
        id: PaneId(id),
        tags: tags.iter().map(|t| t.to_string()).collect(),
        title: None,
        cols: 80,
        rows: 24,
        recording: false,
        lease: None,
    }
}

fn state() -> StateView {
    StateView {
        sessions: vec![
            SessionView {
                id: SessionId(1),
                name: "work".into(),
                attached_clients: 0,
                window_size: None,
                unplaced: Vec::new(),
                windows: vec![
                    WindowView {
                        id: WindowId(1),
                        index: 0,
                        name: "editor".into(),
                        panes: vec![pane(1, &["ci"]), pane(2, &[])],
                        layout: None,
                    },
                    WindowView {
                        id: WindowId(2),
                        index: 1,
                        name: "build".into(),
                        panes: vec![pane(3, &["ci", "build"])],
                        layout: None,
                    },
                ],
            },
            SessionView {
                id: SessionId(2),
                name: "play".into(),
                attached_clients: 1,
                window_size: None,
                unplaced: Vec::new(),
                windows: vec![WindowView {
                    id: WindowId(3),
                    index: 0,
                    name: "main".into(),
                    panes: vec![pane(4, &[])],
                    layout: None,
                }],
            },
        ],
        focus_order: vec![PaneId(99), PaneId(3), PaneId(1)],
        unreachable: vec![],
        exited: vec![],
        asks: vec![],
        satellites: vec![],
    }
}

fn parse(s: &str) -> Selector {
    Selector::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

#[test]
fn every_form_parses() {
    assert_eq!(parse("."), Selector::Focused);
    assert_eq!(parse("="), Selector::Previous);
    assert_eq!(parse("work"), Selector::Session("work".into()));
    assert_eq!(
        parse("work:1"),
        Selector::WindowIndex {
            session: "work".into(),
            index: 1
        }
    );
    assert_eq!(
        parse("work:build"),
        Selector::WindowName {
            session: "work".into(),
            window: "build".into()
        }
    );
    assert_eq!(
        parse("work:0.1"),
        Selector::Pane {
            session: "work".into(),
            window: 0,
            pane: 1
        }
    );
    assert_eq!(parse("@7"), Selector::Terminal(PaneId(7)));
    assert_eq!(
        parse("devbox/@7"),
        Selector::Remote {
            host: "devbox".into(),
            pane: PaneId(7)
        }
    );
    assert_eq!(parse("#ci"), Selector::Tag("ci".into()));
    assert_eq!(parse("%scratch"), Selector::Reserved("scratch".into()));
}

#[test]
fn malformed_selectors_are_invalid_selector() {
    for bad in [
        "",
        "@",
        "@x",
        "@-1",
        "@+1",
        "@99999999999",
        "#",
        "%",
        "work:",
        ":1",
        "a:b:c",
        "work:1.",
        "work:1.x",
        "work:99999999999",
        "/@1",
        "host/",
        "host/7",
        "ho st/@1",
        " work",
        "work ",
        "=x",
        "wo\trk",
        "##tag",
    ] {
        let err = Selector::parse(bad).expect_err(bad);
        assert_eq!(err.code(), ErrorCode::InvalidSelector, "{bad}");
        assert_eq!(err.exit_code(), 2);
        assert!(!err.remedy().is_empty());
    }
}

#[test]
fn session_forms_resolve_in_snapshot_order() {
    let s = state();
    assert_eq!(
        resolve(&parse("work"), &s).unwrap(),
        vec![PaneId(1), PaneId(2), PaneId(3)]
    );
    assert_eq!(
        resolve(&parse("work:0"), &s).unwrap(),
        vec![PaneId(1), PaneId(2)]
    );
    assert_eq!(resolve(&parse("work:build"), &s).unwrap(), vec![PaneId(3)]);
    assert_eq!(resolve(&parse("work:0.1"), &s).unwrap(), vec![PaneId(2)]);
    assert_eq!(resolve(&parse("@4"), &s).unwrap(), vec![PaneId(4)]);
    assert_eq!(
        resolve(&parse("#ci"), &s).unwrap(),
        vec![PaneId(1), PaneId(3)]
    );
}

#[test]
fn focused_is_the_most_recent_live_pane() {
    // @99 is first in focus order but gone, so `.` falls to @3.
    assert_eq!(resolve(&parse("."), &state()).unwrap(), vec![PaneId(3)]);
}

#[test]
fn misses_are_no_such_target_exit_1() {
    let s = state();
    for miss in [
        "nope",
        "work:7",
        "work:nope",
        "work:0.9",
        "@42",
        "#nope",
        "%scratch",
        "devbox/@1",
    ] {
        let err = resolve(&parse(miss), &s).expect_err(miss);
        assert!(
            matches!(err, ResolveError::NoSuchTarget { .. }),
            "{miss}: {err:?}"
        );
        assert_eq!(err.exit_code(), 1);
    }
}

#[test]
fn misses_against_a_partial_fleet_are_partial_view_but_session_names_are_not() {
    let mut s = state();
    s.unreachable = vec!["devbox".into()];
    for miss in ["@42", "#nope", "devbox/@1"] {
        let err = resolve(&parse(miss), &s).expect_err(miss);
        assert_eq!(err.code(), ErrorCode::PartialView, "{miss}");
        assert_eq!(err.exit_code(), 3);
        assert!(
            !err.to_string().contains("no such target"),
            "partial view must not claim absence"
        );
    }
    // Session names are hub-local: their name space is complete even when the fleet is not.
    assert_eq!(
        resolve(&parse("nope"), &s).unwrap_err().code(),
        ErrorCode::NoSuchTarget
    );
}

#[test]
fn previous_is_refused_headless() {
    let err = resolve(&Selector::Previous, &state()).unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidSelector);
    assert_eq!(err.exit_code(), 2);
}

#[test]
fn pick_one_prefers_focus_then_snapshot_order() {
    let s = state();
    let all = resolve(&parse("work"), &s).unwrap();
    assert_eq!(pick_one(&all, &s), Some(PaneId(3)));
    let editor = resolve(&parse("work:0"), &s).unwrap();
    assert_eq!(pick_one(&editor, &s), Some(PaneId(1)));
    assert_eq!(pick_one(&[], &s), None);
    let no_focus = StateView {
        focus_order: vec![],
        ..state()
    };
    assert_eq!(pick_one(&all, &no_focus), Some(PaneId(1)));
}

#[test]
fn state_view_round_trips_as_json() {
    let s = state();
    let json = serde_json::to_string(&s).unwrap();
    assert_eq!(serde_json::from_str::<StateView>(&json).unwrap(), s);
}

proptest! {
    #[test]
    fn parser_never_panics(input in any::<String>()) {
        let _ = Selector::parse(&input);
    }

    #[test]
    fn parser_never_panics_on_selector_shaped_input(input in "[.=@#%/:a-z0-9 ]{0,12}") {
        if let Ok(sel) = Selector::parse(&input) {
            // Whatever parses has a canonical spelling that parses back to itself.
            prop_assert_eq!(Selector::parse(&sel.to_string()).unwrap(), sel);
        }
    }
}
