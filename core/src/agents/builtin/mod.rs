//! The compiled-in manifests, one TOML file per kind beside this module.

/// `(kind, manifest text)` for every built-in kind.
pub const MANIFESTS: [(&str, &str); 5] = [
    ("claude", include_str!("claude.toml")),
    ("codex", include_str!("codex.toml")),
    ("opencode", include_str!("opencode.toml")),
    ("pi", include_str!("pi.toml")),
    ("omp", include_str!("omp.toml")),
];
