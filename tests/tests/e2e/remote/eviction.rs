//! Issue 50: `pair revoke` did not end an admitted connection, so the owner could not evict a
//! credential. A plain revoke still keeps established sessions (§4.18); `pair revoke ID
//! --disconnect` and `pair disconnect ID` end them at once, and `pair connections` lists them.

use std::io::{BufRead, BufReader};
use std::time::Duration;

use phux_tests::listening::Listening;
use phux_tests::{json, owner_ls, run_with_deadline, stderr, wait_until};

/// Opens two `/wire` sessions with FULL and a `/link` with RO, says "up", then reports when
/// each one was closed by the server (seconds after "up"; null if not within 40 s).
const HOLD: &str = r#"
import select, sys
socks = {"full_1": session(os.environ["FULL"]), "full_2": session(os.environ["FULL"]),
         "ro_link": session(os.environ["RO"], "/link")}
print("up", flush=True)
start = time.time(); closed = {}
for s in socks.values(): s.setblocking(False)
while len(closed) < len(socks) and time.time() - start < 40:
    open_ = [s for n, s in socks.items() if n not in closed]
    ready, _, _ = select.select(open_, [], [], 0.5)
    for s in ready:
        name = [n for n, x in socks.items() if x is s][0]
        try:
            while True:
                data = s.recv(65536)
                if not data: closed[name] = time.time() - start; break
        except (ssl.SSLWantReadError, BlockingIOError): pass
        except (ConnectionError, ssl.SSLError): closed[name] = time.time() - start
print(json.dumps(closed), flush=True)
"#;

fn connections(listening: &Listening) -> serde_json::Value {
    let mut command = listening.server.phux(&["pair", "connections", "--json"]);
    command.env("PHUX_WS_TOKENS", &listening.tokens);
    let output = run_with_deadline(&mut command, Duration::from_secs(15));
    assert!(output.status.success(), "{}", stderr(&output));
    json(&output)
}

fn count_of(listening: &Listening, credential: &str) -> usize {
    connections(listening)["connections"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["credential_id"] == credential)
        .count()
}

fn pair_json(listening: &Listening, args: &[&str]) -> serde_json::Value {
    let mut command = listening.server.phux(&["pair"]);
    command
        .args(args)
        .arg("--json")
        .env("PHUX_WS_TOKENS", &listening.tokens);
    let output = run_with_deadline(&mut command, Duration::from_secs(15));
    assert!(output.status.success(), "{}", stderr(&output));
    json(&output)
}

#[test]
fn the_owner_lists_and_evicts_a_credentials_connections_a_plain_revoke_keeps_them() {
    let listening = Listening::start();
    let full = listening.pair(&["--name", "laptop"]);
    let read_only = listening.pair(&["--read-only", "--name", "viewer"]);
    let full_id = full["credential_id"].as_str().unwrap().to_owned();
    let ro_id = read_only["credential_id"].as_str().unwrap().to_owned();
    let mut holder = listening.probe_spawn(
        HOLD,
        &[
            ("FULL", full["token"].as_str().unwrap()),
            ("RO", read_only["token"].as_str().unwrap()),
        ],
    );
    let mut lines = BufReader::new(holder.stdout.take().unwrap()).lines();
    assert_eq!(lines.next().unwrap().unwrap(), "up");
    let (figures, ()) = owner_ls::during(&listening.server, "eviction", || {
        let listed = connections(&listening);
        let rows = listed["connections"].as_array().unwrap();
        assert_eq!(rows.len(), 3, "{listed}");
        let link = rows.iter().find(|r| r["path"] == "/link").unwrap();
        assert_eq!(link["credential_id"], ro_id.as_str());
        assert_eq!(link["name"], "viewer");
        assert_eq!(link["read_only"], true);
        assert!(link["peer"].as_str().unwrap().starts_with("127.0.0.1:"));
        // §4.18: a plain revoke keeps the established sessions.
        let revoked = pair_json(&listening, &["revoke", &full_id]);
        assert!(revoked.get("disconnected").is_none(), "{revoked}");
        std::thread::sleep(Duration::from_millis(500));
        assert_eq!(count_of(&listening, &full_id), 2, "a plain revoke evicted");
        // --disconnect ends them at once.
        let evicted = pair_json(&listening, &["revoke", &full_id, "--disconnect"]);
        assert_eq!(evicted["operation"], "revoke");
        assert_eq!(evicted["disconnected"], 2, "{evicted}");
        wait_until(
            "the evicted connections end",
            Duration::from_secs(5),
            || count_of(&listening, &full_id) == 0,
        );
        assert_eq!(
            count_of(&listening, &ro_id),
            1,
            "another credential is kept"
        );
        // A credential that is not revoked is ended too, its tokens kept.
        let ended = pair_json(&listening, &["disconnect", &ro_id]);
        assert_eq!(ended["disconnected"], 1, "{ended}");
        wait_until("the read-only link ends", Duration::from_secs(5), || {
            count_of(&listening, &ro_id) == 0
        });
    });
    figures.assert_all_ok();
    let closed: serde_json::Value = serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap();
    let _ = holder.wait();
    println!("eviction: the client saw its connections closed at (s after up) {closed}");
    for name in ["full_1", "full_2", "ro_link"] {
        assert!(closed[name].is_number(), "{name} was not closed: {closed}");
    }
    // The evicted credential cannot come back; the disconnected one can.
    let back = listening.probe(
        r#"
s = tls(); head = upgrade(s, "/wire", "Authorization: Bearer " + os.environ["FULL"] + "\r\n")
r = tls(); rhead = upgrade(r, "/link", "Authorization: Bearer " + os.environ["RO"] + "\r\n")
print(json.dumps({"full": head.split("\r\n")[0], "ro": rhead.split("\r\n")[0]}))
"#,
        &[
            ("FULL", full["token"].as_str().unwrap()),
            ("RO", read_only["token"].as_str().unwrap()),
        ],
    );
    assert_eq!(back["full"], "HTTP/1.1 401 Unauthorized", "{back}");
    assert_eq!(back["ro"], "HTTP/1.1 101 Switching Protocols", "{back}");
    let log = std::fs::read_to_string(listening.server.dir.path().join("server.log")).unwrap();
    assert!(log.contains("disconnected: evicted"), "{log}");
}

/// A remote connection cannot list or end the remote connections: the owner's only.
#[test]
fn a_remote_credential_cannot_see_or_end_remote_connections() {
    let listening = Listening::start();
    let full = listening.pair(&[]);
    let seen = listening.probe(
        r#"
s = session(os.environ["FULL"])
send(s, 2, frame({"type": "remote_connections", "id": 1}))
listed = wire_messages(s, 1)[0]
send(s, 2, frame({"type": "remote_disconnect", "id": 2, "credential_id": os.environ["ID"]}))
ended = wire_messages(s, 1)[0]
print(json.dumps({"listed": listed, "ended": ended}))
"#,
        &[
            ("FULL", full["token"].as_str().unwrap()),
            ("ID", full["credential_id"].as_str().unwrap()),
        ],
    );
    assert_eq!(
        seen["listed"]["error"]["code"], "permission_denied",
        "{seen}"
    );
    assert_eq!(
        seen["ended"]["error"]["code"], "permission_denied",
        "{seen}"
    );
}
