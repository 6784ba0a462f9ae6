//! `phux logs`: the inventory on a fresh machine, the tails, following, a real server's log.

use super::*;

#[test]
fn logs_inventory_on_a_fresh_machine_says_not_created_yet() {
    let (dir, phux) = fresh();
    let out = run(&mut phux(&["logs"]));
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("server log"), "{text}");
    assert_eq!(text.matches("not created yet").count(), 4, "{text}");

    let doc = json(&run(&mut phux(&["logs", "--json"])));
    assert_eq!(doc["schema_version"], 1);
    let log = dir.path().join("sock/phux.log");
    assert_eq!(doc["server"]["path"], log.display().to_string());
    assert_eq!(doc["server"]["exists"], false);
    assert_eq!(doc["clients"], serde_json::json!([]));

    let tail = run(&mut phux(&["logs", "--server", "--json"]));
    let line = error_line(&tail);
    assert!(line["error"]["message"]
        .as_str()
        .unwrap()
        .contains("not created yet"));
}

#[test]
fn logs_lists_and_tails_the_server_and_client_logs() {
    let (dir, phux) = fresh();
    let log = dir.path().join("sock/phux.log");
    let lines: String = (1..=300).map(|i| format!("server line {i}\n")).collect();
    std::fs::write(&log, lines).unwrap();
    std::fs::write(dir.path().join("sock/client-4242.log"), "client says hi\n").unwrap();

    let doc = json(&run(&mut phux(&["logs", "--json"])));
    golden("docs/logs.json", &pinned(&doc, dir.path()));
    assert_eq!(doc["server"]["exists"], true);
    assert_eq!(
        doc["server"]["bytes"],
        std::fs::metadata(&log).unwrap().len()
    );
    assert_eq!(doc["clients"][0]["pid"], 4242);

    let tail = run(&mut phux(&["logs", "--server", "-n", "3"]));
    assert_eq!(
        stdout(&tail),
        "server line 298\nserver line 299\nserver line 300\n"
    );
    let tail = json(&run(&mut phux(&["logs", "--server", "-n", "1", "--json"])));
    assert_eq!(tail["lines"], serde_json::json!(["server line 300"]));
    let client = run(&mut phux(&["logs", "--client", "--pid", "4242"]));
    assert_eq!(stdout(&client), "client says hi\n");
    let newest = run(&mut phux(&["logs", "--client"]));
    assert_eq!(stdout(&newest), "client says hi\n");
}

#[test]
fn logs_follow_prints_what_is_appended() {
    let (dir, phux) = fresh();
    let log = dir.path().join("sock/phux.log");
    std::fs::write(&log, "before\n").unwrap();
    let mut child = phux(&["logs", "--server", "-f", "-n", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let (send, chunks) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = [0u8; 256];
        while let Ok(n @ 1..) = out.read(&mut buf) {
            if send.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let mut seen = String::new();
    let mut read_until = |text: &str| {
        while !seen.contains(text) {
            let chunk = chunks
                .recv_timeout(Duration::from_secs(10))
                .unwrap_or_else(|_| panic!("logs -f did not print {text:?}; got {seen:?}"));
            seen.push_str(&String::from_utf8_lossy(&chunk));
        }
        seen.clone()
    };
    read_until("before\n");
    use std::io::Write;
    std::fs::OpenOptions::new()
        .append(true)
        .open(&log)
        .unwrap()
        .write_all(b"after\n")
        .unwrap();
    let all = read_until("after\n");
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(all, "before\nafter\n");
}

#[test]
fn logs_show_a_real_background_servers_log() {
    let (dir, _) = fresh();
    // The user's own HOME: the server loads the engine installed there.
    let phux = |args: &[&str]| {
        let mut c = phux(args);
        c.env("PHUX_CONFIG", dir.path().join("config.toml"))
            .env("PHUX_SOCKET", dir.path().join("sock/phux.sock"));
        c
    };
    let mut server = phux(&["server", "--detach-stdio"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let log = dir.path().join("sock/phux.log");
    wait_until("the server wrote its log", Duration::from_secs(10), || {
        std::fs::read_to_string(&log).is_ok_and(|t| t.contains("listening"))
    });
    let tail = run(&mut phux(&["logs", "--server"]));
    assert!(stdout(&tail).contains("listening on"), "{}", stdout(&tail));
    let _ = run(&mut phux(&["kill", "--server"]));
    let _ = server.kill();
    let _ = server.wait();
}

/// The state directory was reported as "0 bytes" though it held the engine and the web assets:
/// only the files directly in it were counted, and it holds directories.
#[test]
fn logs_sizes_the_state_directory_with_its_subdirectories() {
    let (dir, phux) = fresh();
    let data = dir.path().join("home/.local/share/phux");
    std::fs::create_dir_all(data.join("lib/deep")).unwrap();
    std::fs::create_dir_all(data.join("web")).unwrap();
    std::fs::write(data.join("lib/deep/libghostty.so"), vec![0u8; 3000]).unwrap();
    std::fs::write(data.join("web/page.js"), vec![0u8; 2000]).unwrap();
    std::fs::write(data.join("top.json"), vec![0u8; 24]).unwrap();
    let doc = json(&run(&mut phux(&["logs", "--json"])));
    assert_eq!(doc["state_dir"]["bytes"], 5024, "{doc}");
    let text = stdout(&run(&mut phux(&["logs"])));
    assert!(text.contains("4.9 KiB"), "{text}");
}

/// A server in the foreground writes its log to its own stderr: `logs` said "not created yet"
/// of the file beside the socket as if no server ran. It asks the running server and says so.
#[test]
fn logs_says_where_a_foreground_server_writes() {
    let server = TestServer::start();
    let doc = server.json(&["logs", "--json"]);
    assert_eq!(doc["running"]["pid"], server.server_pid(), "{doc}");
    assert_eq!(doc["running"]["log"], serde_json::Value::Null, "{doc}");
    let text = stdout(&server.run(&["logs"]));
    let first = text.lines().next().unwrap();
    assert!(
        first.contains("writes its log to its own stderr") && !first.contains("not created yet"),
        "{text}"
    );
    let tail = server.run(&["logs", "--server", "--json"]);
    let line = error_line(&tail);
    assert!(
        line["error"]["message"]
            .as_str()
            .unwrap()
            .contains("own stderr"),
        "{line}"
    );
}
