// Opens an SVG written by `rec -o demo.svg` in headless chromium, offline, pauses every CSS
// animation at each time the plan names, and prints, per time, the text each row of the grid
// shows: the look of each row whose box the browser placed inside the grid (read back from
// its <tspan>s: column from x, cells from textLength), and a screenshot per time. Run by
// tests/tests/e2e/recording/rec_svg.rs.
import { chromium } from 'playwright-core';

const plan = JSON.parse(process.env.PHUX_BROWSER_PLAN);
const browser = await chromium.launch({
  executablePath: plan.chromium || '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
         '--disable-component-update', '--disable-sync'],
});
let failed = false;
try {
  const context = await browser.newContext({ offline: true, viewport: plan.viewport || { width: 1000, height: 700 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(`file://${plan.svg}`);
  const frames = [];
  for (const [i, ms] of plan.times_ms.entries()) {
    const rows = await page.evaluate((ms) => {
      for (const a of document.getAnimations()) { a.pause(); a.currentTime = ms; }
      const grid = document.querySelector('svg > svg[data-cols]');
      const cols = Number(grid.dataset.cols), rows = Number(grid.dataset.rows);
      const cw = Number(grid.getAttribute('width')) / cols;
      const ch = Number(grid.getAttribute('height')) / rows;
      // The grid's viewport (its own client rect is the union of what it holds, strips and all).
      const root = document.documentElement.getBoundingClientRect();
      const left = root.left + Number(grid.getAttribute('x'));
      const box = { left, right: left + Number(grid.getAttribute('width')) };
      const text = (def, cells) => {
        for (const el of def.children) {
          if (el.tagName === 'use') text(document.querySelector(el.getAttribute('href')), cells);
          if (el.tagName !== 'text') continue;
          // One run is the <text> itself; more are its <tspan>s.
          for (const span of (el.children.length ? el.children : [el])) {
            const col = Math.round(Number(span.getAttribute('x')) / cw);
            const chars = [...span.textContent];
            const length = span.getAttribute('textLength');
            const n = length === null ? chars.length : Math.round(Number(length) / cw);
            if (n === chars.length) chars.forEach((c, k) => { cells[col + k] = c; });
            else { cells[col] = span.textContent; for (let k = 1; k < n; k++) cells[col + k] = ''; }
          }
        }
      };
      const out = Array.from({ length: rows }, () => new Array(cols).fill(' '));
      for (const child of grid.children) {
        if (child.querySelector('svg')) continue; // the cursor, drawn over the text
        if (child.tagName === 'use') {
          text(document.querySelector(child.getAttribute('href')), out[Math.round(Number(child.getAttribute('y') || 0) / ch)]);
          continue;
        }
        const shift = /translate\(0,(\d+)\)/.exec(child.getAttribute('transform') || '');
        const y = shift ? Math.round(Number(shift[1]) / ch) : 0;
        // The strip's looks where the browser placed them: the one inside the grid shows.
        for (const use of child.querySelectorAll('use')) {
          const r = use.getBoundingClientRect();
          if (r.right <= box.left + 0.5 || r.left >= box.right - 0.5) continue;
          text(document.querySelector(use.getAttribute('href')), out[y]);
        }
      }
      return out.map((cells) => cells.join('').replace(/\s+$/, ''));
    }, ms);
    if (plan.shots) await page.screenshot({ path: `${plan.shots}-${i}.png` });
    frames.push({ ms, rows });
  }
  console.log(JSON.stringify({ errors, frames }));
} catch (error) {
  failed = true;
  console.log(JSON.stringify({ error: String(error && error.stack || error) }));
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);
