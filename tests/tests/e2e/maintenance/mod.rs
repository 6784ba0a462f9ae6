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
    error_line, golden, json, phux, run, run_with_deadline, stderr, stdout, wait_until, TestServer,
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

mod logs;
mod service;
mod update;
mod upgrade_on_update;
