// Keystroke echo in the browser: the page types one character (as its keyboard handler does)
// and times until its terminal shows the pane's echo, RUNS times; prints the times in ms.
// Run by `cargo run -p phux-tests --example remote_bench`.
import { chromium } from 'playwright-core';

const plan = JSON.parse(process.env.PHUX_BROWSER_PLAN);
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
         '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const context = await browser.newContext({ ignoreHTTPSErrors: true });
const page = await context.newPage();
await page.goto(`${plan.base}/#token=${plan.token}`);
await page.waitForFunction(() => window.phuxTerminal && window.phuxType, null, { timeout: 20000 });
await page.waitForTimeout(500);
const times = await page.evaluate(async (runs) => {
  const term = window.phuxTerminal;
  const row = () => {
    const b = term.buffer.active;
    return b.getLine(b.baseY + b.cursorY)?.translateToString(true) ?? '';
  };
  const out = [];
  for (let i = 0; i < runs; i++) {
    const before = row().length;
    const t0 = performance.now();
    window.phuxType('x');
    while (row().length <= before) await new Promise((r) => setTimeout(r, 0));
    out.push(performance.now() - t0);
    if (i % 20 === 19) { window.phuxType('\u0015'); await new Promise((r) => setTimeout(r, 50)); }
  }
  return out;
}, plan.runs);
console.log(JSON.stringify(times));
await browser.close();
