// phux in a browser: a fleet view (sessions, panes, agent states and asks) and one pane live,
// drawn by ghostty-web at the pane's own size (see view.js), with its history.
import { Conn } from '/conn.js';
import { PaneView, HISTORY_ROWS } from '/view.js';
import { keyRow, takeInsertedText } from '/keys.js';

const $ = (id) => document.getElementById(id);
const POLL_MS = 1000;
// Redialing after the connection dropped: at once nearly (an upgrade's new server listens
// again within a fraction of a second), doubling up to every 250 ms, so a server back after
// an outage has the page again within half a second.
const RECONNECT_FIRST_MS = 50;
const RECONNECT_MAX_MS = 250;
// A drop shorter than this (an orderly upgrade) is told quietly, not as an error.
const QUIET_DROP_MS = 3000;
// A pane's stream that ended while the control connection stays is opened again after this.
const VIEWER_REOPEN_MS = 250;
let reconnectDelay = RECONNECT_FIRST_MS;
let droppedAt = 0;

function redialSoon() {
  setTimeout(reconnect, reconnectDelay);
  reconnectDelay = Math.min(reconnectDelay * 2, RECONNECT_MAX_MS);
  // Still down after the quiet spell: now it is worth the red.
  if (droppedAt && Date.now() - droppedAt > QUIET_DROP_MS) {
    ui.notice(`Disconnected: ${app.dropReason}. Reconnecting…`, true);
  }
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
  size(text) { $('size').textContent = text || ''; },
};

const app = {
  token: null,
  ghostty: null,
  control: null,
  viewer: null,
  view: null,
  pane: null,
  readOnly: false,
  state: null,
  agents: new Map(),
  dropReason: '',
  typed: (data) => data,
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
      meta.textContent = `${pane.cols}x${pane.rows}` + (agent ? ` · ${agent}` : '')
        + (pane.lease ? ` · held by ${pane.lease.holder}` : '');
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
      button.onclick = () => { document.body.classList.remove('fleet-open'); showPane(pane.id); };
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
    renderLease();
    if (app.pane === null) {
      const first = app.state.sessions.flatMap((s) => s.windows.flatMap((w) => w.panes))[0];
      if (first) showPane(first.id);
      else ui.notice('No panes yet.');
    }
  } catch (error) {
    if (!app.control.closed) ui.notice(`The fleet could not be read: ${error.message}`, true);
  }
}

function sendInput(data) {
  if (app.pane === null || !app.control || app.control.closed) return;
  // ghostty-web also reports its own answers to the output's queries through onData; the
  // server's engine answers those already, so only what a person types is sent.
  if (/^\x1b(\[[?>=]?[\d;]*[cRnyt]|\]|P)/.test(data)) return;
  data = app.typed(data);
  const bytes = Array.from(new TextEncoder().encode(data));
  app.control
    .request({ type: 'input', pane: app.pane, actions: [{ kind: 'bytes', data: bytes }], actor: 'web' })
    .then(() => { if (!app.readOnly) ui.badge(''); })
    .catch((error) => {
      if (error.code === 'permission_denied') {
        setReadOnly(true);
        ui.badge('read-only: typing refused');
      } else {
        ui.badge(`not typed: ${error.message}`);
      }
    });
}

function setReadOnly(readOnly) {
  app.readOnly = readOnly;
  document.body.classList.toggle('read-only', readOnly);
  $('fit').hidden = readOnly;
  renderLease();
}

function layout() {
  if (!app.view) return;
  ui.size(app.view.layout());
  document.body.dataset.scale = String(app.view.scale);
  document.body.dataset.cropped = String(app.view.cropped);
}

// The pane's input lease (`phux take`): who holds it, and Take / Give back for a credential
// that may write. The page holds it as `web`, with its control connection: closing the page
// gives it back.
const LEASE_HOLDER = 'web';

function paneOf(id) {
  for (const session of (app.state && app.state.sessions) || []) {
    for (const pane of session.windows.flatMap((w) => w.panes).concat(session.unplaced || [])) {
      if (pane.id === id) return pane;
    }
  }
  return null;
}

function renderLease() {
  const pane = app.pane === null ? null : paneOf(app.pane);
  const holder = pane && pane.lease ? pane.lease.holder : null;
  $('lease-holder').textContent = holder ? `held by ${holder}` : '';
  const button = $('lease');
  button.hidden = app.readOnly || app.pane === null;
  button.textContent = holder === LEASE_HOLDER ? 'Give back' : 'Take';
  button.dataset.held = String(holder === LEASE_HOLDER);
}

async function toggleLease() {
  if (app.readOnly || app.pane === null) return;
  const give = $('lease').dataset.held === 'true';
  try {
    await app.control.request({ type: 'lease', pane: app.pane, take: !give, holder: LEASE_HOLDER,
                                with_connection: true });
    await poll();
  } catch (error) {
    ui.badge(`${give ? 'not given back' : 'not taken'}: ${error.message}`);
  }
}

// "Fit": the pane takes this window's size, as `phux resize` would make it. Refused (and
// hidden) for a read-only credential.
async function fitPane() {
  if (!app.view || app.pane === null || app.readOnly) return;
  const size = app.view.fittingSize();
  if (!size) return;
  try {
    await app.control.request({ type: 'resize', pane: app.pane, cols: size.cols, rows: size.rows });
  } catch (error) {
    if (error.code === 'permission_denied') { setReadOnly(true); ui.badge('read-only: watching'); }
    else ui.badge(`not resized: ${error.message}`);
  }
}

async function showPane(id) {
  if (app.viewer) app.viewer.close();
  app.pane = id;
  renderFleet();
  renderLease();
  $('where').replaceChildren();
  const b = document.createElement('b');
  b.textContent = `@${id}`;
  $('where').append('Pane ', b);
  // The pane's repaint can arrive in the same message as the answer to `observe`, before the
  // terminal exists: it is kept until then.
  let early = [];
  let earlySize = null;
  let view = null;
  const viewer = new Conn(app.token, {
    onOutput: (pane, bytes) => {
      if (pane !== id) return;
      if (view) view.write(bytes);
      else early.push(bytes);
    },
    onMessage: (message) => {
      if (message.type === 'resized' && message.pane === id) {
        if (view) view.resize(message.cols, message.rows);
        else earlySize = [message.cols, message.rows];
      }
    },
    // The stream ends before the control connection does in an upgrade: not an error. The
    // pane is opened again soon (by `reconnect` when the control connection dropped too);
    // a pane that is gone says so then.
    onClose: () => {
      if (app.viewer !== viewer) return;
      ui.badge('reconnecting…');
      setTimeout(() => {
        if (app.viewer === viewer && app.control && !app.control.closed) showPane(id);
      }, VIEWER_REOPEN_MS);
    },
  });
  app.viewer = viewer;
  try {
    await viewer.open();
    const start = await viewer.request({ type: 'observe', pane: id, viewer: true,
                                         history_rows: HISTORY_ROWS });
    if (app.view) app.view.dispose();
    $('stage').hidden = false;
    ui.notice('');
    const made = new PaneView(app.ghostty, $('stage'), {
      cols: start.cols, rows: start.rows, onData: sendInput,
      // A new terminal after each resize: laid out anew, the scale told again.
      onReplaced: () => { layout(); requestAnimationFrame(layout); },
    });
    takeInsertedText(made.screen, sendInput);
    if (earlySize) made.resize(...earlySize);
    for (const bytes of early) made.write(bytes);
    early = [];
    view = made;
    app.view = made;
    await made.start();
    if (!app.readOnly) ui.badge('');
    // For tests and measurements (tests/browser/): the terminal shown, and typing as the
    // keyboard would.
    window.phuxView = made;
    window.phuxType = sendInput;
    made.focus();
  } catch (error) {
    ui.notice(`Pane @${id} could not be shown: ${error.message}`, true);
  }
}

// The control connection; when it drops (the server restarted, `phux upgrade`, the network),
// it is dialed again (after 50 ms, doubling up to every 250 ms), and the pane shown again,
// until a token refusal.
async function connect() {
  const control = new Conn(app.token, {
    onClose: (reason) => {
      if (app.control !== control) return;
      droppedAt = Date.now();
      app.dropReason = reason;
      ui.badge('reconnecting…');
      document.body.dataset.state = 'closed';
      redialSoon();
    },
  });
  const welcome = await control.open();
  app.control = control;
  setReadOnly(Boolean(welcome.read_only));
  // A server started afresh (not an upgrade) numbers its panes anew: the @N shown before is
  // not the pane of that name now, so the page starts from the list again.
  if (app.instance !== undefined && welcome.instance !== app.instance) {
    if (app.viewer) app.viewer.close();
    if (app.view) app.view.dispose();
    app.viewer = null;
    app.view = null;
    app.pane = null;
    $('stage').hidden = true;
    $('where').textContent = 'Choose a pane';
    ui.size('');
  }
  app.instance = welcome.instance;
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
  droppedAt = 0;
  document.body.dataset.state = 'connected';
  ui.notice('');
  ui.badge('');
  await poll();
  if (app.pane !== null) showPane(app.pane);
}

// The terminal's script, or what is missing and the command that installs it.
async function loadTerminal() {
  try {
    return await import('/ghostty-web.js');
  } catch (error) {
    let why = error.message;
    try {
      const answer = await fetch('/ghostty-web.js');
      if (!answer.ok) why = (await answer.text()).slice(0, 2000);
    } catch (_) { /* the message from the import stands */ }
    ui.notice(`The web terminal could not be loaded. ${why}`, true);
    document.body.dataset.state = 'missing';
    return null;
  }
}

async function main() {
  $('host').textContent = location.host;
  $('fleet-toggle').onclick = () => document.body.classList.toggle('fleet-open');
  $('fit').onclick = fitPane;
  $('lease').onclick = toggleLease;
  app.typed = keyRow($('keys'), {
    send: sendInput,
    scroll: (pages) => app.view && app.view.scrollPages(pages),
    focus: () => app.view && app.view.focus(),
  });
  app.token = takeToken();
  if (!app.token) {
    ui.notice('No token: open the connect link that `phux pair` printed.', true);
    return;
  }
  const ghostty = await loadTerminal();
  if (!ghostty) return;
  try {
    await ghostty.init();
  } catch (error) {
    ui.notice(`The web terminal did not start: ${error.message}`, true);
    return;
  }
  app.ghostty = ghostty;
  Object.defineProperty(window, 'phuxTerminal', { get: () => app.view && app.view.term });
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
  // A window that changes size shows the pane scaled anew; the pane keeps its size.
  window.addEventListener('resize', () => { clearTimeout(timer); timer = setTimeout(layout, 100); });
}

main();
