// Opens a recording's page (`rec -o demo.html`) from a file in headless chromium, offline, lets
// it play to its end (or seeks there), and prints what its terminal shows, any page errors,
// and the colour of a pixel named by the plan. Run by tests/tests/e2e/remote/browser.rs.
import { chromium } from 'playwright-core';

const plan = JSON.parse(process.env.PHUX_BROWSER_PLAN);
const browser = await chromium.launch({
  executablePath: plan.chromium || '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
         '--disable-component-update', '--disable-sync'],
});
let failed = false;
try {
  const context = await browser.newContext({ offline: true, viewport: { width: 1000, height: 700 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(`file://${plan.page}`);
  await page.waitForFunction(() => window.phuxPlayer !== undefined, null, { timeout: 20000 });
  const playing = await page.evaluate(() => document.body.dataset.state);
  if (plan.seek_to_end) await page.evaluate(() => window.phuxPlayer.jump(window.phuxPlayer.duration));
  await page.waitForFunction(() => document.body.dataset.state === 'ended', null, { timeout: 60000 });
  const rows = await page.evaluate(() => window.phuxPlayer.text());
  // Seeking back to the start and forward again shows the same last frame.
  await page.evaluate(() => { window.phuxPlayer.jump(0); window.phuxPlayer.jump(window.phuxPlayer.duration); });
  const again = await page.evaluate(() => window.phuxPlayer.text());
  await page.screenshot({ path: plan.shot });
  console.log(JSON.stringify({ playing, errors, rows, again_same: JSON.stringify(rows) === JSON.stringify(again),
                               duration: await page.evaluate(() => window.phuxPlayer.duration) }));
} catch (error) {
  failed = true;
  console.log(JSON.stringify({ error: String(error && error.stack || error) }));
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);
