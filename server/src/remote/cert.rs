//! The listener's certificate: the user's own (`PHUX_WS_TLS_CERT` and `PHUX_WS_TLS_KEY`), or a
//! self-signed one made on first use and kept beside the token store (0600). Devices pin its
//! SHA-256 fingerprint, which `phux pair` prints, instead of trusting a certificate authority.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};

use super::private_file;

pub const CERT_NAME: &str = "remote-cert.pem";
pub const KEY_NAME: &str = "remote-key.pem";
const MAX_PEM_BYTES: u64 = 256 * 1024;

#[derive(Debug, thiserror::Error)]
pub enum CertError {
    #[error("cannot read the certificate {path}: {reason}")]
    Read { path: PathBuf, reason: String },
    #[error("cannot make a self-signed certificate: {0}")]
    Make(String),
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// Where the certificate and its key are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CertPaths {
    pub cert: PathBuf,
    pub key: PathBuf,
    /// Made here when missing (the default pair); the user's own are never made.
    pub self_signed: bool,
}

impl CertPaths {
    /// `PHUX_WS_TLS_CERT`/`PHUX_WS_TLS_KEY` when both are set, else the self-signed pair in
    /// `dir` (the token store's directory).
    pub fn resolve(dir: &Path, cert_override: Option<&Path>) -> CertPaths {
        let env = |name| std::env::var_os(name).filter(|v| !v.is_empty());
        if let Some(cert) = cert_override {
            let key = env("PHUX_WS_TLS_KEY")
                .map(PathBuf::from)
                .unwrap_or_else(|| cert.with_extension("key"));
            return CertPaths {
                cert: cert.to_path_buf(),
                key,
                self_signed: false,
            };
        }
        if let (Some(cert), Some(key)) = (env("PHUX_WS_TLS_CERT"), env("PHUX_WS_TLS_KEY")) {
            return CertPaths {
                cert: cert.into(),
                key: key.into(),
                self_signed: false,
            };
        }
        CertPaths {
            cert: dir.join(CERT_NAME),
            key: dir.join(KEY_NAME),
            self_signed: true,
        }
    }
}

/// A loaded certificate chain and key.
#[derive(Debug)]
pub struct Identity {
    pub chain: Vec<CertificateDer<'static>>,
    pub key: PrivateKeyDer<'static>,
}

impl Identity {
    /// `AB:CD:…`: the SHA-256 of the leaf certificate, as devices pin it.
    pub fn fingerprint(&self) -> String {
        self.chain
            .first()
            .map(|leaf| fingerprint_of(leaf.as_ref()))
            .unwrap_or_default()
    }
}

pub fn fingerprint_of(der: &[u8]) -> String {
    let digest = Sha256::digest(der);
    let parts: Vec<String> = digest.iter().map(|b| format!("{b:02X}")).collect();
    parts.join(":")
}

/// The fingerprint written without colons or case, for comparing what a user typed.
pub fn normalized_fingerprint(text: &str) -> String {
    text.chars()
        .filter(char::is_ascii_hexdigit)
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

/// Loads the certificate, making the self-signed pair first when it is missing. Made under a
/// lock beside it: two first `pair`s at once (or a `pair` and a starting listener) make one
/// pair, and each prints the fingerprint of the certificate that stays.
pub fn load_or_make(paths: &CertPaths) -> Result<Identity, CertError> {
    if paths.self_signed && !paths.cert.exists() {
        let _locked =
            private_file::lock_beside(&paths.cert).map_err(|source| CertError::Write {
                path: private_file::lock_path(&paths.cert),
                source,
            })?;
        // Another process may have made it while this one waited.
        if !paths.cert.exists() {
            make(paths)?;
        }
    }
    load(paths)
}

fn load(paths: &CertPaths) -> Result<Identity, CertError> {
    let read_error = |path: &Path, reason: String| CertError::Read {
        path: path.to_path_buf(),
        reason,
    };
    let cert_bytes = std::fs::File::open(&paths.cert)
        .and_then(|f| {
            let mut bytes = Vec::new();
            std::io::Read::read_to_end(&mut std::io::Read::take(f, MAX_PEM_BYTES), &mut bytes)?;
            Ok(bytes)
        })
        .map_err(|e| read_error(&paths.cert, e.to_string()))?;
    let chain: Vec<CertificateDer<'static>> = CertificateDer::pem_slice_iter(&cert_bytes)
        .collect::<Result<_, _>>()
        .map_err(|e| read_error(&paths.cert, format!("not PEM certificates: {e}")))?;
    if chain.is_empty() {
        return Err(read_error(&paths.cert, "no certificate in it".into()));
    }
    let key_bytes = private_file::read(&paths.key, MAX_PEM_BYTES)
        .map_err(|e| read_error(&paths.key, e.to_string()))?
        .ok_or_else(|| read_error(&paths.key, "it does not exist".into()))?;
    let key = PrivateKeyDer::from_pem_slice(&key_bytes)
        .map_err(|e| read_error(&paths.key, format!("not a PEM private key: {e}")))?;
    Ok(Identity { chain, key })
}

fn make(paths: &CertPaths) -> Result<(), CertError> {
    let mut names = vec![
        "localhost".to_owned(),
        "127.0.0.1".to_owned(),
        "::1".to_owned(),
    ];
    if let Ok(host) = std::fs::read_to_string("/proc/sys/kernel/hostname") {
        let host = host.trim();
        if !host.is_empty() && !names.iter().any(|n| n == host) {
            names.push(host.to_owned());
        }
    }
    let made =
        rcgen::generate_simple_self_signed(names).map_err(|e| CertError::Make(e.to_string()))?;
    let write = |path: &Path, text: String| {
        private_file::write(path, text.as_bytes()).map_err(|source| CertError::Write {
            path: path.to_path_buf(),
            source,
        })
    };
    // The key first: a certificate without its key would be loaded and fail.
    write(&paths.key, made.signing_key.serialize_pem())?;
    write(&paths.cert, made.cert.pem())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_self_signed_pair_is_made_once_and_its_fingerprint_is_stable() {
        let dir = tempfile::tempdir().unwrap();
        let paths = CertPaths {
            cert: dir.path().join(CERT_NAME),
            key: dir.path().join(KEY_NAME),
            self_signed: true,
        };
        let first = load_or_make(&paths).unwrap().fingerprint();
        let second = load_or_make(&paths).unwrap().fingerprint();
        assert_eq!(first, second);
        assert_eq!(first.len(), 32 * 3 - 1, "{first}");
        assert_eq!(normalized_fingerprint(&first).len(), 64);
    }
}
