//! Acting on panes: `resize`, `signal`, `tag`, `send-keys`, `paste` and `ask`.

use phux_core::documents::{AskJson, GridSize, ResizeJson, TagJson, TagRow};
use phux_core::error_code::ErrorCode;
use phux_core::ids::{PaneId, TerminalAddr};
use phux_core::keys::{plan_keys, InputAction, KeyModes};
use phux_core::selector::Selector;
use phux_core::wire::{
    AskAnswered, ClientMessage, Done, Input, Marked, Paste, ReportAsked, Resize, ResizeOk, Signal,
    SignalName, Tags, TagsOk,
};

use crate::connection::Client;
use crate::error::ClientError;

/// `resize`: sets the pane's grid and reports the size the server holds afterwards, read back
/// from the server, so `held` is false when something else owns the size.
pub fn resize(
    client: &mut Client,
    pane: PaneId,
    requested: GridSize,
) -> Result<ResizeJson, ClientError> {
    let applied: ResizeOk = client.request(ClientMessage::Resize(Resize {
        id: 0,
        pane,
        cols: requested.cols,
        rows: requested.rows,
    }))?;
    let applied = GridSize {
        cols: applied.cols,
        rows: applied.rows,
    };
    Ok(ResizeJson::new(pane, requested, applied))
}

/// `signal`: sends the signal to the pane's process group.
pub fn signal(client: &mut Client, pane: PaneId, signal: SignalName) -> Result<(), ClientError> {
    let Done {} = client.request(ClientMessage::Signal(Signal {
        id: 0,
        pane,
        signal,
    }))?;
    Ok(())
}

/// What `tag` does to the resolved panes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TagAction {
    List,
    Add,
    Remove,
}

/// A tag as typed (`#build` or `build`) without its `#`; refused (`invalid_selector`) when it
/// could never be addressed back as `#tag`.
pub fn normalize_tag(text: &str) -> Result<String, ClientError> {
    let tag = text.strip_prefix('#').unwrap_or(text);
    match Selector::parse(&format!("#{tag}")) {
        Ok(Selector::Tag(tag)) => Ok(tag),
        _ => Err(ClientError::preflight(
            ErrorCode::InvalidSelector,
            format!("invalid tag {text:?}: a tag is a non-empty name without spaces"),
            "pass tags like `build` or `#build`",
        )),
    }
}

/// `tag ls|add|rm`: one request over every pane; the rows are each pane's complete tag list
/// as the server holds it after the request, in the order of `panes`.
pub fn tags(
    client: &mut Client,
    action: TagAction,
    panes: Vec<PaneId>,
    tags: Vec<String>,
) -> Result<TagJson, ClientError> {
    let request = Tags {
        id: 0,
        panes: panes.clone(),
        tags,
    };
    let message = match action {
        TagAction::List => ClientMessage::TagsGet(request),
        TagAction::Add => ClientMessage::TagsAdd(request),
        TagAction::Remove => ClientMessage::TagsRemove(request),
    };
    let ok: TagsOk = client.request(message)?;
    let rows = panes
        .into_iter()
        .map(|pane| TagRow {
            terminal: TerminalAddr::local(pane),
            tags: ok
                .panes
                .iter()
                .find(|row| row.pane == pane)
                .map(|row| row.tags.clone())
                .unwrap_or_default(),
        })
        .collect();
    Ok(TagJson::new(rows))
}

/// Refuses a key batch that would not send what it says (`invalid_key_spec`), before any
/// connection is opened, so the batch stays all or nothing.
pub fn check_keys(keys: &[String]) -> Result<(), ClientError> {
    plan_keys(keys, KeyModes::default())?;
    Ok(())
}

/// `send-keys`: the key specs go as `keys`, planned by the server against the pane's modes.
/// Returns the pane's output mark from just before the keys were written.
/// The write is acknowledged under `operation`: the server answers once the bytes are in the
/// PTY (`input_not_written`, `delivery_unknown` otherwise) and never types one id twice.
pub fn send_keys(
    client: &mut Client,
    pane: PaneId,
    keys: Vec<String>,
    operation: &str,
) -> Result<u64, ClientError> {
    check_keys(&keys)?;
    let Marked { mark, .. } = client.request(ClientMessage::Input(Input {
        id: 0,
        pane,
        actions: Vec::new(),
        keys,
        operation_id: Some(operation.to_owned()),
        actor: None,
        retry: false,
    }))?;
    Ok(mark)
}

/// `send-keys -l`: the text typed as it is, with no key-name lookup (never pasted).
/// Acknowledged under `operation` like [`send_keys`].
pub fn send_literal(
    client: &mut Client,
    pane: PaneId,
    text: String,
    operation: &str,
) -> Result<u64, ClientError> {
    let Marked { mark, .. } = client.request(ClientMessage::Input(Input {
        id: 0,
        pane,
        actions: vec![InputAction::Bytes(text.into_bytes())],
        keys: Vec::new(),
        operation_id: Some(operation.to_owned()),
        actor: None,
        retry: false,
    }))?;
    Ok(mark)
}

/// `paste`: the text as one paste (bracketed when the pane asked for it), never submitted.
/// Returns the pane's output mark from just before the text was written, and whether the
/// text went in bracketed-paste brackets (`None` from a server that does not say).
/// Acknowledged under `operation` like [`send_keys`].
pub fn paste(
    client: &mut Client,
    pane: PaneId,
    text: String,
    operation: &str,
) -> Result<(u64, Option<bool>), ClientError> {
    let Marked { mark, bracketed } = client.request(ClientMessage::Paste(Paste {
        id: 0,
        pane,
        text,
        operation_id: Some(operation.to_owned()),
        actor: None,
        retry: false,
    }))?;
    Ok((mark, bracketed))
}

/// A fresh 128-bit operation id, in hex.
pub fn operation_id() -> String {
    let mut bytes = [0u8; 16];
    let filled = std::fs::File::open("/dev/urandom")
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut bytes))
        .is_ok();
    if !filled {
        // No /dev/urandom: time and pid still make the id unique enough for one machine.
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        bytes = (nanos ^ (u128::from(std::process::id()) << 96)).to_le_bytes();
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// What `ask` reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ask {
    pub id: String,
    pub question: String,
    pub suggestions: Vec<String>,
    pub elapsed_seconds: Option<u64>,
}

/// `ask`: raises an `asked` event on the pane (the same event a `phux-ask[ID]:Q??s=A|B`
/// title raises) and returns the document describing it.
pub fn ask(client: &mut Client, pane: PaneId, ask: Ask) -> Result<AskJson, ClientError> {
    let Done {} = client.request(ClientMessage::ReportAsked(ReportAsked {
        id: 0,
        pane,
        ask_id: ask.id.clone(),
        question: ask.question.clone(),
        suggestions: ask.suggestions.clone(),
        elapsed_seconds: ask.elapsed_seconds,
    }))?;
    Ok(AskJson::new(
        TerminalAddr::local(pane),
        ask.id,
        ask.question,
        ask.suggestions,
        ask.elapsed_seconds,
    ))
}

/// Claims the pane's ask `ask_id` for an answer, before the answer is typed: the server ends it
/// (it leaves `status --json` and the snapshot; a title or a dialog still showing it does not
/// raise it again) or refuses with `no_active_ask` / `ask_stale` when another answer came first.
pub fn ask_answered(client: &mut Client, pane: PaneId, ask_id: &str) -> Result<(), ClientError> {
    let Done {} = client.request(ClientMessage::AskAnswered(AskAnswered {
        id: 0,
        pane,
        ask_id: ask_id.to_owned(),
    }))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_take_an_optional_hash() {
        assert_eq!(normalize_tag("#build").unwrap(), "build");
        assert_eq!(normalize_tag("build").unwrap(), "build");
        assert!(normalize_tag("#").is_err());
        assert!(normalize_tag("a b").is_err());
        assert!(normalize_tag("##x").is_err());
    }

    #[test]
    fn a_dangling_modifier_is_refused() {
        assert!(check_keys(&["C-".to_owned()]).is_err());
        assert!(check_keys(&["echo hi".to_owned(), "Enter".to_owned()]).is_ok());
    }
}
