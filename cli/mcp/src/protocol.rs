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
}
