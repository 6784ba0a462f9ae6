// A pane shown at the pane's own size. The pane's size belongs to whoever sized it (the TUI at
// the keyboard, `phux resize`): showing it never changes it. The page scales the terminal
// down to fit its window, no further than MIN_SCALE (smaller is unreadable), and past that
// lets the rest be scrolled to; the bar says which. "Fit" is the one thing that resizes the
// pane to the window, as `phux resize` would, and only a credential that may write has it.

// The smallest scale the page shows a pane at; a pane that would need less is cropped and
// scrolled instead.
export const MIN_SCALE = 0.5;
// Rows of history the page asks for when it opens a pane, the most the server sends.
export const HISTORY_ROWS = 10000;
// The engine's scrollback is a byte budget: about 10 bytes a cell, and a page (64k cells)
// more, for the rows asked, at the widest the pane is likely to become.
const scrollbackBytes = (cols) => (HISTORY_ROWS * Math.max(cols, 200) + 65536) * 10;

// ghostty-web 0.4.0 reuses the memory a terminal frees (a reset, a reflow) without clearing
// it, so rows written after a reset or a resize kept old text ("490t-139" for "490"). So the
// page never resets nor resizes a terminal: every repaint from a reset (the server's keyframe
// after each resize of the pane, and a flood's) gets a new terminal in a new engine instance,
// whose memory is fresh; one spare instance is kept loaded so the swap is quick.
const RESET = [0x1b, 0x63];
const startsWithReset = (bytes) => bytes.length >= 2 && bytes[0] === RESET[0] && bytes[1] === RESET[1];

export class PaneView {
  // `stage` scrolls; the terminal is drawn inside it at its own size, then scaled.
  constructor(ghostty, stage, { cols, rows, onData, onReplaced }) {
    this.ghostty = ghostty;
    this.stage = stage;
    this.onData = onData;
    this.onReplaced = onReplaced || (() => {});
    this.sizer = document.createElement('div');
    this.sizer.className = 'sizer';
    this.screen = document.createElement('div');
    this.screen.className = 'screen';
    this.sizer.append(this.screen);
    stage.replaceChildren(this.sizer);
    this.size = { cols, rows };
    this.scale = 1;
    this.cropped = false;
    this.term = null;
    // Output while a new terminal is made waits here, in order.
    this.pending = null;
    this.spare = ghostty.Ghostty.load();
  }

  // Makes the terminal (at the pane's size, in a fresh engine instance); output waiting for
  // it is written once it is there.
  async start() { await this.replace(); }

  async replace() {
    const engine = await this.spare;
    if (this.disposed) return;
    this.spare = this.ghostty.Ghostty.load();
    const { cols, rows } = this.size;
    const focused = this.stage.contains(document.activeElement);
    if (this.term) this.term.dispose();
    this.screen.replaceChildren();
    const term = new this.ghostty.Terminal({
      cols, rows, fontSize: 14, cursorBlink: false, scrollback: scrollbackBytes(cols),
      smoothScrollDuration: 0, ghostty: engine,
      theme: { background: '#16181d', foreground: '#d7dae0' },
    });
    term.open(this.screen);
    term.onData(this.onData);
    // Shift+PageUp/PageDown scroll through the history, as in most terminals; without Shift
    // they go to the program.
    term.attachCustomKeyEventHandler((event) => {
      if (event.type !== 'keydown' || !event.shiftKey) return false;
      if (event.key === 'PageUp') { this.scrollPages(-1); return true; }
      if (event.key === 'PageDown') { this.scrollPages(1); return true; }
      return false;
    });
    this.term = term;
    const waiting = this.pending || [];
    this.pending = null;
    for (const bytes of waiting) term.write(bytes);
    if (focused) term.focus();
    this.onReplaced(term);
  }

  // Output from the pane: a repaint from a reset starts a new terminal (the output before
  // it, still waiting, is dropped: the repaint covers it).
  write(bytes) {
    if (startsWithReset(bytes)) {
      const starting = this.pending !== null;
      this.pending = [bytes.subarray(2)];
      if (!starting) this.replace();
      return;
    }
    if (this.pending !== null || !this.term) (this.pending ||= []).push(bytes);
    else this.term.write(bytes);
  }

  scrollPages(pages) { if (this.term) this.term.scrollPages(pages); }

  // The pane's size changed (a resize anyone did): the repaint with history the server sends
  // after every resize makes the terminal anew at this size.
  resize(cols, rows) {
    this.size = { cols, rows };
  }

  // The terminal's size drawn at scale 1, in CSS pixels.
  natural() {
    const canvas = this.screen.querySelector('canvas');
    return canvas ? { width: canvas.offsetWidth, height: canvas.offsetHeight } : null;
  }

  // Scales the terminal to the stage: to fit where it can at MIN_SCALE or more, else at
  // MIN_SCALE with the rest scrolled to. Returns what the bar says.
  layout() {
    const size = this.natural();
    if (!size || !size.width || !this.term) return '';
    const room = this.room();
    const fits = Math.min(room.width / size.width, room.height / size.height, 1);
    this.scale = Math.max(fits, MIN_SCALE);
    const width = Math.ceil(size.width * this.scale), height = Math.ceil(size.height * this.scale);
    this.cropped = width > room.width + 1 || height > room.height + 1;
    this.screen.style.transform = this.scale < 1 ? `scale(${this.scale})` : '';
    this.sizer.style.width = `${width}px`;
    this.sizer.style.height = `${height}px`;
    return this.describe();
  }

  room() {
    const style = getComputedStyle(this.stage);
    const pad = (a, b) => parseFloat(style[a]) + parseFloat(style[b]);
    return {
      width: this.stage.clientWidth - pad('paddingLeft', 'paddingRight'),
      height: this.stage.clientHeight - pad('paddingTop', 'paddingBottom'),
    };
  }

  describe() {
    const parts = [`${this.term.cols}x${this.term.rows}`];
    if (this.scale < 1) parts.push(`scaled to ${Math.round(this.scale * 100)}%`);
    if (this.cropped) parts.push('cropped: scroll to see the rest');
    return parts.join(' · ');
  }

  // The size that fills the stage at scale 1: what "Fit" asks the pane to become.
  fittingSize() {
    const size = this.natural();
    if (!size || !size.width || !this.term) return null;
    const cell = { width: size.width / this.term.cols, height: size.height / this.term.rows };
    const room = this.room();
    return {
      cols: Math.max(2, Math.floor(room.width / cell.width)),
      rows: Math.max(1, Math.floor(room.height / cell.height)),
    };
  }

  focus() { if (this.term) this.term.focus(); }

  dispose() {
    if (this.term) this.term.dispose();
    this.term = null;
    this.pending = null;
    this.disposed = true;
    this.stage.replaceChildren();
  }
}
