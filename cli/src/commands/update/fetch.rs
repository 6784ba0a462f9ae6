//! Downloads over http(s) by running `curl` (no HTTP stack of our own): only http and https,
//! redirects followed, sizes capped by `--max-filesize` and by what we read, a time limit.

use std::path::Path;
use std::process::{Command, Stdio};

use phux_core::error_code::ErrorCode;

use crate::failure::Failure;

/// The most of a release index we read.
pub const MAX_INDEX_BYTES: u64 = 8 << 20;
/// The most of a checksum file we read.
pub const MAX_CHECKSUM_BYTES: u64 = 4 << 10;
/// The largest archive we download.
pub const MAX_ARCHIVE_BYTES: u64 = 256 << 20;
/// The longest one download may take, in seconds.
const MAX_SECONDS: &str = "300";

/// `curl` fetching `url` into `output` (`-`: stdout).
fn curl(url: &str, limit: u64, output: &Path) -> Command {
    let mut command = Command::new("curl");
    command
        .args([
            "-fsSL",
            "--proto",
            "=http,https",
            "--proto-redir",
            "=http,https",
        ])
        .args([
            "--max-filesize",
            &limit.to_string(),
            "--max-time",
            MAX_SECONDS,
        ])
        .arg("-o")
        .arg(output)
        .arg("--")
        .arg(url)
        .stdin(Stdio::null());
    command
}

fn failed(url: &str, why: String) -> Failure {
    Failure::new(
        ErrorCode::UpdateFetchFailed,
        format!("cannot download {url}: {why}"),
        "check the network and `[update] url` in config.toml (or PHUX_UPDATE_URL), then retry",
    )
}

/// The body at `url`, at most `limit` bytes.
pub fn fetch_bytes(url: &str, limit: u64) -> Result<Vec<u8>, Failure> {
    let mut child = curl(url, limit, Path::new("-"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| failed(url, format!("cannot run curl: {e}")))?;
    let stdout = child.stdout.take();
    let body = stdout
        .map(|out| phux_core::bounded_read::read_all(out, Path::new(url), limit, "a download"));
    let output = child
        .wait_with_output()
        .map_err(|e| failed(url, format!("curl: {e}")))?;
    if !output.status.success() {
        return Err(failed(
            url,
            curl_error(&output.stderr, output.status.code()),
        ));
    }
    match body {
        Some(Ok(bytes)) => Ok(bytes),
        Some(Err(e)) => Err(failed(url, e.to_string())),
        None => Err(failed(url, "curl gave no output".into())),
    }
}

/// Downloads `url` into the file `to` (which curl creates), at most `limit` bytes.
pub fn fetch_file(url: &str, to: &Path, limit: u64) -> Result<(), Failure> {
    let output = curl(url, limit, to)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| failed(url, format!("cannot run curl: {e}")))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(failed(
            url,
            curl_error(&output.stderr, output.status.code()),
        ))
    }
}

fn curl_error(stderr: &[u8], code: Option<i32>) -> String {
    let text = String::from_utf8_lossy(stderr);
    let line = text
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    match (line.trim(), code) {
        ("", Some(code)) => format!("curl exited {code}"),
        ("", None) => "curl was killed".into(),
        (line, _) => line
            .trim_start_matches("curl: ")
            .chars()
            .take(300)
            .collect(),
    }
}
