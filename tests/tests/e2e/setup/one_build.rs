//! `scripts/install` and `scripts/test` share one release build only while the test targets add
//! no feature to a crate the binary also uses: one more feature (a dev-dependency asking for
//! `regex-syntax/default`, say) rebuilds that crate and everything above it, and a newcomer's
//! `scripts/test` is a second full build again. The workspace's `Cargo.toml` declares what the
//! tests ask for; this holds it there.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use phux_tests::{run_with_deadline, stderr, stdout};

/// Every crate's enabled features with the given dependency kinds, from `cargo tree`.
fn features(edges: &str) -> BTreeMap<String, BTreeSet<String>> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let output = run_with_deadline(
        Command::new(cargo)
            .current_dir(&workspace)
            .args([
                "tree",
                "--workspace",
                "--locked",
                "--offline",
                "--prefix",
                "none",
            ])
            .args(["-e", edges]),
        Duration::from_secs(120),
    );
    assert!(output.status.success(), "cargo tree: {}", stderr(&output));
    let mut crates: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for line in stdout(&output).lines() {
        let mut words = line.split_whitespace();
        let Some(name) = words.next() else { continue };
        let entry = crates.entry(name.to_owned()).or_default();
        if let Some(rest) = line.split(" feature \"").nth(1) {
            entry.insert(rest.split('"').next().unwrap_or_default().to_owned());
        }
    }
    crates
}

#[test]
fn the_test_targets_add_no_feature_to_a_crate_the_binary_builds() {
    let built = features("features,normal,build");
    let tested = features("features,normal,build,dev");
    let differing: Vec<String> = built
        .iter()
        .filter_map(|(name, features)| {
            let with_tests = tested.get(name)?;
            let added: Vec<&String> = with_tests.difference(features).collect();
            (!added.is_empty()).then(|| format!("{name}: {added:?}"))
        })
        .collect();
    assert!(
        built.contains_key("phux-cli") && built.len() > 50,
        "cargo tree listed the workspace: {} crates",
        built.len()
    );
    assert!(
        differing.is_empty(),
        "the test targets enable features the release build lacks, so scripts/test would \
         rebuild these crates and all above them; declare the features in the workspace's \
         Cargo.toml: {differing:#?}"
    );
}
