//! Issue 52, offline: a server whose data directory lacks the browser's terminal (ghostty-web)
//! and cannot reach the registry (its proxy is a closed port) serves a page that says what is
//! missing and the commands that install it; `doctor` warns; `phux web install --from FILE`
//! refuses a tarball that is not the pinned release and installs the one `npm pack` wrote;
//! `doctor` passes then and a reload of the same page connects.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use phux_core::web_bundle;
use phux_tests::listening::Listening;
use phux_tests::{missing, run_with_deadline, stderr, stdout};

use phux_tests::browser::ready;

/// `npm pack ghostty-web@VERSION` into `dir`: the tarball a machine without the registry is
/// given. None when npm cannot reach the registry here either.
fn packed(dir: &Path) -> Option<PathBuf> {
    let mut npm = Command::new("npm");
    npm.args([
        "pack",
        &format!("{}@{}", web_bundle::PACKAGE, web_bundle::VERSION),
    ])
    .args(["--silent", "--pack-destination"])
    .arg(dir)
    .current_dir(dir);
    let output = run_with_deadline(&mut npm, Duration::from_secs(120));
    let file = dir.join(format!(
        "{}-{}.tgz",
        web_bundle::PACKAGE,
        web_bundle::VERSION
    ));
    (output.status.success() && file.is_file()).then_some(file)
}

fn web_check(doctor: &serde_json::Value) -> serde_json::Value {
    doctor["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "web assets")
        .cloned()
        .unwrap_or_else(|| panic!("no web assets check: {doctor}"))
}

#[test]
fn offline_the_page_says_what_is_missing_and_web_install_from_a_file_mends_it() {
    if let Err(what) = ready() {
        missing(&what);
        return;
    }
    let data = tempfile::tempdir().unwrap();
    // The engine's library stays where it is installed: only the web assets are missing.
    std::fs::create_dir_all(data.path().join("phux")).unwrap();
    std::os::unix::fs::symlink(
        phux_core::engine::data_dir(),
        data.path().join("phux").join("lib"),
    )
    .unwrap();
    let carried = tempfile::tempdir().unwrap();
    let Some(tarball) = packed(carried.path()) else {
        missing("the npm registry (for `npm pack ghostty-web`)");
        return;
    };
    // No registry: every https request goes to a proxy that is not there.
    let no_proxy = std::ffi::OsStr::new("http://127.0.0.1:9");
    let listening = Listening::start_with_env(&[
        ("XDG_DATA_HOME", data.path().as_os_str()),
        ("https_proxy", no_proxy),
        ("HTTPS_PROXY", no_proxy),
    ]);
    let server = &listening.server;
    let phux = |args: &[&str]| {
        let mut command = server.phux(args);
        command.env("XDG_DATA_HOME", data.path());
        run_with_deadline(&mut command, Duration::from_secs(60))
    };
    let doctor_before = serde_json::from_str(&stdout(&phux(&["doctor", "--json"]))).unwrap();
    let full = listening.pair(&[]);
    let dir = tempfile::tempdir().unwrap();
    let shots = std::env::var_os("PHUX_BROWSER_SHOTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| dir.path().to_path_buf());
    std::fs::create_dir_all(&shots).unwrap();
    let plan =
        serde_json::json!({ "base": listening.base(), "token": full["token"], "shots": shots });
    let mut node = phux_tests::browser::script("offline.mjs", &plan)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("node");
    let mut steps = BufReader::new(node.stdout.take().unwrap()).lines();
    let first = steps.next().and_then(Result::ok).unwrap_or_default();

    let bad = carried.path().join("not-ghostty-web.tgz");
    std::fs::write(&bad, b"not the release").unwrap();
    let refused = phux(&["web", "install", "--from", bad.to_str().unwrap(), "--json"]);
    let installed = phux(&[
        "web",
        "install",
        "--from",
        tarball.to_str().unwrap(),
        "--json",
    ]);
    let doctor_after = serde_json::from_str(&stdout(&phux(&["doctor", "--json"]))).unwrap();
    let mut stdin = node.stdin.take().unwrap();
    let _ = writeln!(stdin, "installed");
    let second = steps.next().and_then(Result::ok).unwrap_or_default();
    let _ = node.wait();

    let missing_step: serde_json::Value =
        serde_json::from_str(&first).unwrap_or_else(|_| panic!("the page's first step: {first:?}"));
    assert_eq!(missing_step["state"], "missing", "{missing_step}");
    let notice = missing_step["notice"].as_str().unwrap();
    assert!(
        notice.contains("ghostty-web 0.4.0")
            && notice.contains("phux web install --from ghostty-web-0.4.0.tgz")
            && notice.contains("npm pack ghostty-web@0.4.0"),
        "{notice}"
    );
    assert_eq!(
        web_check(&doctor_before)["status"],
        "warn",
        "{doctor_before}"
    );

    assert!(!refused.status.success());
    assert_eq!(stdout(&refused), "", "a failure prints nothing on stdout");
    let error: serde_json::Value = serde_json::from_str(stderr(&refused).trim()).unwrap();
    assert_eq!(
        error["error"]["code"], "update_checksum_mismatch",
        "{error}"
    );

    assert!(installed.status.success(), "{}", stderr(&installed));
    let done: serde_json::Value = serde_json::from_str(&stdout(&installed)).unwrap();
    assert_eq!(done["installed"], true, "{done}");
    assert!(done["path"]
        .as_str()
        .unwrap()
        .starts_with(data.path().to_str().unwrap()));
    assert_eq!(web_check(&doctor_after)["status"], "pass", "{doctor_after}");

    let connected: serde_json::Value = serde_json::from_str(&second)
        .unwrap_or_else(|_| panic!("the page after the install: {second:?}"));
    assert_eq!(connected["state"], "connected", "{connected}");
    assert!(shots.join("offline.png").exists());
}
