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

export class PaneView {
  // `stage` scrolls; the terminal is drawn inside it at its own size, then scaled.
  constructor(Terminal, stage, { cols, rows, onData }) {
    this.stage = stage;
    this.sizer = document.createElement('div');
    this.sizer.className = 'sizer';
    this.screen = document.createElement('div');
    this.screen.className = 'screen';
    this.sizer.append(this.screen);
    stage.replaceChildren(this.sizer);
    this.term = new Terminal({
      cols, rows, fontSize: 14, cursorBlink: false, scrollback: scrollbackBytes(cols),
      smoothScrollDuration: 0,
      theme: { background: '#16181d', foreground: '#d7dae0' },
    });
    this.term.open(this.screen);
    this.term.onData(onData);
    // Shift+PageUp/PageDown scroll through the history, as in most terminals; without Shift
    // they go to the program.
    this.term.attachCustomKeyEventHandler((event) => {
      if (event.type !== 'keydown' || !event.shiftKey) return false;
      if (event.key === 'PageUp') { this.scrollPages(-1); return true; }
      if (event.key === 'PageDown') { this.scrollPages(1); return true; }
      return false;
    });
    this.scale = 1;
    this.cropped = false;
  }

  write(bytes) { this.term.write(bytes); }

  scrollPages(pages) { this.term.scrollPages(pages); }

  // The pane's size changed (a resize anyone did): the terminal follows, and the server's
  // repaint with history that follows every resize makes its rows the server's.
  resize(cols, rows) {
    if (cols !== this.term.cols || rows !== this.term.rows) this.term.resize(cols, rows);
    this.layout();
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
    if (!size || !size.width) return '';
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
    if (!size || !size.width) return null;
    const cell = { width: size.width / this.term.cols, height: size.height / this.term.rows };
    const room = this.room();
    return {
      cols: Math.max(2, Math.floor(room.width / cell.width)),
      rows: Math.max(1, Math.floor(room.height / cell.height)),
    };
  }

  focus() { this.term.focus(); }

  dispose() { this.term.dispose(); this.stage.replaceChildren(); }
}
