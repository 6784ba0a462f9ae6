//! `rec` and `play` refuse bad input before any work and report every failure in the one
//! contract: an output directory that cannot take the file (the command never runs), a
//! program that cannot be started, a command that fails (recorded, with its status), a server
//! that dies mid-recording (exit 1, the cast kept and valid, its path in the error), a render
//! that fails (the kept cast named inside the JSON error); and `play` leaves the focus alone.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::path::Path;
use std::process::{Output, Stdio};
use std::time::Duration;

use phux_tests::{error_line, json, stderr, wait_until, TestServer};

fn assert_only_line(output: &Output, expected: &str) {
    error_line(output);
    assert_eq!(stderr(output), format!("{expected}\n"));
}

fn rec(server: &TestServer, out: &Path, command: &[&str]) -> Output {
    let mut args = vec!["rec", "-o", out.to_str().unwrap(), "--json", "--"];
    args.extend_from_slice(command);
    server.run(&args)
}

#[test]
fn a_rec_into_a_missing_directory_is_refused_and_its_command_never_runs() {
    let server = TestServer::start();
    let mark = server.dir.path().join("ran");
    let touch = format!("touch {}", mark.display());
    let missing = server.dir.path().join("no-such-dir/x.gif");
    let output = rec(&server, &missing, &["sh", "-c", &touch]);
    assert_eq!(output.status.code(), Some(1));
    assert_only_line(
        &output,
        &format!(
            r#"{{"schema_version":1,"error":{{"code":"output_unwritable","message":"cannot write {}: {} does not exist"}},"remedy":"create the directory, or choose another output path","exit_code":1}}"#,
            missing.display(),
            missing.parent().unwrap().display()
        ),
    );
    let file = server.dir.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    let under_a_file = file.join("x.cast");
    let output = rec(&server, &under_a_file, &["sh", "-c", &touch]);
    assert_eq!(error_line(&output)["error"]["code"], "output_unwritable");
    phux_tests::assert_quiet_for(
        "the command of a refused rec ran",
        Duration::from_millis(300),
        || mark.exists(),
    );
}

#[test]
fn a_rec_into_an_unwritable_directory_is_refused_before_the_command_runs() {
    let server = TestServer::start();
    // Root passes every permission check, so for root the directory is /proc, which takes no
    // new files from anyone.
    let euid = std::os::unix::fs::MetadataExt::uid(&std::fs::metadata("/proc/self").unwrap());
    let locked = if euid == 0 {
        std::path::PathBuf::from("/proc")
    } else {
        let locked = server.dir.path().join("locked");
        std::fs::create_dir(&locked).unwrap();
        std::fs::set_permissions(&locked, std::os::unix::fs::PermissionsExt::from_mode(0o500))
            .unwrap();
        locked
    };
    let mark = server.dir.path().join("ran");
    let output = rec(
        &server,
        &locked.join("x.cast"),
        &["sh", "-c", &format!("touch {}", mark.display())],
    );
    assert_eq!(error_line(&output)["error"]["code"], "output_unwritable");
    assert!(!mark.exists());
}

#[test]
fn a_bad_theme_is_refused_before_recording() {
    let server = TestServer::start();
    let mark = server.dir.path().join("ran");
    let out = server.dir.path().join("x.gif");
    let mut args = vec![
        "rec",
        "-o",
        out.to_str().unwrap(),
        "--theme",
        "nope",
        "--json",
    ];
    let touch = format!("touch {}", mark.display());
    args.extend_from_slice(&["--", "sh", "-c", &touch]);
    let output = server.run(&args);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(error_line(&output)["error"]["code"], "invalid_argument");
    assert!(!mark.exists());
}

#[test]
fn a_program_that_cannot_be_started_is_spawn_failed_not_a_gif() {
    let server = TestServer::start();
    let out = server.dir.path().join("x.gif");
    let output = rec(&server, &out, &["/no/such/cmd"]);
    assert_eq!(output.status.code(), Some(1));
    assert_only_line(
        &output,
        r#"{"schema_version":1,"error":{"code":"spawn_failed","message":"cannot start the pane's program: cannot run /no/such/cmd: no such file"},"remedy":"check the command and its working directory","exit_code":1}"#,
    );
    assert!(!out.exists());
    let not_on_path = rec(&server, &out, &["no-such-program-anywhere"]);
    assert_eq!(error_line(&not_on_path)["error"]["code"], "spawn_failed");
}

#[test]
fn a_command_that_fails_is_recorded_with_its_status() {
    let server = TestServer::start();
    let out = server.dir.path().join("fails.cast");
    let output = rec(&server, &out, &["sh", "-c", "echo failing; exit 3"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        stderr(&output),
        "phux: warning: the command exited with status 3; it was recorded all the same\n"
    );
    let doc = json(&output);
    assert_eq!(doc["exit_status"], 3, "{doc}");
    let cast = phux_recorder::read_cast(&out).unwrap();
    assert!(!cast.events.is_empty());
    let ok = rec(&server, &server.dir.path().join("ok.cast"), &["true"]);
    assert_eq!(json(&ok)["exit_status"], 0);
    assert!(stderr(&ok).is_empty(), "{}", stderr(&ok));
}

/// Whether a cast's events (past the header line, which names the command) hold `text`.
fn has_output(cast: &str, text: &str) -> bool {
    cast.lines().skip(1).any(|line| line.contains(text))
}

/// Starts a rec of a command that prints `started` and sleeps, waits until the cast at
/// `cast` holds the output, and crashes the server.
fn rec_then_crash(server: &mut TestServer, out: &Path, cast: &Path) -> Output {
    let child = server
        .phux(&[
            "rec",
            "-o",
            out.to_str().unwrap(),
            "--json",
            "--",
            "sh",
            "-c",
            "echo started; sleep 30",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let cast = cast.to_path_buf();
    wait_until("the output is in the cast", Duration::from_secs(15), || {
        std::fs::read_to_string(&cast).is_ok_and(|text| has_output(&text, "started"))
    });
    server.crash();
    let waiter = std::thread::spawn(move || child.wait_with_output().unwrap());
    wait_until("rec ends", Duration::from_secs(15), || waiter.is_finished());
    waiter.join().unwrap()
}

// Issue 18 item 12: rec used to exit 0 with a warning when the server died mid-recording.
#[test]
fn the_server_dying_mid_rec_is_exit_1_and_the_cast_is_kept_valid() {
    let mut server = TestServer::start();
    let out = server.dir.path().join("cut.cast");
    let output = rec_then_crash(&mut server, &out, &out);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let path = out.display();
    assert_only_line(
        &output,
        &format!(
            r#"{{"schema_version":1,"error":{{"code":"server_disconnected","message":"the server went away while recording; the recording is kept at {path}"}},"remedy":"the cast is valid up to that point (play it with `phux play {path}`); check `phux status`","exit_code":1}}"#
        ),
    );
    let cast = phux_recorder::read_cast(&out).unwrap();
    let text = phux_tests::cast_outputs(&cast).concat();
    assert!(text.contains("started"), "{text}");
}

#[test]
fn the_server_dying_mid_gif_rec_keeps_the_cast_and_says_how_to_render_it() {
    let mut server = TestServer::start();
    let out = server.dir.path().join("cut.gif");
    // The scratch cast goes in a private directory of its own under TMPDIR.
    let scratch_root = tempfile::tempdir().unwrap();
    let child = server
        .phux(&[
            "rec",
            "-o",
            out.to_str().unwrap(),
            "--json",
            "--",
            "sh",
            "-c",
            "echo started; sleep 30",
        ])
        .env("TMPDIR", scratch_root.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The scratch cast an animation is recorded to: `phux-rec-*/cut.cast`, only its owner's.
    let scratch = || {
        std::fs::read_dir(scratch_root.path())
            .ok()?
            .filter_map(Result::ok)
            .map(|e| e.path().join("cut.cast"))
            .find(|p| p.exists())
    };
    wait_until(
        "the output is in the scratch cast",
        Duration::from_secs(15),
        || {
            scratch().is_some_and(|p| {
                std::fs::read_to_string(p).is_ok_and(|t| has_output(&t, "started"))
            })
        },
    );
    let kept = scratch().unwrap();
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(kept.parent().unwrap())
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o700, "the scratch directory is private");
    server.crash();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let line = error_line(&output);
    assert_eq!(line["error"]["code"], "server_disconnected");
    let message = line["error"]["message"].as_str().unwrap();
    assert!(
        message.ends_with(&format!("kept at {}", kept.display())),
        "{line}"
    );
    let remedy = line["remedy"].as_str().unwrap();
    assert!(
        remedy.contains(&format!(
            "phux rec --from {} -o {}",
            kept.display(),
            out.display()
        )),
        "{line}"
    );
    assert!(phux_recorder::read_cast(&kept).is_ok());
    assert!(!out.exists(), "nothing rendered from a cut recording");
    let _ = std::fs::remove_file(&kept);
}

#[test]
fn a_render_that_fails_names_the_kept_cast_inside_the_json_error() {
    let server = TestServer::start();
    // A directory where the GIF should go: the recording succeeds, writing the GIF cannot.
    let out = server.dir.path().join("taken.gif");
    std::fs::create_dir(&out).unwrap();
    let output = server.run(&[
        "rec",
        "-o",
        out.to_str().unwrap(),
        "--overwrite",
        "--json",
        "--",
        "echo",
        "hi",
    ]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_eq!(stderr(&output).lines().count(), 1, "{}", stderr(&output));
    let line = error_line(&output);
    assert_eq!(line["error"]["code"], "encode_failed");
    let message = line["error"]["message"].as_str().unwrap();
    let kept = message
        .rsplit_once("; the recording is kept at ")
        .map(|(_, path)| std::path::PathBuf::from(path))
        .unwrap_or_else(|| panic!("{line}"));
    assert!(phux_recorder::read_cast(&kept).is_ok(), "{line}");
    assert!(
        line["remedy"]
            .as_str()
            .unwrap()
            .contains(&format!("phux rec --from {}", kept.display())),
        "{line}"
    );
    let _ = std::fs::remove_file(&kept);
}

#[test]
fn play_does_not_take_the_focus() {
    let server = TestServer::start();
    let pane = server.plain_shell("work", "sh");
    server.send_keys(&pane, &["echo before-play", "Enter"]);
    server.wait_for_text(&pane, "before-play");
    let cast = server.dir.path().join("p.cast");
    std::fs::write(
        &cast,
        "{\"version\":2,\"width\":30,\"height\":4}\n[0.1,\"o\",\"from the cast\\r\\n\"]\n",
    )
    .unwrap();
    let played = server.json(&["play", "--json", cast.to_str().unwrap(), "work"]);
    let playback = format!("@{}", played["terminal_id"]);
    server.wait_for_text(&playback, "from the cast");
    let snapshot = server.json(&["snapshot", "--json", "work"]);
    let text = snapshot["lines"].to_string();
    assert!(text.contains("before-play"), "{snapshot}");
    assert!(!text.contains("from the cast"), "{snapshot}");
    let dot = server.json(&["snapshot", "--json", "."]);
    assert!(dot["lines"].to_string().contains("before-play"), "{dot}");
}
