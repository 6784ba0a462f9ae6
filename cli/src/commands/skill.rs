//! `phux skill [quick|terminal|agent|full]`: prints, from the binary itself, the guide an AI
//! agent needs to drive phux (the loop, the pitfalls, the verbs and codes it will meet), so an
//! agent host loads it in one call. Its text is checked against the binary's own help by a
//! test, so it cannot drift from the verbs it names.

use phux_core::exit_code::SUCCESS;

use crate::output;

/// The guides, by name.
pub const GUIDES: &[(&str, &str)] = &[
    ("quick", include_str!("../../../docs/skill/quick.md")),
    ("terminal", include_str!("../../../docs/skill/terminal.md")),
    ("agent", include_str!("../../../docs/skill/agent.md")),
];

/// Print the guide an AI agent needs to drive phux
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Which guide: quick (one screen), terminal (driving panes), agent (supervising coding
    /// agents), or full (all of them)
    #[arg(value_name = "GUIDE", default_value = "full", value_parser = ["quick", "terminal", "agent", "full"])]
    pub guide: String,
}

pub fn run(args: Args) -> i32 {
    let text: Vec<&str> = GUIDES
        .iter()
        .filter(|(name, _)| args.guide == "full" || *name == args.guide)
        .map(|(_, text)| text.trim_end())
        .collect();
    output::print_line(&text.join("\n\n"));
    SUCCESS
}
