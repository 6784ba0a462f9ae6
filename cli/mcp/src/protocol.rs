//! JSON-RPC 2.0 as MCP uses it: one message per line on stdin and stdout, the standard error
//! codes, and the protocol revisions the `initialize` handshake may settle on.

use serde_json::{json, Value};

/// Every MCP revision this adapter speaks, oldest first.
pub const REVISIONS: [&str; 4] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

/// The revision answered to a client asking for one this adapter does not know.
pub const NEWEST: &str = REVISIONS[REVISIONS.len() - 1];

/// The revision to answer `initialize` with: the client's own when it is one of ours (so an
/// older client gets exactly what it asked for), our newest otherwise (the client then
/// decides whether it can go on).
pub fn negotiate(requested: Option<&str>) -> &'static str {
    REVISIONS
        .iter()
        .find(|r| Some(**r) == requested)
        .copied()
        .unwrap_or(NEWEST)
}

/// Whether tool results may carry `structuredContent` (added in 2025-06-18).
pub fn has_structured_content(revision: &str) -> bool {
    revision >= "2025-06-18"
}

/// The standard JSON-RPC error codes.
pub const PARSE_ERROR: i64 = -32700;
pub const INVALID_REQUEST: i64 = -32600;
pub const METHOD_NOT_FOUND: i64 = -32601;
pub const INVALID_PARAMS: i64 = -32602;
pub const INTERNAL_ERROR: i64 = -32603;

/// One incoming message, classified.
#[derive(Debug, Clone, PartialEq)]
pub enum Incoming {
    /// A request: answer it, under its id.
    Request {
        id: Value,
        method: String,
        params: Value,
    },
    /// A notification: never answered.
    Notification { method: String, params: Value },
    /// A response (we send no requests, so it is ignored).
    Response,
    /// Not a JSON-RPC message: answer with this error (under `id`, or null when it had none).
    Invalid {
        id: Value,
        code: i64,
        message: String,
    },
}

/// Classifies one parsed JSON value.
pub fn classify(message: Value) -> Incoming {
    let Value::Object(mut fields) = message else {
        return invalid(Value::Null, "a JSON-RPC message is an object");
    };
    let id = fields.remove("id");
    let id_ok = matches!(&id, None | Some(Value::String(_) | Value::Number(_)));
    let reply_id = match &id {
        Some(id @ (Value::String(_) | Value::Number(_))) => id.clone(),
        _ => Value::Null,
    };
    if fields.get("jsonrpc") != Some(&json!("2.0")) {
        return invalid(reply_id, "\"jsonrpc\" must be \"2.0\"");
    }
    if !id_ok {
        return invalid(Value::Null, "\"id\" must be a string or a number");
    }
    let Some(method) = fields.remove("method") else {
        if fields.contains_key("result") || fields.contains_key("error") {
            return Incoming::Response;
        }
        return invalid(reply_id, "a request needs a \"method\"");
    };
    let Value::String(method) = method else {
        return invalid(reply_id, "\"method\" must be a string");
    };
    let params = fields.remove("params").unwrap_or(Value::Null);
    if !matches!(params, Value::Null | Value::Object(_) | Value::Array(_)) {
        return invalid(reply_id, "\"params\" must be an object or an array");
    }
    match id {
        Some(id) => Incoming::Request { id, method, params },
        None => Incoming::Notification { method, params },
    }
}

fn invalid(id: Value, message: &str) -> Incoming {
    Incoming::Invalid {
        id,
        code: INVALID_REQUEST,
        message: message.to_owned(),
    }
}

/// A success response.
pub fn result(id: &Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

/// An error response.
pub fn error(id: &Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// The `id` of a message too long to read, from the two ends [`Line::TooLong`] kept: a
/// top-level `"id"` member in the head (the usual place, right after `"jsonrpc"`), or as the
/// object's last member at the very end. Null when neither says (the error then goes to no
/// request, as JSON-RPC says for an unreadable one).
///
/// [`Line::TooLong`]: phux_core::bounded_read::Line::TooLong
pub fn id_of_long_line(head: &[u8], tail: &[u8]) -> Value {
    id_in_head(head)
        .or_else(|| id_at_end(tail))
        .filter(|id| id.is_string() || id.is_number())
        .unwrap_or(Value::Null)
}

/// The value of the first `"id"` key of the outermost object in `head` (a prefix of it).
fn id_in_head(head: &[u8]) -> Option<Value> {
    let text = std::str::from_utf8(head)
        .or_else(|e| std::str::from_utf8(&head[..e.valid_up_to()]))
        .ok()?;
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                let end = string_end(bytes, i)?;
                let key = &text[i + 1..end];
                i = end + 1;
                let rest = text[i..].trim_start();
                if depth == 1 && key == "id" && rest.starts_with(':') {
                    return first_value(&rest[1..]);
                }
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    None
}

/// The index of the quote closing the string opened at `start`.
fn string_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return Some(i),
            _ => i += 1,
        }
    }
    None
}

/// The JSON value `text` starts with (what follows it is not read).
fn first_value(text: &str) -> Option<Value> {
    serde_json::Deserializer::from_str(text)
        .into_iter::<Value>()
        .next()?
        .ok()
}

/// The id when the message ends with `"id": VALUE}`: a scalar right before the closing brace
/// of the whole line is a member of the outermost object.
fn id_at_end(tail: &[u8]) -> Option<Value> {
    // The kept end may begin inside a character.
    let text =
        (0..4.min(tail.len() + 1)).find_map(|skip| std::str::from_utf8(&tail[skip..]).ok())?;
    let body = text.trim_end().strip_suffix('}')?.trim_end();
    let at = body.rfind("\"id\"")?;
    let value = body[at + 4..].trim_start().strip_prefix(':')?;
    let parsed: Value = serde_json::from_str(value).ok()?;
    let before = body[..at].trim_end();
    (before.ends_with(',') || before.ends_with('{')).then_some(parsed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_client_revision_wins_when_known() {
        for revision in REVISIONS {
            assert_eq!(negotiate(Some(revision)), revision);
        }
        assert_eq!(negotiate(Some("2023-01-01")), NEWEST);
        assert_eq!(negotiate(None), NEWEST);
        assert!(!has_structured_content("2025-03-26"));
        assert!(has_structured_content("2025-06-18"));
    }

    #[test]
    fn messages_are_classified() {
        let request = classify(json!({"jsonrpc":"2.0","id":1,"method":"ping"}));
        assert!(matches!(request, Incoming::Request { .. }));
        let note = classify(json!({"jsonrpc":"2.0","method":"notifications/initialized"}));
        assert!(matches!(note, Incoming::Notification { .. }));
        let bad = classify(json!({"jsonrpc":"1.0","id":2,"method":"ping"}));
        assert!(matches!(bad, Incoming::Invalid { id, .. } if id == json!(2)));
        assert!(matches!(classify(json!([1])), Incoming::Invalid { .. }));
        assert!(matches!(
            classify(json!({"jsonrpc":"2.0","id":{},"method":"ping"})),
            Incoming::Invalid { .. }
        ));
    }

    #[test]
    fn the_id_of_a_long_line_is_read_from_either_end() {
        let long = "x".repeat(100);
        let head =
            format!(r#"{{"jsonrpc":"2.0","id":17,"method":"tools/call","params":{{"a":"{long}"#);
        assert_eq!(id_of_long_line(head.as_bytes(), b"\"}}}"), json!(17));
        // A nested "id" (an argument) is not the request's.
        let nested = format!(
            r#"{{"jsonrpc":"2.0","method":"tools/call","params":{{"arguments":{{"id":"t1","x":"{long}"#
        );
        assert_eq!(id_of_long_line(nested.as_bytes(), b"xx\"}}}"), Value::Null);
        // At the end, only as the outermost object's last member.
        let tail = format!(r#"{long}"}}}},"id":"req-9"}}"#);
        assert_eq!(
            id_of_long_line(b"{\"params\":{", tail.as_bytes()),
            json!("req-9")
        );
        assert_eq!(
            id_of_long_line(b"{\"params\":{", br#"x","id":4}}"#),
            Value::Null
        );
        // Ids are strings or numbers.
        assert_eq!(id_of_long_line(br#"{"id":{"no":1},"#, b""), Value::Null);
        // An escaped quote inside a string does not end it.
        assert_eq!(
            id_of_long_line(br#"{"m":"a\"id\":3","id":5,"#, b""),
            json!(5)
        );
    }
}
