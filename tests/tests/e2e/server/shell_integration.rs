//! Shell integration: panes running bash, zsh or fish get phux's OSC 133/OSC 7 hooks after the
//! user's own rc files, and `run` in them types only the command: the pane shows the user's
//! prompt, the command and its output, and nothing else. Also the refusals of `run` where no
//! shell is listening, commands that would leave the shell waiting, `PHUX_SHELL_INTEGRATION=0`,
//! and `new` returning only once the pane has painted.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::path::Path;
use std::time::{Duration, Instant};

use phux_tests::{error_line, json, stderr, stdout, TestServer};

/// Whether `shell` is installed; a test that needs it says why it skips.
fn have(shell: &str) -> bool {
    let found = ["/usr/bin", "/bin", "/usr/local/bin"]
        .iter()
        .any(|dir| Path::new(dir).join(shell).exists());
    if !found {
        phux_tests::missing(shell);
    }
    found
}

/// A home directory holding the user's own rc files for each shell (written once per server).
fn home(server: &TestServer) -> String {
    let home = server.dir.path().join("home");
    if home.exists() {
        return home.display().to_string();
    }
    std::fs::create_dir_all(home.join(".config/fish")).unwrap();
    std::fs::write(home.join(".bashrc"), "PS1='mine$ '\nset -o noclobber\n").unwrap();
    std::fs::write(home.join(".zshrc"), "PROMPT='zmine$ '\nsetopt no_clobber\n").unwrap();
    std::fs::write(
        home.join(".config/fish/config.fish"),
        "set -g fish_greeting\nfunction fish_prompt; echo -n 'fmine> '; end\n",
    )
    .unwrap();
    home.display().to_string()
}

/// A pane running `shell` alone (so phux integrates it) with `home` as HOME.
fn shell_pane(server: &TestServer, name: &str, shell: &str, extra_env: &[&str]) -> String {
    let home = format!("HOME={}", home(server));
    let mut args = vec!["new", "-s", name, "--json", "-e", &home];
    for entry in extra_env {
        args.extend_from_slice(&["-e", entry]);
    }
    args.extend_from_slice(&["--", shell]);
    let doc = server.json(&args);
    format!("@{}", doc["terminal_id"])
}

/// The pane's non-blank viewport rows.
fn shown(server: &TestServer, pane: &str) -> Vec<String> {
    server
        .lines(pane)
        .into_iter()
        .filter(|l| !l.trim().is_empty())
        .collect()
}

fn run_leaves_only_prompt_command_and_output(shell: &str, prompt: &str) {
    let server = TestServer::start();
    let pane = shell_pane(&server, shell, shell, &[]);
    assert_eq!(
        shown(&server, &pane),
        vec![prompt.trim_end().to_owned()],
        "new returned with the user's prompt on screen"
    );
    let output = server.run(&["run", "--json", &pane, "echo one; echo two; false"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let doc = json(&output);
    assert_eq!(doc["output"], "one\ntwo");
    assert_eq!(doc["exit_code"], 1);
    assert_eq!(
        shown(&server, &pane),
        vec![
            format!("{prompt}echo one; echo two; false"),
            "one".to_owned(),
            "two".to_owned(),
            prompt.trim_end().to_owned(),
        ],
        "the pane shows the prompt, the command and its output, and nothing else"
    );
    let all = server.json(&["snapshot", "--json", "--scrollback", "0", &pane]);
    assert!(!all.to_string().contains("PHUXrun"), "no marker anywhere");
}

#[test]
fn run_in_bash_types_only_the_command() {
    if have("bash") {
        run_leaves_only_prompt_command_and_output("bash", "mine$ ");
    }
}

#[test]
fn run_in_zsh_types_only_the_command() {
    if have("zsh") {
        run_leaves_only_prompt_command_and_output("zsh", "zmine$ ");
    }
}

#[test]
fn run_in_fish_types_only_the_command() {
    if have("fish") {
        run_leaves_only_prompt_command_and_output("fish", "fmine> ");
    }
}

/// The user's options, and the variables phux used to inject its hooks, are as they would be
/// without phux.
#[test]
fn the_users_options_and_environment_are_kept() {
    let server = TestServer::start();
    let bash = shell_pane(&server, "b", "bash", &[]);
    // A user rc with a failing command and a syntax error still leaves an integrated shell.
    std::fs::write(
        Path::new(&home(&server)).join(".bashrc"),
        "PS1='mine$ '\nset -o noclobber\nfalse\nif then fi\nreturn 3\n",
    )
    .unwrap();
    let broken = shell_pane(&server, "broken", "bash", &[]);
    let doc = server.json(&["run", "--json", &broken, "echo still here"]);
    assert_eq!(doc["output"], "still here");
    assert!(server
        .lines(&broken)
        .iter()
        .any(|l| l == "mine$ echo still here"));
    let doc = server.json(&["run", "--json", &bash, "set -o | grep noclobber"]);
    assert!(doc["output"].as_str().unwrap().ends_with("on"), "{doc}");
    if have("zsh") {
        let zsh = shell_pane(&server, "z", "zsh", &["ZDOTDIR="]);
        let doc = server.json(&[
            "run",
            "--json",
            &zsh,
            "echo ${ZDOTDIR-unset} ${PHUX_USER_ZDOTDIR-gone}; [[ -o noclobber ]] && echo kept",
        ]);
        assert_eq!(doc["output"], "unset gone\nkept");
    }
    if have("fish") {
        let fish = shell_pane(&server, "f", "fish", &["XDG_DATA_DIRS=/x:/y"]);
        let doc = server.json(&["run", "--json", &fish, "echo $XDG_DATA_DIRS"]);
        assert_eq!(doc["output"], "/x:/y");
    }
}

#[test]
fn integration_off_keeps_the_printed_marker_run() {
    let server = TestServer::start();
    let pane = shell_pane(&server, "off", "bash", &["PHUX_SHELL_INTEGRATION=0"]);
    let output = server.run(&["run", "--json", &pane, "echo plain"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(json(&output)["output"], "plain");
    assert!(
        server.lines(&pane).iter().any(|l| l.contains("PHUXrun")),
        "without marks the fallback brackets the command"
    );
}

/// dash has no marks: `run` prints its own markers, and a multi-line command's continuation
/// prompts (`> `) come out before the opening one. Neither they nor an earlier run are output.
#[test]
fn a_multi_line_run_in_dash_returns_only_its_output() {
    let server = TestServer::start();
    let pane = server.plain_shell("dash", "sh");
    server.wait_for_text(&pane, "$");
    let first = server.json(&["run", "--json", &pane, "cat <<EOF\nbeta\nEOF"]);
    assert_eq!(first["output"], "beta", "{first}");
    assert_eq!(first["truncated"], false, "{first}");
    let second = server.json(&["run", "--json", &pane, "echo a\necho b"]);
    assert_eq!(second["output"], "a\nb", "{second}");
    assert_eq!(second["truncated"], false, "{second}");
}

#[test]
fn a_heredoc_runs_as_one_command_and_an_open_quote_is_refused_at_once() {
    let server = TestServer::start();
    let pane = shell_pane(&server, "h", "bash", &[]);
    let doc = server.json(&["run", "--json", &pane, "cat <<EOF\nhello\nthere\nEOF"]);
    assert_eq!(doc["output"], "hello\nthere");
    let started = Instant::now();
    let output = server.run(&["run", "--json", "--timeout", "30", &pane, "echo 'open"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(error_line(&output)["error"]["code"], "command_incomplete");
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "refused, not timed out"
    );
    // A heredoc whose closing line is missing parses (bash only warns), but typed at the
    // prompt it waited for that line until the timeout; it is refused at once too.
    let started = Instant::now();
    let output = server.run(&["run", "--json", "--timeout", "30", &pane, "cat <<EOF"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    let line = error_line(&output);
    assert_eq!(line["error"]["code"], "command_incomplete");
    assert!(
        line["error"]["message"].as_str().unwrap().contains("EOF"),
        "{line}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "refused, not timed out"
    );
    // Nothing was typed: the shell still answers at once.
    assert_eq!(
        server.json(&["run", "--json", &pane, "echo ok"])["output"],
        "ok"
    );
    // Without marks the command goes through `eval`, which fails at once on an open quote.
    let sh = server.plain_shell("sh", "sh");
    let output = server.run(&["run", "--json", "--timeout", "30", &sh, "echo 'open"]);
    assert_ne!(output.status.code(), Some(0));
    assert_ne!(output.status.code(), Some(125), "{}", stderr(&output));
}

#[test]
fn run_refuses_a_pane_whose_foreground_program_is_no_shell() {
    let server = TestServer::start();
    let python = server.new_session("py", &["python3", "-q"]);
    server.wait_for_text(&python, ">>>");
    let output = server.run(&["run", "--json", &python, "echo hi"]);
    assert_eq!(output.status.code(), Some(2));
    let line = error_line(&output);
    assert_eq!(line["error"]["code"], "target_not_shell");
    assert!(
        line["error"]["message"]
            .as_str()
            .unwrap()
            .contains("python3"),
        "{line}"
    );
    // A bash pane whose shell started python3 in the foreground.
    let bash = shell_pane(&server, "b", "bash", &[]);
    server.send_keys(&bash, &["python3 -q", "Enter"]);
    server.wait_for_text(&bash, ">>>");
    let output = server.run(&["run", "--json", &bash, "echo hi"]);
    assert_eq!(error_line(&output)["error"]["code"], "target_not_shell");
    assert!(
        !server.lines(&bash).iter().any(|l| l.contains("echo hi")),
        "nothing was typed into python"
    );
}

#[test]
fn run_refuses_a_busy_shell() {
    let server = TestServer::start();
    let pane = shell_pane(&server, "busy", "bash", &[]);
    // `read` is a builtin: the shell itself is in the foreground, running a command.
    // The builtin's own prompt shows it has started: a `run` typed before then would be read
    // by `read` as its line. The prompt is typed in two quoted halves so that the echo of the
    // typed line does not already show it.
    server.send_keys(&pane, &["read -p 'wait''ing> ' line", "Enter"]);
    server.wait_for_text(&pane, "waiting>");
    phux_tests::wait_until("the command started", Duration::from_secs(10), || {
        let output = server.run(&["run", "--json", &pane, "echo hi"]);
        output.status.code() == Some(2) && error_line(&output)["error"]["code"] == "target_busy"
    });
    server.send_keys(&pane, &["done", "Enter"]);
    phux_tests::wait_until("the shell listens again", Duration::from_secs(10), || {
        let output = server.run(&["run", &pane, "echo back"]);
        output.status.success() && stdout(&output) == "back\n"
    });
}

/// Regression: `new` returned before the shell had printed anything, so a `snapshot` right
/// after it could be blank.
#[test]
fn new_and_spawn_return_once_the_pane_has_painted() {
    let server = TestServer::start();
    for name in ["a", "b", "c"] {
        let pane = server.new_session(name, &[]);
        assert!(
            !shown(&server, &pane).is_empty(),
            "{name}: blank right after new"
        );
        let doc = server.json(&["spawn", "--json", "--target", &pane]);
        let spawned = format!("@{}", doc["terminal_id"]);
        assert!(
            !shown(&server, &spawned).is_empty(),
            "{name}: blank right after spawn"
        );
    }
}

/// The integration's marks reach the engine and the event bus: cells carry prompt and input
/// semantics, `wait --output-only` skips the typed command, and `watch` sees the command start
/// and finish with its exit code.
#[test]
fn the_marks_feed_cells_output_only_waits_and_watch_events() {
    let server = TestServer::start();
    let pane = shell_pane(&server, "m", "bash", &[]);
    let watch = server
        .phux(&[
            "watch",
            "--json",
            "--until",
            "command_finished",
            "--timeout",
            "20",
            &pane,
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    server.send_keys(&pane, &["echo marked-$((6*7)); (exit 3)", "Enter"]);
    let waited = server.run(&[
        "wait",
        "--output-only",
        "--until",
        "marked-42",
        "--timeout",
        "10",
        &pane,
    ]);
    assert!(waited.status.success(), "{}", stderr(&waited));
    assert!(
        !stderr(&waited).contains("no OSC 133"),
        "{}",
        stderr(&waited)
    );
    let events = watch.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&events.stdout);
    assert!(text.contains("command_started"), "{text}");
    let finished: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(finished["event"], "command_finished", "{text}");
    assert_eq!(finished["exit_code"], 3, "{text}");
    let cells = server.json(&["snapshot", "--json", "--cells", &pane]);
    let semantics: Vec<&str> = cells["cells"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["semantic"].as_str())
        .collect();
    assert!(semantics.contains(&"Prompt"), "{cells}");
    assert!(semantics.contains(&"Input"), "{cells}");
}

/// A recording of a pane during `run` holds the typed command and its output, and no marker.
#[test]
fn a_recording_during_run_holds_only_the_command_and_its_output() {
    let server = TestServer::start();
    let pane = shell_pane(&server, "rec", "bash", &[]);
    let cast = server.dir.path().join("run.cast");
    let cast_arg = cast.display().to_string();
    let mut rec = server
        .phux(&["rec", &pane, "-o", &cast_arg, "--duration", "3"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    phux_tests::wait_until("the recording started", Duration::from_secs(10), || {
        cast.exists()
    });
    let doc = server.json(&["run", "--json", &pane, "echo recorded-$((6*7))"]);
    assert_eq!(doc["output"], "recorded-42");
    assert!(rec.wait().unwrap().success());
    // Everything the pane printed, joined across output events however it was split.
    let text: String = std::fs::read_to_string(&cast)
        .unwrap()
        .lines()
        .skip(1)
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|event| event[1] == "o")
        .filter_map(|event| event[2].as_str().map(str::to_owned))
        .collect();
    assert!(text.contains("recorded-42"), "{text}");
    assert!(text.contains("echo recorded-$((6*7))"), "{text}");
    assert!(
        !text.contains("PHUXrun") && !text.contains("printf"),
        "{text}"
    );
}
