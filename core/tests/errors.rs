//! The closed error vocabulary, the exit-code table and the error document.

#![forbid(unsafe_code)]
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on the unexpected

use std::collections::HashSet;

use phux_core::error_code::ErrorCode;
use phux_core::error_doc::{ContractError, ErrorDoc};
use phux_core::exit_code::*;

#[test]
fn codes_are_unique_snake_case_and_parse_back() {
    let mut seen = HashSet::new();
    for code in ErrorCode::ALL {
        let s = code.as_str();
        assert!(seen.insert(s), "{s} twice");
        assert!(
            s.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'),
            "{s}"
        );
        assert_eq!(s.parse::<ErrorCode>().unwrap(), *code);
        assert_eq!(serde_json::to_string(code).unwrap(), format!("\"{s}\""));
    }
    assert!("NoServer".parse::<ErrorCode>().is_err());
    assert!(serde_json::from_str::<ErrorCode>("\"nope\"").is_err());
}

#[test]
fn default_exit_codes_follow_the_spec() {
    let expect = [
        (ErrorCode::NoServer, FAILURE),
        (ErrorCode::NoSuchTarget, FAILURE),
        (ErrorCode::PartialView, PARTIAL_VIEW),
        (ErrorCode::InvalidSelector, USAGE),
        (ErrorCode::InvalidKeySpec, USAGE),
        (ErrorCode::UnknownEventName, USAGE),
        (ErrorCode::SamePane, USAGE),
        (ErrorCode::MoveRefused, FAILURE),
        (ErrorCode::InvalidConfig, USAGE),
        (ErrorCode::UpdatePackageManaged, USAGE),
        (ErrorCode::UpdateChecksumMismatch, FAILURE),
        (ErrorCode::DeliveryUnknown, FAILURE),
        (ErrorCode::InputNotWritten, FAILURE),
        (ErrorCode::AgentDeparted, FAILURE),
        (ErrorCode::AmbiguousIntegration, USAGE),
    ];
    for (code, exit) in expect {
        assert_eq!(code.default_exit_code(), exit, "{code}");
    }
    for code in ErrorCode::ALL {
        assert!(
            EXIT_CODES
                .iter()
                .any(|(c, _)| *c == code.default_exit_code()),
            "{code}"
        );
    }
}

#[test]
fn help_text_renders_the_table() {
    let rows: Vec<&str> = EXIT_CODE_TABLE_HELP.lines().skip(1).collect();
    assert_eq!(rows.len(), EXIT_CODES.len());
    for ((code, meaning), row) in EXIT_CODES.iter().zip(rows) {
        assert_eq!(row, format!("  {code:<4} {meaning}"));
    }
}

#[test]
fn run_mirrors_the_child_clamped() {
    assert_eq!(mirror_child_exit(0), 0);
    assert_eq!(mirror_child_exit(124), 124);
    assert_eq!(mirror_child_exit(300), 255);
    assert_eq!(mirror_child_exit(-1), 0);
}

#[test]
fn an_error_document_needs_a_remedy() {
    assert!(ErrorDoc::new(ErrorCode::NoServer, "m", "").is_err());
    assert!(ErrorDoc::new(ErrorCode::NoServer, "m", "  \n").is_err());
    let doc = ErrorDoc::new(ErrorCode::NoServer, "m", "start one").unwrap();
    assert_eq!(doc.exit_code, 1);
    let line = doc.render();
    assert!(!line.contains('\n'));
    assert_eq!(
        line,
        r#"{"schema_version":1,"error":{"code":"no_server","message":"m"},"remedy":"start one","exit_code":1}"#
    );
}

#[test]
fn contract_errors_become_documents_with_their_own_status() {
    let err = phux_core::selector::Selector::parse("@x").unwrap_err();
    let doc = ErrorDoc::from_error(&err).unwrap();
    assert_eq!(doc.error.code, ErrorCode::InvalidSelector);
    assert_eq!(doc.exit_code, 2);
    assert_eq!(doc.remedy, err.remedy());
}
