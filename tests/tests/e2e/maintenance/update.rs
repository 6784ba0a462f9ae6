//! `phux update`: each `update_*` code through a crafted release, and what a good one installs.

use super::*;

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
    let cases: [(String, &str, String); 6] = [
        (
            checkout.join("target/debug/phux").display().to_string(),
            "update_source_unsupported",
            format!(
                "cd {} && git pull && cargo build -p phux-cli",
                checkout.display()
            ),
        ),
        (
            // A release build (scripts/install's) is rebuilt as one.
            checkout
                .join("target/x86_64-unknown-linux-gnu/release/phux")
                .display()
                .to_string(),
            "update_source_unsupported",
            format!(
                "cd {} && git pull && cargo build --release -p phux-cli",
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
        remedy.contains("&& git pull && cargo build") && remedy.ends_with(" -p phux-cli"),
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
    // With neither, no made-up host is dialled: the refusal says how to set an index.
    std::fs::write(m.dir.path().join("config.toml"), "").unwrap();
    let mut unset = m.phux(&["update", "--json", "--check"]);
    unset.env_remove("PHUX_UPDATE_URL");
    let out = run(&mut unset);
    let (code, _, remedy) = failure(&out);
    assert_eq!(code, "update_source_unsupported", "{}", stderr(&out));
    assert!(remedy.contains("[update] url"), "{remedy}");
    assert!(
        !stderr(&out).contains("example.invalid"),
        "{}",
        stderr(&out)
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

/// The project's own release script packs what `update` installs: its archive, checksum and
/// index, served over HTTP, update a machine to this very binary (stripped of debug info).
#[test]
fn a_release_packed_by_scripts_release_is_what_update_installs() {
    let m = Machine::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let base = m.http.url("");
    let packed = run(Command::new(root.join("scripts/release"))
        .arg("--binary")
        .arg(phux_tests::phux_bin())
        .args([
            "--version",
            "v9.9.7",
            "--base-url",
            base.trim_end_matches('/'),
        ])
        .arg("--out")
        .arg(m.dir.path().join("www")));
    assert!(packed.status.success(), "{}", stderr(&packed));
    let name = format!("phux-v9.9.7-{PLATFORM}.tar.gz");
    let sum = std::fs::read_to_string(m.dir.path().join(format!("www/{name}.sha256"))).unwrap();
    assert_eq!(
        sum,
        format!(
            "{}  {name}\n",
            sha256_hex(&m.dir.path().join("www").join(&name))
        )
    );
    let out = m.update(&[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc = json(&out);
    assert_eq!(doc["action"], "installed", "{doc}");
    assert_eq!(doc["version"], "v9.9.7");
    let ran = run(Command::new(m.installed()).arg("--version"));
    assert_eq!(
        stdout(&ran).trim(),
        concat!("phux ", env!("CARGO_PKG_VERSION")),
        "the installed binary is this build's"
    );
    // Bad inputs are refused before anything is written.
    for bad in [
        &["--version", "9.9"][..],
        &["--base-url", "ftp://x"],
        &["--nope"],
    ] {
        let refused = run(Command::new(root.join("scripts/release"))
            .arg("--binary")
            .arg(phux_tests::phux_bin())
            .args(bad)
            .arg("--out")
            .arg(m.dir.path().join("refused")));
        assert_eq!(
            refused.status.code(),
            Some(2),
            "{bad:?}: {}",
            stderr(&refused)
        );
        assert!(!m.dir.path().join("refused").exists(), "{bad:?}");
    }
}
