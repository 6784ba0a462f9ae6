//! The remote half (§4.18): `pair` and the TLS WebSocket listener, hubs over wss, and the
//! browser (the fleet page and a recording's page) in headless chromium.

mod browser;
mod browser_offline;
mod browser_reconnect;
mod browser_view;
mod eviction;
mod listen;
mod listener;
mod pair_races;
mod read_only_budget;
mod read_only_size;
mod unauthenticated;
