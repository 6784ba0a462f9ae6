//! The `[[satellites]]` and `[[remote]]` arrays of `config.toml`: read into [`HostEntry`] rows
//! (the §4.10 host object), added to and removed from in place. Config-local: nothing here
//! dials a host.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::endpoint::{Endpoint, EndpointError};
use crate::config::edit::{ConfigEditor, EditError};
use crate::config::file::ConfigError;

/// Which host list (config array) an entry lives in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum HostRole {
    /// Dialed by the hub; its panes show up as `NAME/@N`.
    Satellite,
    /// Reached by `attach NAME`.
    Remote,
}

impl HostRole {
    /// The config array holding this role.
    pub fn array(self) -> &'static str {
        match self {
            HostRole::Satellite => "satellites",
            HostRole::Remote => "remote",
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            HostRole::Satellite => "satellite",
            HostRole::Remote => "remote",
        }
    }
}

/// One host list entry, as `host ls --json` shows it (§4.10).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HostEntry {
    pub name: String,
    pub role: HostRole,
    pub endpoint: String,
    /// `None` for remote entries, which have no enabled bit.
    pub enabled: Option<bool>,
    pub token_file: Option<String>,
    pub cert_fingerprint: Option<String>,
    /// `None` for satellites: a hub-dialed link has no arrival to attach.
    pub session: Option<String>,
}

impl HostEntry {
    /// The entry's endpoint, parsed (entries are validated when read, so this holds).
    pub fn parsed_endpoint(&self) -> Result<Endpoint, EndpointError> {
        Endpoint::parse(&self.endpoint)
    }

    /// What a `wss://` endpoint is dialed with: the token file and the pinned fingerprint.
    pub fn wss_auth(&self) -> Option<WssAuth> {
        Some(WssAuth {
            token_file: self.token_file.clone()?,
            fingerprint: self.cert_fingerprint.clone()?,
        })
    }

    pub fn is_enabled_satellite(&self) -> bool {
        self.role == HostRole::Satellite && self.enabled != Some(false)
    }
}

/// A `wss://` host's credentials: the file holding the bearer token `phux pair` printed
/// there, and the SHA-256 fingerprint of its listener's certificate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WssAuth {
    pub token_file: String,
    pub fingerprint: String,
}

#[derive(Debug, thiserror::Error)]
pub enum HostListError {
    #[error(transparent)]
    File(#[from] EditError),
    #[error("{}:{line}: [[{array}]] entry: {message}", path.display())]
    BadEntry {
        path: PathBuf,
        line: usize,
        array: &'static str,
        message: String,
    },
    #[error("invalid host name {0:?}: use letters, digits, '.', '_' and '-' (at most 63), not starting with '-' or '.'")]
    InvalidName(String),
    #[error(transparent)]
    InvalidEndpoint(#[from] EndpointError),
    #[error("a host named {name:?} is already configured (as a {role})")]
    Duplicate { name: String, role: &'static str },
    #[error("no host named {0:?} is configured")]
    Missing(String),
    #[error("{0}")]
    Refused(String),
}

/// Whether `name` can be a host name (and so the host half of `NAME/@N`).
pub fn validate_name(name: &str) -> Result<(), HostListError> {
    let ok = !name.is_empty()
        && name.len() <= 63
        && !name.starts_with('-')
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'));
    if ok {
        Ok(())
    } else {
        Err(HostListError::InvalidName(name.to_owned()))
    }
}

/// Every configured host, satellites first, each list in file order.
pub fn list(path: &Path) -> Result<Vec<HostEntry>, HostListError> {
    let text = crate::config::file::read_text(path)
        .map_err(EditError::from)?
        .unwrap_or_default();
    entries_in(path, &text)
}

/// The entries of `text`, the contents of the config file at `path` (named in messages).
fn entries_in(path: &Path, text: &str) -> Result<Vec<HostEntry>, HostListError> {
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    let document = toml_edit::Document::parse(text.to_owned()).map_err(|e| {
        let offset = e.span().map_or(0, |s| s.start);
        let (line, column) = crate::config::location::line_col(text, offset);
        EditError::from(ConfigError::Malformed {
            path: path.to_path_buf(),
            line,
            column,
            message: e.message().trim().to_owned(),
        })
    })?;
    let mut hosts = Vec::new();
    for role in [HostRole::Satellite, HostRole::Remote] {
        let Some(item) = document.get(role.array()) else {
            continue;
        };
        let line_of = |span: Option<std::ops::Range<usize>>| {
            span.map_or(1, |s| {
                text[..s.start.min(text.len())].matches('\n').count() + 1
            })
        };
        let Some(array) = item.as_array_of_tables() else {
            return Err(HostListError::BadEntry {
                path: path.to_path_buf(),
                line: line_of(item.span()),
                array: role.array(),
                message: format!(
                    "`{}` must be written as [[{}]] tables",
                    role.array(),
                    role.array()
                ),
            });
        };
        for table in array.iter() {
            let entry = entry_of(table, role).map_err(|message| HostListError::BadEntry {
                path: path.to_path_buf(),
                line: line_of(table.span()),
                array: role.array(),
                message,
            })?;
            hosts.push(entry);
        }
    }
    Ok(hosts)
}

/// The enabled satellites, the ones a hub dials.
pub fn enabled_satellites(path: &Path) -> Result<Vec<HostEntry>, HostListError> {
    Ok(list(path)?
        .into_iter()
        .filter(HostEntry::is_enabled_satellite)
        .collect())
}

fn entry_of(table: &toml_edit::Table, role: HostRole) -> Result<HostEntry, String> {
    let text = |key: &str| -> Result<Option<String>, String> {
        match table.get(key) {
            None => Ok(None),
            Some(item) => item
                .as_str()
                .map(|s| Some(s.to_owned()))
                .ok_or_else(|| format!("`{key}` must be a string")),
        }
    };
    let name = text("name")?.ok_or("it has no `name`")?;
    validate_name(&name).map_err(|e| e.to_string())?;
    let endpoint = text("endpoint")?.ok_or_else(|| format!("{name}: it has no `endpoint`"))?;
    Endpoint::parse(&endpoint).map_err(|e| format!("{name}: {e}"))?;
    let enabled = match role {
        HostRole::Remote => None,
        HostRole::Satellite => Some(match table.get("enabled") {
            None => true,
            Some(item) => item
                .as_bool()
                .ok_or_else(|| format!("{name}: `enabled` must be true or false"))?,
        }),
    };
    Ok(HostEntry {
        name,
        role,
        endpoint,
        enabled,
        token_file: text("token_file")?,
        cert_fingerprint: text("cert_fingerprint")?,
        session: match role {
            HostRole::Remote => text("session")?,
            HostRole::Satellite => None,
        },
    })
}

/// Adds `entry` to its list, refusing an invalid name or endpoint and a name configured in
/// either list. Returns the entry as written.
pub fn add(path: &Path, entry: HostEntry) -> Result<HostEntry, HostListError> {
    validate_name(&entry.name)?;
    let endpoint = Endpoint::parse(&entry.endpoint)?;
    if endpoint.scheme == super::endpoint::Scheme::Wss {
        let Some(auth) = entry.wss_auth() else {
            return Err(HostListError::Refused(
                "a wss:// host needs --token-file FILE (the token `phux pair` printed there) \
                 and --cert-fingerprint FP (its cert_fingerprint)"
                    .into(),
            ));
        };
        let digits = auth
            .fingerprint
            .chars()
            .filter(char::is_ascii_hexdigit)
            .count();
        let only_hex = auth
            .fingerprint
            .chars()
            .all(|c| c.is_ascii_hexdigit() || c == ':');
        if digits != 64 || !only_hex {
            return Err(HostListError::Refused(format!(
                "--cert-fingerprint {:?} is not a SHA-256 fingerprint (64 hex digits, colons \
                 allowed): copy cert_fingerprint from `phux pair --json` on that host",
                auth.fingerprint
            )));
        }
    }
    if entry.role == HostRole::Satellite && entry.session.is_some() {
        return Err(HostListError::Refused(
            "--session is for remote hosts: a satellite's link has no session to attach".into(),
        ));
    }
    if entry.role == HostRole::Remote && entry.enabled == Some(false) {
        return Err(HostListError::Refused(
            "--disabled is for satellites: remote entries have no enabled bit".into(),
        ));
    }
    let mut editor = ConfigEditor::open(path)?;
    // Validate what is there first: a writer never builds on a broken host list.
    let existing = entries_in(path, &editor.document.to_string())?;
    if let Some(other) = existing.iter().find(|h| h.name == entry.name) {
        return Err(HostListError::Duplicate {
            name: entry.name.clone(),
            role: other.role.as_str(),
        });
    }
    let mut table = toml_edit::Table::new();
    table["name"] = toml_edit::value(entry.name.as_str());
    table["endpoint"] = toml_edit::value(entry.endpoint.as_str());
    if entry.role == HostRole::Satellite {
        table["enabled"] = toml_edit::value(entry.enabled != Some(false));
    }
    for (key, value) in [
        ("token_file", &entry.token_file),
        ("cert_fingerprint", &entry.cert_fingerprint),
        ("session", &entry.session),
    ] {
        if let Some(value) = value {
            table[key] = toml_edit::value(value.as_str());
        }
    }
    editor.append(entry.role.array(), table);
    editor.commit()?;
    Ok(HostEntry {
        enabled: match entry.role {
            HostRole::Satellite => Some(entry.enabled != Some(false)),
            HostRole::Remote => None,
        },
        ..entry
    })
}

/// Removes the entry named `name` (from `role`'s list only, when given).
pub fn remove(
    path: &Path,
    name: &str,
    role: Option<HostRole>,
) -> Result<(String, HostRole), HostListError> {
    validate_name(name)?;
    let mut editor = ConfigEditor::open(path)?;
    let found = entries_in(path, &editor.document.to_string())?
        .into_iter()
        .find(|h| h.name == name && role.is_none_or(|r| r == h.role))
        .ok_or_else(|| HostListError::Missing(name.to_owned()))?;
    // `entries_in` refused a host list that is not an array of tables.
    let index = editor
        .array_of_tables(found.role.array())
        .iter()
        .position(|t| t.get("name").and_then(|v| v.as_str()) == Some(name))
        .ok_or_else(|| HostListError::Missing(name.to_owned()))?;
    editor.remove(found.role.array(), index);
    editor.commit()?;
    Ok((found.name, found.role))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn satellite(name: &str, endpoint: &str) -> HostEntry {
        HostEntry {
            name: name.into(),
            role: HostRole::Satellite,
            endpoint: endpoint.into(),
            enabled: Some(true),
            token_file: None,
            cert_fingerprint: None,
            session: None,
        }
    }

    #[test]
    fn add_list_remove_keep_the_rest_of_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        let text = "# mine\n[defaults]\nshell = \"/bin/zsh\" # keep\n";
        std::fs::write(&path, text).unwrap();
        add(&path, satellite("devbox", "ssh://me@devbox:2222")).unwrap();
        let listed = list(&path).unwrap();
        assert_eq!(listed, vec![satellite("devbox", "ssh://me@devbox:2222")]);
        let after = std::fs::read_to_string(&path).unwrap();
        assert!(after.starts_with(text), "{after}");
        let dup = add(&path, satellite("devbox", "ssh://other")).unwrap_err();
        assert!(matches!(dup, HostListError::Duplicate { .. }), "{dup}");
        assert_eq!(
            remove(&path, "devbox", None).unwrap().1,
            HostRole::Satellite
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        assert!(matches!(
            remove(&path, "devbox", None).unwrap_err(),
            HostListError::Missing(_)
        ));
    }

    /// A comment the user wrote at the end of the file, or above an entry, outlives the entry.
    #[test]
    fn comments_outlive_the_entries_they_sat_above() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(
            &path,
            "[defaults]
shell = \"sh\"\n\n# the fleet\n",
        )
        .unwrap();
        add(&path, satellite("a", "ssh://a")).unwrap();
        add(&path, satellite("b", "ssh://b")).unwrap();
        remove(&path, "a", None).unwrap();
        let after = std::fs::read_to_string(&path).unwrap();
        assert!(after.contains("# the fleet\n"), "{after}");
        assert!(after.contains("name = \"b\""), "{after}");
        remove(&path, "b", None).unwrap();
        let after = std::fs::read_to_string(&path).unwrap();
        assert!(after.contains("# the fleet"), "{after}");
        assert!(!after.contains("satellites"), "{after}");
        std::fs::write(&path, "[defaults\n").unwrap();
        let err = list(&path).unwrap_err().to_string();
        assert!(err.contains("config.toml:1:10:"), "{err}");
    }

    #[test]
    fn bad_entries_name_the_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(
            &path,
            "\n[[satellites]]\nname = \"x\"\nendpoint = \"ssh://-oProxyCommand=x\"\n",
        )
        .unwrap();
        let err = list(&path).unwrap_err().to_string();
        assert!(err.contains("config.toml:2:"), "{err}");
        assert!(err.contains("ssh://-oProxyCommand=x"), "{err}");
    }

    #[test]
    fn names_are_checked() {
        for bad in ["", "-x", ".x", "a/b", "a b", "a;b"] {
            assert!(validate_name(bad).is_err(), "{bad}");
        }
        validate_name("build-box.1_a").unwrap();
    }
}
