//! Remote access (§4.18): the TLS WebSocket listener, pairing and credentials, a hub reaching a
//! satellite over `wss://`, and the browser page.

mod browser;
mod remote_listener;
