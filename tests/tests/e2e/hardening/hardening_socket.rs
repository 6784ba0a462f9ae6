//! Issue 18, items 7–9, through the real CLI: the client sends nothing to a socket another user
//! could control, the /tmp fallback is named by `getuid()`, and a client-started server checks
//! its directory before writing its log, never follows a planted symlink, caps what it copies
//! of a bad request and rotates the log at a size.
//!
//! The "other user" is `nobody`, reached with `setpriv`; those tests say why when they are
//! skipped (not root, or no `setpriv` / `/usr/bin/python3` to run the stand-in server).

#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use phux_tests::{error_line, phux, run_with_deadline, stderr, wait_until};

const NOBODY: u32 = 65534;

/// Why a second user cannot be had here, if it cannot.
fn no_second_user() -> Option<&'static str> {
    if rustix::process::getuid().as_raw() != 0 {
        return Some("switching to a second uid needs root");
    }
    if !Path::new("/usr/bin/setpriv").exists() {
        return Some("setpriv is not installed");
    }
    if !Path::new("/usr/bin/python3").exists() {
        return Some("/usr/bin/python3 (the stand-in server) is not installed");
    }
    None
}

/// A listener run as `nobody` that accepts anything and appends every byte it receives to
/// `bytes`: what a hostile server sees. Returns once the socket exists.
fn hostile_server(dir: &Path, socket: &Path, bytes: &Path) -> Hostile {
    let script = format!(
        "import socket,os\n\
         s=socket.socket(socket.AF_UNIX)\n\
         s.bind({sock:?})\n\
         s.listen(8)\n\
         while True:\n\
         \x20c,_=s.accept()\n\
         \x20c.settimeout(2)\n\
         \x20try:\n\
         \x20\x20while True:\n\
         \x20\x20\x20d=c.recv(65536)\n\
         \x20\x20\x20if not d: break\n\
         \x20\x20\x20open({out:?},'ab').write(d)\n\
         \x20except Exception: pass\n\
         \x20c.close()\n",
        sock = socket.display().to_string(),
        out = bytes.display().to_string(),
    );
    std::fs::write(bytes, b"").unwrap();
    std::os::unix::fs::chown(bytes, Some(NOBODY), Some(NOBODY)).unwrap();
    std::os::unix::fs::chown(dir, Some(NOBODY), Some(NOBODY)).unwrap();
    let child = Command::new("/usr/bin/setpriv")
        .args(["--reuid=nobody", "--regid=nogroup", "--clear-groups"])
        .args(["/usr/bin/python3", "-c", &script])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let hostile = Hostile(child);
    wait_until(
        "the stand-in server listens",
        Duration::from_secs(10),
        || socket.exists(),
    );
    hostile
}

/// The stand-in server, stopped when the test ends however it ends.
struct Hostile(Child);

impl Drop for Hostile {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn private_dir(parent: &Path, name: &str) -> PathBuf {
    let dir = parent.join(name);
    std::fs::create_dir(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
    dir
}

fn send_secrets(socket: &Path) -> Vec<std::process::Output> {
    let run = |args: &[&str]| {
        run_with_deadline(
            phux(args).env("PHUX_SOCKET", socket),
            Duration::from_secs(15),
        )
    };
    vec![
        run(&["send-keys", "@1", "my-password-123"]),
        run(&["paste", "@1", "secret token"]),
    ]
}

fn assert_refused_and_nothing_sent(outputs: &[std::process::Output], bytes: &Path, why: &str) {
    for output in outputs {
        assert_eq!(output.status.code(), Some(1), "{why}: {}", stderr(output));
        assert!(
            stderr(output).contains("refusing the socket"),
            "{why}: {}",
            stderr(output)
        );
    }
    phux_tests::assert_quiet_for(
        &format!("{why}: the other user's server received bytes"),
        Duration::from_millis(300),
        || !std::fs::read(bytes).unwrap().is_empty(),
    );
}

/// A server run by another uid received `send-keys 'my-password-123'` and `paste 'secret token'`.
#[test]
fn nothing_is_sent_to_a_socket_in_another_users_directory() {
    if let Some(why) = no_second_user() {
        eprintln!("skipped: {why}");
        return;
    }
    let root = tempfile::tempdir().unwrap();
    let dir = private_dir(root.path(), "theirs");
    let (socket, bytes) = (dir.join("phux.sock"), root.path().join("bytes"));
    let server = hostile_server(&dir, &socket, &bytes);
    let outputs = send_secrets(&socket);
    drop(server);
    assert_refused_and_nothing_sent(&outputs, &bytes, "directory owned by nobody");
}

/// The directory is ours, but the socket in it is another user's (and so is its server).
#[test]
fn nothing_is_sent_to_a_socket_owned_by_another_user_in_our_directory() {
    if let Some(why) = no_second_user() {
        eprintln!("skipped: {why}");
        return;
    }
    let root = tempfile::tempdir().unwrap();
    let dir = private_dir(root.path(), "ours");
    let (socket, bytes) = (dir.join("phux.sock"), root.path().join("bytes"));
    let server = hostile_server(&dir, &socket, &bytes);
    std::os::unix::fs::chown(&dir, Some(0), Some(0)).unwrap();
    assert_eq!(std::fs::metadata(&socket).unwrap().uid(), NOBODY);
    let outputs = send_secrets(&socket);
    // Even with the file made ours, the peer's credentials give the other user away.
    std::os::unix::fs::chown(&socket, Some(0), Some(0)).unwrap();
    let forged = send_secrets(&socket);
    drop(server);
    assert_refused_and_nothing_sent(&outputs, &bytes, "socket owned by nobody");
    assert_refused_and_nothing_sent(&forged, &bytes, "socket chowned, server run by nobody");
}

/// A directory other users can enter is refused too (no second user needed).
#[test]
fn a_socket_directory_others_can_enter_is_refused_before_connecting() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("open");
    std::fs::create_dir(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
    let socket = dir.join("phux.sock");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    let output = run_with_deadline(
        phux(&["ls", "--json"]).env("PHUX_SOCKET", &socket),
        Duration::from_secs(15),
    );
    assert_eq!(error_line(&output)["error"]["code"], "untrusted_socket");
}

/// bash does not export `UID`: the fallback became `/tmp/phux-$USER` or `/tmp/phux-default`.
#[test]
fn the_tmp_fallback_is_named_by_getuid_not_by_the_environment() {
    let uid = rustix::process::getuid().as_raw();
    let output = run_with_deadline(
        phux(&["ls", "--json"])
            .env_remove("PHUX_SOCKET")
            .env_remove("XDG_RUNTIME_DIR")
            .env("UID", "4242")
            .env("USER", "mallory"),
        Duration::from_secs(15),
    );
    // Without the variable, the runtime directory a login session has is still found.
    let dir = match phux_core::socket_path::user_runtime_dir(
        std::path::Path::new(phux_core::socket_path::RUN_USER),
        uid,
    ) {
        Some(dir) => format!("{}/phux/", dir.display()),
        None => format!("/tmp/phux-{uid}/"),
    };
    if output.status.success() {
        eprintln!("skipped: a server of ours already runs in {dir}");
        return;
    }
    let line = error_line(&output);
    let message = line["error"]["message"].as_str().unwrap();
    assert!(message.contains(&dir), "{message}");
    assert!(
        !message.contains("mallory") && !message.contains("4242"),
        "{message}"
    );
}

/// `phux new` with a server started in the background, in `dir`, against `socket`.
fn new_detached(socket: &Path) -> std::process::Output {
    run_with_deadline(
        phux(&["new", "-s", "s", "--", "sleep", "600"])
            .env("PHUX_SOCKET", socket)
            .env("PHUX_AUTO_SPAWN_EXIT_AFTER_IDLE", "5"),
        Duration::from_secs(30),
    )
}

fn stop(socket: &Path) {
    let _ = run_with_deadline(
        phux(&["kill", "--server"]).env("PHUX_SOCKET", socket),
        Duration::from_secs(10),
    );
}

/// A symlink planted at `<socket>.log` made `phux new` append to a root-owned 0600 file.
#[test]
fn the_log_is_never_written_through_a_planted_symlink() {
    let root = tempfile::tempdir().unwrap();
    let dir = private_dir(root.path(), "run");
    let socket = dir.join("phux.sock");
    let victim = root.path().join("victim");
    std::fs::write(&victim, b"precious\n").unwrap();
    std::os::unix::fs::symlink(&victim, dir.join("phux.log")).unwrap();
    let output = new_detached(&socket);
    stop(&socket);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(std::fs::read(&victim).unwrap(), b"precious\n");
}

/// The log was opened before the directory was checked: a directory others can enter got it.
/// And `new` said only that the server it started "exited without listening": it now passes on
/// the server's reason and fix.
#[test]
fn the_log_is_not_created_in_a_directory_that_is_refused() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("open");
    std::fs::create_dir(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
    let socket = dir.join("phux.sock");
    let output = new_detached(&socket);
    assert!(!dir.join("phux.log").exists(), "the log was created");
    assert_eq!(output.status.code(), Some(1));
    let said = stderr(&output);
    assert!(said.contains("its mode is 777"), "{said}");
    assert!(said.contains("chmod 700"), "{said}");
}

/// Five requests with 3 MB ids added 15 MB to the log: each bad request is copied capped, and
/// the log is rotated at a size.
#[test]
fn bad_requests_are_logged_capped_and_the_log_rotates() {
    use std::io::Write;
    let root = tempfile::tempdir().unwrap();
    let dir = private_dir(root.path(), "run");
    let socket = dir.join("phux.sock");
    let output = new_detached(&socket);
    assert!(output.status.success(), "{}", stderr(&output));
    // serde quotes a mistyped string whole in its error, which the server logs.
    let big_id = "A".repeat(3 * 1024 * 1024);
    for _ in 0..5 {
        let mut stream = std::os::unix::net::UnixStream::connect(&socket).unwrap();
        let hello = br#"{"type":"hello","protocol":{"major":1,"minor":0},"client":"t"}"#;
        let bad = format!(r#"{{"type":"get_state","id":"{big_id}"}}"#);
        // The server may refuse the bad frame from its length and hang up before its body
        // is written: a write that fails then is the refusal.
        for body in [&hello[..], bad.as_bytes()] {
            let len = u32::try_from(body.len() + 1).unwrap();
            let _ = stream.write_all(&len.to_be_bytes());
            let _ = stream.write_all(&[1]);
            let _ = stream.write_all(body);
        }
        let _ = stream.shutdown(std::net::Shutdown::Write);
        let mut sink = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stream, &mut sink);
    }
    let log = dir.join("phux.log");
    let len = |p: &Path| std::fs::metadata(p).map_or(0, |m| m.len());
    assert!(len(&log) < 64 * 1024, "the log grew to {} bytes", len(&log));
    // Rotation: a log already past the limit is moved aside when a server opens it.
    stop(&socket);
    wait_until("the server stopped", Duration::from_secs(10), || {
        !socket.exists()
    });
    let mut file = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
    file.write_all(&vec![b'x'; 2 * 1024 * 1024]).unwrap();
    drop(file);
    let output = new_detached(&socket);
    stop(&socket);
    assert!(output.status.success(), "{}", stderr(&output));
    let rotated = dir.join("phux.log.1");
    assert!(len(&rotated) >= 2 * 1024 * 1024, "no rotated log");
    assert!(
        len(&log) < 64 * 1024,
        "the new log holds {} bytes",
        len(&log)
    );
}

/// A shared sticky directory like /tmp (root-owned, mode 1777) in which another user can plant
/// whatever they like beside our socket.
fn sticky_dir(parent: &Path) -> PathBuf {
    let dir = parent.join("shared");
    std::fs::create_dir(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o1777)).unwrap();
    dir
}

/// A symlink planted at `<socket>.lock` in a sticky directory made the server chmod its target
/// (a root-owned 0644 file became 0600), and a dangling one made it create the target.
#[test]
fn the_lock_file_is_never_opened_or_chmod_ed_through_a_planted_symlink() {
    let root = tempfile::tempdir().unwrap();
    // A sticky directory counts as shared only when root owns it; without root, our own
    // private directory stands in (the lock is opened the same way in both).
    let dir = if rustix::process::getuid().as_raw() == 0 {
        sticky_dir(root.path())
    } else {
        private_dir(root.path(), "run")
    };
    let socket = dir.join("phux.sock");
    let lock = dir.join("phux.sock.lock");
    let victim = root.path().join("victim");
    std::fs::write(&victim, b"precious\n").unwrap();
    std::fs::set_permissions(&victim, std::fs::Permissions::from_mode(0o644)).unwrap();
    std::os::unix::fs::symlink(&victim, &lock).unwrap();
    let output = new_detached(&socket);
    stop(&socket);
    assert!(!output.status.success(), "a server started");
    assert!(
        stderr(&output).contains("symbolic link"),
        "{}",
        stderr(&output)
    );
    let mode = std::fs::metadata(&victim).unwrap().mode() & 0o7777;
    assert_eq!(mode, 0o644, "the link's target was chmod-ed");
    assert_eq!(std::fs::read(&victim).unwrap(), b"precious\n");

    let dangling = root.path().join("created-by-root");
    std::fs::remove_file(&lock).unwrap();
    std::os::unix::fs::symlink(&dangling, &lock).unwrap();
    let output = new_detached(&socket);
    stop(&socket);
    assert!(!output.status.success(), "a server started");
    assert!(!dangling.exists(), "the dangling link's target was created");
}

/// A regular lock file another user planted (or one with a second hard link) is refused, not
/// taken over; our own lock file from an earlier server is reused.
#[test]
fn a_lock_file_owned_by_another_user_is_refused() {
    if rustix::process::getuid().as_raw() != 0 {
        panic!("this test needs root, to make a file another uid owns");
    }
    let root = tempfile::tempdir().unwrap();
    let dir = sticky_dir(root.path());
    let socket = dir.join("phux.sock");
    let lock = dir.join("phux.sock.lock");
    std::fs::write(&lock, b"").unwrap();
    std::os::unix::fs::chown(&lock, Some(NOBODY), Some(NOBODY)).unwrap();
    let output = new_detached(&socket);
    stop(&socket);
    assert!(!output.status.success(), "a server started");
    assert!(
        stderr(&output).contains(&format!("owned by uid {NOBODY}")),
        "{}",
        stderr(&output)
    );
    std::os::unix::fs::chown(&lock, Some(0), Some(0)).unwrap();
    let linked = root.path().join("second-link");
    std::fs::hard_link(&lock, &linked).unwrap();
    let output = new_detached(&socket);
    stop(&socket);
    assert!(!output.status.success(), "a server started");
    assert!(
        stderr(&output).contains("hard links"),
        "{}",
        stderr(&output)
    );
    std::fs::remove_file(&linked).unwrap();
    std::fs::set_permissions(&lock, std::fs::Permissions::from_mode(0o644)).unwrap();
    let output = new_detached(&socket);
    stop(&socket);
    assert!(output.status.success(), "{}", stderr(&output));
    let mode = std::fs::metadata(&lock).unwrap().mode() & 0o7777;
    assert_eq!(mode, 0o600, "the lock file was not made private");
}
