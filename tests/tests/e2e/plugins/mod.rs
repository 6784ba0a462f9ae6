//! Config and plugins: manifests, `plugin install`, plugins served by the server.

mod config_plugins;
mod plugin_install;
mod plugin_server;
