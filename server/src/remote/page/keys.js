// Typing beyond the keyboard's keys: the on-screen key row (a phone has no Esc, Ctrl, Tab or
// arrows) and text that arrives without key events (an emoji picker, dictation, a
// correction's replacement), which the terminal's own input handler would drop.

const SEQUENCES = {
  esc: '\x1b', tab: '\t',
  up: '\x1b[A', down: '\x1b[B', right: '\x1b[C', left: '\x1b[D',
};

// Ctrl held from the key row applies to the next key typed: a letter (or @[\]^_) becomes its
// control code.
export function withCtrl(data) {
  if (data.length !== 1) return data;
  const code = data.toUpperCase().charCodeAt(0);
  if (code >= 0x40 && code <= 0x5f) return String.fromCharCode(code & 0x1f);
  if (data === ' ') return '\x00';
  return data;
}

// Builds the key row into `row`; `send` types, `scroll` moves through history by pages.
export function keyRow(row, { send, scroll, focus }) {
  const state = { ctrl: false };
  const keys = [
    ['Esc', () => send(SEQUENCES.esc)],
    ['Ctrl', (button) => { state.ctrl = !state.ctrl; button.classList.toggle('held', state.ctrl); }],
    ['Tab', () => send(SEQUENCES.tab)],
    ['←', () => send(SEQUENCES.left)], ['↑', () => send(SEQUENCES.up)],
    ['↓', () => send(SEQUENCES.down)], ['→', () => send(SEQUENCES.right)],
    ['PgUp', () => scroll(-1)], ['PgDn', () => scroll(1)],
  ];
  row.replaceChildren();
  const buttons = keys.map(([label, act]) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = label;
    button.dataset.key = label;
    // Pressed without taking the focus from the terminal (the phone's keyboard stays up).
    button.addEventListener('pointerdown', (event) => event.preventDefault());
    button.addEventListener('click', () => { act(button); focus(); });
    return button;
  });
  row.append(...buttons);
  const ctrlButton = buttons[1];
  // Typing passes through here: a held Ctrl is applied once, then released.
  return (data) => {
    if (!state.ctrl) return data;
    state.ctrl = false;
    ctrlButton.classList.remove('held');
    return withCtrl(data);
  };
}

// Text inserted into the terminal without key events arrives as `beforeinput` of these kinds;
// the terminal's element cancels them (its key handler types what keys type), so they are
// taken here first, in the capture phase, and typed. Composition (an IME) ends in the
// terminal's own `compositionend`, which types it.
const INSERTED = new Set(['insertText', 'insertReplacementText', 'insertFromDrop']);

export function takeInsertedText(element, send) {
  element.addEventListener('beforeinput', (event) => {
    if (!INSERTED.has(event.inputType) || event.isComposing) return;
    const text = event.data ?? event.dataTransfer?.getData('text/plain') ?? '';
    if (text) send(text);
  }, { capture: true });
}
