//! Which tables and keys `config.toml` knows, so an unknown one is warned about with its line.
//! One entry per table; the typed struct of each table lives in its own module.

use super::defaults::Defaults;
use super::file::PluginEntry;
use super::listener::Listener;

/// How a top-level entry of the file is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// `[name]` with a closed set of keys.
    Table(&'static [&'static str]),
    /// `[name]` whose keys are free (chords in `[keybindings]`).
    FreeTable,
    /// `[[name]]` entries with a closed set of keys.
    ArrayOfTables(&'static [&'static str]),
    /// `[[name]]` entries owned by another part of phux (the host registry): read and
    /// preserved, never warned about.
    Preserved,
}

/// Every top-level table the config file knows.
pub const TABLES: &[(&str, Shape)] = &[
    ("defaults", Shape::Table(Defaults::KEYS)),
    ("keybindings", Shape::FreeTable),
    ("plugins", Shape::ArrayOfTables(PluginEntry::KEYS)),
    ("satellites", Shape::Preserved),
    ("remote", Shape::Preserved),
    ("listener", Shape::Table(Listener::KEYS)),
    // `phux update`'s release index; read by the CLI alone.
    ("update", Shape::Table(&["url"])),
];

/// The shape of top-level table `name`, if the file knows it.
pub fn shape_of(name: &str) -> Option<Shape> {
    TABLES.iter().find(|(n, _)| *n == name).map(|(_, s)| *s)
}
