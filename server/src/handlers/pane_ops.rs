//! Requests aimed at one pane's core: `get_screen`, `input`, `paste`, `resize`, `signal`, and
//! the tag requests, which only touch the session tree.

use crate::input_tap::Written;
use crate::pane::{PaneCommand, PaneHandle};
use crate::request_error::RequestError;
use crate::shared::Shared;
use phux_core::documents::ScreenState;
use phux_core::error_code::ErrorCode;
use phux_core::error_doc::ContractError;
use phux_core::ids::PaneId;
use phux_core::limits;
use phux_core::screen_capture::CaptureRequest;
use phux_core::wire::{self, Done, PaneTags, ResizeOk, TagsOk};
use std::collections::HashSet;

pub fn handle(shared: &Shared, pane: PaneId) -> Result<PaneHandle, RequestError> {
    let mut tree = shared.tree();
    let Some(handle) = tree.panes.get(&pane).map(|e| e.handle.clone()) else {
        drop(tree);
        return Err(missing(shared, pane));
    };
    tree.touch(pane);
    Ok(handle)
}

/// Like `handle`, but a read does not change which pane is most recently active.
pub fn handle_for_read(shared: &Shared, pane: PaneId) -> Result<PaneHandle, RequestError> {
    let handle = shared.tree().panes.get(&pane).map(|e| e.handle.clone());
    handle.ok_or_else(|| missing(shared, pane))
}

/// Why `pane` has no live handle: its program ended (`pane_exited`, naming its status), or
/// it never existed or was killed (`no_such_target`).
pub fn missing(shared: &Shared, pane: PaneId) -> RequestError {
    match shared.exited().get(pane) {
        Some(exited) => RequestError::PaneExited(exited.view.clone()),
        None => RequestError::NoSuchTarget(pane.to_string()),
    }
}

/// A live pane's screen, or an ended one's last screen.
pub fn get_screen(shared: &Shared, request: &wire::GetScreen) -> Result<ScreenState, RequestError> {
    let capture = CaptureRequest {
        scrollback: request.scrollback,
        cells: request.cells,
    };
    let live = shared
        .tree()
        .panes
        .get(&request.pane)
        .map(|e| e.handle.clone());
    match live {
        Some(handle) => {
            let mut screen = handle.screen(capture);
            screen.ask = shared.agents.pending_ask(request.pane);
            screen.lease = shared.leases.view(request.pane);
            Ok(screen)
        }
        None => shared
            .exited()
            .get(request.pane)
            .map(|exited| exited.screen(capture))
            .ok_or_else(|| RequestError::NoSuchTarget(request.pane.to_string())),
    }
}

/// The mark is read before the keys are written: whatever the pane prints in answer is after it.
/// With an operation id the answer waits until the bytes are in the PTY (acknowledged input).
pub fn input(shared: &Shared, request: wire::Input) -> Result<wire::Marked, RequestError> {
    let pane = handle(shared, request.pane)?;
    shared
        .leases
        .check(request.pane, request.actor.as_deref())?;
    let mark = pane.output().mark();
    let bytes = pane.input_bytes(request.actions, &request.keys)?;
    pane.check_line_length(&bytes)?;
    // A copy only for a pane someone taps: a 16 MiB input is not copied for nothing.
    let tapped = shared.input_taps.taps(request.pane).then(|| bytes.clone());
    let typed_now = write(
        shared,
        &pane,
        bytes,
        request.operation_id.as_deref(),
        request.retry,
    )?;
    if let (true, Some(bytes)) = (typed_now, tapped) {
        let now = crate::bus::now_ns(shared.epoch);
        shared
            .input_taps
            .publish(request.pane, now, Written::Typed(&bytes));
    }
    Ok(wire::Marked {
        mark,
        bracketed: None,
    })
}

pub fn paste(shared: &Shared, request: wire::Paste) -> Result<wire::Marked, RequestError> {
    let pane = handle(shared, request.pane)?;
    shared
        .leases
        .check(request.pane, request.actor.as_deref())?;
    let mark = pane.output().mark();
    let bytes = pane.paste_bytes(&request.text)?;
    // A program reading lines would keep only the first 4095 bytes of a longer one.
    pane.check_line_length(&bytes)?;
    let bracketed = bytes.starts_with(b"\x1b[200~");
    let typed_now = write(
        shared,
        &pane,
        bytes,
        request.operation_id.as_deref(),
        request.retry,
    )?;
    if typed_now {
        let now = crate::bus::now_ns(shared.epoch);
        shared
            .input_taps
            .publish(request.pane, now, Written::Pasted(&request.text));
    }
    Ok(wire::Marked {
        mark,
        bracketed: Some(bracketed),
    })
}

/// Queues `bytes` for `pane`; acknowledged (and written at most once) under `operation_id`.
/// True when they were queued now (not for an operation typed before): what the pane's input
/// taps hear of.
fn write(
    shared: &Shared,
    pane: &PaneHandle,
    bytes: Vec<u8>,
    operation_id: Option<&str>,
    retry: bool,
) -> Result<bool, RequestError> {
    let Some(id) = operation_id else {
        pane.output().note_typed(&bytes);
        pane.write(bytes)?;
        return Ok(true);
    };
    let len = bytes.len();
    let mut typed_now = false;
    shared.deliveries.deliver(
        id,
        || {
            if bytes.is_empty() {
                return Ok(None);
            }
            pane.output().note_typed(&bytes);
            typed_now = true;
            pane.write_acked(bytes).map(Some)
        },
        len,
        retry,
    )?;
    Ok(typed_now)
}

/// `shell_state`: the pane's foreground process group and what its shell's marks said.
pub fn shell_state(
    shared: &Shared,
    request: &wire::ShellState,
) -> Result<wire::ShellStateOk, RequestError> {
    let pane = handle_for_read(shared, request.pane)?;
    let view = pane.shell().view(request.output_after);
    let foreground = pane.foreground_other().map(|pid| wire::ForegroundProgram {
        pid,
        name: process_name(pid),
        runs_script: runs_script(pid),
    });
    let mark = pane.output().mark();
    let since = request.since_mark.map(|after| {
        let since = pane.output().program_output_since(after);
        let (cols, rows) = pane.size();
        let shown =
            crate::pane::new_output::on_the_screen_now(&since.bytes, pane.alternate_screen());
        wire::OutputSince {
            text: crate::pane::shell_track::render_to_cursor(&shown, cols, rows),
            lost: since.lost,
        }
    });
    let last_command = view.last.map(|done| {
        let (cols, rows) = pane.size();
        wire::FinishedCommand {
            exit_code: done.exit_code,
            output: crate::pane::shell_track::render(&done.bytes, cols, rows),
            truncated: done.truncated,
        }
    });
    Ok(wire::ShellStateOk {
        program: process_name(pane.pid),
        program_path: std::fs::read_link(format!("/proc/{}/exe", pane.pid))
            .map(|p| p.display().to_string())
            .unwrap_or_default(),
        foreground,
        marked: view.marked,
        running: view.running,
        at_prompt: view.at_prompt,
        commands_finished: view.finished,
        last_command,
        mark,
        since,
    })
}

/// Whether the process was given something to run: an operand after its options (`sh
/// long.sh`, `python3 x.py`) or `-c`. A shell started bare, or with options only (`bash -l`,
/// `bash --rcfile FILE`), is interactive.
fn runs_script(pid: u32) -> bool {
    let Ok(cmdline) = std::fs::read(format!("/proc/{pid}/cmdline")) else {
        return false;
    };
    let mut args = cmdline.split(|&b| b == 0).skip(1).filter(|a| !a.is_empty());
    while let Some(arg) = args.next() {
        match arg {
            b"-c" => return true,
            // Options whose value is the next word.
            b"--rcfile" | b"--init-file" | b"-o" | b"+o" | b"-O" | b"+O" => {
                args.next();
            }
            _ if arg.starts_with(b"-") || arg.starts_with(b"+") => {}
            _ => return true,
        }
    }
    false
}

/// A process's name as the kernel keeps it (`/proc/PID/comm`).
fn process_name(pid: u32) -> String {
    std::fs::read_to_string(format!("/proc/{pid}/comm"))
        .map(|name| name.trim_end().to_owned())
        .unwrap_or_default()
}

pub fn resize(shared: &Shared, request: &wire::Resize) -> Result<ResizeOk, RequestError> {
    super::lifecycle::check_grid(request.cols.max(1), request.rows.max(1))?;
    let pane = handle_for_read(shared, request.pane)?;
    let (cols, rows) = pane.ask(|reply| PaneCommand::Resize {
        cols: request.cols,
        rows: request.rows,
        reply,
    })?;
    Ok(ResizeOk { cols, rows })
}

pub fn signal(shared: &Shared, request: &wire::Signal) -> Result<Done, RequestError> {
    let pane = handle_for_read(shared, request.pane)?;
    pane.ask(|reply| PaneCommand::Signal {
        signal: request.signal,
        reply,
    })??;
    Ok(Done {})
}

fn normalize_tag(tag: &str) -> String {
    tag.trim_start_matches('#').to_string()
}

/// `tags_get`, `tags_add` (`add = Some(true)`), `tags_remove` (`Some(false)`); every answer is
/// read back from the session tree after the change.
pub fn tags(
    shared: &Shared,
    request: &wire::Tags,
    add: Option<bool>,
) -> Result<TagsOk, RequestError> {
    let mut tree = shared.tree();
    if let Some(missing) = request.panes.iter().find(|p| !tree.panes.contains_key(p)) {
        return Err(RequestError::NoSuchTarget(missing.to_string()));
    }
    let refuse = |e: limits::TooManyTags| {
        RequestError::refused(ErrorCode::InvalidArgument, e.to_string(), e.remedy())
    };
    limits::check_tags(&request.tags).map_err(refuse)?;
    // In the request's order, each once.
    let mut seen = HashSet::new();
    let wanted: Vec<String> = request
        .tags
        .iter()
        .map(|t| normalize_tag(t))
        .filter(|t| !t.is_empty() && seen.insert(t.clone()))
        .collect();
    if add == Some(true) {
        // Refused whole, before any pane changes: no pane is left half-tagged.
        for id in &request.panes {
            let Some(entry) = tree.panes.get(id) else {
                continue;
            };
            let new = wanted.iter().filter(|t| !entry.tags.contains(t)).count();
            if entry.tags.len() + new > limits::MAX_TAGS_PER_PANE {
                return Err(refuse(limits::TooManyTags::OnPane {
                    pane: id.to_string(),
                    count: entry.tags.len() + new,
                }));
            }
        }
    }
    let mut panes = Vec::new();
    for id in &request.panes {
        let Some(entry) = tree.panes.get_mut(id) else {
            continue;
        };
        match add {
            Some(true) => {
                for tag in &wanted {
                    if !entry.tags.contains(tag) {
                        entry.tags.push(tag.clone());
                    }
                }
            }
            Some(false) => entry.tags.retain(|t| !seen.contains(t)),
            None => {}
        }
        panes.push(PaneTags {
            pane: *id,
            tags: entry.tags.clone(),
        });
    }
    Ok(TagsOk { panes })
}
