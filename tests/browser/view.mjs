// The page shows a pane at the pane's size and never resizes it by looking (a laptop window and
// a phone with touch), shows its history from before it opened, resizes it only by Fit and
// only for a writer, and after every resize (Fit or `phux resize`) holds the server's rows.
// Run by tests/tests/e2e/remote/browser_view.rs, which checks the pane's size with `phux ls`.
import { execFileSync } from 'node:child_process';
import { plan, report, rows, waitForText, open, run } from './lib.mjs';

const phux = (...args) => execFileSync(plan.phux, args, { env: process.env }).toString();
const snapshot = () => JSON.parse(phux('snapshot', '--json', '--scrollback', '0', plan.pane));

async function bar(page) {
  return page.evaluate(() => ({
    size: document.getElementById('size').textContent,
    scale: Number(document.body.dataset.scale),
    cropped: document.body.dataset.cropped === 'true',
    fit_shown: !document.getElementById('fit').hidden,
    fleet_shown: getComputedStyle(document.getElementById('fleet')).display !== 'none',
    keys_shown: getComputedStyle(document.getElementById('keys')).display !== 'none',
    cols: window.phuxTerminal.cols,
    rows: window.phuxTerminal.rows,
  }));
}

// Rows of the page's screen that differ from the server's, and its size against the server's.
async function differing(page) {
  const server = snapshot();
  const shown = await rows(page, 'screen');
  const size = await page.evaluate(() => [window.phuxTerminal.cols, window.phuxTerminal.rows]);
  let differ = Math.abs(shown.length - server.lines.length);
  for (let y = 0; y < Math.min(shown.length, server.lines.length); y++) {
    if (shown[y].trimEnd() !== server.lines[y].trimEnd()) differ++;
  }
  const same_size = size[0] === server.cols && size[1] === server.rows;
  return { differ, same_size, server, shown };
}

// Waits (up to 10 s) until the page holds the server's screen; returns the last comparison.
async function settle(page) {
  const end = Date.now() + 10000;
  let last;
  do {
    last = await differing(page);
    if (last.differ === 0 && last.same_size) return last;
    await page.waitForTimeout(50);
  } while (Date.now() < end);
  return last;
}

await run(async (browser) => {
  // A laptop's window, smaller than the pane.
  const laptop = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 800, height: 600 } });
  const { page } = await open(laptop, plan.token);
  await waitForText(page, plan.last_line);
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${plan.shots}/laptop-800x600.png` });
  report('laptop', await bar(page));

  // History on open: every line printed before the page opened is in its terminal.
  const all = await rows(page);
  const found = plan.lines.filter((line) => all.some((row) => row.trimEnd() === line));
  const before = await page.evaluate(() => window.phuxTerminal.getViewportY());
  await page.locator('#stage').click();
  await page.keyboard.press('Shift+PageUp');
  const afterPageUp = await page.evaluate(() => window.phuxTerminal.getViewportY());
  const box = await page.locator('#stage canvas').boundingBox();
  await page.mouse.move(box.x + 40, box.y + 40);
  await page.mouse.wheel(0, -600);
  await page.waitForTimeout(200);
  const afterWheel = await page.evaluate(() => window.phuxTerminal.getViewportY());
  await page.screenshot({ path: `${plan.shots}/history-scrolled.png` });
  report('history', { rows: all.length, found: found.length, asked: plan.lines.length,
                      viewport_y: [before, afterPageUp, afterWheel] });
  await page.keyboard.press('Shift+PageDown');
  await page.evaluate(() => window.phuxTerminal.scrollToBottom());

  // Text inserted without key events (an emoji picker, dictation) and an IME's composition
  // arrive as typed text.
  await page.locator('#stage').click();
  for (const piece of plan.inserted) await page.keyboard.insertText(piece);
  const cdp = await laptop.newCDPSession(page);
  await cdp.send('Input.imeSetComposition', { text: 'にほ', selectionStart: 2, selectionEnd: 2 });
  await cdp.send('Input.imeSetComposition', { text: 'にほん', selectionStart: 3, selectionEnd: 3 });
  await cdp.send('Input.insertText', { text: plan.composed });
  await page.keyboard.press('Enter');
  await waitForText(page, plan.inserted_echo);
  report('inserted', { screen: (await rows(page, 'screen')).join('\n') });

  // A phone: 390 px wide, touch.
  const phone = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 390, height: 844 },
                                           isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  const onPhone = (await open(phone, plan.token)).page;
  await waitForText(onPhone, plan.last_line);
  await onPhone.waitForTimeout(300);
  await onPhone.screenshot({ path: `${plan.shots}/phone-390x844.png` });
  const phoneBar = await bar(onPhone);
  // The key row types: Ctrl then c interrupts what is typed at the prompt.
  await onPhone.locator('#stage').tap();
  await onPhone.evaluate(() => window.phuxType('echo from-the-phone'));
  await onPhone.locator('#keys button[data-key="Ctrl"]').tap();
  await onPhone.evaluate(() => window.phuxType('c'));
  // The terminal's driver drops what is typed on the heels of an interrupt: wait for it.
  await waitForText(onPhone, 'from-the-phone^C');
  await onPhone.evaluate(() => window.phuxType('echo key-row-$((40+2))\r'));
  await waitForText(onPhone, 'key-row-42');
  await onPhone.locator('#fleet-toggle').tap();
  const listShown = await onPhone.evaluate(
    () => getComputedStyle(document.getElementById('fleet')).display !== 'none');
  await onPhone.screenshot({ path: `${plan.shots}/phone-list.png` });
  report('phone', { ...phoneBar, list_after_toggle: listShown, shell: snapshot().lines.join('\n') });
  await phone.close();

  // A read-only credential: no Fit, and clicking the hidden button changes nothing.
  const watcher = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 800, height: 600 } });
  const ro = (await open(watcher, plan.read_only_token)).page;
  await waitForText(ro, plan.last_line);
  await ro.evaluate(() => document.getElementById('fit').click());
  await ro.waitForTimeout(500);
  report('read_only', await bar(ro));
  await watcher.close();
  const looked = snapshot();
  report('looked', { cols: looked.cols, rows: looked.rows });

  // Fit, by the writer: the pane takes the window's size.
  await page.locator('#fit').click();
  const fitted = await settle(page);
  await page.screenshot({ path: `${plan.shots}/fitted-800x600.png` });
  report('fit', { ...(await bar(page)), differ: fitted.differ });

  // The input lease: Take holds it as `web` (the CLI's typing is refused meanwhile), Give
  // back ends it.
  const leases = () => JSON.parse(phux('ls', '--json')).leases || [];
  await page.locator('#lease').click();
  await page.waitForFunction(() => document.getElementById('lease-holder').textContent.includes('held by web'),
                             null, { timeout: 10000 });
  const held = leases();
  const holderShown = await page.locator('#lease-holder').innerText();
  let cliTyped;
  try { phux('send-keys', plan.pane, 'echo not-while-held', 'Enter'); cliTyped = true; }
  catch (_) { cliTyped = false; }
  await page.screenshot({ path: `${plan.shots}/lease-held.png` });
  await page.locator('#lease').click();
  await page.waitForFunction(() => document.getElementById('lease-holder').textContent === '',
                             null, { timeout: 10000 });
  report('lease', { held, holder_shown: holderShown, cli_typed_while_held: cliTyped,
                    after_give: leases() });

  // 50 resizes, by Fit in windows of other sizes and by `phux resize`, with output between;
  // after each the page must hold the server's screen.
  let differ = 0, unsettled = 0;
  let seed = 7;
  const next = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  for (let i = 0; i < 50; i++) {
    if (i % 2 === 0) {
      phux('resize', plan.pane, `${40 + next(100)}x${8 + next(40)}`);
    } else {
      await page.setViewportSize({ width: 420 + next(900), height: 300 + next(500) });
      await page.waitForTimeout(150);
      await page.locator('#fit').click();
    }
    if (i % 5 === 4) phux('send-keys', plan.pane, `seq ${i * 10} ${i * 10 + 30}`, 'Enter');
    const seen = await settle(page);
    differ += seen.differ;
    if (!seen.same_size) unsettled++;
  }
  await page.waitForTimeout(500);
  const last = await settle(page);
  // History too: the page's rows above its screen against the server's retained history.
  const server = last.server;
  const pageAll = await rows(page);
  const pageHistory = pageAll.slice(0, pageAll.length - server.rows).map((r) => r.trimEnd());
  const serverHistory = (server.scrollback || []).map((r) => r.trimEnd());
  const tail = Math.min(pageHistory.length, serverHistory.length);
  let historyDiffer = Math.abs(pageHistory.length - serverHistory.length);
  for (let k = 1; k <= tail; k++) {
    if (pageHistory[pageHistory.length - k] !== serverHistory[serverHistory.length - k]) historyDiffer++;
  }
  await page.screenshot({ path: `${plan.shots}/after-50-resizes.png` });

  // A flood: the server sends keyframes in place of most of it (each a new terminal here),
  // then one with history; the page ends on the server's rows.
  phux('send-keys', plan.pane, 'seq 1 200000; echo flood-$((1+1))-done', 'Enter');
  await waitForText(page, 'flood-2-done', 60000);
  const flooded = await settle(page);
  const heap = await page.evaluate(() => performance.memory ? performance.memory.usedJSHeapSize : 0);
  report('flood', { differ: flooded.differ, same_size: flooded.same_size, heap_bytes: heap });
  report('resizes', { resizes: 50, differ_after_each: differ, unsettled, differ_last: last.differ,
                      rows: last.shown.length, history_rows_page: pageHistory.length,
                      history_rows_server: serverHistory.length, history_differ: historyDiffer,
                      example: last.differ ? { page: last.shown, server: server.lines } : null });
  await laptop.close();
});
