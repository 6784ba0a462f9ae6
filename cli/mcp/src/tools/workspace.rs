//! `phux_workspace`: the `workspace` verb's three actions in one tool. `inspect` reads a
//! repository's worktrees; `save` returns the server's sessions as an archive, or writes it to
//! a file (replacing an existing file needs `confirm: true`); `restore` recreates an
//! archive's missing sessions. Restoring never stops or replaces anything (sessions that
//! exist are skipped), so it needs no confirmation, like `phux_new`.

use std::path::{Path, PathBuf};

use phux_client::failure::Failure;
use phux_client::verbs::{workspace_restore as restore, workspace_save as save};
use phux_client::workspace::git;
use phux_core::error_code::ErrorCode;
use serde::Deserialize;
use serde_json::json;

use crate::schema::{boolean, choice, object, string};
use crate::tools::{invalid_argument, to_value, Call, Document, Fields, Tool};

pub fn tools() -> Vec<Tool> {
    vec![Tool {
        name: "phux_workspace",
        description: "Worktrees and saved sessions, like `phux workspace ...`. action inspect: the git worktree path is in and its siblings (WorkspaceInspectJson {repo, worktrees}). action save: every session with its windows, split layout, pane directories and commands (WorkspaceArchive v2), or with out, the archive written to that file ({schema_version, path, sessions}; replacing an existing file needs confirm: true). action restore: recreate the sessions of an archive file that do not exist yet, with fresh processes (WorkspaceRestoreJson {restored, skipped_existing}); a server is started when none runs.",
        schema: || {
            object(
                &["action"],
                vec![
                    ("action", choice("What to do", &["inspect", "save", "restore"])),
                    ("path", string("inspect: a path inside the repository [default: where phux mcp runs]")),
                    ("out", string("save: write the archive to this file (absolute, or relative to where phux mcp runs) instead of returning it")),
                    ("archive", string("restore: the archive file `save` wrote (absolute, or relative to where phux mcp runs) [required for restore]")),
                    ("confirm", boolean("save with out: must be true to replace a file that exists")),
                ],
            )
        },
        call: workspace_tool,
    }]
}

#[derive(Deserialize)]
struct WorkspaceArgs {
    action: String,
    path: Option<String>,
    out: Option<String>,
    archive: Option<String>,
    #[serde(default)]
    confirm: bool,
}

fn workspace_tool(call: &Call) -> Result<Document, Failure> {
    let args: WorkspaceArgs = call.parse()?;
    let only = |allowed: &str, given: &[(&str, bool)]| -> Result<(), Failure> {
        match given.iter().find(|(_, present)| *present) {
            Some((name, _)) => Err(invalid_argument(format!(
                "phux_workspace: {name} is not for action {}; {allowed}",
                args.action
            ))),
            None => Ok(()),
        }
    };
    match args.action.as_str() {
        "inspect" => {
            only(
                "inspect takes path",
                &[
                    ("out", args.out.is_some()),
                    ("archive", args.archive.is_some()),
                    ("confirm", args.confirm),
                ],
            )?;
            let path = PathBuf::from(args.path.as_deref().unwrap_or("."));
            to_value(&git::inspect(&path)?)
        }
        "save" => {
            only(
                "save takes out and confirm",
                &[
                    ("path", args.path.is_some()),
                    ("archive", args.archive.is_some()),
                ],
            )?;
            save_tool(call, args.out.as_deref(), args.confirm)
        }
        _ => {
            only(
                "restore takes archive",
                &[
                    ("path", args.path.is_some()),
                    ("out", args.out.is_some()),
                    ("confirm", args.confirm),
                ],
            )?;
            let Some(archive) = args.archive else {
                return Err(invalid_argument(
                    "phux_workspace: restore needs archive, the file `save` wrote",
                ));
            };
            if archive == "-" {
                return Err(invalid_argument(
                    "phux_workspace: archive names a file (stdin is the MCP channel)",
                ));
            }
            let text = restore::read(Path::new(&archive))?;
            to_value(&restore::document(&text, &archive, &call.context)?)
        }
    }
}

fn save_tool(call: &Call, out: Option<&str>, confirm: bool) -> Result<Document, Failure> {
    let Some(out) = out else {
        return to_value(&save::document(&call.context)?);
    };
    let path = Path::new(out);
    if path.exists() && !confirm {
        return Err(Failure::new(
            ErrorCode::ConfirmationRequired,
            format!("{out} exists and saving would replace it, so it needs confirm: true"),
            "call again with \"confirm\": true to replace it, or pick another out",
        ));
    }
    let document = save::document(&call.context)?;
    save::write(path, &document)?;
    let sessions: Vec<&str> = document.sessions.iter().map(|s| s.name.as_str()).collect();
    to_value(&Fields(vec![
        ("schema_version", json!(1)),
        ("path", json!(out)),
        ("sessions", json!(sessions)),
    ]))
}
