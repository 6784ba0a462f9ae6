//! The page at `/`: a fleet view and live panes, drawn by `ghostty-web` (see `web_bundle`).
//! The page and its script are compiled in; the token arrives in the URL's fragment, which
//! a browser never sends, and the script hands it over as the WebSocket's first message.

use tokio::io::AsyncWrite;

use super::http::{self, Request};
use phux_core::web_bundle;

const INDEX: &str = include_str!("page/index.html");
const APP: &str = include_str!("page/app.js");

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
        "/app.js" => {
            http::respond(
                stream,
                "200 OK",
                "text/javascript; charset=utf-8",
                APP.as_bytes(),
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
                let body = format!(
                    "the web terminal (ghostty-web {}) is not installed and could not be \
                     fetched: {why}\nrun `phux web install` on the server's machine\n",
                    web_bundle::VERSION
                );
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
