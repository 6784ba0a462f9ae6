//! Contract §5.3: the error vocabulary is "closed … owned in one place". Every code phux emits
//! is an `ErrorCode` of core/src/error_code.rs; nowhere else in the product's source may a code
//! be spelled as a raw string (the way `engine --json` once printed `"engine_unavailable"` by
//! hand), so a code added anywhere but that file fails here. The runtime half: every error
//! line the other tests read through `phux_tests::error_line` must carry a code of the file.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::path::{Path, PathBuf};

use phux_core::error_code::ErrorCode;

/// The product crates (the workspace minus this test crate), relative to the workspace root.
const PRODUCT_CRATES: &[&str] = &["core", "server", "recorder", "encoders", "player", "cli"];
/// The one file allowed to spell the codes.
const VOCABULARY: &str = "core/src/error_code.rs";

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn rust_files(dir: &Path, into: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, into);
        } else if path.extension().is_some_and(|e| e == "rs") {
            into.push(path);
        }
    }
}

/// The string literals of one line of Rust, outside `//` comments (char literals skipped).
fn literals(line: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut chars = line.chars().peekable();
    let mut current: Option<String> = None;
    while let Some(c) = chars.next() {
        match (&mut current, c) {
            (Some(text), '\\') => {
                if let Some(next) = chars.next() {
                    text.push('\\');
                    text.push(next);
                }
            }
            (Some(_), '"') => found.extend(current.take()),
            (Some(text), c) => text.push(c),
            (None, '"') => current = Some(String::new()),
            (None, '/') if chars.peek() == Some(&'/') => break,
            (None, '\'') => {
                // '"' and '\"' are chars, not the start of a string.
                let rest: String = chars.clone().take(3).collect();
                if rest.starts_with("\"'") {
                    chars.nth(1);
                } else if rest.starts_with("\\\"'") {
                    chars.nth(2);
                }
            }
            (None, _) => {}
        }
    }
    found
}

/// Codes that are also ordinary words of phux (a verb's name, a manifest's context): alone in a
/// string they are those words; as a "code" key's value they are still caught.
const ALSO_WORDS: [&str; 1] = ["workspace"];

/// Why `line` spells an error code by hand, if it does.
fn raw_code_use(line: &str) -> Option<String> {
    let literals = literals(line);
    if let Some(code) = literals
        .iter()
        .find(|l| l.parse::<ErrorCode>().is_ok() && !ALSO_WORDS.contains(&l.as_str()))
    {
        return Some(format!("the code \"{code}\" spelled as a string"));
    }
    // A "code" key given a string literal as its value (a JSON-RPC error's numeric code, or a
    // key whose value is a variable, is not a hand-spelled code).
    let keyed = ["\"code\": \"", "\"code\":\""];
    if let Some(rest) = keyed
        .iter()
        .find_map(|k| line.split_once(k).map(|(_, r)| r))
    {
        let value: String = rest.chars().take_while(|c| *c != '"').collect();
        return Some(format!("a \"code\" key with the raw value \"{value}\""));
    }
    let field = line.split_once("code:").map(|(_, rest)| rest.trim_start());
    if field.is_some_and(|rest| rest.starts_with('"')) {
        return Some("a code field set from a string literal".into());
    }
    None
}

#[test]
fn s5_3_the_scanner_catches_a_hand_spelled_code() {
    // The line engine.rs had before the code moved into the vocabulary.
    let old =
        r#"            "error": { "code": "engine_unavailable", "message": error.to_string() },"#;
    assert!(raw_code_use(old).is_some());
    // A code nobody declared is caught as well as a declared one spelled by hand.
    assert!(raw_code_use(r#"json!({"code": "made_up_here"})"#).is_some());
    assert!(raw_code_use(r#"WireErrorBody { code: "made_up".into(), .. }"#).is_some());
    assert!(raw_code_use(r#"let s = "no_server";"#).is_some());
    // Typed uses, ordinary strings and a JSON-RPC error's numeric code are not.
    assert!(raw_code_use(r#"json!({"error": {"code": code, "message": message}})"#).is_none());
    assert!(
        raw_code_use(r#""workspace" => ("workspace", workspace::Args::augment_args),"#).is_none()
    );
    assert!(raw_code_use(r#"json!({"code": "workspace"})"#).is_some());
    assert!(raw_code_use("Failure::new(ErrorCode::EngineUnavailable, msg, remedy)").is_none());
    assert!(raw_code_use(r#"let c = '"'; let s = "a \"quoted\" word"; // "no_server""#).is_none());
}

#[test]
fn s5_3_every_code_is_owned_by_error_code_rs_and_spelled_nowhere_else() {
    let root = workspace_root();
    let mut files = Vec::new();
    for krate in PRODUCT_CRATES {
        rust_files(&root.join(krate).join("src"), &mut files);
    }
    assert!(files.len() > 50, "found only {} source files", files.len());
    let vocabulary = root.join(VOCABULARY);
    let mut offences = Vec::new();
    for file in files.iter().filter(|f| **f != vocabulary) {
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in text.lines().enumerate() {
            if let Some(why) = raw_code_use(line) {
                let rel = file.strip_prefix(&root).unwrap().display();
                offences.push(format!("{rel}:{}: {why}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(
        offences.is_empty(),
        "error codes belong in {VOCABULARY} (use ErrorCode::…):\n{}",
        offences.join("\n")
    );
}

#[test]
fn s5_3_engine_json_failure_carries_the_typed_code() {
    let data = tempfile::tempdir().unwrap();
    let mut command = phux_tests::phux(&["engine", "install", "--json"]);
    command
        .env("XDG_DATA_HOME", data.path())
        .env("PATH", "/nonexistent")
        .env_remove("PHUX_PYTHON");
    let output = phux_tests::run(&mut command);
    let line = phux_tests::error_line(&output);
    assert_eq!(
        line["error"]["code"],
        ErrorCode::EngineUnavailable.as_str(),
        "{line}"
    );
}

/// The codes phux added to the contract's list: each is documented for users with its exit
/// status, the one the vocabulary gives it.
#[test]
fn s5_3_the_codes_phux_added_are_documented_with_their_exit_status() {
    let docs = std::fs::read_to_string(workspace_root().join("docs/json-contract.md")).unwrap();
    for code in [
        ErrorCode::EngineUnavailable,
        ErrorCode::InvalidArgument,
        ErrorCode::SessionExists,
        ErrorCode::SpawnFailed,
        ErrorCode::SignalFailed,
        ErrorCode::CastInvalid,
        ErrorCode::UnsupportedFormat,
        ErrorCode::OutputExists,
        ErrorCode::EncodeFailed,
        ErrorCode::RecordFailed,
        ErrorCode::ServerRestarted,
        ErrorCode::TooManyCalls,
    ] {
        let name = format!("`{}`", code.as_str());
        let row = docs
            .lines()
            .find(|l| l.starts_with('|') && l.contains(&name))
            .unwrap_or_else(|| panic!("{name} has no row in docs/json-contract.md"));
        let exit = row.split('|').nth(2).unwrap().trim();
        assert!(
            exit.starts_with(&code.default_exit_code().to_string()),
            "{name}: documented exit {exit}, declared {}",
            code.default_exit_code()
        );
    }
}
