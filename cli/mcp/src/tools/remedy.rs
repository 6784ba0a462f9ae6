//! Remedies in MCP terms: a failure's remedy names the verb a person would type (`phux
//! snapshot @3`, `--overwrite`); a host calls tools, so the adapter says `phux_snapshot`
//! with `target: "@3"` and `overwrite: true` instead.

/// `remedy` with every `` `phux VERB ...` `` as the tool call it stands for, and bare
/// `--flag`s as arguments.
pub fn for_tools(remedy: &str) -> String {
    let mut out = String::with_capacity(remedy.len());
    let mut rest = remedy;
    while let Some(start) = rest.find('`') {
        out.push_str(&flags_as_arguments(&rest[..start]));
        let after = &rest[start + 1..];
        let Some(end) = after.find('`') else {
            out.push_str(&rest[start..]);
            return out;
        };
        let quoted = &after[..end];
        match as_tool_call(quoted) {
            Some(call) => out.push_str(&call),
            None => {
                out.push('`');
                out.push_str(quoted);
                out.push('`');
            }
        }
        rest = &after[end + 1..];
    }
    out.push_str(&flags_as_arguments(rest));
    out
}

/// `phux snapshot --tail 5 @3` → `phux_snapshot with tail: 5, target: "@3"`.
fn as_tool_call(command: &str) -> Option<String> {
    let mut words = command.split_whitespace();
    if words.next()? != "phux" {
        return None;
    }
    let verb = words.next()?;
    let mut words: Vec<&str> = words.collect();
    let mut name = format!("phux_{}", verb.replace('-', "_"));
    if matches!(verb, "agent" | "config") && !words.is_empty() {
        name = format!("{name}_{}", words.remove(0).replace('-', "_"));
    }
    super::find(&name)?;
    let mut arguments = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let word = words[i];
        if let Some(flag) = word.strip_prefix("--") {
            let key = flag.replace('-', "_");
            match words.get(i + 1).filter(|next| !next.starts_with("--")) {
                Some(value) if key != "json" && key != "overwrite" && key != "new" => {
                    arguments.push(format!("{key}: {value}"));
                    i += 1;
                }
                _ if key != "json" => arguments.push(format!("{key}: true")),
                _ => {}
            }
        } else if !word.starts_with('-') && !word.contains("...") {
            arguments.push(format!("target: \"{word}\""));
        }
        i += 1;
    }
    Some(if arguments.is_empty() {
        format!("`{name}`")
    } else {
        format!("`{name}` with {}", arguments.join(", "))
    })
}

/// A bare `--overwrite` as the argument `overwrite: true`.
fn flags_as_arguments(text: &str) -> String {
    text.replace("--overwrite", "overwrite: true")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_remedy_names_tools_and_arguments() {
        assert_eq!(
            for_tools("list sessions with `phux ls --json`"),
            "list sessions with `phux_ls`"
        );
        assert_eq!(
            for_tools("read its last screen with `phux snapshot @3`"),
            "read its last screen with `phux_snapshot` with target: \"@3\""
        );
        assert_eq!(
            for_tools("pass --overwrite to replace it"),
            "pass overwrite: true to replace it"
        );
        assert_eq!(
            for_tools("see `phux agent show @2`, or `ls -la`"),
            "see `phux_agent_show` with target: \"@2\", or `ls -la`"
        );
    }
}
