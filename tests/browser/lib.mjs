// What the browser scripts share: Debian's chromium launched headless through playwright-core,
// the page's terminal read row by row, and the plan/report protocol with the Rust tests (the
// plan in PHUX_BROWSER_PLAN as JSON, one JSON line per step on stdout).
import { chromium } from 'playwright-core';

export const plan = JSON.parse(process.env.PHUX_BROWSER_PLAN || '{}');
export const report = (step, fields) => console.log(JSON.stringify({ step, ...fields }));

export function launch() {
  return chromium.launch({
    executablePath: plan.chromium || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

// Every row the page's terminal holds, history first (`from: 'screen'`: the screen's alone).
export async function rows(page, from = 'all') {
  return page.evaluate((from) => {
    const term = window.phuxTerminal;
    if (!term) return [];
    const buffer = term.buffer.active;
    const out = [];
    const first = from === 'screen' ? buffer.length - term.rows : 0;
    for (let y = Math.max(0, first); y < buffer.length; y++) {
      const line = buffer.getLine(y);
      out.push(line ? line.translateToString(true) : '');
    }
    return out;
  }, from);
}

export async function screenText(page) {
  return (await rows(page)).join('\n');
}

export async function waitForText(page, text, ms = 15000) {
  const end = Date.now() + ms;
  let seen = '';
  while (Date.now() < end) {
    seen = await screenText(page);
    if (seen.includes(text)) return seen;
    await page.waitForTimeout(100);
  }
  throw new Error(`the page's terminal never showed ${JSON.stringify(text)}; it shows:\n${seen}`);
}

// Opens the connect link in a new page of `context` and waits for the page to settle.
export async function open(context, token) {
  const page = await context.newPage();
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(`${plan.base}/#token=${token}`);
  await page.waitForFunction(
    () => ['connected', 'refused', 'closed', 'missing'].includes(document.body.dataset.state),
    null, { timeout: 20000 });
  return { page, requests };
}

// Runs `body`, reporting a thrown error as the step `error`; exits 1 when it threw.
export async function run(body) {
  const browser = await launch();
  let failed = false;
  try {
    await body(browser);
  } catch (error) {
    failed = true;
    report('error', { message: String(error && error.stack || error) });
  } finally {
    await browser.close();
  }
  process.exit(failed ? 1 : 0);
}
