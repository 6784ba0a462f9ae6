//! The tools' input schemas (JSON Schema, the subset MCP hosts read), built by small helpers
//! so every tool states its limits the same way, and the validator that holds arguments to
//! them: the schema a host is shown is the one the adapter enforces.

use serde_json::{json, Map, Value};

/// The longest string argument, in bytes.
pub const MAX_STRING_BYTES: usize = 4096;
/// The most items an array argument may hold.
pub const MAX_ARRAY_ITEMS: usize = 64;

/// A string of at most [`MAX_STRING_BYTES`] bytes.
pub fn string(description: &str) -> Value {
    json!({"type": "string", "maxLength": MAX_STRING_BYTES, "description": description})
}

/// One of `values`.
pub fn choice(description: &str, values: &[&str]) -> Value {
    json!({"type": "string", "enum": values, "description": description})
}

/// A whole number in `min..=max`.
pub fn integer(description: &str, min: u64, max: u64) -> Value {
    json!({"type": "integer", "minimum": min, "maximum": max, "description": description})
}

/// A number in `min..=max`.
pub fn number(description: &str, min: f64, max: f64) -> Value {
    json!({"type": "number", "minimum": min, "maximum": max, "description": description})
}

pub fn boolean(description: &str) -> Value {
    json!({"type": "boolean", "description": description})
}

/// Up to [`MAX_ARRAY_ITEMS`] strings.
pub fn strings(description: &str) -> Value {
    json!({
        "type": "array",
        "items": {"type": "string", "maxLength": MAX_STRING_BYTES},
        "maxItems": MAX_ARRAY_ITEMS,
        "description": description,
    })
}

/// `confirm: true`, which a destructive tool requires.
pub fn confirm(what: &str) -> Value {
    json!({
        "type": "boolean",
        "description": format!("Must be true: {what}"),
    })
}

/// A strict object of `properties` (each `(name, schema)`), `required` of them required. (The
/// server's socket is `phux mcp --socket`, the adapter's own option, not an argument.)
pub fn object(required: &[&str], properties: Vec<(&str, Value)>) -> Value {
    let mut map = Map::new();
    for (name, schema) in properties {
        map.insert(name.to_owned(), with_default(schema));
    }
    json!({
        "type": "object",
        "properties": map,
        "required": required,
        "additionalProperties": false,
    })
}

/// `schema` with the `default` its description states (`[default: 30]`, `[default:
/// horizontal]`, `[default: idle, blocked, done]`) as a value a host can read, when the stated
/// default is a value of the property's type (not prose, like "the active pane").
fn with_default(mut schema: Value) -> Value {
    let Some(stated) = schema
        .get("description")
        .and_then(Value::as_str)
        .and_then(|d| d.split_once("[default: "))
        .and_then(|(_, rest)| rest.split_once(']'))
        .map(|(stated, _)| stated.to_owned())
    else {
        return schema;
    };
    let fits = |value: &Value, schema: &Value| validate(schema, value, "").is_ok();
    let default = match schema.get("type").and_then(Value::as_str) {
        Some("integer" | "number") => {
            let first = stated.split(',').next().unwrap_or_default().trim();
            serde_json::from_str::<Value>(first)
                .ok()
                .filter(Value::is_number)
        }
        Some("string") if schema.get("enum").is_some() => Some(Value::from(stated.trim())),
        Some("array") if schema["items"]["enum"].is_array() => {
            let items: Vec<Value> = stated.split(',').map(|w| Value::from(w.trim())).collect();
            Some(Value::Array(items))
        }
        _ => None,
    };
    if let Some(default) = default.filter(|d| fits(d, &schema)) {
        schema["default"] = default;
    }
    schema
}

/// Checks `value` against `schema` (the subset the helpers above write); the error names the
/// argument and what was wrong.
pub fn validate(schema: &Value, value: &Value, at: &str) -> Result<(), String> {
    let name = if at.is_empty() { "arguments" } else { at };
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        if !values.contains(value) {
            let list: Vec<String> = values.iter().map(ToString::to_string).collect();
            return Err(format!("{name} must be one of {}", list.join(", ")));
        }
    }
    if let Some(types) = schema.get("type").and_then(Value::as_array) {
        // One of several types: valid when valid as any of them.
        let mut last = Ok(());
        for kind in types {
            let mut one = schema.clone();
            one["type"] = kind.clone();
            last = validate(&one, value, at);
            if last.is_ok() {
                return last;
            }
        }
        let names: Vec<&str> = types.iter().filter_map(Value::as_str).collect();
        return match last {
            Err(e) if e.contains("must be") && !e.contains("between") => {
                Err(format!("{name} must be a {}", names.join(" or ")))
            }
            other => other,
        };
    }
    match schema.get("type").and_then(Value::as_str) {
        Some("object") => validate_object(schema, value, at),
        Some("array") => {
            let items = value
                .as_array()
                .ok_or_else(|| format!("{name} must be an array"))?;
            if items.len() > MAX_ARRAY_ITEMS {
                return Err(format!(
                    "{name} has {} items; at most {MAX_ARRAY_ITEMS} are allowed",
                    items.len()
                ));
            }
            let item_schema = schema.get("items").cloned().unwrap_or(Value::Null);
            for (i, item) in items.iter().enumerate() {
                validate(&item_schema, item, &format!("{name}[{i}]"))?;
            }
            Ok(())
        }
        Some("string") => {
            let text = value
                .as_str()
                .ok_or_else(|| format!("{name} must be a string"))?;
            if text.len() > MAX_STRING_BYTES {
                return Err(format!(
                    "{name} is {} bytes long; at most {MAX_STRING_BYTES} are allowed",
                    text.len()
                ));
            }
            Ok(())
        }
        Some("boolean") if !value.is_boolean() => Err(format!("{name} must be true or false")),
        Some("null") if !value.is_null() => Err(format!("{name} must be null")),
        Some("integer") => {
            if !(value.is_u64() || value.is_i64()) {
                return Err(format!("{name} must be a whole number"));
            }
            in_range(schema, value, name)
        }
        Some("number") => {
            if !value.is_number() {
                return Err(format!("{name} must be a number"));
            }
            in_range(schema, value, name)
        }
        _ => Ok(()),
    }
}

fn validate_object(schema: &Value, value: &Value, at: &str) -> Result<(), String> {
    let name = if at.is_empty() { "arguments" } else { at };
    let fields = value
        .as_object()
        .ok_or_else(|| format!("{name} must be an object"))?;
    let properties = schema.get("properties").and_then(Value::as_object);
    for required in schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        if !fields.contains_key(required) {
            return Err(format!("{} is required", path(at, required)));
        }
    }
    for (key, field) in fields {
        match properties.and_then(|p| p.get(key)) {
            Some(property) => validate(property, field, &path(at, key))?,
            // A document may carry fields its schema does not name; arguments may not.
            None if schema.get("additionalProperties") != Some(&Value::Bool(false)) => {}
            None => {
                let known: Vec<&str> = properties
                    .map(|p| p.keys().map(String::as_str).collect())
                    .unwrap_or_default();
                return Err(format!(
                    "unknown argument {}; this tool takes: {}",
                    path(at, key),
                    known.join(", ")
                ));
            }
        }
    }
    Ok(())
}

fn in_range(schema: &Value, value: &Value, name: &str) -> Result<(), String> {
    let n = value.as_f64().unwrap_or(f64::NAN);
    let min = schema.get("minimum").and_then(Value::as_f64);
    let max = schema.get("maximum").and_then(Value::as_f64);
    if min.is_some_and(|m| n < m) || max.is_some_and(|m| n > m) {
        return Err(format!(
            "{name} is {value}; it must be between {} and {}",
            min.map_or("-inf".into(), |m| m.to_string()),
            max.map_or("inf".into(), |m| m.to_string())
        ));
    }
    Ok(())
}

fn path(at: &str, key: &str) -> String {
    if at.is_empty() {
        key.to_owned()
    } else {
        format!("{at}.{key}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema() -> Value {
        object(
            &["target"],
            vec![
                ("target", string("the pane")),
                ("keys", strings("keys")),
                ("timeout_secs", integer("secs", 1, 10)),
                ("split", choice("dir", &["horizontal", "vertical"])),
            ],
        )
    }

    #[test]
    fn good_arguments_pass() {
        let args = json!({"target": "@1", "keys": ["a"], "timeout_secs": 3});
        assert_eq!(validate(&schema(), &args, ""), Ok(()));
    }

    #[test]
    fn each_limit_is_named() {
        let check = |args: Value| validate(&schema(), &args, "").unwrap_err();
        assert_eq!(check(json!({})), "target is required");
        assert!(check(json!({"target": "@1", "x": 1})).starts_with("unknown argument x"));
        assert!(check(json!({"target": "a".repeat(4097)})).contains("4097 bytes"));
        let many: Vec<&str> = vec!["k"; 65];
        assert!(check(json!({"target": "@1", "keys": many})).contains("65 items"));
        assert!(check(json!({"target": "@1", "timeout_secs": 11})).contains("between 1 and 10"));
        assert!(check(json!({"target": "@1", "timeout_secs": 1.5})).contains("whole number"));
        assert!(check(json!({"target": "@1", "split": "up"})).contains("one of"));
        assert!(check(json!({"target": 7})).contains("must be a string"));
        assert!(check(json!([])).contains("must be an object"));
    }

    #[test]
    fn a_stated_default_becomes_the_schema_default() {
        let schema = object(
            &[],
            vec![
                ("secs", number("Give up [default: 30]", 0.0, 60.0)),
                (
                    "wait",
                    number("Wait [default: 0, answer at once]", 0.0, 60.0),
                ),
                (
                    "split",
                    choice("Dir [default: vertical]", &["horizontal", "vertical"]),
                ),
                ("target", string("The pane [default: the active pane]")),
                ("max", integer("Most [default: 99]", 1, 10)),
            ],
        );
        let properties = &schema["properties"];
        assert_eq!(properties["secs"]["default"], 30);
        assert_eq!(properties["wait"]["default"], 0);
        assert_eq!(properties["split"]["default"], "vertical");
        // Prose, or out of range: no default claimed.
        assert!(properties["target"]["default"].is_null());
        assert!(properties["max"]["default"].is_null());
    }

    /// Arrays without an enum of items still have their length held (a default must not loosen
    /// a limit).
    #[test]
    fn an_array_of_free_text_is_still_held_to_its_length() {
        let schema = object(&[], vec![("keys", strings("Keys [default: a, b]"))]);
        assert!(schema["properties"]["keys"]["default"].is_null());
        let many: Vec<&str> = vec!["k"; 65];
        assert!(validate(&schema, &json!({"keys": many}), "")
            .unwrap_err()
            .contains("65 items"));
    }
}
