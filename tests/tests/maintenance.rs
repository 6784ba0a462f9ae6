//! The maintenance verbs end to end: `phux update` against a real local HTTP server
//! (`python3 -m http.server`) serving crafted releases (real tar.gz archives, real checksums,
//! fetched by real curl), each `update_*` code reached with its exit status; `phux logs`'
//! inventory and tails; `phux service`'s unit file where systemd does not run.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

use phux_tests::{
    error_line, golden, json, phux, run, run_with_deadline, stderr, stdout, wait_until,
};

const PLATFORM: &str = "x86_64-unknown-linux-gnu";
const OLD: &str = "#!/bin/sh\necho 'phux 0.0.1 (the installed one)'\n";
const NEW: &str = "#!/bin/sh\necho 'phux 9.9.9'\n";

/// `python3 -m http.server` on a free loopback port, serving `dir`; stopped when dropped.
struct HttpServer {
    child: Child,
    port: u16,
}

impl HttpServer {
    fn serve(dir: &Path) -> HttpServer {
        let mut child = Command::new("python3")
            .args([
                "-u",
                "-m",
                "http.server",
                "0",
                "--bind",
                "127.0.0.1",
                "--directory",
            ])
            .arg(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("python3 runs (the tests need it)");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        // "Serving HTTP on 127.0.0.1 port 41234 (http://127.0.0.1:41234/) ..."
        let port = line
            .split_whitespace()
            .skip_while(|w| *w != "port")
            .nth(1)
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no port in {line:?}"));
        HttpServer { child, port }
    }

    fn url(&self, name: &str) -> String {
        format!("http://127.0.0.1:{}/{name}", self.port)
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What a crafted archive holds.
#[derive(Clone, Copy)]
enum Archive {
    /// `phux-vX-TRIPLE/phux` (the new binary) and a README.
    Good,
    /// An entry `phux-vX-TRIPLE/../../escaped`.
    Traversal,
    /// `phux-vX-TRIPLE/phux` a symlink.
    Symlink,
    /// `phux` at the top, not under `phux-vX-TRIPLE/`.
    WrongLayout,
    /// `phux-vX-TRIPLE/phux` this build's own binary.
    ThisPhux,
}

/// Writes a gzipped tar with Python's tarfile (so the entries are exactly these).
fn make_archive(path: &Path, stem: &str, kind: Archive) {
    let script = r#"
import io, sys, tarfile
path, stem, kind, new = sys.argv[1:5]
def add(tar, name, data, mode=0o755):
    info = tarfile.TarInfo(name); info.size = len(data); info.mode = mode
    tar.addfile(info, io.BytesIO(data))
with tarfile.open(path, "w:gz", format=tarfile.USTAR_FORMAT, compresslevel=1) as tar:
    if kind == "good":
        add(tar, stem + "/phux", new.encode()); add(tar, stem + "/README.md", b"phux\n", 0o644)
    elif kind == "traversal":
        add(tar, stem + "/phux", new.encode()); add(tar, stem + "/../../escaped", b"x\n")
    elif kind == "symlink":
        info = tarfile.TarInfo(stem + "/phux"); info.type = tarfile.SYMTYPE; info.linkname = "/bin/sh"
        tar.addfile(info)
    elif kind == "layout":
        add(tar, "phux", new.encode())
    elif kind == "this":
        tar.add(new, arcname=stem + "/phux")
"#;
    let kind = match kind {
        Archive::Good => "good",
        Archive::Traversal => "traversal",
        Archive::Symlink => "symlink",
        Archive::WrongLayout => "layout",
        Archive::ThisPhux => "this",
    };
    let content = match kind {
        "this" => phux_tests::phux_bin().display().to_string(),
        _ => NEW.to_owned(),
    };
    let out = run(Command::new("python3")
        .args(["-c", script])
        .arg(path)
        .args([stem, kind, &content]));
    assert!(out.status.success(), "{}", stderr(&out));
}

fn sha256_hex(path: &Path) -> String {
    let out = run(Command::new("sha256sum").arg(path));
    assert!(out.status.success());
    stdout(&out).split_whitespace().next().unwrap().to_owned()
}

/// How the published checksum is made.
#[derive(Clone, Copy, PartialEq)]
enum Checksum {
    Right,
    Wrong,
    Garbage,
    Missing,
}

/// A machine with an installed phux (a stand-in script in `~/.local/bin`), no server, its own
/// config path, and a web root with one release.
struct Machine {
    dir: tempfile::TempDir,
    http: HttpServer,
}

impl Machine {
    fn new() -> Machine {
        let dir = tempfile::tempdir().unwrap();
        for sub in ["home/.local/bin", "www", "sock"] {
            std::fs::create_dir_all(dir.path().join(sub)).unwrap();
        }
        let installed = dir.path().join("home/.local/bin/phux");
        write_executable(&installed, OLD);
        let http = HttpServer::serve(&dir.path().join("www"));
        Machine { dir, http }
    }

    fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    fn installed(&self) -> PathBuf {
        self.home().join(".local/bin/phux")
    }

    fn previous(&self) -> PathBuf {
        self.home().join(".local/bin/phux.previous")
    }

    /// Publishes release `tag` with an archive for `platform` and writes the index.
    fn publish(&self, tag: &str, platform: &str, archive: Archive, checksum: Checksum) {
        let www = self.dir.path().join("www");
        let stem = format!("phux-{tag}-{platform}");
        let name = format!("{stem}.tar.gz");
        make_archive(&www.join(&name), &stem, archive);
        let mut assets = vec![serde_json::json!({
            "name": name, "browser_download_url": self.http.url(&name)
        })];
        let sum = match checksum {
            Checksum::Right => Some(format!("{}  {name}\n", sha256_hex(&www.join(&name)))),
            Checksum::Wrong => Some(format!("{}  {name}\n", "0".repeat(64))),
            Checksum::Garbage => Some("this is not a checksum\n".to_owned()),
            Checksum::Missing => None,
        };
        if let Some(sum) = sum {
            std::fs::write(www.join(format!("{name}.sha256")), sum).unwrap();
            assets.push(serde_json::json!({
                "name": format!("{name}.sha256"),
                "browser_download_url": self.http.url(&format!("{name}.sha256")),
            }));
        }
        let index = serde_json::json!([
            { "tag_name": "nightly", "assets": [] },
            { "tag_name": "v0.0.1", "assets": [] },
            { "tag_name": tag, "assets": assets },
        ]);
        std::fs::write(www.join("index.json"), index.to_string()).unwrap();
    }

    /// `phux ARGS` on this machine: its HOME, config, socket and release index; the binary to
    /// replace is the installed stand-in unless the caller says otherwise.
    fn phux(&self, args: &[&str]) -> Command {
        let mut command = phux(args);
        command
            .env("HOME", self.home())
            .env_remove("CARGO_HOME")
            .env_remove("XDG_CONFIG_HOME")
            .env_remove("XDG_DATA_HOME")
            .env_remove("PHUX_INSTALL_DIR")
            .env("PHUX_CONFIG", self.dir.path().join("config.toml"))
            .env("PHUX_SOCKET", self.dir.path().join("sock/phux.sock"))
            .env("PHUX_UPDATE_URL", self.http.url("index.json"))
            .env("PHUX_UPDATE_TARGET", self.installed());
        command
    }

    fn update(&self, args: &[&str]) -> Output {
        let mut all = vec!["update", "--json"];
        all.extend_from_slice(args);
        run_with_deadline(&mut self.phux(&all), Duration::from_secs(60))
    }

    fn update_with(&self, args: &[&str], env: &[(&str, &str)]) -> Output {
        let mut all = vec!["update", "--json"];
        all.extend_from_slice(args);
        let mut command = self.phux(&all);
        for (k, v) in env {
            command.env(k, v);
        }
        run_with_deadline(&mut command, Duration::from_secs(60))
    }

    fn installed_text(&self) -> String {
        std::fs::read_to_string(self.installed()).unwrap()
    }

    /// The install is as it was: the old binary, no `phux.previous`, nothing left beside it.
    fn assert_untouched(&self) {
        assert_eq!(self.installed_text(), OLD);
        assert!(!self.previous().exists());
        let names: Vec<_> = std::fs::read_dir(self.home().join(".local/bin"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["phux"], "only the installed binary is there");
    }
}

fn write_executable(path: &Path, text: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// `doc` as a golden: the temporary directory as `$TMP`, ages as 0.
fn pinned(doc: &serde_json::Value, dir: &Path) -> String {
    let mut doc = doc.clone();
    zero_ages(&mut doc);
    let text = doc.to_string().replace(&dir.display().to_string(), "$TMP");
    format!("{text}\n")
}

fn zero_ages(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(map) => {
            for (key, v) in map.iter_mut() {
                if key == "age_secs" && v.is_number() {
                    *v = 0.into();
                } else {
                    zero_ages(v);
                }
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(zero_ages),
        _ => {}
    }
}

/// The failure's code and exit status, after `error_line`'s contract checks.
fn failure(output: &Output) -> (String, i32, String) {
    let line = error_line(output);
    (
        line["error"]["code"].as_str().unwrap().to_owned(),
        output.status.code().unwrap(),
        line["remedy"].as_str().unwrap().to_owned(),
    )
}

#[test]
fn update_installs_a_verified_release_keeping_the_previous_and_rolls_back() {
    let m = Machine::new();
    m.publish("v9.9.9", PLATFORM, Archive::Good, Checksum::Right);

    let check = m.update(&["--check"]);
    assert!(check.status.success(), "{}", stderr(&check));
    let doc = json(&check);
    assert_eq!(doc["action"], "available");
    assert_eq!(doc["version"], "v9.9.9");
    assert_eq!(m.installed_text(), OLD, "--check installs nothing");

    let dry = m.update(&["--dry-run"]);
    assert!(dry.status.success(), "{}", stderr(&dry));
    assert_eq!(json(&dry)["action"], "verified");
    m.assert_untouched();

    let out = m.update(&[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc = json(&out);
    assert_eq!(doc["action"], "installed", "{doc}");
    assert_eq!(doc["version"], "v9.9.9");
    golden("docs/update_installed.json", &pinned(&doc, m.dir.path()));
    assert_eq!(m.installed_text(), NEW);
    assert_eq!(std::fs::read_to_string(m.previous()).unwrap(), OLD);
    let ran = run(Command::new(m.installed()).arg("--version"));
    assert_eq!(stdout(&ran).trim(), "phux 9.9.9");

    let back = m.update(&["--rollback"]);
    assert!(back.status.success(), "{}", stderr(&back));
    assert_eq!(json(&back)["action"], "rolled_back");
    assert_eq!(m.installed_text(), OLD);
    assert_eq!(std::fs::read_to_string(m.previous()).unwrap(), NEW);
}

#[test]
fn update_says_up_to_date_when_the_newest_release_is_this_one() {
    let m = Machine::new();
    m.publish(
        concat!("v", env!("CARGO_PKG_VERSION")),
        PLATFORM,
        Archive::Good,
        Checksum::Right,
    );
    let out = m.update(&[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(json(&out)["action"], "up_to_date");
    m.assert_untouched();
}

#[test]
fn update_invalid_tag_for_a_malformed_or_unknown_version() {
    let m = Machine::new();
    m.publish("v9.9.9", PLATFORM, Archive::Good, Checksum::Right);
    for tag in ["9.9.9", "v9.9", "latest", "v7.7.7"] {
        let (code, exit, remedy) = failure(&m.update(&["--version", tag]));
        assert_eq!((code.as_str(), exit), ("update_invalid_tag", 2), "{tag}");
        assert!(remedy.contains("--check"), "{remedy}");
    }
    m.assert_untouched();
}

#[test]
fn update_unsupported_platform_when_the_release_has_no_archive_for_this_one() {
    let m = Machine::new();
    m.publish(
        "v9.9.9",
        "aarch64-apple-darwin",
        Archive::Good,
        Checksum::Right,
    );
    let (code, exit, _) = failure(&m.update(&[]));
    assert_eq!((code.as_str(), exit), ("update_unsupported_platform", 2));
    m.assert_untouched();
}

#[test]
fn update_refuses_installs_it_does_not_maintain_with_their_native_command() {
    let m = Machine::new();
    m.publish("v9.9.9", PLATFORM, Archive::Good, Checksum::Right);
    let checkout = m.dir.path().join("checkout");
    let cargo_bin = m.home().join(".cargo/bin/phux");
    let cases: [(String, &str, String); 5] = [
        (
            checkout.join("target/debug/phux").display().to_string(),
            "update_source_unsupported",
            format!(
                "cd {} && git pull && cargo build -p phux-cli",
                checkout.display()
            ),
        ),
        (
            cargo_bin.display().to_string(),
            "update_source_unsupported",
            "cargo install --locked --force phux-cli".into(),
        ),
        (
            "/nix/store/0abc-phux-0.1.0/bin/phux".into(),
            "update_immutable_store",
            "nix profile upgrade phux".into(),
        ),
        (
            // dpkg knows /bin/tar (the tests need dpkg: Debian's tools run them).
            "/bin/tar".into(),
            "update_package_managed",
            "sudo apt-get install --only-upgrade tar".into(),
        ),
        (
            // Not a directory phux installs into.
            m.dir.path().join("elsewhere/phux").display().to_string(),
            "update_source_unsupported",
            "reinstall with whatever put it there, or unpack a release archive into ~/.local/bin"
                .into(),
        ),
    ];
    for (target, want_code, want_remedy) in cases {
        let out = m.update_with(&[], &[("PHUX_UPDATE_TARGET", &target)]);
        let (code, exit, remedy) = failure(&out);
        assert_eq!((code.as_str(), exit), (want_code, 2), "{target}");
        assert_eq!(remedy, want_remedy, "{target}");
    }
    // The test binary itself lives under target/: refused the same way, without the override.
    let mut bare = m.phux(&["update", "--json"]);
    bare.env_remove("PHUX_UPDATE_TARGET");
    let (code, exit, remedy) = failure(&run(&mut bare));
    assert_eq!((code.as_str(), exit), ("update_source_unsupported", 2));
    assert!(
        remedy.ends_with("&& git pull && cargo build -p phux-cli"),
        "{remedy}"
    );
    m.assert_untouched();
}

#[test]
fn update_installs_into_phux_install_dir() {
    let m = Machine::new();
    m.publish("v9.9.9", PLATFORM, Archive::Good, Checksum::Right);
    let dir = m.dir.path().join("opt-bin");
    std::fs::create_dir_all(&dir).unwrap();
    write_executable(&dir.join("phux"), OLD);
    let target = dir.join("phux").display().to_string();
    let out = m.update_with(
        &[],
        &[
            ("PHUX_UPDATE_TARGET", &target),
            ("PHUX_INSTALL_DIR", &dir.display().to_string()),
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(dir.join("phux")).unwrap(), NEW);
}

#[test]
fn update_fetch_failed_for_a_missing_index_or_a_closed_port() {
    let m = Machine::new();
    let missing = m.http.url("no-such-index.json");
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        drop(listener);
        format!("http://127.0.0.1:{port}/index.json")
    };
    for url in [missing, closed] {
        let out = m.update_with(&[], &[("PHUX_UPDATE_URL", &url)]);
        let (code, exit, _) = failure(&out);
        assert_eq!((code.as_str(), exit), ("update_fetch_failed", 1), "{url}");
    }
    m.assert_untouched();
}

#[test]
fn update_index_url_comes_from_config_and_the_environment_overrides_it() {
    let m = Machine::new();
    m.publish("v9.9.9", PLATFORM, Archive::Good, Checksum::Right);
    std::fs::write(
        m.dir.path().join("config.toml"),
        format!("[update]\nurl = \"{}\"\n", m.http.url("index.json")),
    )
    .unwrap();
    let mut from_config = m.phux(&["update", "--json", "--check"]);
    from_config.env_remove("PHUX_UPDATE_URL");
    let out = run(&mut from_config);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(json(&out)["version"], "v9.9.9");
    let out = m.update_with(
        &["--check"],
        &[("PHUX_UPDATE_URL", &m.http.url("none.json"))],
    );
    let (code, _, _) = failure(&out);
    assert_eq!(
        code, "update_fetch_failed",
        "PHUX_UPDATE_URL wins over the config"
    );
}

#[test]
fn update_checksum_invalid_when_unpublished_or_unreadable() {
    for checksum in [Checksum::Garbage, Checksum::Missing] {
        let m = Machine::new();
        m.publish("v9.9.9", PLATFORM, Archive::Good, checksum);
        let (code, exit, _) = failure(&m.update(&[]));
        assert_eq!((code.as_str(), exit), ("update_checksum_invalid", 1));
        m.assert_untouched();
    }
}

#[test]
fn update_checksum_mismatch_installs_nothing() {
    let m = Machine::new();
    m.publish("v9.9.9", PLATFORM, Archive::Good, Checksum::Wrong);
    let (code, exit, _) = failure(&m.update(&[]));
    assert_eq!((code.as_str(), exit), ("update_checksum_mismatch", 1));
    m.assert_untouched();
}

#[test]
fn update_archive_rejected_for_traversal_links_and_a_wrong_layout() {
    for archive in [Archive::Traversal, Archive::Symlink, Archive::WrongLayout] {
        let m = Machine::new();
        m.publish("v9.9.9", PLATFORM, archive, Checksum::Right);
        let out = m.update(&[]);
        let (code, exit, _) = failure(&out);
        assert_eq!(
            (code.as_str(), exit),
            ("update_archive_rejected", 1),
            "{}",
            stderr(&out)
        );
        m.assert_untouched();
        assert!(!m.dir.path().join("escaped").exists());
    }
}

#[test]
fn update_install_failed_leaves_the_installed_binary() {
    let m = Machine::new();
    m.publish("v9.9.9", PLATFORM, Archive::Good, Checksum::Right);
    // A directory where the previous binary would be kept: it cannot be replaced.
    std::fs::create_dir_all(m.previous().join("in-the-way")).unwrap();
    let (code, exit, _) = failure(&m.update(&[]));
    assert_eq!((code.as_str(), exit), ("update_install_failed", 1));
    assert_eq!(m.installed_text(), OLD);
    assert!(m.previous().is_dir());
}

#[test]
fn update_no_backup_when_nothing_was_replaced() {
    let m = Machine::new();
    let (code, exit, _) = failure(&m.update(&["--rollback"]));
    assert_eq!((code.as_str(), exit), ("update_no_backup", 1));
    m.assert_untouched();
}

/// A fresh HOME and socket directory for `logs` and `service`.
fn fresh() -> (tempfile::TempDir, impl Fn(&[&str]) -> Command) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_path_buf();
    std::fs::create_dir_all(root.join("sock")).unwrap();
    // A server refuses a socket directory other users can enter.
    std::fs::set_permissions(
        root.join("sock"),
        std::os::unix::fs::PermissionsExt::from_mode(0o700),
    )
    .unwrap();
    let command = move |args: &[&str]| {
        let mut c = phux(args);
        c.env("HOME", root.join("home"))
            .env_remove("XDG_CONFIG_HOME")
            .env_remove("XDG_DATA_HOME")
            .env("PHUX_CONFIG", root.join("config.toml"))
            .env("PHUX_SOCKET", root.join("sock/phux.sock"));
        c
    };
    (dir, command)
}

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

#[test]
fn service_install_writes_an_idempotent_unit_and_status_reports_without_systemd() {
    let (dir, phux) = fresh();
    let unit = dir.path().join("home/.config/systemd/user/phux.service");
    let out = run(&mut phux(&["service", "install", "--json"]));
    assert!(out.status.success(), "{}", stderr(&out));
    let doc = json(&out);
    assert_eq!(doc["unit"], unit.display().to_string());
    assert_eq!(doc["changed"], true);
    let text = std::fs::read_to_string(&unit).unwrap();
    let socket = dir.path().join("sock/phux.sock");
    let exec = format!(
        "ExecStart={} --socket {} server --no-seed\n",
        phux_tests::phux_bin().display(),
        socket.display()
    );
    assert!(text.contains(&exec), "{text}");
    assert!(!text.contains("workspace restore"), "{text}");

    let again = json(&run(&mut phux(&["service", "install", "--json"])));
    assert_eq!(again["changed"], false, "a second install changes nothing");

    let restore = json(&run(&mut phux(&[
        "service",
        "install",
        "--restore",
        "--json",
    ])));
    golden("docs/service_install.json", &pinned(&restore, dir.path()));
    assert_eq!(restore["changed"], true);
    let text = std::fs::read_to_string(&unit).unwrap();
    let archive = restore["restore"].as_str().unwrap();
    assert!(
        text.contains(&format!("workspace restore {archive}\n")),
        "{text}"
    );
    assert!(
        text.contains(&format!("workspace save -o {archive}\n")),
        "{text}"
    );

    // This machine runs no systemd: status says so and still succeeds.
    let status = run(&mut phux(&["service", "status"]));
    assert!(status.status.success(), "{}", stderr(&status));
    assert!(
        stdout(&status).contains("(installed)"),
        "{}",
        stdout(&status)
    );
    assert!(
        stdout(&status).contains("systemctl not available"),
        "{}",
        stdout(&status)
    );
    let status = json(&run(&mut phux(&["service", "status", "--json"])));
    golden("docs/service_status.json", &pinned(&status, dir.path()));
    assert_eq!(status["installed"], true);
    assert_eq!(status["systemctl"], false);
    assert_eq!(status["enabled"], serde_json::Value::Null);

    let removed = json(&run(&mut phux(&["service", "uninstall", "--json"])));
    assert_eq!(removed["removed"], true);
    assert!(!unit.exists());
    let again = json(&run(&mut phux(&["service", "uninstall", "--json"])));
    assert_eq!(again["removed"], false);
    let status = json(&run(&mut phux(&["service", "status", "--json"])));
    assert_eq!(status["installed"], false);
}

/// A server running from the installed binary, on the machine's socket, with one `sh` pane.
struct InstalledServer {
    child: Child,
}

impl InstalledServer {
    fn start(m: &Machine) -> InstalledServer {
        std::fs::copy(phux_tests::phux_bin(), m.installed()).unwrap();
        let sock = m.dir.path().join("sock");
        std::fs::set_permissions(&sock, std::os::unix::fs::PermissionsExt::from_mode(0o700))
            .unwrap();
        let child = Command::new(m.installed())
            .args(["server", "--no-seed"])
            .env("PHUX_SOCKET", sock.join("phux.sock"))
            .env("PHUX_CONFIG", m.dir.path().join("config.toml"))
            .env("SHELL", "/bin/sh")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // The user's HOME for these calls: the server loads the engine installed there.
        let status = || {
            let mut c = m.phux(&["status", "--json"]);
            c.env_remove("HOME");
            if let Some(home) = std::env::var_os("HOME") {
                c.env("HOME", home);
            }
            run(&mut c)
        };
        wait_until(
            "the installed server answers",
            Duration::from_secs(15),
            || status().status.success(),
        );
        let out = run(&mut m.phux(&["new", "-d", "-s", "keep", "--", "sh"]));
        assert!(out.status.success(), "{}", stderr(&out));
        InstalledServer { child }
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for InstalledServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn snapshot_of(m: &Machine) -> serde_json::Value {
    json(&run(&mut m.phux(&[
        "snapshot",
        "--json",
        "--scrollback",
        "keep",
    ])))
}

#[test]
fn update_moves_a_running_server_to_the_new_binary_keeping_its_panes() {
    let m = Machine::new();
    let server = InstalledServer::start(&m);
    let before = snapshot_of(&m);
    m.publish("v9.9.9", PLATFORM, Archive::ThisPhux, Checksum::Right);
    let out = run_with_deadline(&mut m.phux(&["update", "--json"]), Duration::from_secs(120));
    assert!(out.status.success(), "{}", stderr(&out));
    let doc = json(&out);
    assert_eq!(doc["action"], "installed", "{doc}");
    assert_eq!(doc["server_running"], true);
    assert_eq!(doc["server_upgraded"], true);
    let status = json(&run(&mut m.phux(&["status", "--json"])));
    assert_eq!(status["pid"], server.pid(), "the same process, re-exec'd");
    assert_eq!(snapshot_of(&m), before, "the pane as it was");
}

#[test]
fn update_leaves_the_server_running_when_the_new_binary_cannot_take_over() {
    let m = Machine::new();
    let server = InstalledServer::start(&m);
    let before = snapshot_of(&m);
    // The release's "phux" answers --version but is no server.
    m.publish("v9.9.9", PLATFORM, Archive::Good, Checksum::Right);
    let out = m.update(&[]);
    let (code, exit, remedy) = failure(&out);
    assert_eq!((code.as_str(), exit), ("upgrade_failed", 1));
    assert!(remedy.contains("--rollback"), "{remedy}");
    assert_eq!(
        m.installed_text(),
        NEW,
        "the binary is installed all the same"
    );
    let status = json(&run(&mut m.phux(&["status", "--json"])));
    assert_eq!(status["pid"], server.pid());
    assert_eq!(snapshot_of(&m), before);
}
