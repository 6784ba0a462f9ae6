//! `phux service`: the unit file, written once however often it is installed, where systemd does not run.

use super::*;

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
