//! The loader and installer: every path tried is named, a wrong hash is refused with both
//! hashes, a corrupted layout or enum value is refused, and an install is atomic.

#![forbid(unsafe_code)]
#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use phux_core::engine::{
    engine, install, load_existing, verify_layout, EngineError, InstallError, LoaderConfig,
    LIBRARY_FILE, LIBRARY_SHA256,
};
use std::path::Path;

fn config(dir: &Path) -> LoaderConfig {
    LoaderConfig {
        explicit: None,
        exe_dir: Some(dir.join("bin")),
        data_dir: dir.join("data"),
        allow_unpinned: false,
        auto_install: false,
    }
}

fn load_error(config: &LoaderConfig) -> EngineError {
    match load_existing(config) {
        Ok(_) => panic!("expected the load to fail"),
        Err(e) => e,
    }
}

#[test]
fn search_order_is_explicit_alone_else_exe_dir_lib_dir_data_dir() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut config = config(dir.path());
    let candidates = config.candidates();
    assert_eq!(candidates[0], dir.path().join("bin").join(LIBRARY_FILE));
    assert_eq!(
        candidates[1],
        dir.path().join("bin/../lib/phux").join(LIBRARY_FILE)
    );
    assert_eq!(candidates[2], dir.path().join("data").join(LIBRARY_FILE));
    config.explicit = Some(dir.path().join("mine.so"));
    assert_eq!(config.candidates(), vec![dir.path().join("mine.so")]);
}

#[test]
fn missing_engine_lists_every_path_and_the_fix() {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = config(dir.path());
    let message = load_error(&config).to_string();
    for candidate in config.candidates() {
        assert!(
            message.contains(&format!("{}: not found", candidate.display())),
            "{message}"
        );
    }
    assert!(message.contains("phux engine install"), "{message}");
}

#[test]
fn a_library_with_the_wrong_hash_is_refused_showing_both_hashes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let fake = dir.path().join("libghostty-vt.so");
    std::fs::write(&fake, b"not the engine").expect("write");
    let mut config = config(dir.path());
    config.explicit = Some(fake.clone());
    let error = load_error(&config);
    let message = error.to_string();
    assert!(
        matches!(error, EngineError::HashMismatch { .. }),
        "{message}"
    );
    assert!(message.contains(LIBRARY_SHA256), "{message}");
    assert!(
        message.contains(&phux_core::engine::sha256_hex(b"not the engine")),
        "{message}"
    );
    assert!(message.contains("PHUX_ENGINE_ALLOW_UNPINNED"), "{message}");

    config.allow_unpinned = true;
    assert!(matches!(load_error(&config), EngineError::Load { .. }));
}

fn real_type_json() -> serde_json::Value {
    let json = engine().expect("engine").type_json();
    verify_layout(&json).expect("the real library verifies");
    serde_json::from_str(&json).expect("json")
}

#[test]
fn a_corrupted_struct_layout_is_refused() {
    let mut doc = real_type_json();
    doc["types"]["GhosttyStyle"]["fields"]["bold"]["offset"] = 57.into();
    let error = verify_layout(&doc.to_string()).expect_err("refused");
    assert_eq!(error.item, "GhosttyStyle.bold");
    assert!(error.to_string().contains("offset 56"), "{error}");

    let mut doc = real_type_json();
    doc["types"]["GhosttyGridRef"]["size"] = 32.into();
    assert_eq!(
        verify_layout(&doc.to_string()).expect_err("refused").item,
        "GhosttyGridRef"
    );
}

#[test]
fn a_corrupted_enum_value_is_refused() {
    let mut doc = real_type_json();
    doc["types"]["GhosttyTerminalOption"]["values"]["WRITE_PTY"] = 7.into();
    let error = verify_layout(&doc.to_string()).expect_err("refused");
    assert_eq!(error.item, "GhosttyTerminalOption.WRITE_PTY");

    let mut doc = real_type_json();
    doc["types"]["GhosttyCellWide"]["values"]
        .as_object_mut()
        .expect("values")
        .remove("SPACER_TAIL");
    assert!(verify_layout(&doc.to_string())
        .expect_err("refused")
        .to_string()
        .contains("no such value"));
}

#[test]
fn a_wheel_with_the_wrong_hash_installs_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let wheel = dir.path().join("pyghostty-0.1.3-py3-none-any.whl");
    std::fs::write(&wheel, b"PK\x05\x06 not really a wheel").expect("write");
    let data = dir.path().join("data");
    let error = install(&data, Some(&wheel)).expect_err("refused");
    assert!(matches!(error, InstallError::WheelHash { .. }), "{error}");
    let left = std::fs::read_dir(&data).map(|d| d.count()).unwrap_or(0);
    assert_eq!(left, 0, "nothing may be left in the data dir");
}

#[test]
fn install_downloads_verifies_and_places_the_library_atomically() {
    let dir = tempfile::tempdir().expect("tempdir");
    let data = dir.path().join("data");
    let report = install(&data, None).expect("install from PyPI");
    assert_eq!(report.sha256, LIBRARY_SHA256);
    assert_eq!(report.path, data.join(LIBRARY_FILE));
    let names: Vec<String> = std::fs::read_dir(&data)
        .expect("data dir")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        vec![LIBRARY_FILE.to_string()],
        "only the library, no partial files"
    );
    let mut config = config(dir.path());
    config.explicit = Some(report.path.clone());
    let info = load_existing(&config)
        .expect("the installed library loads")
        .info();
    assert!(info.pinned);
}

#[test]
fn a_verified_library_is_remembered_until_the_file_changes() {
    let real = engine().expect("the engine").info().path;
    let dir = tempfile::tempdir().expect("tempdir");
    let library = dir.path().join(LIBRARY_FILE);
    let stamp = dir.path().join(format!("{LIBRARY_FILE}.verified"));
    std::fs::copy(&real, &library).expect("copy the engine");
    let mut config = config(dir.path());
    config.explicit = Some(library.clone());

    // Just written: its change time may share a clock tick with a later change, so its hash
    // is not remembered yet.
    assert!(load_existing(&config).expect("loads").info().pinned);
    assert!(!stamp.exists(), "a file changed just now is not remembered");

    std::thread::sleep(std::time::Duration::from_millis(2100));
    assert!(load_existing(&config).expect("loads").info().pinned);
    let remembered = std::fs::read_to_string(&stamp).expect("the stamp is written");
    assert!(remembered.starts_with(LIBRARY_SHA256), "{remembered}");
    // Loaded through the stamp: the same answer.
    assert!(load_existing(&config).expect("loads").info().pinned);

    // One byte changed in place, the size and the modification time kept: the change time
    // moved, so the file is hashed again and refused.
    let modified = std::fs::metadata(&library).unwrap().modified().unwrap();
    let mut bytes = std::fs::read(&library).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0xFF;
    std::fs::write(&library, &bytes).unwrap();
    let file = std::fs::File::options().write(true).open(&library).unwrap();
    file.set_modified(modified).unwrap();
    drop(file);
    assert_eq!(
        std::fs::metadata(&library).unwrap().modified().unwrap(),
        modified
    );
    let error = load_error(&config);
    assert!(
        matches!(error, EngineError::HashMismatch { .. }),
        "a changed file behind a stamp must be refused: {error}"
    );
}
