//! The server's verbs and reliability: panes, input, signals, shells and `upgrade`.

mod acknowledged_input;
mod crash_recovery;
mod input_lease;
mod lease_lifetime;
mod pane_ends;
mod process_start;
mod scheduling;
mod selector_single;
mod send_keys;
mod server_reliability;
mod server_verbs;
mod shell_integration;
mod upgrade;
mod upgrade_clients;
mod upgrade_faults;
