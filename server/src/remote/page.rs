//! The page at `/`: a fleet view and live panes, drawn by `ghostty-web` (see `web_bundle`).
//! The page and its script are compiled in; the token arrives in the URL's fragment, which
//! a browser never sends, and the script hands it over as the WebSocket's first message.

use tokio::io::AsyncWrite;

use super::http::{self, Request};
use phux_core::web_bundle;

const INDEX: &str = include_str!("page/index.html");
const APP: &str = include_str!("page/app.js");
const CONN: &str = include_str!("page/conn.js");
const VIEW: &str = include_str!("page/view.js");
const KEYS: &str = include_str!("page/keys.js");

/// What the page may load: itself, its WebAssembly (a `data:` URL inside ghostty-web), and
/// WebSockets to this same host.
const POLICY: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; \
                      connect-src 'self' data:; style-src 'self' 'unsafe-inline'; \
                      img-src 'self' data:; frame-ancestors 'none'";

pub async fn serve<S: AsyncWrite + Unpin>(
    stream: &mut S,
    request: &Request,
) -> std::io::Result<()> {
    match request.path.as_str() {
        "/" | "/index.html" => {
            http::respond(
                stream,
                "200 OK",
                "text/html; charset=utf-8",
                INDEX.as_bytes(),
                &[("Content-Security-Policy", POLICY)],
            )
            .await
        }
        "/app.js" | "/conn.js" | "/view.js" | "/keys.js" => {
            let script = match request.path.as_str() {
                "/conn.js" => CONN,
                "/view.js" => VIEW,
                "/keys.js" => KEYS,
                _ => APP,
            };
            http::respond(
                stream,
                "200 OK",
                "text/javascript; charset=utf-8",
                script.as_bytes(),
                &[],
            )
            .await
        }
        // The bundler's stand-in for Node's `fs`, which ghostty-web imports before falling back
        // to its inline WebAssembly: an empty module, as the package ships it.
        "/__vite-browser-external-2447137e.js" => {
            http::respond(
                stream,
                "200 OK",
                "text/javascript; charset=utf-8",
                b"const e = {};\nexport { e as default };\n",
                &[],
            )
            .await
        }
        "/ghostty-web.js" => match bundle().await {
            Ok(script) => {
                http::respond(
                    stream,
                    "200 OK",
                    "text/javascript; charset=utf-8",
                    &script,
                    &[],
                )
                .await
            }
            Err(why) => {
                crate::log::line(&format!("remote: the web terminal is missing: {why}"));
                let body = missing_bundle(&why);
                http::respond(
                    stream,
                    "503 Service Unavailable",
                    "text/plain",
                    body.as_bytes(),
                    &[],
                )
                .await
            }
        },
        _ => http::respond(stream, "404 Not Found", "text/plain", b"not found\n", &[]).await,
    }
}

/// The installed script, installing it on first use.
async fn bundle() -> Result<Vec<u8>, String> {
    tokio::task::spawn_blocking(|| web_bundle::script().map_err(|e| e.to_string()))
        .await
        .map_err(|e| e.to_string())?
}

/// What the page shows when the terminal's script cannot be had: what is missing, why, and
/// the commands that install it (from the registry, or from a tarball carried in).
fn missing_bundle(why: &str) -> String {
    format!(
        "The server has no ghostty-web {version} (the terminal the page draws with), and \
         could not fetch it: {why}\n\
         On the server's machine run `phux web install`, or where there is no registry, \
         `phux web install --from ghostty-web-{version}.tgz` with the tarball from \
         `npm pack ghostty-web@{version}` on a machine that has one. Then reload this page.\n",
        version = web_bundle::VERSION
    )
}
