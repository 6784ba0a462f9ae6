//! Emoji that stay in their cells: the engine measures 👩‍💻 and 🇯🇵 as 4 columns where an
//! outer terminal (tmux) measures 2; the client places every cell after such a cluster itself,
//! so killing the pane beside leaves no ghost border and the neighbour drawn whole. Checked
//! on the testkit's outer engine and on a real tmux as the outer terminal.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

use std::process::Command;
use std::time::{Duration, Instant};

use phux_tests::outer_screen::AttachedTui;
use phux_tests::{phux_bin, TestServer, PANE_SHELL};

/// A pane printing flags and a ZWJ sequence between plain letters, on the left of a shell.
const EMOJI: &str = "printf 'x\\360\\237\\207\\257\\360\\237\\207\\265y\\360\\237\\221\\251\\342\\200\\215\\360\\237\\222\\273z\\n'; sleep 600";

/// The emoji pane on the left, a shell printing `right-pane` on the right; returns the panes.
fn emoji_beside_a_shell(server: &TestServer) -> (String, String) {
    let left = server.new_session("work", &["sh", "-c", EMOJI]);
    let out = server.run(&["spawn", "--target", &left, "--split", "vertical"]);
    assert!(out.status.success(), "{out:?}");
    let right = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let sent = server.run(&["send-keys", &right, "echo right-pane", "Enter"]);
    assert!(sent.status.success());
    (left, right)
}

/// What is left after the emoji pane is killed: the shell alone, full width.
fn alone(lines: &[String]) -> bool {
    lines.iter().any(|l| l.starts_with("right-pane"))
        && !lines.iter().any(|l| l.contains('│'))
        && !lines.iter().any(|l| l.contains('z') && l.contains('y'))
}

#[test]
fn killing_a_pane_with_emoji_leaves_no_ghost_border_on_the_outer_engine() {
    let server = TestServer::start();
    let (left, right) = emoji_beside_a_shell(&server);
    let tui = AttachedTui::start(&server, &["attach", "work"], 81, 24);
    tui.wait_for_text("right-pane");
    tui.wait_for_text("z");
    assert!(server.run(&["kill", &left]).status.success());
    tui.wait_for(&format!("{right} alone, no ghost border"), alone);
}

/// A tmux server on a private socket, killed when dropped.
struct Tmux {
    socket: std::path::PathBuf,
}

impl Tmux {
    fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new("tmux");
        command.arg("-S").arg(&self.socket).args(args);
        command
    }

    fn capture(&self) -> Vec<String> {
        let out = self.command(&["capture-pane", "-p"]).output().unwrap();
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| l.trim_end().to_string())
            .collect()
    }

    fn wait_for(&self, what: &str, predicate: impl Fn(&[String]) -> bool) {
        let start = Instant::now();
        loop {
            let lines = self.capture();
            if predicate(&lines) {
                return;
            }
            assert!(
                start.elapsed() < Duration::from_secs(15),
                "timed out waiting until {what}; tmux shows:\n{}",
                lines.join("\n")
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.command(&["kill-server"]).output();
    }
}

#[test]
fn killing_a_pane_with_emoji_leaves_no_ghost_border_in_tmux() {
    let found = Command::new("tmux").arg("-V").output();
    assert!(
        found.is_ok_and(|o| o.status.success()),
        "this test needs tmux as the outer terminal (apt-get install tmux; .ci/run does)"
    );
    let server = TestServer::start();
    let (left, right) = emoji_beside_a_shell(&server);
    let tmux = Tmux {
        socket: server.dir.path().join("tmux.sock"),
    };
    let attach = format!(
        "env PHUX_SOCKET={} PHUX_CONFIG={} SHELL={PANE_SHELL} {} attach work",
        server.socket.display(),
        server.config_path().display(),
        phux_bin().display()
    );
    let started = tmux
        .command(&[
            "-f",
            "/dev/null",
            "new-session",
            "-d",
            "-x",
            "81",
            "-y",
            "24",
        ])
        .arg(&attach)
        .env("TERM", "xterm-256color")
        .status()
        .unwrap();
    assert!(started.success());
    tmux.wait_for("the client drew both panes", |l| {
        l.iter().any(|s| s.contains("right-pane")) && l.iter().any(|s| s.contains('z'))
    });
    // The border is one column on every row of the window, the emoji's row included.
    let border_at = |line: &str| {
        line.chars().position(|c| c == '│').map(|_| {
            phux_core::documents::cell_width::display_width(line.split('│').next().unwrap())
        })
    };
    let lines = tmux.capture();
    let borders: Vec<usize> = lines.iter().filter_map(|l| border_at(l)).collect();
    assert!(borders.len() > 10, "no border drawn:\n{}", lines.join("\n"));
    assert!(server.run(&["kill", &left]).status.success());
    tmux.wait_for(&format!("{right} alone, no ghost border"), alone);
}
