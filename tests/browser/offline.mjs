// The page on a server without the terminal's script and without the registry: it says what is
// missing and the command that installs it, instead of "Connecting…" for ever; once
// installed (`phux web install --from FILE`), a reload connects. Run by
// tests/tests/e2e/remote/browser_offline.rs, which installs between the two steps.
import { plan, report, open, run } from './lib.mjs';
import { createInterface } from 'node:readline';

const lines = createInterface({ input: process.stdin });
const next = () => new Promise((resolve) => lines.once('line', resolve));

await run(async (browser) => {
  const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1000, height: 500 } });
  const { page } = await open(context, plan.token);
  const state = await page.evaluate(() => document.body.dataset.state);
  await page.screenshot({ path: `${plan.shots}/offline.png` });
  report('missing', { state, notice: await page.locator('#notice').innerText() });
  // The test installs the script, then says so.
  await next();
  await page.goto(`${plan.base}/`);
  await page.waitForFunction(() => document.body.dataset.state === 'connected', null, { timeout: 20000 });
  report('installed', { state: await page.evaluate(() => document.body.dataset.state) });
  lines.close();
});
