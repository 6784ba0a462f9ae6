//! `doctor`'s check of the browser page's terminal (ghostty-web): installed, or the page will
//! fetch it from the npm registry on its first request and fail without one.

use phux_core::documents::{CheckStatus, DoctorCheck};
use phux_core::web_bundle;

pub const NAME: &str = "web assets";

pub fn web_assets() -> DoctorCheck {
    let hint = None;
    match web_bundle::installed() {
        Some(path) => DoctorCheck {
            name: NAME.into(),
            status: CheckStatus::Pass,
            detail: format!(
                "{} {} for the browser page ({})",
                web_bundle::PACKAGE,
                web_bundle::VERSION,
                path.display()
            ),
            hint,
        },
        None => DoctorCheck {
            name: NAME.into(),
            status: CheckStatus::Warn,
            detail: format!(
                "{} {} is not installed: the browser page fetches it from the npm registry on \
                 its first request, and shows what is missing without one",
                web_bundle::PACKAGE,
                web_bundle::VERSION
            ),
            hint: Some(format!(
                "`phux web install`, or without the registry `phux web install --from \
                 {pkg}-{ver}.tgz` (from `npm pack {pkg}@{ver}` elsewhere)",
                pkg = web_bundle::PACKAGE,
                ver = web_bundle::VERSION
            )),
        },
    }
}
