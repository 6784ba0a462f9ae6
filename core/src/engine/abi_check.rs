//! Checks our `#[repr(C)]` structs and integer constants against the library's own description
//! of its ABI (`ghostty_type_json()`), so a library that does not match is refused before any
//! call that could corrupt memory.

use super::abi::{self, *};
use serde_json::Value;
use std::mem::{offset_of, size_of};

/// What did not match, with both sides, for the error message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{item}: the library says {found}, phux was built for {expected}")]
pub struct LayoutMismatch {
    pub item: String,
    pub expected: String,
    pub found: String,
}

struct StructLayout {
    c_name: &'static str,
    size: usize,
    fields: Vec<(&'static str, usize)>,
}

macro_rules! layout {
    ($c_name:literal, $ty:ty, [$($field:ident => $c_field:literal),* $(,)?]) => {
        StructLayout {
            c_name: $c_name,
            size: size_of::<$ty>(),
            fields: vec![$(($c_field, offset_of!($ty, $field))),*],
        }
    };
}

fn expected_structs() -> Vec<StructLayout> {
    vec![
        layout!("GhosttyString", GString, [ptr => "ptr", len => "len"]),
        layout!("GhosttyColorRgb", ColorRgb, [r => "r", g => "g", b => "b"]),
        layout!("GhosttyStyleColor", StyleColor, [tag => "tag", value => "value"]),
        layout!("GhosttyStyle", Style, [
            size => "size", fg_color => "fg_color", bg_color => "bg_color",
            underline_color => "underline_color", bold => "bold", italic => "italic",
            faint => "faint", blink => "blink", inverse => "inverse", invisible => "invisible",
            strikethrough => "strikethrough", overline => "overline", underline => "underline",
        ]),
        layout!("GhosttyGridRef", GridRef, [size => "size", node => "node", x => "x", y => "y"]),
        layout!("GhosttyPointCoordinate", PointCoordinate, [x => "x", y => "y"]),
        layout!("GhosttyPoint", Point, [tag => "tag", value => "value"]),
        layout!("GhosttySelection", Selection, [
            size => "size", start => "start", end => "end", rectangle => "rectangle",
        ]),
        layout!("GhosttyTerminalSelectionFormatOptions", SelectionFormatOptions, [
            size => "size", emit => "emit", unwrap => "unwrap", trim => "trim", selection => "selection",
        ]),
        layout!("GhosttyFormatterScreenExtra", FormatterScreenExtra, [
            size => "size", cursor => "cursor", style => "style", hyperlink => "hyperlink",
            protection => "protection", kitty_keyboard => "kitty_keyboard", charsets => "charsets",
        ]),
        layout!("GhosttyFormatterTerminalExtra", FormatterTerminalExtra, [
            size => "size", palette => "palette", modes => "modes",
            scrolling_region => "scrolling_region", tabstops => "tabstops", pwd => "pwd",
            keyboard => "keyboard", screen => "screen",
        ]),
        layout!("GhosttyFormatterTerminalOptions", FormatterTerminalOptions, [
            size => "size", emit => "emit", unwrap => "unwrap", trim => "trim", extra => "extra",
            selection => "selection",
        ]),
        layout!("GhosttyTerminalModeConfig", ModeConfig, [mode => "mode", value => "value"]),
        layout!("GhosttySizeReportSize", SizeReportSize, [
            rows => "rows", columns => "columns", cell_width => "cell_width", cell_height => "cell_height",
        ]),
    ]
}

/// (C enum type, value name without prefix, the constant phux uses).
fn expected_enum_values() -> Vec<(&'static str, &'static str, i32)> {
    vec![
        ("GhosttyResult", "SUCCESS", abi::result::SUCCESS),
        ("GhosttyResult", "OUT_OF_MEMORY", abi::result::OUT_OF_MEMORY),
        ("GhosttyResult", "INVALID_VALUE", abi::result::INVALID_VALUE),
        ("GhosttyResult", "OUT_OF_SPACE", abi::result::OUT_OF_SPACE),
        ("GhosttyResult", "NO_VALUE", abi::result::NO_VALUE),
        ("GhosttyTerminalOption", "USERDATA", opt::USERDATA),
        ("GhosttyTerminalOption", "WRITE_PTY", opt::WRITE_PTY),
        ("GhosttyTerminalOption", "BELL", opt::BELL),
        ("GhosttyTerminalOption", "XTVERSION", opt::XTVERSION),
        ("GhosttyTerminalOption", "TITLE_CHANGED", opt::TITLE_CHANGED),
        ("GhosttyTerminalOption", "SIZE", opt::SIZE),
        (
            "GhosttyTerminalOption",
            "COLOR_FOREGROUND",
            opt::COLOR_FOREGROUND,
        ),
        (
            "GhosttyTerminalOption",
            "COLOR_BACKGROUND",
            opt::COLOR_BACKGROUND,
        ),
        ("GhosttyTerminalOption", "PWD_CHANGED", opt::PWD_CHANGED),
        (
            "GhosttyTerminalOption",
            "SCROLLBACK_MAX_BYTES",
            opt::SCROLLBACK_MAX_BYTES,
        ),
        ("GhosttyTerminalData", "COLS", data::COLS),
        ("GhosttyTerminalData", "ROWS", data::ROWS),
        ("GhosttyTerminalData", "CURSOR_X", data::CURSOR_X),
        ("GhosttyTerminalData", "CURSOR_Y", data::CURSOR_Y),
        ("GhosttyTerminalData", "ACTIVE_SCREEN", data::ACTIVE_SCREEN),
        (
            "GhosttyTerminalData",
            "CURSOR_VISIBLE",
            data::CURSOR_VISIBLE,
        ),
        (
            "GhosttyTerminalData",
            "MOUSE_TRACKING",
            data::MOUSE_TRACKING,
        ),
        ("GhosttyTerminalData", "TITLE", data::TITLE),
        ("GhosttyTerminalData", "PWD", data::PWD),
        ("GhosttyTerminalData", "TOTAL_ROWS", data::TOTAL_ROWS),
        (
            "GhosttyTerminalData",
            "SCROLLBACK_ROWS",
            data::SCROLLBACK_ROWS,
        ),
        (
            "GhosttyTerminalData",
            "SCROLLBACK_MAX_BYTES",
            data::SCROLLBACK_MAX_BYTES,
        ),
        ("GhosttyTerminalData", "MODE", data::MODE),
        (
            "GhosttyTerminalData",
            "CURSOR_AT_PROMPT",
            data::CURSOR_AT_PROMPT,
        ),
        ("GhosttyPointTag", "ACTIVE", point_tag::ACTIVE),
        ("GhosttyPointTag", "VIEWPORT", point_tag::VIEWPORT),
        ("GhosttyPointTag", "SCREEN", point_tag::SCREEN),
        ("GhosttyPointTag", "HISTORY", point_tag::HISTORY),
        ("GhosttyFormatterFormat", "PLAIN", format::PLAIN),
        ("GhosttyFormatterFormat", "VT", format::VT),
        ("GhosttyFormatterFormat", "HTML", format::HTML),
        ("GhosttyCellData", "CODEPOINT", cell_data::CODEPOINT),
        ("GhosttyCellData", "CONTENT_TAG", cell_data::CONTENT_TAG),
        ("GhosttyCellData", "WIDE", cell_data::WIDE),
        ("GhosttyCellData", "HAS_TEXT", cell_data::HAS_TEXT),
        ("GhosttyCellData", "HAS_STYLING", cell_data::HAS_STYLING),
        (
            "GhosttyCellData",
            "SEMANTIC_CONTENT",
            cell_data::SEMANTIC_CONTENT,
        ),
        ("GhosttyCellData", "COLOR_PALETTE", cell_data::COLOR_PALETTE),
        ("GhosttyCellData", "COLOR_RGB", cell_data::COLOR_RGB),
        ("GhosttyCellContentTag", "CODEPOINT", content_tag::CODEPOINT),
        (
            "GhosttyCellContentTag",
            "CODEPOINT_GRAPHEME",
            content_tag::CODEPOINT_GRAPHEME,
        ),
        (
            "GhosttyCellContentTag",
            "BG_COLOR_PALETTE",
            content_tag::BG_COLOR_PALETTE,
        ),
        (
            "GhosttyCellContentTag",
            "BG_COLOR_RGB",
            content_tag::BG_COLOR_RGB,
        ),
        ("GhosttyCellWide", "NARROW", wide::NARROW),
        ("GhosttyCellWide", "WIDE", wide::WIDE),
        ("GhosttyCellWide", "SPACER_TAIL", wide::SPACER_TAIL),
        ("GhosttyCellWide", "SPACER_HEAD", wide::SPACER_HEAD),
        ("GhosttyCellSemanticContent", "OUTPUT", semantic::OUTPUT),
        ("GhosttyCellSemanticContent", "INPUT", semantic::INPUT),
        ("GhosttyCellSemanticContent", "PROMPT", semantic::PROMPT),
        ("GhosttyRowData", "WRAP", row_data::WRAP),
        (
            "GhosttyRowData",
            "WRAP_CONTINUATION",
            row_data::WRAP_CONTINUATION,
        ),
        ("GhosttyStyleColorTag", "NONE", color_tag::NONE),
        ("GhosttyStyleColorTag", "PALETTE", color_tag::PALETTE),
        ("GhosttyStyleColorTag", "RGB", color_tag::RGB),
        ("GhosttyTerminalScreen", "PRIMARY", screen::PRIMARY),
        ("GhosttyTerminalScreen", "ALTERNATE", screen::ALTERNATE),
        (
            "GhosttyTerminalCompressionMode",
            "INCREMENTAL",
            compression::INCREMENTAL,
        ),
        ("GhosttyTerminalCompressionMode", "FULL", compression::FULL),
        (
            "GhosttyTerminalCompressionResult",
            "UNSUPPORTED",
            compression::UNSUPPORTED,
        ),
        (
            "GhosttyTerminalCompressionResult",
            "PENDING",
            compression::PENDING,
        ),
        (
            "GhosttyTerminalCompressionResult",
            "COMPLETE",
            compression::COMPLETE,
        ),
        (
            "GhosttyTerminalData",
            "KITTY_KEYBOARD_FLAGS",
            data::KITTY_KEYBOARD_FLAGS,
        ),
        ("GhosttyKey", "UNIDENTIFIED", key::UNIDENTIFIED),
        ("GhosttyKey", "DIGIT_0", key::DIGIT_0),
        ("GhosttyKey", "A", key::A),
        ("GhosttyKey", "BACKSPACE", key::BACKSPACE),
        ("GhosttyKey", "ENTER", key::ENTER),
        ("GhosttyKey", "SPACE", key::SPACE),
        ("GhosttyKey", "TAB", key::TAB),
        ("GhosttyKey", "DELETE", key::DELETE),
        ("GhosttyKey", "END", key::END),
        ("GhosttyKey", "HOME", key::HOME),
        ("GhosttyKey", "INSERT", key::INSERT),
        ("GhosttyKey", "PAGE_DOWN", key::PAGE_DOWN),
        ("GhosttyKey", "PAGE_UP", key::PAGE_UP),
        ("GhosttyKey", "ARROW_DOWN", key::ARROW_DOWN),
        ("GhosttyKey", "ARROW_LEFT", key::ARROW_LEFT),
        ("GhosttyKey", "ARROW_RIGHT", key::ARROW_RIGHT),
        ("GhosttyKey", "ARROW_UP", key::ARROW_UP),
        ("GhosttyKey", "ESCAPE", key::ESCAPE),
        ("GhosttyKey", "F1", key::F1),
        ("GhosttyKey", "F12", key::F12),
        ("GhosttyKey", "Z", key::A + 25),
        ("GhosttyKey", "DIGIT_9", key::DIGIT_0 + 9),
        ("GhosttyKeyAction", "PRESS", key::ACTION_PRESS),
        (
            "GhosttyKeyEncoderOption",
            "ALT_ESC_PREFIX",
            key::OPT_ALT_ESC_PREFIX,
        ),
        ("GhosttyBuildInfo", "OPTIMIZE", build_info::OPTIMIZE),
        (
            "GhosttyBuildInfo",
            "VERSION_STRING",
            build_info::VERSION_STRING,
        ),
    ]
}

fn mismatch(
    item: impl Into<String>,
    expected: impl ToString,
    found: impl ToString,
) -> LayoutMismatch {
    LayoutMismatch {
        item: item.into(),
        expected: expected.to_string(),
        found: found.to_string(),
    }
}

/// Verifies the ABI description `type_json` (the text `ghostty_type_json()` returns).
pub fn verify(type_json: &str) -> Result<(), LayoutMismatch> {
    let doc: Value = serde_json::from_str(type_json).map_err(|e| {
        mismatch(
            "ghostty_type_json()",
            "a JSON document",
            format!("unparseable JSON ({e})"),
        )
    })?;
    verify_abi(&doc)?;
    let types = &doc["types"];
    for layout in expected_structs() {
        verify_struct(types, &layout)?;
    }
    for (ty, name, ours) in expected_enum_values() {
        let found = types[ty]["values"][name].as_i64();
        if found != Some(i64::from(ours)) {
            let found = found.map_or_else(|| "no such value".to_string(), |v| v.to_string());
            return Err(mismatch(format!("{ty}.{name}"), ours, found));
        }
    }
    Ok(())
}

fn verify_abi(doc: &Value) -> Result<(), LayoutMismatch> {
    let abi = &doc["abi"];
    let pointer = abi["pointer_size"].as_u64();
    if pointer != Some(size_of::<usize>() as u64) {
        return Err(mismatch(
            "abi.pointer_size",
            size_of::<usize>(),
            format!("{pointer:?}"),
        ));
    }
    let endian = abi["endian"].as_str().unwrap_or("unknown");
    let ours = if cfg!(target_endian = "little") {
        "little"
    } else {
        "big"
    };
    if endian != ours {
        return Err(mismatch("abi.endian", ours, endian));
    }
    Ok(())
}

fn verify_struct(types: &Value, layout: &StructLayout) -> Result<(), LayoutMismatch> {
    let ty = &types[layout.c_name];
    let size = ty["size"].as_u64();
    if size != Some(layout.size as u64) {
        let found = size.map_or_else(|| "no such type".to_string(), |s| format!("size {s}"));
        return Err(mismatch(
            layout.c_name,
            format!("size {}", layout.size),
            found,
        ));
    }
    for (field, offset) in &layout.fields {
        let found = ty["fields"][field]["offset"].as_u64();
        if found != Some(*offset as u64) {
            let found =
                found.map_or_else(|| "no such field".to_string(), |o| format!("offset {o}"));
            return Err(mismatch(
                format!("{}.{field}", layout.c_name),
                format!("offset {offset}"),
                found,
            ));
        }
    }
    Ok(())
}
