//! `-o demo.html` for `rec` and a tape's `Output`: the page that plays a recording offline,
//! with the pinned web terminal (ghostty-web) inlined. The terminal comes from the data
//! directory, fetched and checked on first use as the listener's page does (`phux web install`).

use std::path::Path;

use phux_core::web_bundle;
use phux_encoders::{write_html, HtmlOptions, HtmlSummary, Theme};
use phux_recorder::Cast;

/// Why a page could not be written.
#[derive(Debug, thiserror::Error)]
pub enum HtmlError {
    #[error("the web terminal (ghostty-web) is missing and could not be fetched: {0}")]
    Renderer(String),
    #[error(transparent)]
    Encode(#[from] phux_encoders::EncodeError),
}

impl HtmlError {
    pub fn remedy(&self) -> String {
        match self {
            HtmlError::Renderer(_) => format!(
                "run `phux web install` where the npm registry is reachable, or set \
                 PHUX_WEB_BUNDLE to a downloaded {}",
                web_bundle::TARBALL_URL
            ),
            HtmlError::Encode(_) => "check the output path, or pass --overwrite".into(),
        }
    }
}

pub struct PageSettings {
    pub theme: Theme,
    pub prefer_cast_theme: bool,
    pub idle_limit: Option<f64>,
    pub speed: f64,
    pub overwrite: bool,
}

pub fn write(cast: &Cast, out: &Path, settings: &PageSettings) -> Result<HtmlSummary, HtmlError> {
    let script = web_bundle::script().map_err(|e| HtmlError::Renderer(e.to_string()))?;
    let renderer = String::from_utf8(script)
        .map_err(|_| HtmlError::Renderer("the installed script is not UTF-8".into()))?;
    let options = HtmlOptions {
        theme: settings.theme,
        prefer_cast_theme: settings.prefer_cast_theme,
        idle_limit: settings.idle_limit,
        speed: settings.speed,
        overwrite: settings.overwrite,
        renderer: &renderer,
    };
    Ok(write_html(cast, out, &options)?)
}
