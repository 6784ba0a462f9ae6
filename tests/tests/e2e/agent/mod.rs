//! The agent surface end to end: `snapshot`, `wait`, `run`, `watch`, the agent records and
//! detection, `ask`, and the answers an agent must be able to trust.

mod agent_contract;
mod agent_detection;
mod agent_errors;
mod agent_explain;
mod agent_input;
mod agent_loop;
mod agent_records;
mod agent_run;
mod agent_snapshot;
mod agent_wait;
mod agent_watch;
mod one_call;
mod skill;
mod trusted_answers;
mod wait_new_output;
