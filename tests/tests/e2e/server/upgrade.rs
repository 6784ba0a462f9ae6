//! `phux upgrade` end to end on real PTYs: the server re-execs its binary and keeps every pane
//! (same server PID, same pane programs and PIDs, same screens and histories, the split layout,
//! titles and tags), output written during the hand-off is read once, and a binary that
//! cannot start leaves the server as it was.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use phux_tests::{error_line, json, phux_bin, run_with_deadline, stderr, wait_until, TestServer};

/// The server's children (the panes' programs), sorted.
fn children(server: u32) -> Vec<u32> {
    let mut text = String::new();
    for task in std::fs::read_dir(format!("/proc/{server}/task")).unwrap() {
        let path = task.unwrap().path().join("children");
        text.push_str(&std::fs::read_to_string(path).unwrap_or_default());
        text.push(' ');
    }
    let mut pids: Vec<u32> = text
        .split_whitespace()
        .map(|p| p.parse().unwrap())
        .collect();
    pids.sort_unstable();
    pids
}

/// Everything `snapshot --json --scrollback` says of each pane, and the state (sessions,
/// windows, layouts, titles, tags).
fn picture(server: &TestServer, panes: &[&str]) -> Vec<serde_json::Value> {
    let mut all: Vec<serde_json::Value> = panes
        .iter()
        .map(|p| server.json(&["snapshot", "--json", "--scrollback", p]))
        .collect();
    let state = phux_cli::client::Client::connect(&server.socket)
        .unwrap()
        .state()
        .unwrap();
    all.push(serde_json::to_value(state).unwrap());
    all
}

/// `phux upgrade --json` against `server` (60 s deadline).
pub(super) fn upgrade(server: &TestServer) -> std::process::Output {
    run_with_deadline(
        &mut server.phux(&["upgrade", "--json"]),
        Duration::from_secs(60),
    )
}

#[test]
fn upgrade_keeps_pids_screens_histories_and_layout() {
    let server = TestServer::start();
    let bash = server.marked_bash("work");
    server.send_keys(
        &bash,
        &["for i in $(seq 1 300); do echo history $i; done", "Enter"],
    );
    server.wait_for_text(&bash, "history 300");
    let spawned = server.json(&["spawn", "--json", "--target", &bash, "--", "sh"]);
    let sh = format!("@{}", spawned["terminal_id"]);
    server.send_keys(
        &sh,
        &["printf '\\033]2;a title\\007'; echo in the split", "Enter"],
    );
    server.wait_for_text(&sh, "in the split");
    let out = server.run(&["tag", "add", &sh, "keep"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let other = server.new_session("other", &["sh"]);
    let panes = [bash.as_str(), sh.as_str(), other.as_str()];

    let pid = server.server_pid();
    let kids = children(pid);
    assert_eq!(kids.len(), 3, "{kids:?}");
    let before = picture(&server, &panes);

    let out = upgrade(&server);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc = json(&out);
    assert_eq!(doc["pid"], pid);
    assert_eq!(doc["panes"], 3);

    assert_eq!(
        children(pid),
        kids,
        "the same programs, still children of the server"
    );
    assert_eq!(
        picture(&server, &panes),
        before,
        "screens, histories and layout unchanged"
    );

    // The shells are still there and answer.
    server.send_keys(&bash, &["echo after the upgrade", "Enter"]);
    server.wait_for_text(&bash, "after the upgrade");
    // A second upgrade (of the upgraded process) works the same.
    let out = upgrade(&server);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(children(pid), kids);
    // New panes get fresh ids after the adopted ones.
    let next = server.new_session("third", &["sh"]);
    assert_eq!(next, "@4");
}

#[test]
fn output_written_during_the_hand_off_is_read_once() {
    let server = TestServer::start_with(&["--history-limit", "200000"]);
    let pane = server.new_session("flood", &["bash", "--norc", "--noprofile"]);
    let stop = server.dir.path().join("stop");
    // Counts until told to stop, a line at a time (a fork per line keeps the pace humane).
    let script = format!(
        "i=0; while [ ! -e {} ]; do i=$((i+1)); echo $i; sleep 0.001; done; echo done-$i",
        stop.display()
    );
    server.send_keys(&pane, &[&script, "Enter"]);
    let counted_past = |n: u64| {
        server
            .lines(&pane)
            .iter()
            .any(|l| l.trim().parse::<u64>().is_ok_and(|i| i >= n))
    };
    wait_until("the counter passed 50", Duration::from_secs(20), || {
        counted_past(50)
    });
    let out = upgrade(&server);
    assert!(out.status.success(), "{}", stderr(&out));
    wait_until("the counter passed 200", Duration::from_secs(20), || {
        counted_past(200)
    });
    std::fs::write(&stop, "").unwrap();
    server.wait_for_text(&pane, "done-");
    let doc = server.json(&["snapshot", "--json", "--scrollback", "--unwrap", &pane]);
    let lines: Vec<&str> = doc["scrollback"]
        .as_array()
        .into_iter()
        .flatten()
        .chain(doc["lines"].as_array().into_iter().flatten())
        .filter_map(|l| l.as_str())
        .collect();
    let last: u64 = lines
        .iter()
        .find_map(|l| l.strip_prefix("done-"))
        .and_then(|n| n.trim().parse().ok())
        .expect("the counter's last line");
    let numbers: Vec<u64> = lines.iter().filter_map(|l| l.trim().parse().ok()).collect();
    let expected: Vec<u64> = (1..=last).collect();
    assert_eq!(numbers, expected, "every line once, in order");
}

#[test]
fn a_binary_that_cannot_start_leaves_the_server_as_it_was() {
    // The server runs from its own copy of phux, which is then replaced (as `phux update`
    // would) by a binary that does not run.
    let (copied, mut server) = CopiedServer::start();
    let binary = &copied.binary;
    let phux = |args: &[&str]| copied.phux(args);
    let run = |args: &[&str]| run_with_deadline(&mut phux(args), Duration::from_secs(30));
    let out = run(&["new", "-d", "-s", "keep", "--json", "--", "sh"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = run(&["send-keys", "keep", "echo before", "Enter"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let shows = |text: &str| {
        let out = run(&["snapshot", "--json", "keep"]);
        serde_json::from_slice::<serde_json::Value>(&out.stdout).is_ok_and(|doc| {
            doc["lines"]
                .as_array()
                .is_some_and(|lines| lines.iter().any(|l| l.as_str() == Some(text)))
        })
    };
    wait_until("the pane printed", Duration::from_secs(10), || {
        shows("before")
    });
    let kids = children(server.id());
    let before = run(&["snapshot", "--json", "--scrollback", "keep"]).stdout;

    replace(binary, "#!/bin/sh\nexit 3\n");
    let out = run(&["upgrade", "--json"]);
    let line = error_line(&out);
    assert_eq!(line["error"]["code"], "upgrade_failed", "{line}");
    assert_eq!(out.status.code(), Some(1));

    assert_eq!(children(server.id()), kids);
    let after = run(&["snapshot", "--json", "--scrollback", "keep"]).stdout;
    assert_eq!(after, before, "nothing changed");
    let out = run(&["send-keys", "keep", "echo still here", "Enter"]);
    assert!(out.status.success(), "{}", stderr(&out));
    wait_until("the pane answered", Duration::from_secs(10), || {
        shows("still here")
    });

    let _ = run(&["kill", "--server"]);
    let _ = server.kill();
    let _ = server.wait();
}

/// Puts `script` at `path` the way an installer does: a new file renamed over the old one.
fn replace(path: &Path, script: &str) {
    use std::os::unix::fs::PermissionsExt;
    let new = path.with_extension("new");
    std::fs::write(&new, script).unwrap();
    std::fs::set_permissions(&new, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::rename(&new, path).unwrap();
}

#[test]
fn vim_mid_edit_carries_on_after_an_upgrade() {
    let server = TestServer::start();
    let file = server.dir.path().join("notes.txt");
    let file_arg = file.display().to_string();
    let vim = server.new_session("edit", &["vim", "-u", "NONE", "-N", "-n", &file_arg]);
    server.send_keys(&vim, &["ifirst half"]);
    server.wait_for_text(&vim, "first half");
    let before = picture(&server, &[&vim]);
    let out = upgrade(&server);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(picture(&server, &[&vim]), before, "vim's screen as it was");
    // Still in insert mode, in the same vim: the edit goes on and is saved.
    server.send_keys(&vim, &[", second half", "Escape", ":wq", "Enter"]);
    wait_until("vim saved the file", Duration::from_secs(10), || {
        std::fs::read_to_string(&file).is_ok_and(|t| t == "first half, second half\n")
    });
}

#[test]
fn upgrade_without_a_server_is_no_server() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_with_deadline(
        phux_tests::phux(&["upgrade", "--json"]).env("PHUX_SOCKET", dir.path().join("none.sock")),
        Duration::from_secs(30),
    );
    let line = error_line(&out);
    assert_eq!(line["error"]["code"], "no_server", "{line}");
}

#[test]
fn an_attached_client_reattaches_by_itself_after_an_upgrade() {
    let server = TestServer::start();
    server.new_session("work", &[]);
    let tui = phux_tests::outer_screen::AttachedTui::start(&server, &["attach", "work"], 80, 24);
    tui.wait_for("the status line names the session", |lines| {
        lines.last().is_some_and(|l| l.starts_with("[work] 0:0*"))
    });
    tui.type_bytes(b"echo before-$((6*7))\r");
    tui.wait_for_text("before-42");
    let out = upgrade(&server);
    assert!(out.status.success(), "{}", stderr(&out));
    // Keys typed while the client attaches again may be lost: type once it is back.
    wait_until(
        "the client is attached again",
        Duration::from_secs(10),
        || server.json(&["ls", "--json"])["sessions"][0]["attached_clients"] == 1,
    );
    // The same client types into the same shell, and the server counts it attached.
    tui.type_bytes(b"echo after-$((6*7))\r");
    tui.wait_for_text("after-42");
    wait_until(
        "the server counts the client",
        Duration::from_secs(10),
        || server.json(&["ls", "--json"])["sessions"][0]["attached_clients"] == 1,
    );
}

#[test]
fn agent_records_asks_and_leases_carry_across_an_upgrade() {
    let server = TestServer::start();
    let pane = server.marked_bash("agents");
    let set = server.run(&[
        "agent", "set", &pane, "--name", "reviewer", "--kind", "claude", "--state", "working",
    ]);
    assert!(set.status.success(), "{}", phux_tests::stderr(&set));
    let asked = server.run(&["ask", &pane, "Ship it?", "--suggest", "yes"]);
    assert!(asked.status.success(), "{}", phux_tests::stderr(&asked));
    let took = server.run(&["take", &pane, "--as", "alice"]);
    assert!(took.status.success(), "{}", phux_tests::stderr(&took));
    let before = server.json(&["agent", "show", "--json", &pane]);
    let listed_before = server.json(&["ls", "--json"]);
    let status_before = server.json(&["status", "--json"]);
    let out = upgrade(&server);
    assert!(out.status.success(), "{}", phux_tests::stderr(&out));
    let after = server.json(&["agent", "show", "--json", &pane]);
    let agent = |doc: &serde_json::Value| doc["agents"][0]["agent"].clone();
    assert_eq!(
        agent(&after),
        agent(&before),
        "the agent record is carried: {after}"
    );
    assert_eq!(agent(&after)["id"], "reviewer");
    assert_eq!(after["agents"][0]["state"], before["agents"][0]["state"]);
    let listed_after = server.json(&["ls", "--json"]);
    let status_after = server.json(&["status", "--json"]);
    assert!(
        status_before["asks"].to_string().contains("Ship it?"),
        "{status_before}"
    );
    assert_eq!(
        status_after["asks"], status_before["asks"],
        "the pending ask is carried"
    );
    assert_eq!(
        listed_after["leases"], listed_before["leases"],
        "the lease is carried: {listed_after}"
    );
    // The lease still holds: someone else's typing is refused, the holder's goes through.
    let refused = server.run(&["send-keys", &pane, "echo nope", "Enter"]);
    assert!(!refused.status.success());
    let typed = server
        .phux(&["send-keys", &pane, "echo held-$((6*7))", "Enter"])
        .env("PHUX_AS", "alice")
        .output()
        .unwrap();
    assert!(
        typed.status.success(),
        "{}",
        String::from_utf8_lossy(&typed.stderr)
    );
    server.wait_for_text(&pane, "held-42");
}

/// The text of a cast's output events and the time of the first event holding each of
/// `markers` (in seconds from the cast's start), `None` for a marker it lacks.
fn marker_times(cast: &phux_recorder::Cast, markers: &[&str]) -> Vec<Option<f64>> {
    markers
        .iter()
        .map(|marker| {
            cast.events.iter().find_map(|e| match &e.kind {
                phux_recorder::EventKind::Output(text) if text.contains(marker) => Some(e.time),
                _ => None,
            })
        })
        .collect()
}

#[test]
fn rec_since_reaches_back_across_an_upgrade_in_order_and_on_time() {
    let server = TestServer::start();
    let pane = server.new_session("rec", &["sh"]);
    // The arithmetic keeps the typed command from showing the marker itself.
    server.send_keys(&pane, &["echo first-$((6*7))", "Enter"]);
    server.wait_for_text(&pane, "first-42");
    std::thread::sleep(Duration::from_secs(1));
    server.send_keys(&pane, &["echo second-$((6*7))", "Enter"]);
    server.wait_for_text(&pane, "second-42");
    let out = upgrade(&server);
    assert!(out.status.success(), "{}", stderr(&out));
    server.send_keys(&pane, &["echo third-$((6*7))", "Enter"]);
    server.wait_for_text(&pane, "third-42");

    let path = server.dir.path().join("x.cast");
    let out = run_with_deadline(
        &mut server.phux(&["rec", &pane, "--since", "30s", "-o", path.to_str().unwrap()]),
        Duration::from_secs(30),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let cast = phux_recorder::read_cast(&path).unwrap();
    let times = marker_times(&cast, &["first-42", "second-42", "third-42"]);
    let [Some(first), Some(second), Some(third)] = times[..] else {
        panic!("every marker is in the cast: {times:?}");
    };
    // Each marker in an event of its own, as the pane printed them (not one repaint).
    assert!(first < second && second < third, "in order: {times:?}");
    assert!(
        second - first >= 0.9,
        "the second came a second after the first, as recorded: {times:?}"
    );
    assert!(third < 30.0, "within the window: {times:?}");
}

#[test]
fn an_exited_pane_stays_readable_across_an_upgrade() {
    let server = TestServer::start();
    let live = server.new_session("live", &["sh"]);
    let ended = server.new_session(
        "ends",
        &[
            "sh",
            "-c",
            "for i in $(seq 1 60); do echo last-words $i; done; exit 7",
        ],
    );
    let id: u64 = ended.trim_start_matches('@').parse().unwrap();
    let listed = || {
        let ls = server.json(&["ls", "--json"]);
        ls["exited"].as_array().cloned().unwrap_or_default()
    };
    wait_until(
        "the pane is listed as exited",
        Duration::from_secs(10),
        || listed().iter().any(|e| e["id"] == id),
    );
    let exited_before = listed();
    let before = server.json(&["snapshot", "--json", "--scrollback", &ended]);
    assert!(before.to_string().contains("last-words 60"), "{before}");

    let out = upgrade(&server);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        listed(),
        exited_before,
        "still listed, with its status and end"
    );
    let after = server.json(&["snapshot", "--json", "--scrollback", &ended]);
    assert_eq!(after, before, "its last screen and history as they were");
    let write = server.run(&["send-keys", "--json", &ended, "echo no", "Enter"]);
    assert_eq!(error_line(&write)["error"]["code"], "pane_exited");
    // The live pane goes on beside it.
    server.send_keys(&live, &["echo alive-$((6*7))", "Enter"]);
    server.wait_for_text(&live, "alive-42");
}

/// A binary that answers `--print-protocol` as a phux server would, and fails otherwise: the
/// check passes, the exec happens, and the new process ends without taking anything over.
const CANNOT_ADOPT: &str = "#!/bin/sh\n\
case \"$*\" in *--print-protocol*) exec REAL server --print-protocol ;; esac\n\
echo 'this binary cannot adopt' >&2\n\
exit 1\n";

/// A binary that answers `--print-protocol` as a phux server would and then hangs: the CLI
/// kills it after `PHUX_UPGRADE_TIMEOUT`.
const HANGS: &str = "#!/bin/sh\n\
case \"$*\" in *--print-protocol*) exec REAL server --print-protocol ;; esac\n\
exec sleep 600\n";

#[test]
fn a_binary_that_cannot_adopt_leaves_every_pane_running() {
    let message = upgrade_into_a_bad_binary(CANNOT_ADOPT);
    assert!(message.contains("took over 2 of its 2 panes"), "{message}");
}

#[test]
fn a_binary_that_hangs_is_killed_and_every_pane_runs_on() {
    let message = upgrade_into_a_bad_binary(HANGS);
    assert!(message.contains("did not answer within 3 s"), "{message}");
    assert!(message.contains("took its panes over"), "{message}");
}

/// Two shells with state on a server whose binary is then replaced by `script` (`REAL` is the
/// real phux) and upgraded into: the upgrade fails with `upgrade_failed`, every pane runs on
/// with the same program, screen and state, served by a server again. Returns the message.
fn upgrade_into_a_bad_binary(script: &str) -> String {
    let (copied, mut server) = CopiedServer::start();
    let (binary, socket) = (&copied.binary, &copied.socket);
    let phux = |args: &[&str]| copied.phux(args);
    let run = |args: &[&str]| run_with_deadline(&mut phux(args), Duration::from_secs(30));
    wait_until("the server answers", Duration::from_secs(10), || {
        run(&["status"]).status.success()
    });
    for (name, text) in [("one", "first"), ("two", "second")] {
        let out = run(&["new", "-d", "-s", name, "--", "sh"]);
        assert!(out.status.success(), "{}", stderr(&out));
        let line = format!("V={text}; echo ready-$V");
        let out = run(&["send-keys", name, &line, "Enter"]);
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let shows = |pane: &str, text: &str| {
        let out = run(&["snapshot", "--json", pane]);
        serde_json::from_slice::<serde_json::Value>(&out.stdout).is_ok_and(|doc| {
            doc["lines"]
                .as_array()
                .is_some_and(|lines| lines.iter().any(|l| l.as_str() == Some(text)))
        })
    };
    wait_until("both panes printed", Duration::from_secs(10), || {
        shows("one", "ready-first") && shows("two", "ready-second")
    });
    let programs = phux_tests::kept_programs(socket);
    assert_eq!(programs.len(), 2, "{programs:?}");
    let before: Vec<_> = ["one", "two"]
        .map(|p| run(&["snapshot", "--json", "--scrollback", p]).stdout)
        .into();

    let real = phux_bin().display().to_string();
    replace(binary, &script.replace("REAL", &real));
    let out = run(&["upgrade", "--json"]);
    let line = error_line(&out);
    assert_eq!(line["error"]["code"], "upgrade_failed", "{line}");
    assert_eq!(out.status.code(), Some(1));
    let _ = server.wait();

    // Every pane runs on, the same programs with the same screens, served again.
    assert_eq!(phux_tests::kept_programs(socket), programs);
    let after: Vec<_> = ["one", "two"]
        .map(|p| run(&["snapshot", "--json", "--scrollback", p]).stdout)
        .into();
    assert_eq!(after, before, "the screens as they were");
    let out = run(&["send-keys", "two", "echo still $V", "Enter"]);
    assert!(out.status.success(), "{}", stderr(&out));
    wait_until("the shell kept its state", Duration::from_secs(10), || {
        shows("two", "still second")
    });
    assert!(
        !manifest_left(socket),
        "the hand-off's manifest is not left behind"
    );
    let _ = run(&["kill", "--server"]);
    line["error"]["message"].as_str().unwrap().to_string()
}

/// A server running from its own copy of phux (which a test then replaces), in a private
/// directory; the CLI that talks to it is the real binary.
struct CopiedServer {
    dir: tempfile::TempDir,
    binary: std::path::PathBuf,
    socket: std::path::PathBuf,
}

impl CopiedServer {
    /// The server, and its process.
    fn start() -> (CopiedServer, std::process::Child) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::set_permissions(
            dir.path(),
            std::os::unix::fs::PermissionsExt::from_mode(0o700),
        )
        .unwrap();
        let binary = dir.path().join("phux");
        std::fs::copy(phux_bin(), &binary).unwrap();
        let socket = dir.path().join("phux.sock");
        let child = spawn_busy_aware(
            Command::new(&binary)
                .args(["server", "--no-seed"])
                .env("PHUX_SOCKET", &socket)
                .env("PHUX_CONFIG", dir.path().join("config.toml"))
                .env("SHELL", "/bin/sh")
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null()),
        );
        let copied = CopiedServer {
            dir,
            binary,
            socket,
        };
        (copied, child)
    }

    /// A `phux` invocation of the real binary against this server (an upgrade it asks for
    /// waits 3 s for a new binary that hangs).
    fn phux(&self, args: &[&str]) -> Command {
        let mut command = Command::new(phux_bin());
        command
            .args(args)
            .env("PHUX_SOCKET", &self.socket)
            .env("PHUX_CONFIG", self.dir.path().join("config.toml"))
            .env("PHUX_UPGRADE_TIMEOUT", "3")
            .env("SHELL", "/bin/sh")
            .stdin(Stdio::null());
        command
    }
}

/// Starts `command`, whose program was just copied: a process another test forks meanwhile can
/// hold the copy's write descriptor for a moment (`ETXTBSY`), so that is tried again.
fn spawn_busy_aware(command: &mut Command) -> std::process::Child {
    let mut tries = 0;
    loop {
        match command.spawn() {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy && tries < 50 => {
                tries += 1;
                std::thread::sleep(Duration::from_millis(20));
            }
            spawned => return spawned.unwrap(),
        }
    }
}

/// Whether a hand-off's manifest is left beside `socket`.
fn manifest_left(socket: &Path) -> bool {
    socket.with_extension("sock.handoff").exists()
}

/// Whether process `pid` is a zombie (ended, not waited for).
fn zombie(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| {
            stat.rsplit_once(") ")
                .map(|(_, rest)| rest.starts_with('Z'))
        })
        .unwrap_or(false)
}

#[test]
fn an_upgraded_hub_leaves_no_zombie_behind() {
    let mut fleet = phux_tests::fleet::Fleet::start();
    let satellite = fleet.add_satellite("devbox");
    let local = satellite.plain_shell("work", "sh");
    let remote = format!("devbox/{local}");
    fleet.wait_listed(&remote);
    let hub = fleet.hub.server_pid();
    let before = children(hub);
    let out = upgrade(&fleet.hub);
    assert!(out.status.success(), "{}", stderr(&out));
    // The link the old image started ends with its pipes; the new image waits for it.
    fleet.wait_listed(&remote);
    wait_until(
        "no child of the hub is a zombie",
        Duration::from_secs(10),
        || children(hub).iter().all(|pid| !zombie(*pid)),
    );
    assert!(!before.is_empty(), "the hub had its link's process");
}
