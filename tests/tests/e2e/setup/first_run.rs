//! The first `phux new` on a machine with no engine: the client installs the engine on the
//! user's terminal before it starts a server (which then loads what was installed), instead of
//! a server installing it out of sight while the client gives up with `no_server`. The engine
//! comes from a real wheel, fetched once with pip and then given as `PHUX_ENGINE_WHEEL`.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use phux_tests::{json, phux, run_with_deadline, stderr, stdout};

/// The pinned wheel, downloaded once per target directory the way `phux engine install` does.
fn engine_wheel() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("engine-wheel");
    let find = |dir: &Path| {
        std::fs::read_dir(dir).ok().and_then(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .find(|p| p.extension().is_some_and(|x| x == "whl"))
        })
    };
    // Tests of this file run at once: one downloads, the others wait for its wheel.
    static DOWNLOAD: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _one_at_a_time = DOWNLOAD
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(wheel) = find(&dir) {
        return wheel;
    }
    let output = run_with_deadline(
        Command::new("python3")
            .args(["-m", "pip", "download", "--no-deps", "--only-binary=:all:"])
            .args(["--disable-pip-version-check", "--quiet", "--dest"])
            .arg(&dir)
            .arg(phux_core::engine::WHEEL_REQUIREMENT),
        Duration::from_secs(180),
    );
    assert!(output.status.success(), "pip download: {}", stderr(&output));
    find(&dir).expect("pip left a wheel")
}

/// A machine with no engine installed and no server: its own data directory and socket.
struct FreshMachine {
    dir: tempfile::TempDir,
    wheel: PathBuf,
}

impl FreshMachine {
    fn new() -> FreshMachine {
        let dir = tempfile::tempdir().unwrap();
        std::fs::set_permissions(
            dir.path(),
            std::os::unix::fs::PermissionsExt::from_mode(0o700),
        )
        .unwrap();
        FreshMachine {
            dir,
            wheel: engine_wheel(),
        }
    }

    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    fn library(&self) -> PathBuf {
        self.data().join("phux/lib/libghostty-vt.so")
    }

    fn phux(&self, args: &[&str]) -> std::process::Output {
        run_with_deadline(
            phux(args)
                .env("XDG_DATA_HOME", self.data())
                .env("PHUX_SOCKET", self.dir.path().join("phux.sock"))
                .env("PHUX_ENGINE_WHEEL", &self.wheel)
                .env_remove("PHUX_ENGINE_LIB")
                .env_remove("PHUX_NO_AUTO_INSTALL"),
            Duration::from_secs(60),
        )
    }
}

impl Drop for FreshMachine {
    fn drop(&mut self) {
        let _ = self.phux(&["kill", "--server"]);
    }
}

// The first `phux new` on a fresh machine used to fail with `no_server`: the server installed
// the engine while the client waited 3 s for it.
#[test]
fn the_first_new_installs_the_engine_in_view_then_starts_a_server() {
    let machine = FreshMachine::new();
    assert!(!machine.library().exists());
    let output = machine.phux(&["new", "-s", "first", "--", "sh"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output), "@1\n");
    // Not a terminal here: plain lines, the spinner's words.
    assert_eq!(
        stderr(&output),
        format!(
            "phux: installing the terminal engine ({} from {}) into {}\nphux: installed {}\n",
            phux_core::engine::WHEEL_REQUIREMENT,
            machine.wheel.display(),
            machine.data().join("phux/lib").display(),
            machine.library().display()
        )
    );
    assert!(machine.library().exists());
    // The server runs on the engine just installed, and a second `new` installs nothing.
    let again = machine.phux(&["new", "-s", "second", "--", "sh"]);
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(stderr(&again).is_empty(), "{}", stderr(&again));
}

#[test]
fn under_json_the_first_run_prints_nothing_but_the_document() {
    let machine = FreshMachine::new();
    let output = machine.phux(&["new", "-s", "quiet", "--json", "--", "sh"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stderr(&output).is_empty(), "{}", stderr(&output));
    assert_eq!(json(&output)["session"], "quiet");
    assert!(machine.library().exists());
}

#[test]
fn the_first_rec_of_a_command_installs_the_engine_too() {
    let machine = FreshMachine::new();
    let out = machine.dir.path().join("first.cast");
    let output = machine.phux(&["rec", "-o", out.to_str().unwrap(), "--", "echo", "hi"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stderr(&output).starts_with("phux: installing the terminal engine"),
        "{}",
        stderr(&output)
    );
    assert!(out.exists());
}
