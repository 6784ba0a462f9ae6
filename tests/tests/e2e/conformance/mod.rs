//! Conformance to the spec's sections (`spec/agent-json-contracts.txt`), one file per section.

mod conformance_s4_12_layout;
mod conformance_s4_14_rec;
mod conformance_s4_16_play;
mod conformance_s4_4_new;
mod conformance_s5_3_error_codes;
mod design_table;
