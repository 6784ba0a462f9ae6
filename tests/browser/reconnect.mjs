// The page across an outage: the server stops, another listens on the same port a moment
// later; the page is connected again soon after, showing no error meanwhile. Run by
// tests/tests/e2e/remote/browser_reconnect.rs, which restarts the server and writes on stdin
// the wall-clock time (ms) its listener said it listens.
import { plan, report, open, run } from './lib.mjs';
import { createInterface } from 'node:readline';

const lines = createInterface({ input: process.stdin });
const next = () => new Promise((resolve) => lines.once('line', resolve));

await run(async (browser) => {
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  const { page } = await open(context, plan.token);
  await page.waitForFunction(() => window.phuxTerminal, null, { timeout: 20000 });
  await page.evaluate(() => {
    window.phuxStates = [];
    new MutationObserver(() => window.phuxStates.push([document.body.dataset.state, Date.now()]))
      .observe(document.body, { attributes: true, attributeFilter: ['data-state'] });
    window.phuxRed = [];
    const notice = document.getElementById('notice');
    new MutationObserver(() => {
      if (notice.className === 'error' && !notice.hidden) window.phuxRed.push(notice.textContent);
    }).observe(notice, { attributes: true, childList: true, characterData: true, subtree: true });
  });
  report('ready', {});
  const listeningAt = Number(await next());
  await page.waitForFunction(() => {
    const states = window.phuxStates.map(([state]) => state);
    return states.includes('closed') && states[states.length - 1] === 'connected';
  }, null, { timeout: 15000 });
  const states = await page.evaluate(() => window.phuxStates);
  const closedAt = states.find(([state]) => state === 'closed')[1];
  const back = states[states.length - 1][1];
  report('back', { after_listening_ms: back - listeningAt, outage_ms: back - closedAt,
                   red: await page.evaluate(() => window.phuxRed) });
  lines.close();
});
