//! First contact: installing, the engine's first run, and the README's examples.

mod engine_cli;
mod first_run;
mod install;
mod one_build;
mod readme;
