// Drives Debian's chromium (headless, through playwright-core) against a phux listener that
// tests/tests/e2e/remote/browser.rs started. Reads its plan from PHUX_BROWSER_PLAN (JSON), prints one JSON
// line per step on stdout; the Rust test asserts on them. Exits 1 on a step that threw.
import { execFileSync } from 'node:child_process';
import { plan, report, screenText, waitForText, open, run } from './lib.mjs';

await run(async (browser) => {
  const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1100, height: 640 } });

  // A full credential: the fleet lists the pane, the pane shows what it printed, typing works.
  const { page, requests } = await open(context, plan.token);
  const state = await page.evaluate(() => document.body.dataset.state);
  const fleet = await page.locator('#panes').innerText();
  const shown = await waitForText(page, plan.marker);
  await page.screenshot({ path: `${plan.shots}/fleet-and-pane.png` });
  report('open', { state, fleet, shown, url: page.url(),
                   token_in_requests: requests.some((u) => u.includes(plan.token)) });

  await page.locator('#stage').click();
  await page.keyboard.type(plan.typed);
  await page.keyboard.press('Enter');
  const afterTyping = await waitForText(page, plan.expect_after_typing);
  report('typed', { shown: afterTyping });

  // An upgrade closes the page's connections: it dials again by itself, soon, and the pane
  // answers. Its state changes are stamped as they happen.
  await page.evaluate(() => {
    window.phuxStates = [];
    new MutationObserver(() => window.phuxStates.push([document.body.dataset.state, Date.now()]))
      .observe(document.body, { attributes: true, attributeFilter: ['data-state'] });
    // Every error the page shows while the upgrade runs (an orderly one should show none).
    window.phuxRed = [];
    const notice = document.getElementById('notice');
    new MutationObserver(() => {
      if (notice.className === 'error' && !notice.hidden) window.phuxRed.push(notice.textContent);
    }).observe(notice, { attributes: true, childList: true, characterData: true, subtree: true });
  });
  const upgradeStarted = Date.now();
  execFileSync(plan.phux, ['upgrade'], { env: process.env });
  const upgraded = Date.now();
  try {
    await page.waitForFunction(() => {
      const states = window.phuxStates.map(([state]) => state);
      return states.includes('closed') && states[states.length - 1] === 'connected';
    }, null, { timeout: 15000 });
  } catch (error) {
    const seen = await page.evaluate(() => JSON.stringify(window.phuxStates));
    const notice = await page.locator('#notice').innerText();
    throw new Error(`the page did not come back after the upgrade: states ${seen}, notice ${notice}`);
  }
  const states = await page.evaluate(() => window.phuxStates);
  const back = states[states.length - 1][1];
  await page.locator('#stage').click();
  await page.keyboard.type(plan.typed_after_upgrade);
  await page.keyboard.press('Enter');
  const red = await page.evaluate(() => window.phuxRed);
  report('upgraded', { upgrade_ms: upgraded - upgradeStarted, back_after_ms: back - upgraded, red,
                       shown: await waitForText(page, plan.expect_after_upgrade) });

  // A read-only credential watches the same pane but its typing is refused.
  const watcher = await browser.newContext({ ignoreHTTPSErrors: true });
  const ro = await open(watcher, plan.read_only_token);
  await waitForText(ro.page, plan.marker);
  await ro.page.locator('#stage').click();
  await ro.page.keyboard.type(plan.read_only_typed);
  await ro.page.waitForFunction(() => document.getElementById('badge').textContent.includes('typing refused'),
                                null, { timeout: 10000 });
  report('read_only', { badge: await ro.page.locator('#badge').innerText(),
                        shown: await screenText(ro.page) });
  await watcher.close();

  // Revocation: the next connection is refused; the page already open keeps its admission.
  execFileSync(plan.phux, ['pair', 'revoke', plan.credential_id], { env: process.env });
  const again = await browser.newContext({ ignoreHTTPSErrors: true });
  const refused = await open(again, plan.token);
  await refused.page.waitForFunction(() => document.getElementById('notice').textContent.includes('revoked'),
                                     null, { timeout: 10000 });
  report('revoked', { state: await refused.page.evaluate(() => document.body.dataset.state),
                      notice: await refused.page.locator('#notice').innerText() });
  await refused.page.screenshot({ path: `${plan.shots}/revoked.png` });
  await again.close();
  await page.locator('#stage').click();
  await page.keyboard.type(plan.typed_after_revoke);
  await page.keyboard.press('Enter');
  report('kept', { shown: await waitForText(page, plan.expect_after_revoke) });
  await context.close();
});
