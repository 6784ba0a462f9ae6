//! `phux rec` as a user runs it: a command in a headless pane, a live pane ended with Ctrl-C or
//! `--duration`, the past from the flight recorder, a recorder killed with SIGKILL, and the
//! recording replayed through the engine giving back the pane's screen.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use phux_core::engine::Terminal;
use phux_recorder::{read_cast, EventKind};
use phux_tests::{
    error_line, screen, stderr, stdout, threads_of, wait_for_text, wait_until, TestServer,
};
use std::process::{Child, Stdio};
use std::time::Duration;

fn outputs(cast: &phux_recorder::Cast) -> String {
    phux_tests::cast_outputs(cast).concat()
}

fn start_rec(server: &TestServer, args: &[&str]) -> Child {
    server
        .phux(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn interrupt(child: &Child) {
    std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
}

fn finish(child: Child) -> std::process::Output {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || tx.send(child.wait_with_output()));
    rx.recv_timeout(Duration::from_secs(20))
        .expect("rec ended in time")
        .unwrap()
}

#[test]
fn a_command_is_recorded_until_it_exits_with_its_status() {
    let server = TestServer::start();
    let out = server.dir.path().join("cmd.cast");
    let output = server.run(&[
        "rec",
        "-o",
        out.to_str().unwrap(),
        "--size",
        "40x5",
        "--json",
        "--",
        "sh",
        "-c",
        "printf 'hello \\033[31mred\\033[0m'; sleep 0.2; exit 3",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert_eq!(
        text.lines().count(),
        1,
        "stdout carries only the document: {text}"
    );
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(doc["schema_version"], 1);
    assert_eq!(doc["format"], "cast");
    assert_eq!(
        (doc["cols"].as_u64(), doc["rows"].as_u64()),
        (Some(40), Some(5))
    );
    let cast = read_cast(&out).unwrap();
    assert_eq!(doc["frames"].as_u64(), Some(cast.events.len() as u64));
    assert!(
        outputs(&cast).contains("hello \u{1b}[31mred"),
        "{:?}",
        outputs(&cast)
    );
    assert_eq!(
        cast.events.last().map(|e| &e.kind),
        Some(&EventKind::Exit(3))
    );
    // The pane is removed; this server had no other, so it ended with it.
    let ls = server.run(&["ls", "--json"]);
    assert!(
        ls.status.code() == Some(1) || phux_tests::json(&ls)["sessions"] == serde_json::json!([])
    );
}

/// A command that exits at once used to be missed when the machine was busy: its pane was gone
/// before the recorder's `observe` arrived (`no such target`). The pane is now created with its
/// observer attached, so eight at once all keep their output and exit status.
#[test]
fn commands_that_exit_at_once_are_recorded_even_eight_at_a_time() {
    let server = TestServer::start();
    let recorders: Vec<_> = (0..8)
        .map(|i| {
            let out = server.dir.path().join(format!("fast{i}.cast"));
            let script = format!("echo fast-{i}; exit {}", 10 + i);
            let child = start_rec(
                &server,
                &[
                    "rec",
                    "-o",
                    out.to_str().unwrap(),
                    "--",
                    "sh",
                    "-c",
                    &script,
                ],
            );
            (i, out, child)
        })
        .collect();
    for (i, out, child) in recorders {
        let output = finish(child);
        assert!(output.status.success(), "rec {i}: {}", stderr(&output));
        let cast = read_cast(&out).unwrap();
        assert!(outputs(&cast).contains(&format!("fast-{i}")), "rec {i}");
        let exit = cast.events.iter().find_map(|e| match e.kind {
            EventKind::Exit(code) => Some(code),
            _ => None,
        });
        assert_eq!(exit, Some(10 + i), "rec {i}");
    }
}

#[test]
fn an_existing_output_is_kept_unless_overwrite() {
    let server = TestServer::start();
    let out = server.dir.path().join("exists.cast");
    std::fs::write(&out, "precious").unwrap();
    let refused = server.run(&["rec", "-o", out.to_str().unwrap(), "--json", "--", "true"]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(refused.stdout.is_empty());
    assert!(
        stderr(&refused).contains("output_exists"),
        "{}",
        stderr(&refused)
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "precious");
    let replaced = server.run(&[
        "rec",
        "-o",
        out.to_str().unwrap(),
        "--overwrite",
        "--",
        "true",
    ]);
    assert!(replaced.status.success(), "{}", stderr(&replaced));
    assert!(read_cast(&out).is_ok());
}

#[test]
fn an_unknown_extension_names_the_supported_ones() {
    let server = TestServer::start();
    let out = server.dir.path().join("demo.mp4");
    let output = server.run(&["rec", "-o", out.to_str().unwrap(), "--", "true"]);
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert!(
        message.contains(".gif") && message.contains(".cast"),
        "{message}"
    );
}

#[test]
fn a_live_pane_is_recorded_until_ctrl_c_and_replays_to_its_screen() {
    let server = TestServer::start();
    let pane = server.new_session("live", &["bash", "--norc", "--noprofile"]);
    server.send_keys(&pane, &["echo before-recording", "Enter"]);
    wait_for_text(&server.socket, &pane, "before-recording");
    let out = server.dir.path().join("live.cast");
    let rec = start_rec(
        &server,
        &["rec", &pane, "-o", out.to_str().unwrap(), "--json"],
    );
    wait_until("the recording starts", Duration::from_secs(10), || {
        out.exists()
    });
    server.send_keys(
        &pane,
        &["printf '%s\\n' during-$((6*7)) '日本語 ┌──┐'", "Enter"],
    );
    wait_for_text(&server.socket, &pane, "during-42");
    // The prompt drawn after the output must reach the cast too (the replay is compared with
    // the whole screen), and nothing says when the shell has drawn it: a bounded wait.
    std::thread::sleep(Duration::from_millis(300));
    interrupt(&rec);
    let output = finish(rec);
    assert_eq!(
        output.status.code(),
        Some(0),
        "Ctrl-C ends a recording as a success: {}",
        stderr(&output)
    );
    let cast = read_cast(&out).unwrap();
    assert!(outputs(&cast).contains("during-42"));
    // The first event is the screen as it was: what was there before recording began.
    assert!(matches!(&cast.events[0].kind, EventKind::Output(t) if t.contains("before-recording")));
    let mut replay = Terminal::new(cast.header.cols, cast.header.rows, 100).unwrap();
    for event in &cast.events {
        if let EventKind::Output(text) = &event.kind {
            replay.write(text.as_bytes());
        }
    }
    assert_eq!(replay.viewport_lines(), screen(&server.socket, &pane).lines);
}

#[test]
fn duration_ends_a_recording_and_input_is_never_recorded() {
    let server = TestServer::start();
    let pane = server.new_session("quiet", &["bash", "--norc", "--noprofile"]);
    server.send_keys(&pane, &["stty -echo; read secret; echo got-it", "Enter"]);
    // `read` must be waiting (with echo off) before the secret is typed; it shows nothing.
    std::thread::sleep(Duration::from_millis(300));
    let out = server.dir.path().join("quiet.cast");
    let rec = start_rec(
        &server,
        &[
            "rec",
            &pane,
            "-o",
            out.to_str().unwrap(),
            "--duration",
            "1.5",
        ],
    );
    wait_until("the recording starts", Duration::from_secs(10), || {
        out.exists()
    });
    server.send_keys(&pane, &["hunter2", "Enter"]);
    wait_for_text(&server.socket, &pane, "got-it");
    let output = finish(rec);
    assert!(output.status.success(), "{}", stderr(&output));
    let cast = read_cast(&out).unwrap();
    assert!(outputs(&cast).contains("got-it"));
    assert!(
        !std::fs::read_to_string(&out).unwrap().contains("hunter2"),
        "typed input must never be recorded"
    );
    assert!(cast
        .events
        .iter()
        .all(|e| !matches!(e.kind, EventKind::Input(_))));
}

#[test]
fn since_records_what_already_happened() {
    let server = TestServer::start();
    let pane = server.new_session(
        "past",
        &[
            "sh",
            "-c",
            "echo from-the-past; sleep 0.5; echo a-bit-later; exec sleep 600",
        ],
    );
    wait_for_text(&server.socket, &pane, "a-bit-later");
    let out = server.dir.path().join("past.cast");
    let output = server.run(&[
        "rec",
        &pane,
        "--since",
        "60s",
        "--duration",
        "0.3",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let cast = read_cast(&out).unwrap();
    let past = cast
        .events
        .iter()
        .find(|e| matches!(&e.kind, EventKind::Output(t) if t.contains("from-the-past")))
        .unwrap();
    let later = cast
        .events
        .iter()
        .find(|e| matches!(&e.kind, EventKind::Output(t) if t.contains("a-bit-later")))
        .unwrap();
    let gap = later.time - past.time;
    assert!(gap > 0.3, "the past keeps its own timing (gap {gap} s)");
}

#[test]
fn a_recorder_killed_with_sigkill_leaves_a_cast_whose_every_line_parses() {
    let server = TestServer::start();
    let pane = server.new_session(
        "ticks",
        &[
            "sh",
            "-c",
            "i=0; while :; do i=$((i+1)); echo tick-$i; sleep 0.01; done",
        ],
    );
    let out = server.dir.path().join("killed.cast");
    let mut rec = start_rec(&server, &["rec", &pane, "-o", out.to_str().unwrap()]);
    wait_until("some ticks are recorded", Duration::from_secs(10), || {
        std::fs::read_to_string(&out).is_ok_and(|t| t.lines().count() > 20)
    });
    rec.kill().unwrap();
    rec.wait().unwrap();
    let cast = read_cast(&out).expect("every line parses");
    assert!(outputs(&cast).contains("tick-"));
    let times: Vec<f64> = cast.events.iter().map(|e| e.time).collect();
    assert!(
        times.windows(2).all(|w| w[0] <= w[1]),
        "times never go backwards"
    );
}

#[test]
fn a_burst_reaches_the_cast_while_the_pane_is_quiet_and_survives_sigkill() {
    // Lines are gathered for a few milliseconds before they are written; a burst followed by
    // silence must still reach the file (the timer writes it), so a SIGKILL after it loses
    // nothing.
    let server = TestServer::start();
    let out = server.dir.path().join("burst.cast");
    let mut rec = start_rec(
        &server,
        &[
            "rec",
            "-o",
            out.to_str().unwrap(),
            "--",
            "sh",
            "-c",
            "seq 1 20000; echo burst-end; exec sleep 600",
        ],
    );
    wait_until("the burst is in the cast", Duration::from_secs(10), || {
        // As an output line (the header names the command too).
        std::fs::read_to_string(&out).is_ok_and(|t| t.contains(r"burst-end\r\n"))
    });
    rec.kill().unwrap();
    rec.wait().unwrap();
    let cast = read_cast(&out).expect("every line parses");
    let text = outputs(&cast);
    let numbers: Vec<&str> = text.split("\r\n").filter(|l| !l.is_empty()).collect();
    // The first line carries the pane's start-up sequences before its "1".
    let at = numbers.iter().position(|l| l.ends_with('1')).unwrap();
    let expected: Vec<String> = (2..=20000).map(|n| n.to_string()).collect();
    let burst = numbers.get(at + 1..at + 20000).unwrap_or_default();
    assert!(burst == expected, "the whole burst is there, in order");
    assert!(text.contains("burst-end"));
}

#[test]
fn a_recording_renders_to_gif_and_apng_and_transcodes_to_v3() {
    let server = TestServer::start();
    let cast_path = server.dir.path().join("r.cast");
    let output = server.run(&[
        "rec",
        "-o",
        cast_path.to_str().unwrap(),
        "--size",
        "30x6",
        "--",
        "sh",
        "-c",
        "printf '\\033[1;32mgreen\\033[0m 日本 ┌─┐\\n'; sleep 0.3; echo done",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let gif = server.dir.path().join("r.gif");
    let doc = server.json(&[
        "rec",
        "--from",
        cast_path.to_str().unwrap(),
        "-o",
        gif.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(doc["format"], "gif");
    assert_eq!(
        doc["bytes"].as_u64(),
        Some(std::fs::metadata(&gif).unwrap().len())
    );
    let mut decoder = gif::DecodeOptions::new()
        .read_info(std::fs::File::open(&gif).unwrap())
        .unwrap();
    let mut frames = 0;
    while decoder.read_next_frame().unwrap().is_some() {
        frames += 1;
    }
    // One image a frame: the decoder counts what `rec` reports.
    assert_eq!(doc["frames"].as_u64(), Some(frames));
    // Regression: animations came out 0600, like the private temp file they are written through.
    let mode = |p: &std::path::Path| {
        std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(p).unwrap().permissions())
            & 0o777
    };
    let ordinary = server.dir.path().join("ordinary");
    std::fs::File::create(&ordinary).unwrap();
    assert_eq!(
        mode(&gif),
        mode(&ordinary),
        "an animation has the mode of any file the user makes"
    );
    let png = server.dir.path().join("r.png");
    assert_eq!(
        server.json(&[
            "rec",
            "--from",
            cast_path.to_str().unwrap(),
            "-o",
            png.to_str().unwrap(),
            "--json"
        ])["format"],
        "apng"
    );
    let v3 = server.dir.path().join("r3.cast");
    server.json(&[
        "rec",
        "--from",
        cast_path.to_str().unwrap(),
        "-o",
        v3.to_str().unwrap(),
        "--cast-version",
        "3",
        "--json",
    ]);
    let (a, b) = (read_cast(&cast_path).unwrap(), read_cast(&v3).unwrap());
    assert_eq!(b.header.version, phux_recorder::CastVersion::V3);
    assert_eq!(outputs(&a), outputs(&b));
    let noext = server.dir.path().join("plain");
    let doc = server.json(&[
        "rec",
        "--from",
        cast_path.to_str().unwrap(),
        "-o",
        noext.to_str().unwrap(),
        "--json",
    ]);
    assert!(
        doc["path"].as_str().unwrap().ends_with("plain.gif"),
        "no extension means .gif: {doc}"
    );
}

#[test]
fn a_broken_cast_given_to_from_names_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.cast");
    std::fs::write(
        &bad,
        "{\"version\":2,\"width\":80,\"height\":24}\n[1.0, \"o\", \"a\"]\n[0.5, \"o\", \"b\"]\n",
    )
    .unwrap();
    let output = phux_tests::run(&mut phux_tests::phux(&[
        "rec",
        "--from",
        bad.to_str().unwrap(),
        "-o",
        dir.path().join("x.gif").to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(output.status.code(), Some(1));
    let line: serde_json::Value =
        serde_json::from_str(stderr(&output).lines().last().unwrap()).unwrap();
    assert_eq!(line["error"]["code"], "cast_invalid");
    assert!(
        line["error"]["message"]
            .as_str()
            .unwrap()
            .contains("bad.cast:3"),
        "{line}"
    );
}

#[test]
fn max_bytes_stops_early_with_a_playable_file_and_a_failed_render_keeps_the_cast() {
    let server = TestServer::start();
    let cast_path = server.dir.path().join("long.cast");
    let script = "for i in $(seq 1 60); do printf '\\033[3%dmline %d %s\\033[0m\\n' $((i % 7 + 1)) $i $(head -c 30 /dev/urandom | base64); sleep 0.02; done";
    let output = server.run(&[
        "rec",
        "-o",
        cast_path.to_str().unwrap(),
        "--size",
        "80x24",
        "--",
        "bash",
        "-c",
        script,
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let gif = server.dir.path().join("capped.gif");
    let capped = server.run(&[
        "rec",
        "--from",
        cast_path.to_str().unwrap(),
        "-o",
        gif.to_str().unwrap(),
        "--max-bytes",
        "6000",
        "--json",
    ]);
    assert!(capped.status.success(), "{}", stderr(&capped));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&capped)).unwrap();
    assert_eq!(doc["truncated"], true, "{doc}");
    // Said on stderr, with how much was kept of how much.
    let said = stderr(&capped);
    assert!(
        said.contains("--max-bytes cut the recording short: kept ") && said.contains(" s of "),
        "{said}"
    );
    let size = std::fs::metadata(&gif).unwrap().len();
    assert!(size <= 6000, "{size} bytes");
    let mut decoder = gif::DecodeOptions::new()
        .read_info(std::fs::File::open(&gif).unwrap())
        .unwrap();
    let mut frames = 0;
    while decoder.read_next_frame().unwrap().is_some() {
        frames += 1;
    }
    // One image a frame, cut at the limit too: the decoder counts what `rec` reports.
    assert_eq!(doc["frames"].as_u64(), Some(frames));

    // A limit below the first frame: refused, with the bytes that frame needs as the remedy.
    let refused = server.run(&[
        "rec",
        "--from",
        cast_path.to_str().unwrap(),
        "-o",
        server.dir.path().join("none.gif").to_str().unwrap(),
        "--max-bytes",
        "100",
        "--json",
    ]);
    let line = error_line(&refused);
    assert_eq!(line["error"]["code"], "encode_failed", "{line}");
    let needed: u64 = (line["error"]["message"].as_str().unwrap())
        .split("needs ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("the message names the bytes the first frame needs");
    assert!(needed > 100, "{line}");
    assert!(
        line["remedy"]
            .as_str()
            .unwrap()
            .contains(&format!("--max-bytes {needed}")),
        "{line}"
    );
    assert!(!server.dir.path().join("none.gif").exists());

    // Too small for even one frame: the render fails, the live recording is kept, and the
    // message says how to render it again.
    let pane = server.new_session(
        "keep",
        &["sh", "-c", "echo something worth keeping; exec sleep 600"],
    );
    wait_for_text(&server.socket, &pane, "worth keeping");
    let out = server.dir.path().join("tiny.gif");
    let failed = server.run(&[
        "rec",
        &pane,
        "--since",
        "60s",
        "--duration",
        "0.2",
        "-o",
        out.to_str().unwrap(),
        "--max-bytes",
        "10",
    ]);
    assert_eq!(failed.status.code(), Some(1));
    let message = stderr(&failed);
    // The kept cast is named in the failure's own message, not on a line of its own.
    let kept = message
        .lines()
        .next()
        .and_then(|l| l.rsplit_once("; the recording is kept at "))
        .map(|(_, path)| path.trim().to_string())
        .expect(&message);
    assert!(read_cast(&kept).is_ok());
    assert!(
        message.contains(&format!("phux rec --from {kept} -o")),
        "{message}"
    );
    assert!(!out.exists());
    let _ = std::fs::remove_file(&kept);
    let _ = std::fs::remove_dir(std::path::Path::new(&kept).parent().unwrap());
}

#[test]
fn a_live_recording_can_be_mirrored_with_play_follow() {
    let server = TestServer::start();
    let source = server.new_session("src", &["bash", "--norc", "--noprofile"]);
    let cast = server.dir.path().join("mirror.cast");
    let rec = start_rec(&server, &["rec", &source, "-o", cast.to_str().unwrap()]);
    wait_until("the recording starts", Duration::from_secs(10), || {
        cast.exists()
    });
    let doc = server.json(&[
        "play",
        cast.to_str().unwrap(),
        &source,
        "--follow",
        "--json",
    ]);
    let mirror = format!("@{}", doc["terminal_id"]);
    server.send_keys(&source, &["echo mirrored-$((3*3))", "Enter"]);
    wait_for_text(&server.socket, &mirror, "mirrored-9");
    interrupt(&rec);
    assert!(finish(rec).status.success());
}

#[test]
fn without_a_flight_recorder_since_starts_at_the_current_screen() {
    let server = TestServer::start_with(&["--flight-bytes", "0"]);
    let pane = server.new_session(
        "nofr",
        &[
            "sh",
            "-c",
            "echo shown-before; sleep 0.3; echo later; exec sleep 600",
        ],
    );
    wait_for_text(&server.socket, &pane, "later");
    let out = server.dir.path().join("nofr.cast");
    let output = server.run(&[
        "rec",
        &pane,
        "--since",
        "60s",
        "--duration",
        "0.2",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let cast = read_cast(&out).unwrap();
    // Only the repaint of what is on screen now: no past output with its own timing.
    assert!(
        matches!(&cast.events[0].kind, EventKind::Output(t) if t.contains("shown-before") && t.contains("later"))
    );
    assert!(cast
        .events
        .iter()
        .skip(1)
        .all(|e| !matches!(&e.kind, EventKind::Output(t) if t.contains("later"))));
}

/// The nice value of process or thread `stat_path` (`/proc/…/stat`), field 19.
fn nice_of(stat_path: &str) -> Option<i64> {
    let stat = std::fs::read_to_string(stat_path).ok()?;
    stat.rsplit_once(')')?
        .1
        .split_whitespace()
        .nth(16)?
        .parse()
        .ok()
}

/// A recording yields the core to the terminal it records: `phux rec` runs 5 below the priority
/// it was started at (the server stamps every chunk, so the cast is the same).
#[test]
fn a_recording_runs_below_the_recorded_terminal() {
    let server = TestServer::start();
    let own = nice_of("/proc/self/stat").unwrap();
    let cast = server.dir.path().join("low.cast");
    let mut rec = server
        .phux(&["rec", "-o", cast.to_str().unwrap(), "--", "sleep", "3"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let tasks = format!("/proc/{}/task", rec.id());
    let mut lowered = false;
    wait_until(
        "rec's threads to run at a lower priority",
        Duration::from_secs(10),
        || {
            let low = (own + 5).min(19);
            let lowered_threads = threads_of(rec.id())
                .into_iter()
                .filter_map(|(tid, _)| nice_of(&format!("{tasks}/{tid}/stat")))
                .filter(|&nice| nice == low)
                .count();
            // The main thread, and the thread that reads the stream (started after it lowered).
            lowered =
                nice_of(&format!("{tasks}/{}/stat", rec.id())) == Some(low) && lowered_threads >= 2;
            lowered
        },
    );
    assert!(lowered);
    assert!(rec.wait().unwrap().success());
}
