// One client connection to phux over the listener's WebSocket: the token first, then phux's
// own client protocol in frames of a u32 big-endian length, a kind byte (1: JSON message,
// 2: pane output) and the body. Requests are answered in order, or the connection becomes a
// stream (`observe`).

const PROTOCOL = { major: 1, minor: 0 };
const KIND_JSON = 1, KIND_OUTPUT = 2;
// The most a frame may say it holds; a larger length is a broken stream, not a frame to wait for.
const MAX_FRAME = 64 << 20;

export class Conn {
  constructor(token, { onOutput, onMessage, onClose } = {}) {
    this.token = token;
    this.nextId = 1;
    this.pending = new Map();
    this.buffer = new Uint8Array(0);
    this.onOutput = onOutput || (() => {});
    this.onMessage = onMessage || (() => {});
    this.onClose = onClose || (() => {});
    this.closed = false;
    this.welcome = null;
  }

  // Resolves with the server's welcome (which says whether this credential is read-only).
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
      if (len > MAX_FRAME) { this.close(); return; }
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
      this.welcome = message;
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
