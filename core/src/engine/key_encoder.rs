//! The engine's key encoder: turns a key (`send-keys`' `KeySpec`) into the bytes a terminal in
//! the program's current modes would send, reading those modes (application cursor keys,
//! modifyOtherKeys, the Kitty keyboard protocol and its flags) from the terminal itself.

use super::abi::{self, key, KeyEncoderPtr, KeyEventPtr};
use super::terminal::{check, Terminal};
use super::EngineError;
use crate::keys::{KeySpec, Modifiers, NamedKey};

/// The Kitty flag "report all keys as escape codes": plain text is sent key by key too.
pub const KITTY_REPORT_ALL_KEYS: u8 = 0b1000;

/// One key press as the engine's encoder takes it.
struct KeyPress {
    key: i32,
    mods: u16,
    text: String,
    unshifted: u32,
}

impl Terminal {
    /// The Kitty keyboard protocol flags the program has pushed (0: the protocol is off).
    pub fn kitty_keyboard_flags(&self) -> u8 {
        // The value is one byte; reading into a zeroed wider integer is exact either way.
        let flags = self.get(abi::data::KITTY_KEYBOARD_FLAGS, 0u64).unwrap_or(0);
        (flags & 0xff) as u8
    }

    /// The bytes `spec` sends in the terminal's current key modes. A literal is its text typed
    /// character by character.
    pub fn encode_key(&self, spec: &KeySpec) -> Result<Vec<u8>, EngineError> {
        let presses = match spec {
            KeySpec::Enter => vec![named(NamedKey::Enter, Modifiers::default())],
            KeySpec::Key { key, mods } => vec![named(*key, *mods)],
            KeySpec::Char { c, mods } => vec![character(*c, *mods)],
            KeySpec::Literal(text) => text
                .chars()
                .map(|c| character(c, Modifiers::default()))
                .collect(),
        };
        let encoder = Encoder::new(self)?;
        let mut out = Vec::new();
        for press in &presses {
            out.extend(encoder.encode(press)?);
        }
        Ok(out)
    }
}

fn mods_of(mods: Modifiers) -> u16 {
    let mut bits = 0;
    if mods.shift {
        bits |= key::MODS_SHIFT;
    }
    if mods.ctrl {
        bits |= key::MODS_CTRL;
    }
    if mods.meta {
        bits |= key::MODS_ALT;
    }
    bits
}

fn named(name: NamedKey, mods: Modifiers) -> KeyPress {
    let (code, text, mods) = match name {
        NamedKey::Enter => (key::ENTER, "\r", mods),
        NamedKey::Tab => (key::TAB, "\t", mods),
        NamedKey::BTab => (
            key::TAB,
            "\t",
            Modifiers {
                shift: true,
                ..mods
            },
        ),
        NamedKey::Escape => (key::ESCAPE, "", mods),
        NamedKey::Space => (key::SPACE, " ", mods),
        NamedKey::BSpace => (key::BACKSPACE, "", mods),
        NamedKey::Up => (key::ARROW_UP, "", mods),
        NamedKey::Down => (key::ARROW_DOWN, "", mods),
        NamedKey::Left => (key::ARROW_LEFT, "", mods),
        NamedKey::Right => (key::ARROW_RIGHT, "", mods),
        NamedKey::Home => (key::HOME, "", mods),
        NamedKey::End => (key::END, "", mods),
        NamedKey::PageUp => (key::PAGE_UP, "", mods),
        NamedKey::PageDown => (key::PAGE_DOWN, "", mods),
        NamedKey::Insert => (key::INSERT, "", mods),
        NamedKey::Delete => (key::DELETE, "", mods),
        NamedKey::F(n) => (key::F1 + i32::from(n.clamp(1, 12)) - 1, "", mods),
    };
    let unshifted = text.chars().next().map_or(0, u32::from);
    KeyPress {
        key: code,
        mods: mods_of(mods),
        // A key with Ctrl or Alt held produces no text of its own.
        text: if mods.ctrl || mods.meta {
            String::new()
        } else {
            text.to_owned()
        },
        unshifted,
    }
}

/// A character key: letters and digits name their physical key; anything else is identified
/// by its codepoint alone, as a layout-independent terminal would.
fn character(c: char, mods: Modifiers) -> KeyPress {
    let lower = c.to_ascii_lowercase();
    let code = match lower {
        'a'..='z' => key::A + i32::from(lower as u8 - b'a'),
        '0'..='9' => key::DIGIT_0 + i32::from(lower as u8 - b'0'),
        ' ' => key::SPACE,
        _ => key::UNIDENTIFIED,
    };
    let shifted = mods.shift || c.is_ascii_uppercase();
    let text = if mods.ctrl || mods.meta {
        String::new()
    } else if mods.shift {
        c.to_ascii_uppercase().to_string()
    } else {
        c.to_string()
    };
    KeyPress {
        key: code,
        mods: mods_of(Modifiers {
            shift: shifted,
            ..mods
        }),
        text,
        unshifted: u32::from(lower),
    }
}

/// An encoder and an event, freed together.
struct Encoder<'t> {
    terminal: &'t Terminal,
    encoder: KeyEncoderPtr,
    event: KeyEventPtr,
}

impl<'t> Encoder<'t> {
    fn new(terminal: &'t Terminal) -> Result<Self, EngineError> {
        let sym = &terminal.sym;
        let mut encoder: KeyEncoderPtr = std::ptr::null_mut();
        // SAFETY: a null allocator selects the library's default; `encoder` receives the handle.
        let code = unsafe { (sym.ghostty_key_encoder_new)(std::ptr::null(), &raw mut encoder) };
        check("ghostty_key_encoder_new", code)?;
        let mut event: KeyEventPtr = std::ptr::null_mut();
        // SAFETY: as above, for the event.
        let code = unsafe { (sym.ghostty_key_event_new)(std::ptr::null(), &raw mut event) };
        let this = Encoder {
            terminal,
            encoder,
            event,
        };
        check("ghostty_key_event_new", code)?;
        let alt_esc_prefix = true;
        // SAFETY: both handles are live; the option takes a pointer to a bool, read at once.
        unsafe {
            (sym.ghostty_key_encoder_setopt_from_terminal)(encoder, terminal.ptr);
            (sym.ghostty_key_encoder_setopt)(
                encoder,
                key::OPT_ALT_ESC_PREFIX,
                (&raw const alt_esc_prefix).cast(),
            );
        }
        Ok(this)
    }

    fn encode(&self, press: &KeyPress) -> Result<Vec<u8>, EngineError> {
        let sym = &self.terminal.sym;
        // SAFETY: the event is live; the text pointer is read during the encode call below,
        // while `press` is still borrowed.
        unsafe {
            (sym.ghostty_key_event_set_action)(self.event, key::ACTION_PRESS);
            (sym.ghostty_key_event_set_key)(self.event, press.key);
            (sym.ghostty_key_event_set_mods)(self.event, press.mods);
            (sym.ghostty_key_event_set_utf8)(
                self.event,
                press.text.as_ptr().cast(),
                press.text.len(),
            );
            (sym.ghostty_key_event_set_unshifted_codepoint)(self.event, press.unshifted);
        }
        let mut buf = [0u8; 128];
        let mut len = 0usize;
        // SAFETY: `buf` is writable for its length; `len` receives the bytes written.
        let code = unsafe {
            (sym.ghostty_key_encoder_encode)(
                self.encoder,
                self.event,
                buf.as_mut_ptr().cast(),
                buf.len(),
                &raw mut len,
            )
        };
        check("ghostty_key_encoder_encode", code)?;
        Ok(buf[..len.min(buf.len())].to_vec())
    }
}

impl Drop for Encoder<'_> {
    fn drop(&mut self) {
        let sym = &self.terminal.sym;
        // SAFETY: each handle is freed exactly once; a null one (failed creation) is skipped.
        unsafe {
            if !self.event.is_null() {
                (sym.ghostty_key_event_free)(self.event);
            }
            if !self.encoder.is_null() {
                (sym.ghostty_key_encoder_free)(self.encoder);
            }
        }
    }
}
