//! Issue 50: a CLI `take` had no TTL by default, so a crashed script held a pane until
//! `--seize`, and the refusal told anyone how to get past the lease (`PHUX_AS=…`). A lease now
//! lasts 10 minutes after its holder last typed, ends when the shell or script that took it has
//! died, and the refusal names `give` and `--seize`.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::time::Duration;

use phux_tests::{error_line, json, phux_bin, run_with_deadline, stderr, wait_until, TestServer};

fn lease_of(server: &TestServer, pane: &str) -> serde_json::Value {
    server.json(&["snapshot", "--json", pane])["lease"].clone()
}

#[test]
fn a_lease_taken_by_a_script_that_died_ends_and_the_refusal_names_give_and_seize() {
    let server = TestServer::start();
    let pane = server.plain_shell("leased", "sh");
    // A script takes the pane and dies without giving it back.
    // Not the script's last command: sh would exec it, and the test would be its parent.
    let script = format!("'{}' take '{pane}' --as script; true", phux_bin().display());
    let mut command = std::process::Command::new("sh");
    command
        .args(["-c", &script])
        .env("PHUX_SOCKET", &server.socket);
    let died = run_with_deadline(&mut command, Duration::from_secs(30));
    assert!(died.status.success(), "{}", stderr(&died));
    wait_until(
        "the dead script's lease ends",
        Duration::from_secs(10),
        || lease_of(&server, &pane).is_null(),
    );
    // Taken by a holder that lives (this test): a default TTL, and a refusal that names the
    // owner's remedies, not an impersonation.
    let took = json(&run_with_deadline(
        &mut server.phux(&["take", "--json", "--as", "alice", &pane]),
        Duration::from_secs(30),
    ));
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let expires = took["lease"]["expires"].as_u64().expect("a default TTL");
    assert!(
        (now + 590..=now + 610).contains(&expires),
        "10 minutes: {took}"
    );
    let mut typed = server.phux(&["send-keys", "--json", &pane, "echo hi", "Enter"]);
    typed.env("PHUX_AS", "bob");
    let refused = run_with_deadline(&mut typed, Duration::from_secs(30));
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    let line = error_line(&refused);
    let remedy = line["remedy"].as_str().unwrap();
    assert!(remedy.contains("phux give"), "{line}");
    assert!(remedy.contains("--seize"), "{line}");
    assert!(
        !remedy.contains("PHUX_AS"),
        "the remedy tells how to impersonate: {line}"
    );
    assert!(
        lease_of(&server, &pane).is_object(),
        "the living holder keeps it"
    );
}
