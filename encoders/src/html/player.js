// Plays the recording embedded above with ghostty-web (Ghostty's VT engine in WebAssembly,
// inlined above), offline: play/pause, a seek bar and a speed. Times are already idle-clamped.
async function inflate(id) {
  const bytes = Uint8Array.from(atob(document.getElementById(id).textContent.trim()), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate'));
  return new Response(stream).text();
}
const cast = JSON.parse(await inflate('cast'));
const source = await inflate('renderer');
const { init, Terminal } = await import(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
await init();
const $ = (id) => document.getElementById(id);
const events = cast.events; // [seconds, "o" | "r", data]
const duration = events.length ? events[events.length - 1][0] : 0;
const term = new Terminal({ cols: cast.cols, rows: cast.rows, fontSize: 14, cursorBlink: false,
                            disableStdin: true, theme: cast.theme });
term.open($('screen'));
const seek = $('seek');
seek.max = String(Math.round(duration * 1000));

let next = 0;          // the next event to apply
let position = 0;      // seconds into the recording
let playing = true;
let speed = 1;
let last = performance.now();

function apply(upTo) {
  let out = '';
  while (next < events.length && events[next][0] <= upTo) {
    const [, code, data] = events[next++];
    if (code === 'o') out += data;
    else if (code === 'r') {
      if (out) { term.write(out); out = ''; }
      const [c, r] = data.split('x').map(Number);
      if (c > 0 && r > 0) term.resize(c, r);
    }
  }
  if (out) term.write(out);
}

function show() {
  seek.value = String(Math.round(position * 1000));
  $('clock').textContent = `${position.toFixed(1)} / ${duration.toFixed(1)} s`;
  $('play').textContent = playing ? 'Pause' : 'Play';
  document.body.dataset.state = next >= events.length ? 'ended' : (playing ? 'playing' : 'paused');
}

function jump(to) {
  to = Math.max(0, Math.min(duration, to));
  if (to < position) {
    term.reset();
    term.resize(cast.cols, cast.rows);
    next = 0;
  }
  position = to;
  apply(position);
  show();
}

function frame(now) {
  const elapsed = (now - last) / 1000;
  last = now;
  if (playing) {
    position = Math.min(duration, position + elapsed * speed);
    apply(position);
    if (next >= events.length) playing = false;
    show();
  }
  requestAnimationFrame(frame);
}

$('play').onclick = () => {
  if (!playing && next >= events.length) jump(0);
  playing = !playing;
  show();
};
seek.oninput = () => jump(Number(seek.value) / 1000);
$('speed').onchange = () => { speed = Number($('speed').value) || 1; };
window.phuxPlayer = { jump, duration, pause: () => { playing = false; show(); },
                      text: () => {
                        const b = term.buffer.active, rows = [];
                        for (let y = 0; y < b.length; y++) rows.push(b.getLine(y)?.translateToString(true) ?? '');
                        return rows;
                      } };
requestAnimationFrame((now) => { last = now; frame(now); });
