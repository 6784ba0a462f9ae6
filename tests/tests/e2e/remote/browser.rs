//! The browser half of §4.18, in Debian's chromium driven headless by playwright-core
//! (`tests/browser/pair.mjs`; `.ci/run` installs both): pair, open the connect link, see what
//! a pane printed, type into it, watch a read-only credential's typing refused, revoke and see
//! the next connection refused while the open page keeps its admission. Screenshots of the
//! fleet view and the refusal land in the test's directory (`PHUX_BROWSER_SHOTS` keeps them).

use std::path::PathBuf;
use std::time::Duration;

use phux_tests::listening::Listening;
use phux_tests::{missing, phux_bin, run_with_deadline, stdout, TestServer};

#[test]
fn a_browser_pairs_watches_types_and_is_refused_once_revoked() {
    if let Err(what) = phux_tests::browser::ready() {
        missing(&what);
        return;
    }
    let listening = Listening::start();
    let server = &listening.server;
    let dir = tempfile::tempdir().unwrap();
    let pane = server.marked_bash("web");
    server.run(&["send-keys", &pane, "echo WEB-MARK-$((20+1))", "Enter"]);
    server.wait_for_text(&pane, "WEB-MARK-21");
    let pair = |args: &[&str]| listening.pair(args);
    let full = pair(&[]);
    let read_only = pair(&["--read-only"]);
    let shots = std::env::var_os("PHUX_BROWSER_SHOTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| dir.path().to_path_buf());
    std::fs::create_dir_all(&shots).unwrap();
    let plan = serde_json::json!({
        "base": listening.base(),
        "token": full["token"],
        "credential_id": full["credential_id"],
        "read_only_token": read_only["token"],
        "marker": "WEB-MARK-21",
        "typed": "echo typed-$((6*7))",
        "expect_after_typing": "typed-42",
        "read_only_typed": "echo READONLY",
        "typed_after_upgrade": "echo upgraded-$((3*3))",
        "expect_after_upgrade": "upgraded-9",
        "typed_after_revoke": "echo kept-$((5*5))",
        "expect_after_revoke": "kept-25",
        "phux": phux_bin(),
        "shots": shots,
    });
    let mut node = phux_tests::browser::script("pair.mjs", &plan);
    node.env("PHUX_SOCKET", &server.socket)
        .env("PHUX_WS_TOKENS", &listening.tokens);
    let output = run_with_deadline(&mut node, Duration::from_secs(120));
    let printed = stdout(&output);
    assert!(
        output.status.success(),
        "the browser run failed:\n{printed}\n{}\nthe server's log:\n{}",
        phux_tests::stderr(&output),
        std::fs::read_to_string(server.dir.path().join("server.log")).unwrap_or_default()
    );
    let steps: Vec<serde_json::Value> = printed
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON line per step"))
        .collect();
    let step = |name: &str| {
        steps
            .iter()
            .find(|s| s["step"] == name)
            .unwrap_or_else(|| panic!("no step {name}: {printed}"))
    };
    let open = step("open");
    assert_eq!(open["state"], "connected");
    assert!(open["fleet"].as_str().unwrap().contains(&pane), "{open}");
    assert!(open["shown"].as_str().unwrap().contains("WEB-MARK-21"));
    assert_eq!(
        open["token_in_requests"], false,
        "the token never travels in a URL"
    );
    assert!(
        !open["url"].as_str().unwrap().contains("token"),
        "the token leaves the address bar"
    );
    assert!(step("typed")["shown"]
        .as_str()
        .unwrap()
        .contains("typed-42"));
    // After an upgrade the page is back by itself, and typing reaches the same shell.
    let upgraded = step("upgraded");
    assert!(
        upgraded["shown"].as_str().unwrap().contains("upgraded-9"),
        "{upgraded}"
    );
    println!(
        "the page was back {} ms after `phux upgrade` returned (the upgrade took {} ms)",
        upgraded["back_after_ms"], upgraded["upgrade_ms"]
    );
    assert_eq!(
        upgraded["red"],
        serde_json::json!([]),
        "an orderly upgrade shows no error: {upgraded}"
    );
    assert!(step("read_only")["badge"]
        .as_str()
        .unwrap()
        .contains("typing refused"));
    let revoked = step("revoked");
    assert_eq!(revoked["state"], "refused");
    assert!(revoked["notice"].as_str().unwrap().contains("revoked"));
    assert!(step("kept")["shown"].as_str().unwrap().contains("kept-25"));
    // What the pane really got: the full credential's typing, never the read-only one's.
    let lines = server.lines(&pane).join("\n");
    assert!(
        lines.contains("typed-42") && lines.contains("kept-25"),
        "{lines}"
    );
    assert!(!lines.contains("READONLY"), "{lines}");
    assert!(shots.join("fleet-and-pane.png").exists());
    let log = std::fs::read_to_string(server.dir.path().join("server.log")).unwrap();
    assert!(
        !log.contains(full["token"].as_str().unwrap()),
        "no token in the log"
    );
}

/// A tape writes the same recording as a page and as the engine's last screen in text: the
/// page, opened from a file with the network off, plays to its end and shows those rows.
#[test]
fn a_recording_page_plays_offline_to_the_screen_the_engine_ends_on() {
    if let Err(what) = phux_tests::browser::ready() {
        missing(&what);
        return;
    }
    let server = TestServer::start();
    let dir = server.dir.path().join("page");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("demo.tape"),
        "Output demo.html\nOutput demo.txt\n\
         Type \"printf '\\033[1;31mRED\\033[0m and \\033[42m green \\033[0m\\n'; seq 3\"\n\
         Enter\nSleep 500ms\nType \"echo page-$((6*7))\"\nEnter\nSleep 500ms\n",
    )
    .unwrap();
    let mut tape = server.phux(&["tape", "demo.tape"]);
    tape.current_dir(&dir);
    let output = run_with_deadline(&mut tape, Duration::from_secs(90));
    assert!(output.status.success(), "{}", phux_tests::stderr(&output));
    let page = dir.join("demo.html");
    let size = std::fs::metadata(&page).unwrap().len();
    assert!(size < 400_000, "a page the README can embed: {size} bytes");
    let expected = std::fs::read_to_string(dir.join("demo.txt")).unwrap();
    for seek_to_end in [false, true] {
        let plan = serde_json::json!({
            "page": page,
            "shot": dir.join("page.png"),
            "seek_to_end": seek_to_end,
        });
        let mut node = phux_tests::browser::script("player.mjs", &plan);
        let output = run_with_deadline(&mut node, Duration::from_secs(120));
        let printed = stdout(&output);
        assert!(
            output.status.success(),
            "{printed}{}",
            phux_tests::stderr(&output)
        );
        let seen: serde_json::Value = serde_json::from_str(printed.trim()).unwrap();
        assert_eq!(seen["errors"], serde_json::json!([]), "{seen}");
        assert_eq!(
            seen["again_same"], true,
            "seeking back and forth lands on the same frame"
        );
        let rows: Vec<String> = seen["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap().trim_end().to_owned())
            .collect();
        let mut shown = rows.join("\n").trim_end().to_owned();
        shown.push('\n');
        assert_eq!(shown, expected, "the page ends on the engine's last screen");
        assert!(shown.contains("page-42"));
    }
}
