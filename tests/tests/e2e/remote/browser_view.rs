//! Issue 52 in headless chromium (`tests/browser/view.mjs`): the page shows a 120x36 pane in an
//! 800x600 window and on a 390x844 phone with touch without resizing it (scaled, and cropped
//! where scaling would make it unreadable, saying so); it holds the 300 lines printed before it
//! opened; Fit resizes the pane for a writer only; and after 50 resizes (Fit and `phux resize`)
//! every row of the page's engine equals the server's. Screenshots land in the test's
//! directory (`PHUX_BROWSER_SHOTS` keeps them).

use std::path::PathBuf;
use std::time::Duration;

use phux_tests::listening::Listening;
use phux_tests::{missing, phux_bin, run_with_deadline, stdout};

use phux_tests::browser::ready;

const LINES: usize = 300;

#[test]
fn the_page_never_resizes_by_looking_holds_history_and_stays_exact_after_resizes() {
    if let Err(what) = ready() {
        missing(&what);
        return;
    }
    let listening = Listening::start();
    let server = &listening.server;
    let dir = tempfile::tempdir().unwrap();
    let pane = server.marked_bash("view");
    server.json(&["resize", &pane, "120x36", "--json"]);
    server.run(&[
        "send-keys",
        &pane,
        &format!("for i in $(seq 1 {LINES}); do echo hist-$i; done"),
        "Enter",
    ]);
    server.wait_for_text(&pane, &format!("hist-{LINES}"));
    let size = || {
        let doc = server.json(&["snapshot", "--json", &pane]);
        (doc["cols"].as_u64().unwrap(), doc["rows"].as_u64().unwrap())
    };
    assert_eq!(size(), (120, 36));
    let full = listening.pair(&[]);
    let read_only = listening.pair(&["--read-only"]);
    let shots = std::env::var_os("PHUX_BROWSER_SHOTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| dir.path().to_path_buf());
    std::fs::create_dir_all(&shots).unwrap();
    let lines: Vec<String> = (1..=LINES).map(|i| format!("hist-{i}")).collect();
    let plan = serde_json::json!({
        "base": listening.base(),
        "token": full["token"],
        "read_only_token": read_only["token"],
        "pane": pane,
        "lines": lines,
        "last_line": format!("hist-{LINES}"),
        "inserted": ["echo A", "日本語", "B", "🚀"],
        "composed": "日本",
        "inserted_echo": "A日本語B🚀日本",
        "phux": phux_bin(),
        "shots": shots,
    });
    let mut node = phux_tests::browser::script("view.mjs", &plan);
    node.env("PHUX_SOCKET", &server.socket);
    let output = run_with_deadline(&mut node, Duration::from_secs(300));
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
            .clone()
    };

    // Looking never resized: the laptop and the phone show 120x36, scaled, the phone cropped.
    let laptop = step("laptop");
    assert_eq!(
        (laptop["cols"].as_u64(), laptop["rows"].as_u64()),
        (Some(120), Some(36)),
        "{laptop}"
    );
    assert!(laptop["scale"].as_f64().unwrap() < 1.0, "{laptop}");
    assert!(
        laptop["size"].as_str().unwrap().contains("scaled to"),
        "{laptop}"
    );
    assert_eq!(laptop["fit_shown"], true, "a writer has Fit: {laptop}");
    let phone = step("phone");
    assert_eq!(
        (phone["cols"].as_u64(), phone["rows"].as_u64()),
        (Some(120), Some(36)),
        "{phone}"
    );
    assert_eq!(phone["cropped"], true, "{phone}");
    assert!(
        phone["size"].as_str().unwrap().contains("cropped"),
        "{phone}"
    );
    assert_eq!(
        phone["fleet_shown"], false,
        "the list folds away on a phone: {phone}"
    );
    assert_eq!(phone["list_after_toggle"], true, "{phone}");
    assert_eq!(phone["keys_shown"], true, "{phone}");
    assert_eq!(laptop["keys_shown"], false, "{laptop}");
    let read_only_step = step("read_only");
    assert_eq!(read_only_step["fit_shown"], false, "{read_only_step}");
    let looked = step("looked");
    assert_eq!(
        (looked["cols"].as_u64(), looked["rows"].as_u64()),
        (Some(120), Some(36)),
        "three pages looked, the pane kept its size: {looked}"
    );
    // What the phone's key row typed reached the shell: Ctrl then c dropped the typed line.
    let shell = phone["shell"].as_str().unwrap();
    assert!(
        shell.contains("key-row-42") && shell.contains("from-the-phone^C"),
        "{shell}"
    );

    // History on open.
    let history = step("history");
    println!(
        "history on open: {} of {LINES} lines printed before the page opened are in its engine \
         ({} rows)",
        history["found"], history["rows"]
    );
    assert_eq!(history["found"].as_u64(), Some(LINES as u64), "{history}");
    let scrolled = history["viewport_y"].as_array().unwrap();
    assert!(
        scrolled[1].as_f64() > scrolled[0].as_f64() && scrolled[2].as_f64() > scrolled[1].as_f64(),
        "Shift+PageUp, then the wheel, scroll back: {history}"
    );

    // Inserted text and a composition arrived whole, once.
    let inserted = step("inserted");
    let screen = inserted["screen"].as_str().unwrap();
    assert!(
        screen.contains("$ echo A日本語B🚀日本\nA日本語B🚀日本"),
        "{screen}"
    );

    // Fit resized the pane (the writer's), to the window's size.
    let fit = step("fit");
    let fitted = (fit["cols"].as_u64().unwrap(), fit["rows"].as_u64().unwrap());
    assert_ne!(fitted, (120, 36), "{fit}");
    assert_eq!(fit["scale"].as_f64(), Some(1.0), "{fit}");
    assert_eq!(fit["differ"].as_u64(), Some(0), "{fit}");

    // The lease, taken and given back from the page.
    let lease = step("lease");
    assert_eq!(lease["held"][0]["holder"], "web", "{lease}");
    assert_eq!(lease["holder_shown"], "held by web", "{lease}");
    assert_eq!(lease["cli_typed_while_held"], false, "{lease}");
    assert_eq!(lease["after_give"], serde_json::json!([]), "{lease}");

    // Exact after every resize.
    let resizes = step("resizes");
    println!(
        "after 50 resizes: {} screen rows differed in all (0 after each), {} at the end, {} of \
         {} history rows",
        resizes["differ_after_each"],
        resizes["differ_last"],
        resizes["history_differ"],
        resizes["history_rows_server"]
    );
    assert_eq!(resizes["differ_after_each"].as_u64(), Some(0), "{resizes}");
    assert_eq!(resizes["unsettled"].as_u64(), Some(0), "{resizes}");
    assert_eq!(resizes["differ_last"].as_u64(), Some(0), "{resizes}");
    assert_eq!(resizes["history_differ"].as_u64(), Some(0), "{resizes}");
    let flood = step("flood");
    println!(
        "after `seq 1 200000`: {} rows differ, the page's JS heap {} bytes",
        flood["differ"], flood["heap_bytes"]
    );
    assert_eq!(flood["differ"].as_u64(), Some(0), "{flood}");
    assert_eq!(flood["same_size"], true, "{flood}");
    for shot in [
        "laptop-800x600.png",
        "phone-390x844.png",
        "after-50-resizes.png",
    ] {
        assert!(shots.join(shot).exists(), "{shot}");
    }
}
