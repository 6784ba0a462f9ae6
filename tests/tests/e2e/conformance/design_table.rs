//! docs/design.md stays true of the tree: its crate table names every workspace member, every
//! top-level folder holds what the design card names (`core server recorder player encoders
//! cli tests samples`, plus `docs` and `scripts`), and every folder of the server's source is
//! named in the server's row. A crate or a server part added without a line there fails here.

use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

fn table() -> String {
    let design = std::fs::read_to_string(root().join("docs/design.md")).unwrap();
    design
        .lines()
        .filter(|l| l.starts_with("| `"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn every_workspace_member_has_a_row_in_the_design_table() {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let members: Vec<&str> = manifest
        .split("members = [")
        .nth(1)
        .and_then(|rest| rest.split(']').next())
        .unwrap()
        .split(',')
        .map(|m| m.trim().trim_matches('"'))
        .filter(|m| !m.is_empty())
        .collect();
    assert!(members.len() >= 10, "{members:?}");
    let table = table();
    for member in members {
        assert!(
            table.contains(&format!("| `{member}/` |")),
            "docs/design.md's crate table has no row for `{member}/`"
        );
    }
}

#[test]
fn the_top_level_is_the_design_card_s_and_the_server_s_parts_are_named() {
    let allowed = [
        "core", "server", "recorder", "player", "encoders", "cli", "tests", "samples", "docs",
        "scripts", "target",
    ];
    for entry in std::fs::read_dir(root()).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if entry.path().is_dir() && !name.starts_with('.') {
            assert!(
                allowed.contains(&name.as_str()),
                "a top-level folder `{name}/` the design card does not name"
            );
        }
    }
    let table = table();
    let server_row = table
        .lines()
        .find(|l| l.starts_with("| `server/` |"))
        .expect("the server's row");
    for entry in std::fs::read_dir(root().join("server/src"))
        .unwrap()
        .flatten()
    {
        if entry.path().is_dir() {
            let name = entry.file_name().to_string_lossy().into_owned();
            assert!(
                server_row.contains(&format!("`{name}/`")),
                "server/src/{name}/ is not named in docs/design.md's server row"
            );
        }
    }
}
