//! A listener started on a running server (`phux listen`, `phux server --ws-addr` joining it):
//! its panes and clients untouched, `status`, `doctor` and `pair` telling the listener the
//! server runs (not only the configured one), a real TLS WebSocket client admitted through
//! it, the listener back after a crash of the server, and the refusals.

use std::process::{Command, Stdio};
use std::time::Duration;

use phux_tests::listening::PROBE;
use phux_tests::{error_line, json, run_with_deadline, stdout, TestServer};

/// `phux ARGS` against `server`, its token store `tokens` (as every command of a user would
/// see the same `PHUX_WS_TOKENS`).
fn phux_at(server: &TestServer, tokens: &std::path::Path, args: &[&str]) -> std::process::Output {
    let mut command = server.phux(args);
    command
        .env("PHUX_WS_TOKENS", tokens)
        .env_remove("PHUX_WS_ADDR");
    run_with_deadline(&mut command, Duration::from_secs(20))
}

/// A real TLS WebSocket client showing `token` on `/wire` at `port`: what the server said
/// after its hello (its welcome), or how it closed.
fn admitted(port: u16, token: &str) -> serde_json::Value {
    let script = r#"
s = session(os.environ["TOKEN"])
send(s, 2, frame({"type": "status", "id": 1}))
print(json.dumps(wire_messages(s, 1)[0]))
"#;
    let output = run_with_deadline(
        Command::new("python3")
            .arg("-c")
            .arg(format!("{PROBE}\n{script}"))
            .env("PORT", port.to_string())
            .env("TOKEN", token)
            .stdin(Stdio::null()),
        Duration::from_secs(30),
    );
    assert!(output.status.success(), "{}", phux_tests::stderr(&output));
    serde_json::from_str(stdout(&output).trim()).expect("one JSON line")
}

fn port_of(addr: &str) -> u16 {
    addr.rsplit_once(':').unwrap().1.parse().unwrap()
}

#[test]
fn a_running_server_starts_listening_and_every_verb_tells_its_listener() {
    let store = tempfile::tempdir().unwrap();
    let tokens = store.path().join("remote-tokens");
    // The server's listener reads the token store its environment names, as a user's would.
    let mut server = TestServer::start_with_env(&[], &[("PHUX_WS_TOKENS", tokens.as_os_str())]);
    let pane = server.new_session("work", &["bash", "--norc", "-i"]);
    server.send_keys(&pane, &["X=kept", "Enter"]);
    let programs_before = phux_tests::kept_programs(&server.socket);
    assert_eq!(programs_before.len(), 1, "{programs_before:?}");
    // Before: no listener, and every verb says how to start one.
    let status = json(&phux_at(&server, &tokens, &["status", "--json"]));
    assert!(status.get("listener").is_none(), "{status}");
    let doctor = stdout(&phux_at(&server, &tokens, &["doctor"]));
    assert!(
        doctor.contains("the running server does not listen"),
        "{doctor}"
    );
    let paired = phux_at(&server, &tokens, &["pair", "--name", "before"]);
    assert!(
        stdout(&paired).contains("`phux listen HOST:PORT` starts it"),
        "{}",
        stdout(&paired)
    );

    let started = json(&phux_at(
        &server,
        &tokens,
        &["listen", "127.0.0.1:0", "--json"],
    ));
    assert_eq!(started["schema_version"], 1, "{started}");
    assert_eq!(started["operation"], "listen");
    assert_eq!(started["started"], true);
    let addr = started["addr"].as_str().unwrap().to_owned();
    let fingerprint = started["fingerprint"].as_str().unwrap().to_owned();
    assert!(
        addr.starts_with("127.0.0.1:") && port_of(&addr) != 0,
        "{addr}"
    );
    assert_eq!(fingerprint.split(':').count(), 32, "{fingerprint}");

    // The running server's listener, told by each verb.
    let status = json(&phux_at(&server, &tokens, &["status", "--json"]));
    assert_eq!(status["listener"]["addr"], addr.as_str(), "{status}");
    assert_eq!(status["listener"]["fingerprint"], fingerprint.as_str());
    assert_eq!(status["listener"]["admitted"], 0);
    let doctor = json(&phux_at(&server, &tokens, &["doctor", "--json"]));
    let remote = (doctor["checks"].as_array().unwrap().iter())
        .find(|c| c["name"] == "remote")
        .unwrap_or_else(|| panic!("{doctor}"))
        .clone();
    assert!(
        remote["detail"]
            .as_str()
            .unwrap_or_default()
            .contains(&addr)
            || remote.to_string().contains(&addr),
        "{remote}"
    );
    // `pair` names it without contacting the server (§4.18): from the file beside the socket.
    let pair = json(&phux_at(
        &server,
        &tokens,
        &["pair", "--name", "laptop", "--json"],
    ));
    assert_eq!(pair["ws_addr"], addr.as_str(), "{pair}");
    assert_eq!(pair["cert_fingerprint"], fingerprint.as_str(), "{pair}");

    // A real client is admitted through it and served by this server.
    let answer = admitted(port_of(&addr), pair["token"].as_str().unwrap());
    assert_eq!(answer["type"], "response", "{answer}");
    let pid = server.server_pid();
    assert_eq!(answer["ok"]["pid"], pid, "{answer}");

    // Asking again for the same address changes nothing; another address is refused.
    let again = json(&phux_at(&server, &tokens, &["listen", &addr, "--json"]));
    assert_eq!(again["started"], false, "{again}");
    let other = phux_at(&server, &tokens, &["listen", "127.0.0.1:1", "--json"]);
    assert_eq!(other.status.code(), Some(2));
    assert!(other.stdout.is_empty());
    let error = error_line(&other);
    assert_eq!(error["error"]["code"], "listener_running", "{error}");
    assert!(error["remedy"].as_str().unwrap().contains(&addr), "{error}");
    // `phux server --ws-addr` on a running server joins it instead of failing.
    let joined = phux_at(&server, &tokens, &["server", "--ws-addr", &addr]);
    assert!(joined.status.success(), "{}", phux_tests::stderr(&joined));
    assert!(
        stdout(&joined).contains("it already listens there"),
        "{}",
        stdout(&joined)
    );

    // The pane never noticed.
    assert_eq!(phux_tests::kept_programs(&server.socket), programs_before);
    server.send_keys(&pane, &["echo $X-$X", "Enter"]);
    server.wait_for_text(&pane, "kept-kept");

    // After a crash, the recovering server listens there again, with the same certificate.
    server.crash();
    // The next command (any: `ls` here) brings the panes back.
    let listed = json(&phux_at(&server, &tokens, &["ls", "--json"]));
    assert_eq!(listed["terminals"], serde_json::json!([pane]), "{listed}");
    assert_eq!(phux_tests::kept_programs(&server.socket), programs_before);
    let status = json(&phux_at(&server, &tokens, &["status", "--json"]));
    assert_eq!(status["listener"]["addr"], addr.as_str(), "{status}");
    assert_eq!(status["listener"]["fingerprint"], fingerprint.as_str());
    let answer = admitted(port_of(&addr), pair["token"].as_str().unwrap());
    assert_eq!(answer["type"], "response", "{answer}");
    assert_eq!(answer["ok"]["pid"], status["pid"], "{answer}");

    // A stop on purpose ends it: `pair` no longer names an address nothing listens on.
    let stopped = phux_at(&server, &tokens, &["kill", "--server"]);
    assert!(stopped.status.success(), "{}", phux_tests::stderr(&stopped));
    let pair = json(&phux_at(&server, &tokens, &["pair", "--json"]));
    assert_eq!(pair["ws_addr"], serde_json::Value::Null, "{pair}");
}

#[test]
fn listen_starts_a_server_when_none_runs_and_refuses_an_address_it_cannot_bind() {
    let store = tempfile::tempdir().unwrap();
    let tokens = store.path().join("remote-tokens");
    let mut server = TestServer::start();
    server.crash();
    let _ = std::fs::remove_file(&server.socket);
    let started = json(&phux_at(
        &server,
        &tokens,
        &["listen", "127.0.0.1:0", "--json"],
    ));
    assert_eq!(started["started"], true, "{started}");
    let status = json(&phux_at(&server, &tokens, &["status", "--json"]));
    assert_eq!(status["running"], true);
    assert_eq!(status["listener"]["addr"], started["addr"], "{status}");
    phux_at(&server, &tokens, &["kill", "--server"]);

    // An address of no interface here: refused with its reason, the server serving on.
    let bad = phux_at(&server, &tokens, &["listen", "192.0.2.1:8787", "--json"]);
    assert_eq!(bad.status.code(), Some(1), "{}", phux_tests::stderr(&bad));
    assert!(bad.stdout.is_empty());
    let error = error_line(&bad);
    assert_eq!(error["error"]["code"], "listener_failed", "{error}");
    assert!(
        error["error"]["message"]
            .as_str()
            .unwrap()
            .contains("192.0.2.1:8787"),
        "{error}"
    );
    let status = json(&phux_at(&server, &tokens, &["status", "--json"]));
    assert_eq!(status["running"], true);
    assert!(status.get("listener").is_none(), "{status}");
    let unparsable = phux_at(&server, &tokens, &["listen", "no-port-here", "--json"]);
    assert_ne!(unparsable.status.code(), Some(0));
    assert!(unparsable.stdout.is_empty());
    assert!(error_line(&unparsable)["error"]["code"].is_string());
}
