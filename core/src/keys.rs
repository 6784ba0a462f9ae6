//! tmux-style key specs (`Enter`, `C-c`, `M-x`, `C-Up`, literals) and the input actions they become.

use serde::{Deserialize, Serialize};

use crate::error_code::ErrorCode;
use crate::error_doc::ContractError;

/// What the server writes to a pane for one step of a key batch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "data", rename_all = "snake_case")]
pub enum InputAction {
    /// Bytes typed as they are.
    Bytes(Vec<u8>),
    /// Text delivered as one paste (bracketed if the pane enabled mode 2004). `send-keys` never
    /// plans one; older clients may still send it.
    Paste(String),
}

/// Terminal modes that change what a key sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct KeyModes {
    /// DECCKM (application cursor keys): unmodified arrows, Home and End use SS3.
    pub app_cursor: bool,
}

/// A key argument that looks like a key but would not send the key the caller meant.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid key spec {spec:?}: {reason}{}", did_you_mean(.suggestion.as_deref()))]
pub struct KeySpecError {
    pub spec: String,
    pub reason: &'static str,
    /// The key the argument is one slip away from (`Entr` → `Enter`, `Ctrl-c` → `C-c`).
    pub suggestion: Option<String>,
}

fn did_you_mean(suggestion: Option<&str>) -> String {
    suggestion.map_or_else(String::new, |key| {
        format!("; did you mean {key}? (`-l` types it as text)")
    })
}

impl ContractError for KeySpecError {
    fn code(&self) -> ErrorCode {
        ErrorCode::InvalidKeySpec
    }
    fn remedy(&self) -> String {
        if let Some(key) = &self.suggestion {
            return format!(
                "send `{key}` for the key, or pass -l to type {:?} as text; nothing was sent",
                self.spec
            );
        }
        "use a key name (Enter, Tab, Escape, Up, F5, ...), a modified key (C-c, M-x, C-M-a, S-Tab, C-Up), \
         or literal text; nothing was sent"
            .to_owned()
    }
}

/// One parsed key argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeySpec {
    /// An unmodified Enter/Return: the key that submits a pasted literal run.
    Enter,
    /// A key with its modifiers.
    Key { key: NamedKey, mods: Modifiers },
    /// A character with modifiers (`C-a`, `M-x`, `S-a`).
    Char { c: char, mods: Modifiers },
    /// Anything that is not a key: typed as text.
    Literal(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Modifiers {
    pub ctrl: bool,
    pub meta: bool,
    pub shift: bool,
}

impl Modifiers {
    fn any(self) -> bool {
        self.ctrl || self.meta || self.shift
    }

    /// The xterm modifier parameter: 1 + shift + 2·alt + 4·ctrl.
    fn xterm_param(self) -> u8 {
        1 + u8::from(self.shift) + 2 * u8::from(self.meta) + 4 * u8::from(self.ctrl)
    }
}

/// The keys that have a name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NamedKey {
    Enter,
    Tab,
    BTab,
    Escape,
    Space,
    BSpace,
    Up,
    Down,
    Left,
    Right,
    Home,
    End,
    PageUp,
    PageDown,
    Insert,
    Delete,
    F(u8),
}

/// A key name, matched case-insensitively as tmux does (`Enter`, `ENTER`, `enter`).
fn named_key(name: &str) -> Option<NamedKey> {
    use NamedKey::*;
    let lower = name.to_ascii_lowercase();
    Some(match lower.as_str() {
        "enter" | "return" => Enter,
        "tab" => Tab,
        "btab" => BTab,
        "escape" | "esc" => Escape,
        "space" => Space,
        "bspace" | "backspace" => BSpace,
        "up" => Up,
        "down" => Down,
        "left" => Left,
        "right" => Right,
        "home" => Home,
        "end" => End,
        "pageup" | "pgup" | "ppage" => PageUp,
        "pagedown" | "pgdn" | "npage" => PageDown,
        "ic" | "insert" => Insert,
        "dc" | "delete" => Delete,
        _ => return function_key(&lower).and_then(Result::ok),
    })
}

/// `F1`..`F12`; `Some(Err)` for a word shaped like a function key that is none (`F0`, `F99`).
fn function_key(lower: &str) -> Option<Result<NamedKey, &'static str>> {
    let digits = lower.strip_prefix('f')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(match digits.parse::<u8>() {
        Ok(n @ 1..=12) if !digits.starts_with('0') => Ok(NamedKey::F(n)),
        _ => Err("there are function keys F1 to F12 only"),
    })
}

/// Why a word that is no key name still looks like one (and so is refused rather than typed):
/// a function key out of range, or a keypad key (tmux's `KP0`..`KP9`, `KPEnter`, ...), which
/// phux does not send.
fn key_shaped(word: &str) -> Option<&'static str> {
    let lower = word.to_ascii_lowercase();
    if let Some(Err(reason)) = function_key(&lower) {
        return Some(reason);
    }
    let keypad = lower.strip_prefix("kp")?;
    let shaped = keypad == "enter"
        || (keypad.len() == 1
            && keypad
                .bytes()
                .all(|b| b.is_ascii_digit() || b"/*-+.".contains(&b)));
    shaped.then_some(
        "keypad keys (KP0..KP9, KPEnter, ...) are not supported; send the character or Enter",
    )
}

fn bad(spec: &str, reason: &'static str) -> KeySpecError {
    KeySpecError {
        spec: spec.to_owned(),
        reason,
        suggestion: None,
    }
}

/// Key names a slip of the keyboard could miss: long enough that a word one edit away from
/// one is far more likely a typo than text (`Entr`, `Escpae`), unlike `up` or `end`.
const SLIP_NAMES: &[&str] = &[
    "Enter",
    "Return",
    "Escape",
    "Space",
    "BSpace",
    "Backspace",
    "PageUp",
    "PageDown",
    "PPage",
    "NPage",
    "Insert",
    "Delete",
];

/// A word that is no key but one slip from one: a key name one edit away (a letter missing,
/// added, changed or two swapped) written as key names are, capitalised; or another tool's
/// modifier spelling (`Ctrl-c`, `Alt+x`, `Shift-Tab`).
fn slip(word: &str) -> Option<KeySpecError> {
    if let Some(key) = foreign_modifier(word) {
        return Some(KeySpecError {
            spec: word.to_owned(),
            reason: "phux writes modifiers as C-, M- and S-",
            suggestion: Some(key),
        });
    }
    let capitalised = word.chars().next().is_some_and(|c| c.is_ascii_uppercase());
    if named_key(word).is_some()
        || word.len() < 4
        || !capitalised
        || !word.bytes().all(|b| b.is_ascii_alphabetic())
    {
        return None;
    }
    let lower = word.to_ascii_lowercase();
    let near = SLIP_NAMES
        .iter()
        .find(|name| one_edit_apart(&lower, &name.to_ascii_lowercase()))?;
    Some(KeySpecError {
        spec: word.to_owned(),
        reason: "no key has this name",
        suggestion: Some((*near).to_owned()),
    })
}

/// `Ctrl-c`, `ctrl+c`, `Control-c`, `Alt-x`, `Meta-x`, `Shift-Tab`: the spelling phux takes
/// (`C-c`, `M-x`, `S-Tab`), when what follows is one character or a key name.
fn foreign_modifier(word: &str) -> Option<String> {
    let lower = word.to_ascii_lowercase();
    let (prefix, rest) = ["ctrl", "control", "alt", "meta", "option", "shift"]
        .iter()
        .find_map(|p| {
            let rest = lower.strip_prefix(p)?;
            let rest = rest.strip_prefix('-').or_else(|| rest.strip_prefix('+'))?;
            Some((*p, &word[word.len() - rest.len()..]))
        })?;
    let is_key = rest.chars().count() == 1 || named_key(rest).is_some();
    if !is_key {
        return None;
    }
    let ours = match prefix {
        "ctrl" | "control" => "C-",
        "alt" | "meta" | "option" => "M-",
        _ => "S-",
    };
    Some(format!("{ours}{rest}"))
}

/// Whether `a` becomes `b` by one insertion, deletion, substitution or swap of neighbours.
fn one_edit_apart(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a == b {
        return false;
    }
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let (ra, rb) = (&a[prefix..], &b[prefix..]);
    match ra.len() as isize - rb.len() as isize {
        0 => {
            ra[1..] == rb[1..]
                || (ra.len() >= 2 && ra[0] == rb[1] && ra[1] == rb[0] && ra[2..] == rb[2..])
        }
        1 => ra[1..] == *rb,
        -1 => *ra == rb[1..],
        _ => false,
    }
}

/// Splits leading `C-` / `M-` / `S-` prefixes (any case, as tmux reads them) off a spec.
/// Returns whether every prefix letter was upper case: `C-foo` is a broken key, while a word
/// such as `s-expr` is text.
fn split_modifiers(spec: &str) -> Result<(Modifiers, &str, bool), KeySpecError> {
    let mut mods = Modifiers::default();
    let mut rest = spec;
    let mut upper = true;
    loop {
        let (flag, letter) = match rest.as_bytes() {
            [l @ (b'C' | b'c'), b'-', ..] => (&mut mods.ctrl, *l),
            [l @ (b'M' | b'm'), b'-', ..] => (&mut mods.meta, *l),
            [l @ (b'S' | b's'), b'-', ..] => (&mut mods.shift, *l),
            _ => return Ok((mods, rest, upper)),
        };
        upper &= letter.is_ascii_uppercase();
        // `C--` is Ctrl plus the '-' key, not a second, empty modifier.
        let last = rest.len() == 3 && rest.ends_with("--");
        if *flag {
            return Err(bad(spec, "modifier repeated"));
        }
        *flag = true;
        if last {
            return Ok((mods, "-", upper));
        }
        rest = &rest[2..];
    }
}

impl KeySpec {
    /// Parses one key argument.
    pub fn parse(spec: &str) -> Result<KeySpec, KeySpecError> {
        if spec.eq_ignore_ascii_case("S-Tab") {
            return Ok(KeySpec::Key {
                key: NamedKey::BTab,
                mods: Modifiers::default(),
            });
        }
        if let Some(slip) = slip(spec) {
            return Err(slip);
        }
        let (mods, rest, upper) = split_modifiers(spec)?;
        if !mods.any() {
            if let Some(reason) = key_shaped(spec) {
                return Err(bad(spec, reason));
            }
            return Ok(match named_key(spec) {
                Some(NamedKey::Enter) => KeySpec::Enter,
                Some(key) => KeySpec::Key { key, mods },
                None => KeySpec::Literal(spec.to_owned()),
            });
        }
        if let Some(key) = named_key(rest) {
            return Ok(KeySpec::Key { key, mods });
        }
        let mut chars = rest.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Ok(KeySpec::Char { c, mods }),
            // A lower-case prefix on a word that names no key is text (`s-expr`, `c-style`).
            _ if !upper => Ok(KeySpec::Literal(spec.to_owned())),
            (None, _) => Err(bad(spec, "a modifier needs a key after it")),
            _ => Err(bad(
                spec,
                key_shaped(rest).unwrap_or("a modifier applies to one key name or one character"),
            )),
        }
    }

    /// The bytes this key sends when typed (a literal is its UTF-8 text).
    pub fn encode(&self, modes: KeyModes) -> Result<Vec<u8>, KeySpecError> {
        match self {
            KeySpec::Enter => Ok(b"\r".to_vec()),
            KeySpec::Literal(text) => Ok(text.as_bytes().to_vec()),
            KeySpec::Key { key, mods } => encode_named(*key, *mods, modes),
            KeySpec::Char { c, mods } => encode_char(*c, *mods),
        }
    }
}

fn spec_name(key: NamedKey, mods: Modifiers) -> String {
    let mut s = String::new();
    for (on, p) in [(mods.ctrl, "C-"), (mods.meta, "M-"), (mods.shift, "S-")] {
        if on {
            s.push_str(p);
        }
    }
    s.push_str(&format!("{key:?}"));
    s
}

/// CSI/SS3 sequences; modified cursor and function keys use xterm's `CSI 1;m X` form.
fn encode_named(key: NamedKey, mods: Modifiers, modes: KeyModes) -> Result<Vec<u8>, KeySpecError> {
    use NamedKey::*;
    let letter = |c: u8| -> Vec<u8> {
        if mods.any() {
            format!("\x1b[1;{}{}", mods.xterm_param(), c as char).into_bytes()
        } else if modes.app_cursor {
            vec![0x1b, b'O', c]
        } else {
            vec![0x1b, b'[', c]
        }
    };
    let tilde = |n: u8| -> Vec<u8> {
        if mods.any() {
            format!("\x1b[{n};{}~", mods.xterm_param()).into_bytes()
        } else {
            format!("\x1b[{n}~").into_bytes()
        }
    };
    let plain = |bytes: &[u8]| -> Result<Vec<u8>, KeySpecError> {
        // Only Meta composes with these: it is an ESC prefix. Ctrl/Shift have no encoding.
        if mods.ctrl || mods.shift {
            return Err(bad(
                &spec_name(key, mods),
                "this key takes only the M- modifier",
            ));
        }
        let mut out = if mods.meta { vec![0x1b] } else { Vec::new() };
        out.extend_from_slice(bytes);
        Ok(out)
    };
    Ok(match key {
        Enter => plain(b"\r")?,
        Tab if mods.shift && !mods.ctrl && !mods.meta => b"\x1b[Z".to_vec(),
        Tab => plain(b"\t")?,
        BTab => plain(b"\x1b[Z")?,
        Escape => plain(b"\x1b")?,
        Space if mods.ctrl => {
            let mut out = if mods.meta { vec![0x1b] } else { Vec::new() };
            if mods.shift {
                return Err(bad(&spec_name(key, mods), "S- has no encoding on Space"));
            }
            out.push(0);
            out
        }
        Space => plain(b" ")?,
        BSpace => plain(b"\x7f")?,
        Up => letter(b'A'),
        Down => letter(b'B'),
        Right => letter(b'C'),
        Left => letter(b'D'),
        Home => letter(b'H'),
        End => letter(b'F'),
        Insert => tilde(2),
        Delete => tilde(3),
        PageUp => tilde(5),
        PageDown => tilde(6),
        F(n @ 1..=4) => {
            let c = b"PQRS"[usize::from(n - 1)];
            if mods.any() {
                format!("\x1b[1;{}{}", mods.xterm_param(), c as char).into_bytes()
            } else {
                vec![0x1b, b'O', c]
            }
        }
        F(n) => {
            const CODES: [u8; 8] = [15, 17, 18, 19, 20, 21, 23, 24];
            let code = usize::from(n)
                .checked_sub(5)
                .and_then(|i| CODES.get(i))
                .copied()
                .ok_or_else(|| bad(&spec_name(key, mods), "no such function key"))?;
            tilde(code)
        }
    })
}

/// The C0 control a `C-x` produces, for the characters that have one.
fn control_of(c: char) -> Option<u8> {
    match c {
        'a'..='z' | 'A'..='Z' => Some((c as u8) & 0x1f),
        '@' | ' ' => Some(0x00),
        '[' => Some(0x1b),
        '\\' => Some(0x1c),
        ']' => Some(0x1d),
        '^' => Some(0x1e),
        '_' => Some(0x1f),
        '?' => Some(0x7f),
        _ => None,
    }
}

fn encode_char(c: char, mods: Modifiers) -> Result<Vec<u8>, KeySpecError> {
    let spec = || {
        let mut s = String::new();
        for (on, p) in [(mods.ctrl, "C-"), (mods.meta, "M-"), (mods.shift, "S-")] {
            if on {
                s.push_str(p);
            }
        }
        s.push(c);
        s
    };
    let mut out = if mods.meta { vec![0x1b] } else { Vec::new() };
    if mods.ctrl {
        if mods.shift {
            return Err(bad(&spec(), "C-S- has no encoding on a character"));
        }
        let byte =
            control_of(c).ok_or_else(|| bad(&spec(), "no control character for this key"))?;
        out.push(byte);
        return Ok(out);
    }
    let c = if mods.shift {
        if !c.is_ascii_lowercase() {
            return Err(bad(&spec(), "S- applies to a lowercase letter or Tab"));
        }
        c.to_ascii_uppercase()
    } else {
        c
    };
    let mut buf = [0u8; 4];
    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
    Ok(out)
}

/// Parses a batch of key arguments; the first bad one refuses the whole batch.
pub fn parse_keys<S: AsRef<str>>(specs: &[S]) -> Result<Vec<KeySpec>, KeySpecError> {
    specs.iter().map(|s| KeySpec::parse(s.as_ref())).collect()
}

/// Turns a batch of key arguments into what is written to the pane: keystrokes, exactly as
/// tmux's `send-keys` types them. Text is typed, never pasted (only `phux paste` brackets), so
/// `':wq' Enter` reaches vim as `:`, `w`, `q`, Return. The whole batch is checked before
/// anything is returned (all or nothing).
pub fn plan_keys<S: AsRef<str>>(
    specs: &[S],
    modes: KeyModes,
) -> Result<Vec<InputAction>, KeySpecError> {
    let mut bytes = Vec::new();
    for spec in parse_keys(specs)? {
        bytes.extend(spec.encode(modes)?);
    }
    Ok(if bytes.is_empty() {
        Vec::new()
    } else {
        vec![InputAction::Bytes(bytes)]
    })
}

const PASTE_START: &str = "\x1b[200~";
const PASTE_END: &str = "\x1b[201~";

/// The bytes of a paste. With mode 2004 on, the text is wrapped in `ESC[200~ … ESC[201~` and
/// every paste marker inside it is removed first, so the text cannot end the paste early and
/// have the rest run as typed input.
pub fn bracketed_paste(text: &str, enabled: bool) -> Vec<u8> {
    if !enabled {
        return text.as_bytes().to_vec();
    }
    let mut body = text.to_owned();
    // Removing one marker can join its neighbours into a new one, so repeat until none is left.
    while body.contains(PASTE_END) || body.contains(PASTE_START) {
        body = body.replace(PASTE_END, "").replace(PASTE_START, "");
    }
    let mut out = Vec::with_capacity(body.len() + PASTE_START.len() + PASTE_END.len());
    out.extend_from_slice(PASTE_START.as_bytes());
    out.extend_from_slice(body.as_bytes());
    out.extend_from_slice(PASTE_END.as_bytes());
    out
}
