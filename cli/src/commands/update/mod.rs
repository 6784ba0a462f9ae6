//! `phux update [--check] [--version vX.Y.Z] [--dry-run] [--rollback] [--json]`: replaces this
//! binary with a release: reads the release index, downloads this platform's archive and its
//! published SHA-256, verifies it, unpacks it into a private staging directory, checks the new
//! binary runs, and swaps it in atomically keeping the old one as `phux.previous`.

mod archive;
mod fetch;
mod install;
mod release;

use std::path::{Path, PathBuf};

use phux_core::error_code::ErrorCode;
use phux_core::exit_code::SUCCESS;
use serde::Serialize;

use crate::commands::Context;
use crate::failure::Failure;
use crate::output;
use release::Tag;

/// Where releases are listed unless `[update] url` or `PHUX_UPDATE_URL` says otherwise.
/// Schema of `phux update --json`.
pub const UPDATE_SCHEMA_VERSION: u32 = 1;

/// Update this binary to a published release (checksum-verified; the old one is kept)
#[derive(Debug, clap::Args)]
#[command(
    disable_version_flag = true,
    after_help = "\
The release index is read from PHUX_UPDATE_URL, else `[update] url` in config.toml; with neither,
update says how to set one (phux has no release host of its own). Only installs phux made are replaced (a release archive unpacked into
$PHUX_INSTALL_DIR, ~/.local/bin, ~/bin, /usr/local/bin or /opt/phux/bin); Cargo, Nix, Homebrew
and distribution packages are refused with their own command. PHUX_UPDATE_TARGET names the binary
to replace instead of this one (for tests and packaging)."
)]
pub struct Args {
    /// Only say whether a newer release exists
    #[arg(long, conflicts_with_all = ["rollback", "dry_run"])]
    pub check: bool,
    /// Install this release (vX.Y.Z) instead of the newest, older ones included
    #[arg(
        long = "version",
        id = "tag",
        value_name = "TAG",
        conflicts_with = "rollback"
    )]
    pub tag: Option<String>,
    /// Download, verify and unpack, but install nothing
    #[arg(long)]
    pub dry_run: bool,
    /// Swap the binary the last update replaced (`phux.previous`) back in
    #[arg(long)]
    pub rollback: bool,
    /// Leave a running server on the old binary (without it, the server is upgraded in
    /// place: `phux upgrade`)
    #[arg(long)]
    pub no_restart: bool,
    /// Print the outcome as JSON; a failure is one JSON line on stderr
    #[arg(long)]
    pub json: bool,
}

/// `phux update --json`.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct UpdateJson {
    pub schema_version: u32,
    /// `up_to_date`, `available` (`--check`), `verified` (`--dry-run`), `installed`,
    /// `rolled_back`.
    pub action: &'static str,
    pub current_version: String,
    /// The release chosen (none for a rollback).
    pub version: Option<String>,
    pub binary: Option<String>,
    pub previous: Option<String>,
    /// A server was running on the socket.
    pub server_running: bool,
    /// It was upgraded in place to the new binary (`phux upgrade`), its panes kept.
    pub server_upgraded: bool,
}

pub fn run(args: Args, context: &Context) -> i32 {
    match update(&args, context).and_then(|doc| restart(&args, context, doc)) {
        Ok(doc) => {
            if args.json {
                output::print_json(&doc);
            } else {
                output::print_lines(&prose(&doc));
            }
            if doc.server_running && !doc.server_upgraded && doc.action != "verified" {
                output::stderr_line(&format!(
                    "phux: the server on {} still runs the old binary; `phux upgrade` moves it \
                     to the new one, keeping its panes",
                    context.socket.display()
                ));
            }
            SUCCESS
        }
        Err(failure) => failure.report(args.json),
    }
}

/// After a new binary is in place, a running server moves to it (`phux upgrade`) unless
/// `--no-restart`.
fn restart(args: &Args, context: &Context, mut doc: UpdateJson) -> Result<UpdateJson, Failure> {
    let changed = matches!(doc.action, "installed" | "rolled_back");
    if !changed || !doc.server_running || args.no_restart {
        return Ok(doc);
    }
    match super::upgrade::upgrade_server(context) {
        Ok(_) => {
            doc.server_upgraded = true;
            Ok(doc)
        }
        Err(failure) => Err(Failure {
            message: format!(
                "{} is installed, but the server could not move to it: {}",
                doc.binary.as_deref().unwrap_or("the new binary"),
                failure.message
            ),
            // What happened to the server and its panes is the upgrade's to say: it checked.
            remedy: format!(
                "{}; `phux update --rollback` restores the previous binary",
                failure.remedy
            ),
            ..failure
        }),
    }
}

fn prose(doc: &UpdateJson) -> Vec<String> {
    let version = doc.version.clone().unwrap_or_default();
    let binary = doc.binary.clone().unwrap_or_default();
    vec![match doc.action {
        "up_to_date" => format!("phux v{} is up to date", doc.current_version),
        "available" => format!(
            "phux {version} is available (this is v{})",
            doc.current_version
        ),
        "verified" => format!("phux {version} downloaded and verified; --dry-run: not installed"),
        "installed" => format!("installed phux {version} at {binary} (the previous one is kept)"),
        _ => format!("rolled back {binary} to the binary the last update replaced"),
    }]
}

fn update(args: &Args, context: &Context) -> Result<UpdateJson, Failure> {
    let wanted = args.tag.as_deref().map(Tag::from_argument).transpose()?;
    let current = Tag::current();
    let server_running = std::os::unix::net::UnixStream::connect(&context.socket).is_ok();
    let mut doc = UpdateJson {
        schema_version: UPDATE_SCHEMA_VERSION,
        action: "up_to_date",
        current_version: env!("CARGO_PKG_VERSION").into(),
        version: None,
        binary: None,
        previous: None,
        server_running,
        server_upgraded: false,
    };
    if args.rollback {
        let binary = install::target()?;
        install::check_maintained(&binary)?;
        let previous = install::rollback(&binary)?;
        doc.action = "rolled_back";
        doc.binary = Some(binary.display().to_string());
        doc.previous = Some(previous.display().to_string());
        return Ok(doc);
    }
    let binary = if args.check {
        None
    } else {
        let binary = install::target()?;
        install::check_maintained(&binary)?;
        Some(binary)
    };
    let url = index_url()?;
    let index = fetch::fetch_bytes(&url, fetch::MAX_INDEX_BYTES)?;
    let (tag, release) = release::pick(release::parse_index(&index, &url)?, wanted, &url)?;
    doc.version = Some(tag.to_string());
    if args.check {
        doc.action = if tag > current {
            "available"
        } else {
            "up_to_date"
        };
        return Ok(doc);
    }
    let Some(binary) = binary else {
        return Ok(doc);
    };
    doc.binary = Some(binary.display().to_string());
    if wanted.is_none() && tag <= current {
        return Ok(doc);
    }
    let staging = tempfile::Builder::new()
        .prefix("phux-update-")
        .tempdir()
        .map_err(|e| {
            Failure::new(
                ErrorCode::UpdateInstallFailed,
                format!("cannot make a staging directory: {e}"),
                "free space in $TMPDIR, then retry",
            )
        })?;
    let new_binary = download_and_unpack(tag, &release, staging.path(), args.json)?;
    if args.dry_run {
        doc.action = "verified";
        return Ok(doc);
    }
    let previous = install::replace(&binary, &new_binary)?;
    doc.action = "installed";
    doc.previous = Some(previous.display().to_string());
    Ok(doc)
}

/// `$PHUX_UPDATE_URL`, else `[update] url` in config.toml; with neither, a refusal that says
/// how to set one: no release host is published, and a made-up default could only fail.
fn index_url() -> Result<String, Failure> {
    if let Some(url) = std::env::var("PHUX_UPDATE_URL")
        .ok()
        .filter(|u| !u.is_empty())
    {
        return Ok(url);
    }
    let path = phux_core::config::paths::config_path();
    let text = phux_core::config::file::read_text(&path)
        .map_err(|e| Failure::new(ErrorCode::InvalidConfig, e.to_string(), e.remedy()))?;
    let Some(text) = text else {
        return Err(no_index());
    };
    let table: toml::Table = toml::from_str(&text).map_err(|e| {
        Failure::new(
            ErrorCode::InvalidConfig,
            format!("{}: {e}", path.display()),
            "fix the file (`phux config check` shows where)",
        )
    })?;
    table
        .get("update")
        .and_then(|u| u.get("url"))
        .and_then(|u| u.as_str())
        .filter(|u| !u.is_empty())
        .map(str::to_owned)
        .ok_or_else(no_index)
}

fn no_index() -> Failure {
    Failure::new(
        ErrorCode::UpdateSourceUnsupported,
        "no release index is set: phux has no release host of its own",
        "point it at a release index (GitHub-releases-shaped JSON, see docs/maintenance.md): \
         `[update] url = \"https://HOST/PATH\"` in config.toml or PHUX_UPDATE_URL; or update from \
         source (`git pull && scripts/install`)",
    )
}

/// Fetches the checksum, then the archive; verifies; unpacks into `staging`; checks the new
/// binary answers `--version`. Returns its path.
fn download_and_unpack(
    tag: Tag,
    release: &release::Release,
    staging: &Path,
    quiet: bool,
) -> Result<PathBuf, Failure> {
    let (archive, checksum) = release::platform_assets(tag, release)?;
    let checksum = checksum.ok_or_else(|| {
        Failure::new(
            ErrorCode::UpdateChecksumInvalid,
            format!("release {tag} publishes no {}.sha256", archive.name),
            "nothing was installed; phux installs only a verified archive: report the release",
        )
    })?;
    let sum = fetch::fetch_bytes(&checksum.browser_download_url, fetch::MAX_CHECKSUM_BYTES)?;
    let expected = archive::published_sha256(&sum, &archive.name)?;
    if !quiet {
        output::stderr_line(&format!("phux: downloading {}", archive.name));
    }
    let downloads = staging.join("download");
    let unpacked = staging.join("unpacked");
    for dir in [&downloads, &unpacked] {
        std::fs::create_dir(dir).map_err(|e| {
            Failure::new(
                ErrorCode::UpdateInstallFailed,
                format!("cannot make {}: {e}", dir.display()),
                "free space in $TMPDIR, then retry",
            )
        })?;
    }
    let file = downloads.join(&archive.name);
    fetch::fetch_file(
        &archive.browser_download_url,
        &file,
        fetch::MAX_ARCHIVE_BYTES,
    )?;
    archive::verify(&file, &expected, &archive.name)?;
    let stem = release::archive_stem(tag, release::PLATFORM.unwrap_or_default());
    let binary = archive::unpack(&file, &unpacked, &stem)?;
    self_check(&binary)?;
    Ok(binary)
}

/// The unpacked binary must run: `NEW --version` exits 0.
fn self_check(binary: &Path) -> Result<(), Failure> {
    let status = std::process::Command::new(binary)
        .arg("--version")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status();
    match status {
        Ok(status) if status.success() => Ok(()),
        Ok(status) => Err(Failure::new(
            ErrorCode::UpdateArchiveRejected,
            format!("the release's binary does not run here (`phux --version`: {status})"),
            "nothing was installed; report the release, or pick another with --version",
        )),
        Err(e) => Err(Failure::new(
            ErrorCode::UpdateArchiveRejected,
            format!("the release's binary does not run here: {e}"),
            "nothing was installed; report the release, or pick another with --version",
        )),
    }
}
