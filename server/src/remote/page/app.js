// phux in a browser: a fleet view (sessions, panes, agent states and asks) and one pane live,
// drawn by ghostty-web. It speaks phux's own client protocol over a WebSocket: frames of a
// u32 big-endian length, a kind byte (1: JSON message, 2: pane output) and the body.
import { init, Terminal, FitAddon } from '/ghostty-web.js';

const $ = (id) => document.getElementById(id);
const PROTOCOL = { major: 1, minor: 0 };
const KIND_JSON = 1, KIND_OUTPUT = 2;
const POLL_MS = 1000;
// Redialing after the connection dropped: soon at first (an upgrade or a server taking the
// panes over is back in a fraction of a second), then less often, up to every 2 s.
const RECONNECT_FIRST_MS = 100;
const RECONNECT_MAX_MS = 2000;
let reconnectDelay = RECONNECT_FIRST_MS;

function redialSoon() {
  setTimeout(reconnect, reconnectDelay);
  reconnectDelay = Math.min(Math.round(reconnectDelay * 1.5), RECONNECT_MAX_MS);
}

function takeToken() {
  const hash = new URLSearchParams(location.hash.slice(1));
  const fromHash = hash.get('token');
  if (fromHash) {
    sessionStorage.setItem('phux-token', fromHash);
    // The token stays out of the address bar, history and bookmarks.
    history.replaceState(null, '', location.pathname);
  }
  return sessionStorage.getItem('phux-token');
}

// One client connection: hello, then requests answered in order, or a stream.
class Conn {
  constructor(token, { onOutput, onMessage, onClose } = {}) {
    this.token = token;
    this.nextId = 1;
    this.pending = new Map();
    this.buffer = new Uint8Array(0);
    this.onOutput = onOutput || (() => {});
    this.onMessage = onMessage || (() => {});
    this.onClose = onClose || (() => {});
    this.closed = false;
  }

  open() {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`wss://${location.host}/wire`);
      ws.binaryType = 'arraybuffer';
      this.ws = ws;
      this.welcomed = { resolve, reject };
      ws.onopen = () => {
        ws.send(JSON.stringify({ token: this.token }));
        this.sendJson({ type: 'hello', protocol: PROTOCOL, client: 'phux-web' });
      };
      ws.onmessage = (event) => this.receive(new Uint8Array(event.data));
      ws.onclose = (event) => {
        this.closed = true;
        const reason = event.reason || `the connection closed (code ${event.code})`;
        if (this.welcomed) { this.welcomed.reject(new Error(reason)); this.welcomed = null; }
        for (const { reject: fail } of this.pending.values()) fail(new Error(reason));
        this.pending.clear();
        this.onClose(reason);
      };
    });
  }

  close() { if (this.ws) this.ws.close(); }

  sendJson(message) {
    const body = new TextEncoder().encode(JSON.stringify(message));
    const frame = new Uint8Array(5 + body.length);
    new DataView(frame.buffer).setUint32(0, body.length + 1);
    frame[4] = KIND_JSON;
    frame.set(body, 5);
    this.ws.send(frame);
  }

  request(message) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.sendJson({ ...message, id });
    });
  }

  receive(bytes) {
    const joined = new Uint8Array(this.buffer.length + bytes.length);
    joined.set(this.buffer);
    joined.set(bytes, this.buffer.length);
    let at = 0;
    while (joined.length - at >= 4) {
      const len = new DataView(joined.buffer, at).getUint32(0);
      if (joined.length - at - 4 < len) break;
      const kind = joined[at + 4];
      const body = joined.subarray(at + 5, at + 4 + len);
      at += 4 + len;
      if (kind === KIND_OUTPUT) {
        const view = new DataView(body.buffer, body.byteOffset);
        this.onOutput(view.getUint32(0), body.slice(20));
      } else if (kind === KIND_JSON) {
        this.dispatch(JSON.parse(new TextDecoder().decode(body)));
      }
    }
    this.buffer = joined.slice(at);
  }

  dispatch(message) {
    if (message.type === 'welcome' && this.welcomed) {
      this.welcomed.resolve(message); this.welcomed = null; return;
    }
    if (message.type === 'refused' && this.welcomed) {
      this.welcomed.reject(new Error(message.reason)); this.welcomed = null; return;
    }
    if (message.type === 'response' && this.pending.has(message.id)) {
      const { resolve, reject } = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error) reject(Object.assign(new Error(message.error.message), message.error));
      else resolve(message.ok);
      return;
    }
    this.onMessage(message);
  }
}

const ui = {
  notice(text, error = false) {
    const el = $('notice');
    el.textContent = text;
    el.className = error ? 'error' : '';
    el.hidden = !text;
  },
  badge(text) {
    const el = $('badge');
    el.textContent = text || '';
    el.hidden = !text;
  },
};

const app = {
  token: null,
  control: null,
  viewer: null,
  term: null,
  fit: null,
  pane: null,
  readOnly: false,
  state: null,
  agents: new Map(),
};

function paneLabel(pane, report) {
  return (report && report.title) || pane.title || '';
}

function renderFleet() {
  const list = $('panes');
  list.replaceChildren();
  const state = app.state;
  if (!state) return;
  const asks = new Map((state.asks || []).map((ask) => [ask.pane, ask]));
  for (const session of state.sessions) {
    const head = document.createElement('div');
    head.className = 'session';
    head.textContent = session.name;
    list.append(head);
    const panes = session.windows.flatMap((w) => w.panes.map((p) => ({ ...p, window: w.name })));
    for (const pane of panes.concat(session.unplaced || [])) {
      const report = app.agents.get(pane.id);
      const button = document.createElement('button');
      button.className = 'pane' + (pane.id === app.pane ? ' selected' : '');
      button.dataset.pane = pane.id;
      const title = document.createElement('span');
      title.className = 'title';
      title.textContent = `@${pane.id} ${paneLabel(pane, report)}`;
      const meta = document.createElement('span');
      meta.className = 'meta';
      const agent = report && (report.record?.kind || report.occupant?.kind);
      const stateName = report && report.state;
      meta.textContent = `${pane.cols}x${pane.rows}` + (agent ? ` · ${agent}` : '');
      if (stateName) {
        const s = document.createElement('span');
        s.className = `state-${stateName}`;
        s.textContent = ` · ${stateName}`;
        meta.append(s);
      }
      button.append(title, meta);
      const ask = asks.get(pane.id) || (report && report.ask);
      if (ask) {
        const a = document.createElement('span');
        a.className = 'ask';
        a.textContent = `asks: ${ask.question || ask.prompt || ''}`;
        button.append(a);
      }
      button.onclick = () => showPane(pane.id);
      list.append(button);
    }
  }
}

async function poll() {
  if (!app.control || app.control.closed) return;
  try {
    app.state = await app.control.request({ type: 'get_state' });
    try {
      const inspected = await app.control.request({ type: 'agent_inspect', panes: [] });
      app.agents = new Map((inspected.panes || []).map((r) => [r.pane, r]));
    } catch (_) { /* detection may be off: the list still shows */ }
    renderFleet();
    if (app.pane === null) {
      const first = app.state.sessions.flatMap((s) => s.windows.flatMap((w) => w.panes))[0];
      if (first) showPane(first.id);
      else ui.notice('No panes yet.');
    }
  } catch (error) {
    ui.notice(`The fleet could not be read: ${error.message}`, true);
  }
}

function sendInput(data) {
  if (app.pane === null || !app.control || app.control.closed) return;
  // ghostty-web also reports its own answers to the output's queries through onData; the
  // server's engine answers those already, so only what a person types is sent.
  if (/^\x1b(\[[?>=]?[\d;]*[cRnyt]|\]|P)/.test(data)) return;
  const bytes = Array.from(new TextEncoder().encode(data));
  app.control
    .request({ type: 'input', pane: app.pane, actions: [{ kind: 'bytes', data: bytes }], actor: 'web' })
    .then(() => { if (!app.readOnly) ui.badge(''); })
    .catch((error) => {
      if (error.code === 'permission_denied') {
        app.readOnly = true;
        ui.badge('read-only: typing refused');
      } else {
        ui.badge(`not typed: ${error.message}`);
      }
    });
}

function fitPane() {
  if (!app.fit || app.pane === null || app.readOnly) return;
  const size = app.fit.proposeDimensions();
  if (!size || !size.cols || !size.rows) return;
  if (size.cols === app.term.cols && size.rows === app.term.rows) return;
  app.control
    .request({ type: 'resize', pane: app.pane, cols: size.cols, rows: size.rows })
    .catch((error) => {
      if (error.code === 'permission_denied') { app.readOnly = true; ui.badge('read-only: watching'); }
    });
}

async function showPane(id) {
  if (app.viewer) app.viewer.close();
  app.pane = id;
  renderFleet();
  $('where').innerHTML = '';
  const b = document.createElement('b');
  b.textContent = `@${id}`;
  $('where').append('Pane ', b);
  // The pane's repaint can arrive in the same message as the answer to `observe`, before the
  // terminal exists: it is kept until then.
  let early = [];
  let term = null;
  const viewer = new Conn(app.token, {
    onOutput: (pane, bytes) => {
      if (pane !== id) return;
      if (term) term.write(bytes);
      else early.push(bytes);
    },
    onMessage: (message) => {
      if (message.type === 'resized' && message.pane === id && term) {
        term.resize(message.cols, message.rows);
      }
    },
    onClose: (reason) => { if (app.viewer === viewer) ui.notice(`The pane's stream ended: ${reason}`, true); },
  });
  app.viewer = viewer;
  try {
    await viewer.open();
    const start = await viewer.request({ type: 'observe', pane: id, viewer: true });
    if (app.term) app.term.dispose();
    $('terminal').replaceChildren();
    $('terminal').hidden = false;
    ui.notice('');
    const made = new Terminal({ cols: start.cols, rows: start.rows, fontSize: 14, cursorBlink: false,
                                theme: { background: '#16181d', foreground: '#d7dae0' } });
    const fit = new FitAddon();
    made.loadAddon(fit);
    made.open($('terminal'));
    for (const bytes of early) made.write(bytes);
    early = [];
    term = made;
    term.onData(sendInput);
    app.term = term;
    app.fit = fit;
    window.phuxTerminal = made;
    // For measurements (tests/browser/echo.mjs): type as the keyboard would.
    window.phuxType = sendInput;
    term.focus();
    setTimeout(fitPane, 50);
  } catch (error) {
    ui.notice(`Pane @${id} could not be shown: ${error.message}`, true);
  }
}

// The control connection; when it drops (the server restarted, `phux upgrade`, the network),
// it is dialed again (after 100 ms, then less often, up to every 2 s), and the pane shown
// again, until a token refusal.
async function connect() {
  const control = new Conn(app.token, {
    onClose: (reason) => {
      if (app.control !== control) return;
      ui.notice(`Disconnected: ${reason}. Reconnecting…`, true);
      document.body.dataset.state = 'closed';
      redialSoon();
    },
  });
  await control.open();
  app.control = control;
}

async function reconnect() {
  try {
    await connect();
  } catch (error) {
    if (/token|credential|revoked|expired|rotated/.test(error.message)) {
      ui.notice(`Refused: ${error.message}`, true);
      document.body.dataset.state = 'refused';
      return;
    }
    redialSoon();
    return;
  }
  reconnectDelay = RECONNECT_FIRST_MS;
  document.body.dataset.state = 'connected';
  ui.notice('');
  await poll();
  if (app.pane !== null) showPane(app.pane);
}

async function main() {
  $('host').textContent = location.host;
  app.token = takeToken();
  if (!app.token) {
    ui.notice('No token: open the connect link that `phux pair` printed.', true);
    return;
  }
  try {
    await init();
  } catch (error) {
    ui.notice(`The web terminal did not load: ${error.message}`, true);
    return;
  }
  try {
    await connect();
  } catch (error) {
    ui.notice(`Refused: ${error.message}`, true);
    document.body.dataset.state = 'refused';
    return;
  }
  document.body.dataset.state = 'connected';
  await poll();
  setInterval(poll, POLL_MS);
  let timer = null;
  window.addEventListener('resize', () => { clearTimeout(timer); timer = setTimeout(fitPane, 150); });
}

main();
