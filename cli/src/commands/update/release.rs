//! The release index `phux update` reads (GitHub-releases-shaped JSON: `[{tag_name, assets:
//! [{name, browser_download_url}]}]`), release tags (`vX.Y.Z`), and which asset is this
//! platform's archive.

use phux_core::error_code::ErrorCode;
use serde::Deserialize;

use crate::failure::Failure;

/// The target triple release archives are named for, when phux publishes one for this build.
pub const PLATFORM: Option<&str> = if cfg!(all(target_arch = "x86_64", target_os = "linux")) {
    Some("x86_64-unknown-linux-gnu")
} else if cfg!(all(target_arch = "aarch64", target_os = "linux")) {
    Some("aarch64-unknown-linux-gnu")
} else if cfg!(all(target_arch = "x86_64", target_os = "macos")) {
    Some("x86_64-apple-darwin")
} else if cfg!(all(target_arch = "aarch64", target_os = "macos")) {
    Some("aarch64-apple-darwin")
} else {
    None
};

/// A release version, `vX.Y.Z`; ordered as numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Tag(pub u64, pub u64, pub u64);

impl Tag {
    /// `vX.Y.Z` (the leading `v` required), else `None`.
    pub fn parse(text: &str) -> Option<Tag> {
        let mut parts = text.strip_prefix('v')?.split('.');
        let mut number = || -> Option<u64> {
            let part = parts.next()?;
            if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) || part.len() > 9 {
                return None;
            }
            part.parse().ok()
        };
        let tag = Tag(number()?, number()?, number()?);
        parts.next().is_none().then_some(tag)
    }

    /// This binary's own version.
    pub fn current() -> Tag {
        Tag::parse(concat!("v", env!("CARGO_PKG_VERSION"))).unwrap_or(Tag(0, 0, 0))
    }

    /// A `--version` argument, refused with `update_invalid_tag` when malformed.
    pub fn from_argument(text: &str) -> Result<Tag, Failure> {
        Tag::parse(text).ok_or_else(|| {
            Failure::new(
                ErrorCode::UpdateInvalidTag,
                format!("`{text}` is not a release tag"),
                "name a release as vX.Y.Z, e.g. `phux update --version v0.2.0`; \
                 `phux update --check` shows the latest",
            )
        })
    }
}

impl std::fmt::Display for Tag {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "v{}.{}.{}", self.0, self.1, self.2)
    }
}

/// One downloadable file of a release.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
pub struct Asset {
    pub name: String,
    pub browser_download_url: String,
}

/// One release of the index.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
pub struct Release {
    pub tag_name: String,
    #[serde(default)]
    pub assets: Vec<Asset>,
}

impl Release {
    pub fn asset(&self, name: &str) -> Option<&Asset> {
        self.assets.iter().find(|a| a.name == name)
    }
}

/// Parses the index; releases whose tag is no `vX.Y.Z` (pre-releases, nightlies) are dropped.
pub fn parse_index(bytes: &[u8], url: &str) -> Result<Vec<(Tag, Release)>, Failure> {
    let releases: Vec<Release> = serde_json::from_slice(bytes).map_err(|e| {
        Failure::new(
            ErrorCode::UpdateFetchFailed,
            format!("{url} is not a release index: {e}"),
            "point `[update] url` in config.toml (or PHUX_UPDATE_URL) at the releases' JSON",
        )
    })?;
    Ok(releases
        .into_iter()
        .filter_map(|r| Some((Tag::parse(&r.tag_name)?, r)))
        .collect())
}

/// The release `wanted` names, else the newest.
pub fn pick(
    releases: Vec<(Tag, Release)>,
    wanted: Option<Tag>,
    url: &str,
) -> Result<(Tag, Release), Failure> {
    match wanted {
        Some(tag) => releases
            .into_iter()
            .find(|(t, _)| *t == tag)
            .ok_or_else(|| {
                Failure::new(
                    ErrorCode::UpdateInvalidTag,
                    format!("{url} has no release {tag}"),
                    "`phux update --check` shows the latest release; pick a tag the index lists",
                )
            }),
        None => releases.into_iter().max_by_key(|(t, _)| *t).ok_or_else(|| {
            Failure::new(
                ErrorCode::UpdateFetchFailed,
                format!("{url} lists no release"),
                "check `[update] url` in config.toml (or PHUX_UPDATE_URL)",
            )
        }),
    }
}

/// The archive's name for `tag` on `platform`: `phux-vX.Y.Z-TRIPLE.tar.gz`; unpacked, it holds
/// `phux-vX.Y.Z-TRIPLE/phux`.
pub fn archive_stem(tag: Tag, platform: &str) -> String {
    format!("phux-{tag}-{platform}")
}

/// This platform's archive and its checksum in `release`.
pub fn platform_assets(tag: Tag, release: &Release) -> Result<(Asset, Option<Asset>), Failure> {
    let unsupported = |what: String| {
        Failure::new(
            ErrorCode::UpdateUnsupportedPlatform,
            what,
            "build phux from source for this machine (`cargo install --path cli`), \
             or install a package for it",
        )
    };
    let platform = PLATFORM.ok_or_else(|| {
        unsupported(format!(
            "phux publishes no archive for {}-{}",
            std::env::consts::ARCH,
            std::env::consts::OS
        ))
    })?;
    let name = format!("{}.tar.gz", archive_stem(tag, platform));
    let archive = release
        .asset(&name)
        .ok_or_else(|| unsupported(format!("release {tag} has no {name} for {platform}")))?;
    let checksum = release.asset(&format!("{name}.sha256")).cloned();
    Ok((archive.clone(), checksum))
}

#[cfg(test)]
mod tests {
    use super::Tag;

    #[test]
    fn tags_are_v_and_three_numbers() {
        assert_eq!(Tag::parse("v1.2.3"), Some(Tag(1, 2, 3)));
        for bad in [
            "1.2.3",
            "v1.2",
            "v1.2.3.4",
            "v1.2.x",
            "v1..3",
            "v1.2.3-rc1",
            "v+1.2.3",
        ] {
            assert_eq!(Tag::parse(bad), None, "{bad}");
        }
        assert!(Tag(0, 10, 0) > Tag(0, 9, 9));
    }
}
