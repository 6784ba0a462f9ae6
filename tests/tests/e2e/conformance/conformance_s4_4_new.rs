//! Contract §4.4 (`phux new --json`): the session is named with `-s`; `new --json NAME`
//! (positional) and `new --json` without `-s` are usage errors, exit 2, reported as the one JSON
//! error line (§5.3) before any server is contacted.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use phux_tests::{error_line, phux, run};

#[test]
fn s4_4_new_json_without_dash_s_is_a_usage_error_line() {
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("never.sock");
    for args in [&["new", "--json", "work"][..], &["new", "--json"][..]] {
        let output = run(phux(args).env("PHUX_SOCKET", &socket));
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let line = error_line(&output);
        assert_eq!(
            line["error"]["code"], "invalid_argument",
            "{args:?}: {line}"
        );
        assert!(!socket.exists(), "{args:?} started a server");
    }
}
