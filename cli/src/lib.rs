//! The `phux` command line as a library: the clap arguments (`cli`, one file per verb under
//! `commands`), which call `phux_client`'s operations and print their documents. The client,
//! the MCP server, the TUI and the tape runner are crates of their own under `cli/`; their
//! paths are re-exported here for the end-to-end tests.

#![forbid(unsafe_code)] // the C `main` in main.rs is the command line's one unsafe code

pub mod cli;
pub mod commands;
pub mod quick;
pub mod usage;

pub use phux_client as client;
pub use phux_client::{engine_setup, failure, output, registry, screen_view, workspace};
pub use phux_mcp as mcp;
pub use phux_tui as tui;

#[cfg(test)]
mod tests {
    /// The crates under `cli/`, each with what its normal dependencies may not include: the
    /// daemon crate, clap (only the binary parses arguments), and every crate above it in the
    /// layers (binary → mcp/tui/tape → client → core).
    const LAYERS: &[(&str, &[&str])] = &[
        ("client", &["phux-mcp", "phux-tui", "phux-tape"]),
        ("mcp", &["phux-tui", "phux-tape"]),
        ("tui", &["phux-mcp", "phux-tape"]),
        ("tape", &["phux-mcp", "phux-tui"]),
    ];

    /// Cargo would build a crate that reached up a layer or into the server; this fails it.
    #[test]
    fn the_cli_crates_depend_only_downwards() {
        for (dir, above) in LAYERS {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join(dir)
                .join("Cargo.toml");
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let manifest: toml::Table =
                toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let dependencies = manifest
                .get("dependencies")
                .and_then(toml::Value::as_table)
                .unwrap_or_else(|| panic!("{}: no [dependencies]", path.display()));
            for forbidden in ["phux-server", "phux-cli", "clap"].iter().chain(*above) {
                assert!(
                    !dependencies.contains_key(*forbidden),
                    "{} depends on {forbidden}",
                    path.display()
                );
            }
        }
    }
}
