//! `rename`'s check of the new name, made before anything is sent (the MCP tool makes it too).

use phux_core::selector::Selector;

use crate::failure::Failure;

/// A new session name: within the limits, and addressable as a TARGET.
pub fn check_new_name(name: &str) -> Result<(), Failure> {
    phux_core::limits::check_session_name(name)?;
    check_session_name(name)
}

/// A name that would not parse back as a session TARGET could never be addressed.
fn check_session_name(name: &str) -> Result<(), Failure> {
    match Selector::parse(name) {
        Ok(Selector::Session(parsed)) if parsed == name => Ok(()),
        _ => Err(Failure::new(
            phux_core::error_code::ErrorCode::InvalidSelector,
            format!(
                "{name:?} cannot be a session name: it would not address the session as a TARGET"
            ),
            "use a name without ':', whitespace, or a leading '@', '#', '%', '=' or '.'",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_names_must_be_addressable() {
        assert!(check_session_name("work").is_ok());
        for bad in ["a:b", "@1", "#t", ".", "a b", "", "%x", "h/@1"] {
            assert!(check_session_name(bad).is_err(), "{bad}");
        }
    }
}
