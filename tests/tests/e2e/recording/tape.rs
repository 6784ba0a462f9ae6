//! `phux tape` as a user runs it, with the tapes under tests/tapes: every command and setting
//! end to end (typed text on the final screen, outputs from one recording, `Hide` absent from
//! every GIF frame, `Screenshot` taken at its moment), a `Wait` that times out (exit 1, the
//! screen, nothing written), a missing `Require` refused before anything runs, and a syntax
//! error named by line and column.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use phux_tests::{error_line, run_with_deadline, stderr, stdout, TestServer};
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

/// Copies the test tapes into the server's directory (outputs land beside the tape).
fn tapes(server: &TestServer) -> PathBuf {
    let dir = server.dir.path().join("tapes");
    std::fs::create_dir_all(&dir).unwrap();
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tapes");
    for entry in std::fs::read_dir(source).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
    }
    dir
}

fn tape(server: &TestServer, dir: &Path, args: &[&str]) -> Output {
    let mut command = server.phux(&[&["tape"], args].concat());
    command.current_dir(dir);
    run_with_deadline(&mut command, Duration::from_secs(90))
}

/// Every frame of a GIF, composited, as RGBA bytes.
fn gif_frames(path: &Path) -> Vec<Vec<u8>> {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options
        .read_info(std::fs::File::open(path).unwrap())
        .unwrap();
    let width = usize::from(decoder.width());
    let mut canvas = vec![0u8; width * usize::from(decoder.height()) * 4];
    let mut frames = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        for y in 0..usize::from(frame.height) {
            for x in 0..usize::from(frame.width) {
                let src = (y * usize::from(frame.width) + x) * 4;
                if frame.buffer[src + 3] == 0 {
                    continue;
                }
                let dst = ((y + usize::from(frame.top)) * width + x + usize::from(frame.left)) * 4;
                canvas[dst..dst + 4].copy_from_slice(&frame.buffer[src..src + 4]);
            }
        }
        frames.push(canvas.clone());
    }
    frames
}

fn has_color(rgba: &[u8], rgb: [u8; 3]) -> bool {
    rgba.chunks(4).any(|p| p[..3] == rgb)
}

#[test]
fn every_command_and_setting_runs_end_to_end() {
    let server = TestServer::start();
    let dir = tapes(&server);
    let output = tape(
        &server,
        &dir,
        &["every_command.tape", "-o", "extra.gif", "--json"],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(doc["schema_version"], 1);
    let formats: Vec<&str> = doc["outputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["format"].as_str().unwrap())
        .collect();
    assert_eq!(formats, ["gif", "apng", "cast", "txt", "frames", "gif"]);
    // Width 720 x Height 400, minus margin, bar and padding, in the cells of JetBrains Mono at
    // FontSize 16 and LineHeight 1.0: its advance is 0.6 em (9.6 px, drawn in 10 px cells),
    // its rows 16 px.
    assert_eq!(doc["cols"], (720 - 16 - 24) / 10);
    assert_eq!(doc["rows"], (400 - 16 - 24 - 24) / 16);
    let notes = doc["notes"].to_string();
    assert!(
        !notes.contains("FontFamily"),
        "the font is applied: {notes}"
    );
    assert!(!dir.join("ignored-by-source.gif").exists());

    // The final screen: what came after the `clear` run while hidden, and the paste.
    let text = std::fs::read_to_string(dir.join("every.txt")).unwrap();
    for expected in ["shown-again", "pasted-text"] {
        assert!(
            text.contains(expected),
            "{expected:?} missing from:\n{text}"
        );
    }
    assert!(
        !text.contains("HIDDEN-RED"),
        "clear ran while hidden:\n{text}"
    );

    // Every typed text, the env's value and each key's bytes (as `cat -v` showed them) are in
    // the recording.
    let cast = phux_recorder::read_cast(dir.join("every.cast")).unwrap();
    let recorded: String = cast
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            phux_recorder::EventKind::Output(t) => Some(t.as_str()),
            _ => None,
        })
        .collect();
    for expected in [
        "double-quoted",
        "single-quoted",
        "backtick-quoted hello from env",
        "abc^[[D^[[D^[[3~^[[C^[[2~^[[H^[[F",
        "^[^[[A^[[B^[[5~^[[6~^[b^[[Z^A",
        "^C",
        "after-keys",
        "shown-again",
        "pasted-text",
    ] {
        assert!(recorded.contains(expected), "{expected:?} not recorded");
    }
    assert!(
        !recorded.contains("HIDDEN-RED"),
        "what was typed and printed while hidden is not in the cast"
    );

    // Hide: the red block printed while hidden is in no frame of the GIF.
    let frames = gif_frames(&dir.join("every.gif"));
    assert!(frames.len() > 10, "{} frames", frames.len());
    let dracula_red = [0xff, 0x55, 0x55];
    assert!(
        frames.iter().all(|f| !has_color(f, dracula_red)),
        "a hidden frame reached the GIF"
    );
    // The frame: margin fill at the corner, the window bar's red dot.
    assert_eq!(frames[0][..3], [0x67, 0x4e, 0xff]);
    assert!(has_color(&frames[0], [0xff, 0x5f, 0x58]));
    assert_eq!(gif_frames(&dir.join("extra.gif")).len(), frames.len());

    let shot = std::fs::read(dir.join("every-shot.png")).unwrap();
    assert_eq!(&shot[..8], b"\x89PNG\r\n\x1a\n");
    // One PNG per frame, and one GIF image per frame: as many of each.
    let pngs = std::fs::read_dir(dir.join("every-frames")).unwrap().count();
    assert!(pngs > 10, "{pngs} PNGs");
    assert_eq!(
        pngs,
        frames.len(),
        "{pngs} PNGs, {} GIF frames",
        frames.len()
    );
    // Every output of the tape says the same: the PNGs written.
    let counts: Vec<u64> = doc["outputs"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["format"] != "cast" && o["format"] != "txt")
        .map(|o| o["frames"].as_u64().unwrap())
        .collect();
    assert_eq!(counts, [pngs as u64; 4], "gif, apng, frames, extra gif");
}

#[test]
fn a_screenshot_is_the_screen_at_its_moment() {
    let server = TestServer::start();
    let dir = tapes(&server);
    let output = tape(&server, &dir, &["screenshot.tape"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let shot = std::fs::read(dir.join("moment.png")).unwrap();
    let mut frames: Vec<PathBuf> = std::fs::read_dir(dir.join("shot-frames"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    frames.sort();
    // The same renderer wrote both: the screenshot is byte for byte one of the frames, and
    // not the last one (the screen was cleared after it).
    let at = frames
        .iter()
        .position(|f| std::fs::read(f).unwrap() == shot)
        .expect("the screenshot is one of the frames");
    assert!(
        at + 1 < frames.len(),
        "the screenshot is of the moment, not the end"
    );
}

#[test]
fn a_wait_that_times_out_fails_with_the_screen_and_writes_nothing() {
    let server = TestServer::start();
    let dir = tapes(&server);
    let output = tape(&server, &dir, &["wait_timeout.tape", "--json"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(stdout(&output).is_empty());
    let error = error_line(&output);
    assert_eq!(error["error"]["code"], "tape_wait_timed_out");
    let message = error["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("wait_timeout.tape:8:1: Wait timed out"),
        "{message}"
    );
    assert!(
        message.contains("still-waiting"),
        "the screen is in the message: {message}"
    );
    assert!(!dir.join("never.gif").exists() && !dir.join("never.cast").exists());
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".phux"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn a_missing_required_program_fails_before_anything_runs() {
    let server = TestServer::start();
    let dir = tapes(&server);
    let started = Instant::now();
    let output = tape(&server, &dir, &["require_missing.tape", "--json"]);
    assert_eq!(output.status.code(), Some(1));
    let error = error_line(&output);
    assert_eq!(error["error"]["code"], "missing_program");
    assert!(error["error"]["message"]
        .as_str()
        .unwrap()
        .contains("require_missing.tape:2:1: Require phux-no-such-program"));
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(!dir.join("never.gif").exists());
    let panes = server.json(&["ls", "--json"]).to_string();
    assert!(!panes.contains("tape-"), "no pane was started: {panes}");
}

#[test]
fn an_output_directory_that_does_not_exist_is_named_with_its_line() {
    let server = TestServer::start();
    let dir = tapes(&server);
    std::fs::write(
        dir.join("nodir.tape"),
        "Set Width 400\nOutput missing/out.gif\nType \"echo hi\"\n",
    )
    .unwrap();
    let output = tape(&server, &dir, &["nodir.tape", "--json"]);
    assert_eq!(output.status.code(), Some(1));
    let error = error_line(&output);
    assert_eq!(error["error"]["code"], "output_unwritable");
    let message = error["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("nodir.tape:2:1: cannot write missing/out.gif: missing does not exist"),
        "{message}"
    );
    assert!(stdout(&output).is_empty());
}

#[test]
fn a_shell_that_exits_mid_tape_is_named_with_the_next_line() {
    let server = TestServer::start();
    let dir = tapes(&server);
    std::fs::write(
        dir.join("exits.tape"),
        "Output exits.gif\nType \"exit\"\nEnter\nSleep 1\nType \"echo late\"\n",
    )
    .unwrap();
    let output = tape(&server, &dir, &["exits.tape"]);
    assert_eq!(output.status.code(), Some(1));
    let err = stderr(&output);
    assert!(
        err.contains("exits.tape:5:1: the shell exited before this step"),
        "{err}"
    );
    assert!(!dir.join("exits.gif").exists());
}

#[test]
fn a_syntax_error_names_the_line_and_column() {
    let server = TestServer::start();
    let dir = tapes(&server);
    let output = tape(&server, &dir, &["syntax_error.tape"]);
    assert_eq!(output.status.code(), Some(2));
    let err = stderr(&output);
    assert!(
        err.contains(
            "syntax_error.tape:3:7: expected a time like 500ms, 2s or 1.5, found `a-while`"
        ),
        "{err}"
    );
    let output = tape(&server, &dir, &["syntax_error.tape", "--json"]);
    assert_eq!(error_line(&output)["error"]["code"], "tape_invalid");
}

#[test]
fn ctrl_c_mid_tape_removes_the_pane_and_writes_nothing() {
    let server = TestServer::start();
    let dir = tapes(&server);
    let mut command = server.phux(&["tape", "long_sleep.tape", "--json"]);
    command
        .current_dir(&dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let child = command.spawn().unwrap();
    phux_tests::wait_until("the tape's pane is up", Duration::from_secs(20), || {
        server.json(&["ls", "--json"]).to_string().contains("tape-")
    });
    // Interrupted while it runs, not while it starts: a bounded wait.
    std::thread::sleep(Duration::from_millis(300));
    std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_eq!(error_line(&output)["error"]["code"], "tape_interrupted");
    assert!(!dir.join("never.gif").exists());
    // The pane is gone (and with it, maybe, the server, which ends with its last session).
    let listed = server.run(&["ls", "--json"]);
    let panes = stdout(&listed);
    assert!(!panes.contains("tape-"), "the pane is gone: {panes}");
}

#[test]
fn a_video_needs_ffmpeg_and_says_so_when_it_is_missing() {
    let server = TestServer::start();
    let dir = tapes(&server);
    let output = tape(&server, &dir, &["video.tape", "--json"]);
    let has_ffmpeg = std::process::Command::new("ffmpeg")
        .arg("-version")
        .output()
        .is_ok_and(|o| o.status.success());
    if has_ffmpeg {
        assert!(output.status.success(), "{}", stderr(&output));
        assert!(std::fs::metadata(dir.join("video.mp4")).unwrap().len() > 0);
    } else {
        eprintln!("ffmpeg is not installed: checking the refusal instead of the video");
        assert_eq!(output.status.code(), Some(1));
        let error = error_line(&output);
        assert_eq!(error["error"]["code"], "missing_program");
        assert!(error["error"]["message"]
            .as_str()
            .unwrap()
            .contains("ffmpeg"));
        assert!(!dir.join("video.mp4").exists());
    }
}

/// Every frame of `input` as raw RGB, decoded by ffmpeg.
fn ffmpeg_rgb(dir: &Path, input: &str) -> Vec<u8> {
    let output = std::process::Command::new("ffmpeg")
        .current_dir(dir)
        .args(["-v", "error", "-i", input, "-fps_mode", "passthrough"])
        .args(["-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    output.stdout
}

#[test]
fn another_decoder_sees_the_transparency_encoded_gif_and_apng_as_the_frames() {
    if std::process::Command::new("ffmpeg")
        .arg("-version")
        .output()
        .is_err()
    {
        phux_tests::missing("ffmpeg (for the third-party decode)");
        return;
    }
    let server = TestServer::start();
    let dir = tapes(&server);
    let output = tape(&server, &dir, &["third_party.tape"]);
    assert!(output.status.success(), "{}", stderr(&output));
    // The directory's PNGs are whole frames written without any transparency trick.
    let frames = ffmpeg_rgb(&dir, "tp-frames/frame-%05d.png");
    let count = std::fs::read_dir(dir.join("tp-frames")).unwrap().count();
    assert!(count > 0 && !frames.is_empty());
    let frame_len = frames.len() / count;
    let frames: Vec<&[u8]> = frames.chunks(frame_len).collect();
    for (name, what) in [("tp.gif", "GIF"), ("tp.png", "APNG")] {
        let decoded = ffmpeg_rgb(&dir, name);
        assert_eq!(decoded.len() % frame_len, 0, "{what}: frame size");
        let decoded: Vec<&[u8]> = decoded.chunks(frame_len).collect();
        // One image a frame: the decoder shows each frame, and nothing between them.
        assert_eq!(decoded.len(), frames.len(), "{what}: frames decoded");
        assert!(decoded == frames, "the {what} decodes to the frames");
    }
}

#[test]
fn the_timeline_is_the_real_one() {
    let server = TestServer::start();
    let dir = tapes(&server);
    let output = tape(&server, &dir, &["timing.tape", "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    // Five keys 100 ms apart, then a second of sleep: 1.5 s (the shell's start is not counted
    // beyond its first prompt).
    let gif_ms = doc["outputs"][0]["duration_ms"].as_u64().unwrap();
    assert!((1400..=2500).contains(&gif_ms), "{gif_ms} ms");
    let cast = phux_recorder::read_cast(dir.join("timing.cast")).unwrap();
    let typed: Vec<f64> = cast
        .events
        .iter()
        .filter(|e| matches!(&e.kind, phux_recorder::EventKind::Output(t) if t.len() == 1 && "abcde".contains(t.as_str())))
        .map(|e| e.time)
        .collect();
    assert_eq!(typed.len(), 5, "{:?}", cast.events);
    for pair in typed.windows(2) {
        let gap = pair[1] - pair[0];
        assert!(
            (0.08..0.5).contains(&gap),
            "keys {gap:.3} s apart: {typed:?}"
        );
    }
    let end = cast.events.last().unwrap().time;
    assert!(
        end - typed[4] >= 0.95,
        "the sleep is in the cast: {end} vs {typed:?}"
    );
}

#[test]
fn a_wait_after_input_does_not_take_the_screen_from_before_it() {
    // The program's prompt is on the screen before the typed line and again after its answer:
    // only the second may end the Wait, so the answer is hidden, not recorded after Show.
    let server = TestServer::start();
    let dir = tapes(&server);
    let output = tape(&server, &dir, &["slow_answer.tape"]);
    assert!(output.status.success(), "{}", stderr(&output));
    // Shown again, the screen the hidden stretch left is one repaint (a reset, then the
    // screen); the answer may be on it, but never arrive as output after it.
    let cast = phux_recorder::read_cast(dir.join("slow-answer.cast")).unwrap();
    let outputs = phux_tests::cast_outputs(&cast);
    let repaint = (outputs.iter())
        .position(|t| t.starts_with("\u{1b}c"))
        .expect("Show repaints the screen");
    let after_show = outputs[repaint + 1..].concat();
    assert!(after_show.contains("answered-shown"), "{after_show:?}");
    assert!(
        !after_show.contains("answered-secret"),
        "recorded after Show: {after_show:?}"
    );
}

#[test]
fn tapes_written_as_vhs_examples_are_run_end_to_end() {
    // Several commands on a line, stacked modifiers, a hidden setup and every Wait form run as
    // VHS runs them; Subtitle is skipped with a note, not refused.
    let server = TestServer::start();
    let dir = tapes(&server);
    for name in ["vhs_one_line.tape", "vhs_keys.tape"] {
        let output = tape(&server, &dir, &[name]);
        assert!(output.status.success(), "{name}: {}", stderr(&output));
    }
    assert!(!gif_frames(&dir.join("one-line.gif")).is_empty());
    assert!(!gif_frames(&dir.join("keys.gif")).is_empty());
    let output = tape(&server, &dir, &["vhs_hidden_setup.tape", "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let notes = doc["notes"].to_string();
    assert!(
        notes.contains("vhs_hidden_setup.tape:38:1: Subtitle"),
        "{notes}"
    );
    let cast = std::fs::read_to_string(dir.join("hidden-setup.cast")).unwrap();
    assert!(cast.contains("hello"), "the shown part is recorded");
    assert!(!cast.contains("PS1="), "the hidden setup is not");
}
