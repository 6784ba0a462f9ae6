//! The token store: which bearer tokens the listener admits. `phux pair` mints a credential
//! (an id, a generation, a one-time token); only the SHA-256 of each token is kept, so the
//! store never gives a token back. A credential expires at an absolute time; rotation adds a
//! generation and keeps the older ones valid for an overlap (never past the expiry);
//! revocation ends every generation. The listener reads the store again when it changes, so
//! all of this applies to the next connection without a restart.
//!
//! Every change is one read-modify-write under an exclusive `flock` on `<store>.lock`
//! ([`Store::update`]): two `pair` commands at once used to load the same store and save over
//! each other, losing a revocation or a minted token that had already been printed.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::private_file;

/// The store's file name in the state directory.
pub const STORE_NAME: &str = "remote-tokens";
/// A credential lives this long unless `--expires-in` says otherwise.
pub const DEFAULT_LIFETIME_SECS: u64 = 90 * 24 * 3600;
/// The most bytes a store may have (each credential is a few hundred).
const MAX_STORE_BYTES: u64 = 4 << 20;
/// The most credentials a store holds.
pub const MAX_CREDENTIALS: usize = 1024;

/// `PHUX_WS_TOKENS`, else `<state>/remote-tokens`.
pub fn default_path() -> PathBuf {
    match std::env::var_os("PHUX_WS_TOKENS").filter(|v| !v.is_empty()) {
        Some(path) => PathBuf::from(path),
        None => phux_core::config::paths::state_dir().join(STORE_NAME),
    }
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Store {
    pub version: u32,
    #[serde(default)]
    pub credentials: Vec<Credential>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Credential {
    /// 32 hex digits; not a secret.
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default)]
    pub read_only: bool,
    pub created_unix: u64,
    pub expires_unix: u64,
    #[serde(default)]
    pub revoked: bool,
    pub generations: Vec<Generation>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Generation {
    pub generation: u32,
    /// Hex SHA-256 of the token.
    pub sha256: String,
    /// Set when a newer generation replaced this one: valid until then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub valid_until_unix: Option<u64>,
}

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("cannot read the token store {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("the token store {path} is not a phux token store: {reason}")]
    Invalid { path: PathBuf, reason: String },
    #[error("cannot write the token store {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot lock the token store ({path}): {source}")]
    Lock {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("no credential {id} in {path}")]
    NoSuchCredential { id: String, path: PathBuf },
    #[error("credential {id} expired; nothing was minted")]
    Expired { id: String },
    #[error("credential {id} was revoked; nothing was minted")]
    Revoked { id: String },
    #[error("the token store {path} holds {MAX_CREDENTIALS} credentials already")]
    Full { path: PathBuf },
    #[error("cannot read random bytes: {0}")]
    Random(std::io::Error),
}

/// Why a token was not admitted (logged, never with the token).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    Missing,
    Unknown,
    Revoked {
        id: String,
    },
    Expired {
        id: String,
    },
    Superseded {
        id: String,
    },
    /// The server could not read its token store (its log says why): no token can be checked,
    /// so none is admitted, and the client is not told its token is wrong.
    StoreUnreadable,
}

impl Refusal {
    /// The HTTP status a refusal before the upgrade is answered with: the client's fault, or
    /// the server's.
    pub fn status(&self) -> &'static str {
        match self {
            Refusal::StoreUnreadable => "503 Service Unavailable",
            _ => "401 Unauthorized",
        }
    }

    /// The reason a client is told (a WebSocket close reason is at most 123 bytes).
    pub fn reason(&self) -> &'static str {
        match self {
            Refusal::Missing => "no token: open the link `phux pair` printed",
            Refusal::Unknown => "unknown token: pair again with `phux pair`",
            Refusal::Revoked { .. } => "this credential was revoked",
            Refusal::Expired { .. } => "this credential expired: pair again",
            Refusal::Superseded { .. } => "this token was rotated: use the newest one",
            Refusal::StoreUnreadable => {
                "the server cannot read its token store: see its log (phux logs --server)"
            }
        }
    }

    /// What the server log says (the credential id, never the token).
    pub fn log(&self) -> String {
        match self {
            Refusal::Missing => "no token".into(),
            Refusal::Unknown => "a token no credential has".into(),
            Refusal::Revoked { id } => format!("credential {id} is revoked"),
            Refusal::Expired { id } => format!("credential {id} expired"),
            Refusal::Superseded { id } => format!("an old generation of credential {id}"),
            Refusal::StoreUnreadable => "the token store is unreadable".into(),
        }
    }
}

/// Who a token belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Admitted {
    pub credential_id: String,
    pub read_only: bool,
}

/// A minted or rotated token, shown once.
#[derive(Debug, Clone)]
pub struct Minted {
    pub credential_id: String,
    pub generation: u32,
    pub token: String,
}

pub fn now_unix() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

impl Store {
    /// The store at `path`; empty when the file does not exist.
    pub fn load(path: &Path) -> Result<Store, StoreError> {
        let bytes =
            private_file::read(path, MAX_STORE_BYTES).map_err(|source| StoreError::Read {
                path: path.to_path_buf(),
                source,
            })?;
        let Some(bytes) = bytes else {
            return Ok(Store {
                version: 1,
                credentials: Vec::new(),
            });
        };
        let store: Store = serde_json::from_slice(&bytes).map_err(|e| StoreError::Invalid {
            path: path.to_path_buf(),
            reason: e.to_string(),
        })?;
        if store.version != 1 {
            return Err(StoreError::Invalid {
                path: path.to_path_buf(),
                reason: format!("version {} (this phux reads version 1)", store.version),
            });
        }
        Ok(store)
    }

    /// Loads the store at `path`, lets `change` edit it, and saves it, all while holding the
    /// store's lock: no other `update` runs between this one's load and save. Nothing is
    /// saved when `change` fails.
    pub fn update<T>(
        path: &Path,
        change: impl FnOnce(&mut Store) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let _lock = StoreLock::take(path)?;
        let mut store = Store::load(path)?;
        let done = change(&mut store)?;
        store.save(path)?;
        Ok(done)
    }

    pub fn save(&self, path: &Path) -> Result<(), StoreError> {
        let mut bytes = serde_json::to_vec_pretty(self).map_err(|e| StoreError::Invalid {
            path: path.to_path_buf(),
            reason: e.to_string(),
        })?;
        bytes.push(b'\n');
        private_file::write(path, &bytes).map_err(|source| StoreError::Write {
            path: path.to_path_buf(),
            source,
        })
    }

    /// Adds a credential and returns its first token.
    pub fn mint(
        &mut self,
        path: &Path,
        name: Option<String>,
        read_only: bool,
        lifetime_secs: u64,
    ) -> Result<Minted, StoreError> {
        if self.credentials.len() >= MAX_CREDENTIALS {
            return Err(StoreError::Full {
                path: path.to_path_buf(),
            });
        }
        let id = hex(&random_bytes::<16>().map_err(StoreError::Random)?);
        let token = hex(&random_bytes::<32>().map_err(StoreError::Random)?);
        let now = now_unix();
        self.credentials.push(Credential {
            id: id.clone(),
            name,
            read_only,
            created_unix: now,
            expires_unix: now.saturating_add(lifetime_secs),
            revoked: false,
            generations: vec![Generation {
                generation: 1,
                sha256: digest(&token),
                valid_until_unix: None,
            }],
        });
        Ok(Minted {
            credential_id: id,
            generation: 1,
            token,
        })
    }

    /// A new generation of `id`; the older ones stay valid for `overlap_secs` (never past
    /// the expiry). An expired or revoked credential is refused before a token is made.
    pub fn rotate(
        &mut self,
        path: &Path,
        id: &str,
        overlap_secs: u64,
    ) -> Result<Minted, StoreError> {
        let now = now_unix();
        let credential = self.find_mut(path, id)?;
        if credential.revoked {
            return Err(StoreError::Revoked { id: id.to_owned() });
        }
        if credential.expires_unix <= now {
            return Err(StoreError::Expired { id: id.to_owned() });
        }
        let token = hex(&random_bytes::<32>().map_err(StoreError::Random)?);
        let generation = credential
            .generations
            .iter()
            .map(|g| g.generation)
            .max()
            .unwrap_or(0)
            + 1;
        let until = now
            .saturating_add(overlap_secs)
            .min(credential.expires_unix);
        for older in &mut credential.generations {
            older.valid_until_unix = Some(older.valid_until_unix.unwrap_or(until).min(until));
        }
        // Generations past their overlap can never be used again: drop their verifiers.
        credential
            .generations
            .retain(|g| g.valid_until_unix.is_none_or(|t| t > now));
        credential.generations.push(Generation {
            generation,
            sha256: digest(&token),
            valid_until_unix: None,
        });
        Ok(Minted {
            credential_id: id.to_owned(),
            generation,
            token,
        })
    }

    /// Ends every generation of `id`.
    pub fn revoke(&mut self, path: &Path, id: &str) -> Result<(), StoreError> {
        let credential = self.find_mut(path, id)?;
        credential.revoked = true;
        Ok(())
    }

    fn find_mut(&mut self, path: &Path, id: &str) -> Result<&mut Credential, StoreError> {
        self.credentials
            .iter_mut()
            .find(|c| c.id == id)
            .ok_or_else(|| StoreError::NoSuchCredential {
                id: id.to_owned(),
                path: path.to_path_buf(),
            })
    }

    /// Whether `token` is admitted now, and as whom.
    pub fn admit(&self, token: Option<&str>) -> Result<Admitted, Refusal> {
        let token = token.map(str::trim).filter(|t| !t.is_empty());
        let Some(token) = token else {
            return Err(Refusal::Missing);
        };
        let presented = digest(token);
        let now = now_unix();
        for credential in &self.credentials {
            for generation in &credential.generations {
                if !same(&generation.sha256, &presented) {
                    continue;
                }
                let id = credential.id.clone();
                if credential.revoked {
                    return Err(Refusal::Revoked { id });
                }
                if credential.expires_unix <= now {
                    return Err(Refusal::Expired { id });
                }
                if generation.valid_until_unix.is_some_and(|t| t <= now) {
                    return Err(Refusal::Superseded { id });
                }
                return Ok(Admitted {
                    credential_id: id,
                    read_only: credential.read_only,
                });
            }
        }
        Err(Refusal::Unknown)
    }
}

/// The store's exclusive lock, on `<store>.lock` (a file of its own: the store itself is
/// replaced whole by each save, so a lock on it would be a lock on a file no longer there).
struct StoreLock;

impl StoreLock {
    fn take(path: &Path) -> Result<private_file::Locked, StoreError> {
        private_file::lock_beside(path).map_err(|source| StoreError::Lock {
            path: private_file::lock_path(path),
            source,
        })
    }
}

/// Hex SHA-256 of a token.
pub fn digest(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// Compares two digests without stopping at the first difference.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

fn random_bytes<const N: usize>() -> std::io::Result<[u8; N]> {
    use std::io::Read;
    let mut bytes = [0u8; N];
    std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store() -> (tempfile::TempDir, PathBuf, Store) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(STORE_NAME);
        let store = Store::load(&path).unwrap();
        (dir, path, store)
    }

    #[test]
    fn a_minted_token_is_admitted_and_only_its_hash_is_kept() {
        let (_dir, path, mut store) = store();
        let minted = store
            .mint(&path, Some("phone".into()), false, 3600)
            .unwrap();
        store.save(&path).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(!text.contains(&minted.token), "{text}");
        let mode = std::fs::metadata(&path).unwrap().mode() & 0o777;
        assert_eq!(mode, 0o600);
        let again = Store::load(&path).unwrap();
        let admitted = again.admit(Some(&minted.token)).unwrap();
        assert_eq!(admitted.credential_id, minted.credential_id);
        assert_eq!(minted.token.len(), 64);
        assert_eq!(minted.credential_id.len(), 32);
        assert_eq!(again.admit(Some("nope")), Err(Refusal::Unknown));
        assert_eq!(again.admit(None), Err(Refusal::Missing));
    }

    #[test]
    fn rotation_keeps_the_old_token_only_for_the_overlap_and_revocation_ends_all() {
        let (_dir, path, mut store) = store();
        let first = store.mint(&path, None, false, 3600).unwrap();
        let second = store.rotate(&path, &first.credential_id, 0).unwrap();
        assert_eq!(second.generation, 2);
        assert!(matches!(
            store.admit(Some(&first.token)),
            Err(Refusal::Superseded { .. }) | Err(Refusal::Unknown)
        ));
        assert!(store.admit(Some(&second.token)).is_ok());
        let third = store.rotate(&path, &first.credential_id, 600).unwrap();
        assert_eq!(third.generation, 3);
        assert!(
            store.admit(Some(&second.token)).is_ok(),
            "inside its overlap"
        );
        store.revoke(&path, &first.credential_id).unwrap();
        assert!(matches!(
            store.admit(Some(&third.token)),
            Err(Refusal::Revoked { .. })
        ));
        assert!(matches!(
            store.rotate(&path, &first.credential_id, 0),
            Err(StoreError::Revoked { .. })
        ));
    }

    #[test]
    fn an_expired_credential_is_refused_and_cannot_be_rotated() {
        let (_dir, path, mut store) = store();
        let minted = store.mint(&path, None, true, 0).unwrap();
        assert!(matches!(
            store.admit(Some(&minted.token)),
            Err(Refusal::Expired { .. })
        ));
        assert!(matches!(
            store.rotate(&path, &minted.credential_id, 10),
            Err(StoreError::Expired { .. })
        ));
    }

    #[test]
    fn a_store_others_can_read_is_refused() {
        let (_dir, path, mut store) = store();
        store.mint(&path, None, false, 60).unwrap();
        store.save(&path).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        let error = Store::load(&path).unwrap_err().to_string();
        assert!(error.contains("chmod 600"), "{error}");
    }

    use std::os::unix::fs::{MetadataExt, PermissionsExt};
}
