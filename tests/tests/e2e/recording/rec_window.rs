//! `phux rec` writing a window of a pane rather than a live stream: `--since` alone writes the
//! past up to now and exits (`--follow` goes on live), with the cast's `timestamp` at the start
//! of the captured window; `--still` / `--frame` write one PNG instead of an animation.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use phux_recorder::{read_cast, EventKind};
use phux_tests::{run_with_deadline, stderr, wait_for_text, TestServer};
use std::process::Child;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// A pane that printed `from-the-past`, then two seconds later `a-bit-later`, and now idles.
fn pane_with_a_past(server: &TestServer, name: &str) -> String {
    let pane = server.new_session(
        name,
        &[
            "sh",
            "-c",
            "echo from-the-past; sleep 2; echo a-bit-later; exec sleep 600",
        ],
    );
    wait_for_text(&server.socket, &pane, "a-bit-later");
    pane
}

/// `rec --since 60s` used to go on recording live until Ctrl-C: an agent asking for "the last
/// minute" waited forever. It now writes the past up to now and exits 0 on its own.
#[test]
fn since_alone_writes_the_past_up_to_now_and_exits() {
    let server = TestServer::start();
    let pane = pane_with_a_past(&server, "past");
    let out = server.dir.path().join("past.cast");
    let began = unix_now();
    let output = run_with_deadline(
        &mut server.phux(&["rec", &pane, "--since", "60s", "-o", out.to_str().unwrap()]),
        Duration::from_secs(30),
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let cast = read_cast(&out).unwrap();
    let text = phux_tests::cast_outputs(&cast).concat();
    assert!(text.contains("from-the-past"), "{text:?}");
    assert!(text.contains("a-bit-later"), "{text:?}");
    // The window began at least two seconds before the recorder did (the pane's start).
    let timestamp = cast.header.timestamp.unwrap();
    assert!(
        timestamp < began,
        "timestamp {timestamp} is not the start of the window (recorder began {began})"
    );
    assert!(
        began - timestamp < 60,
        "timestamp {timestamp}, began {began}"
    );

    // A window that begins after the last output: the screen as it was then, and nothing
    // older as events of its own.
    std::thread::sleep(Duration::from_millis(1500));
    let recent = server.dir.path().join("recent.cast");
    let began = unix_now();
    let output = run_with_deadline(
        &mut server.phux(&[
            "rec",
            &pane,
            "--since",
            "1s",
            "-o",
            recent.to_str().unwrap(),
        ]),
        Duration::from_secs(30),
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let cast = read_cast(&recent).unwrap();
    let outputs: Vec<&str> = (cast.events.iter())
        .filter_map(|e| match &e.kind {
            EventKind::Output(t) if !t.is_empty() => Some(t.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(outputs.len(), 1, "one repaint of the screen: {outputs:?}");
    assert!(outputs[0].contains("from-the-past") && outputs[0].contains("a-bit-later"));
    let timestamp = cast.header.timestamp.unwrap();
    assert!(
        began - timestamp <= 2,
        "the window's start, a second back: timestamp {timestamp}, began {began}"
    );
}

/// `--follow` keeps today's behaviour: the past, then live output until Ctrl-C.
#[test]
fn since_with_follow_goes_on_live_until_ctrl_c() {
    let server = TestServer::start();
    let pane = server.new_session("follow", &["env", "PS1=$ ", "sh", "-i"]);
    wait_for_text(&server.socket, &pane, "$");
    server.send_keys(&pane, &["echo before-$((6*7))", "Enter"]);
    wait_for_text(&server.socket, &pane, "before-42");
    let out = server.dir.path().join("follow.cast");
    let rec: Child = server
        .phux(&[
            "rec",
            &pane,
            "--since",
            "60s",
            "--follow",
            "-o",
            out.to_str().unwrap(),
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    phux_tests::wait_until("the recording starts", Duration::from_secs(10), || {
        read_cast(&out).is_ok_and(|cast| !cast.events.is_empty())
    });
    server.send_keys(&pane, &["echo after-$((7*7))", "Enter"]);
    phux_tests::wait_until("live output is recorded", Duration::from_secs(10), || {
        read_cast(&out).is_ok_and(|cast| {
            cast.events
                .iter()
                .any(|e| matches!(&e.kind, EventKind::Output(t) if t.contains("after-49")))
        })
    });
    std::process::Command::new("kill")
        .args(["-INT", &rec.id().to_string()])
        .status()
        .unwrap();
    let output = rec.wait_with_output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let cast = read_cast(&out).unwrap();
    assert!(cast
        .events
        .iter()
        .any(|e| matches!(&e.kind, EventKind::Output(t) if t.contains("before-42"))));
}

#[test]
fn follow_without_since_is_a_usage_error() {
    let server = TestServer::start();
    let out = server.dir.path().join("x.cast");
    let output = server.run(&["rec", "--follow", "-o", out.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
}

/// The decoded PNG at `path`: (width, height, whether it is animated, RGB pixels).
fn decode_png(path: &std::path::Path) -> (u32, u32, bool, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let animated = reader.info().animation_control.is_some();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let frame = reader.next_frame(&mut pixels).unwrap();
    pixels.truncate(frame.buffer_size());
    (frame.width, frame.height, animated, pixels)
}

/// `rec -o x.png` always wrote an APNG: an agent wanting a screenshot got an animation whose
/// first frame is the blank start. `--still` writes one plain PNG of the final screen, and
/// `--frame N` the screen after the first N screen events.
#[test]
fn still_writes_one_png_of_the_final_screen_and_frame_picks_another() {
    let server = TestServer::start();
    let dir = server.dir.path();
    let last = dir.join("last.png");
    let doc = server.json(&[
        "rec",
        "--json",
        "--still",
        "--size",
        "20x4",
        "-o",
        last.to_str().unwrap(),
        "--",
        "sh",
        "-c",
        "printf 'first\\n'; sleep 0.3; printf 'second\\n'; sleep 0.3",
    ]);
    assert_eq!(doc["format"], "png", "{doc}");
    assert_eq!(doc["frames"], 1, "{doc}");
    let (width, height, animated, final_pixels) = decode_png(&last);
    assert!(!animated, "a still is not an APNG");
    // Drawn as an animation's frames are: the default JetBrains Mono at 14 px in 8x20 cells,
    // and 8 px of padding.
    assert_eq!((width, height), (20 * 8 + 16, 4 * 20 + 16));

    // The same screen again from a cast, by `--frame last` and by its own number.
    let cast = dir.join("two.cast");
    server.json(&[
        "rec",
        "--json",
        "--size",
        "20x4",
        "-o",
        cast.to_str().unwrap(),
        "--",
        "sh",
        "-c",
        "printf 'first\\n'; sleep 0.3; printf 'second\\n'; sleep 0.3",
    ]);
    let events = read_cast(&cast)
        .unwrap()
        .events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::Output(_) | EventKind::Resize { .. }))
        .count();
    let by_number = dir.join("n.png");
    let numbered = server.run(&[
        "rec",
        "--from",
        cast.to_str().unwrap(),
        "--frame",
        &events.to_string(),
        "-o",
        by_number.to_str().unwrap(),
    ]);
    assert!(numbered.status.success(), "{}", stderr(&numbered));
    let from_cast = dir.join("from-cast.png");
    let output = server.run(&[
        "rec",
        "--from",
        cast.to_str().unwrap(),
        "--frame",
        "last",
        "-o",
        from_cast.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(decode_png(&by_number).3, decode_png(&from_cast).3);
    assert_eq!(decode_png(&from_cast).3, final_pixels);
    // A time past the end is the last screen; time zero is the screen before any output.
    for (time, last) in [("1h", true), ("0s", false)] {
        let at = dir.join(format!("at-{time}.png"));
        let output = server.run(&[
            "rec",
            "--from",
            cast.to_str().unwrap(),
            "--frame",
            time,
            "-o",
            at.to_str().unwrap(),
        ]);
        assert!(output.status.success(), "{time}: {}", stderr(&output));
        assert_eq!(decode_png(&at).3 == final_pixels, last, "--frame {time}");
    }

    // The image flags reach a still: the bitmap font without padding, then a window bar.
    let bare = dir.join("bare.png");
    let output = server.run(&[
        "rec",
        "--from",
        cast.to_str().unwrap(),
        "--still",
        "--font",
        "unifont",
        "--padding",
        "0",
        "-o",
        bare.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let (bare_width, bare_height, _, _) = decode_png(&bare);
    assert_eq!((bare_width, bare_height), (20 * 8, 4 * 16));
    let framed = dir.join("framed.png");
    let output = server.run(&[
        "rec",
        "--from",
        cast.to_str().unwrap(),
        "--still",
        "--window-bar",
        "Colorful",
        "--margin",
        "10",
        "-o",
        framed.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let (framed_width, framed_height, _, _) = decode_png(&framed);
    assert_eq!(framed_width, 20 * 8 + 16 + 20);
    assert!(
        framed_height > 4 * 20 + 16 + 20,
        "a bar above the grid: {framed_height}"
    );

    // An earlier frame is another screen; one past the end is refused, naming the count.
    let first = dir.join("first.png");
    let output = server.run(&[
        "rec",
        "--from",
        cast.to_str().unwrap(),
        "--frame",
        "1",
        "-o",
        first.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_ne!(decode_png(&first).3, final_pixels);
    let beyond = dir.join("beyond.png");
    let output = server.run(&[
        "rec",
        "--json",
        "--from",
        cast.to_str().unwrap(),
        "--frame",
        &(events + 1).to_string(),
        "-o",
        beyond.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    let line = phux_tests::error_line(&output);
    assert_eq!(line["error"]["code"], "invalid_argument");
    assert!(line["error"]["message"]
        .as_str()
        .unwrap()
        .contains(&events.to_string()));
    assert!(!beyond.exists());
}

#[test]
fn still_into_a_gif_is_refused_before_recording() {
    let server = TestServer::start();
    let out = server.dir.path().join("x.gif");
    let output = server.run(&[
        "rec",
        "--json",
        "--still",
        "-o",
        out.to_str().unwrap(),
        "--",
        "true",
    ]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert_eq!(
        phux_tests::error_line(&output)["error"]["code"],
        "invalid_argument"
    );
    assert!(!out.exists());
}

/// The agent wanted a screenshot of `less` and got a recording that waited for Ctrl-C.
/// `--still` on a live pane writes its screen as it is now and exits.
#[test]
fn still_of_a_live_pane_is_its_screen_now() {
    let less = ["/usr/bin", "/bin"]
        .iter()
        .any(|dir| std::path::Path::new(dir).join("less").exists());
    if !less {
        phux_tests::missing("less");
        return;
    }
    let server = TestServer::start();
    let dir = server.dir.path();
    let text = dir.join("text.txt");
    std::fs::write(
        &text,
        (1..=200).map(|n| format!("line {n}\n")).collect::<String>(),
    )
    .unwrap();
    let pane = server.new_session("pager", &["less", text.to_str().unwrap()]);
    wait_for_text(&server.socket, &pane, "line 1");
    server.send_keys(&pane, &["/line 150", "Enter"]);
    wait_for_text(&server.socket, &pane, "line 160");
    let shot = dir.join("less.png");
    let output = run_with_deadline(
        &mut server.phux(&[
            "rec",
            &pane,
            "--json",
            "--still",
            "-o",
            shot.to_str().unwrap(),
        ]),
        Duration::from_secs(20),
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let doc: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(doc["format"], "png", "{doc}");
    let (width, height, animated, pixels) = decode_png(&shot);
    assert!(!animated);
    assert_eq!((width, height), (80 * 8 + 16, 24 * 20 + 16));
    // Not a blank screen: the page of text is drawn.
    let background = &pixels[..3];
    assert!(pixels.chunks(3).filter(|p| *p != background).count() > 1000);
}
