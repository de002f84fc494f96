// The early endings as the page shows them: a player who lets the per-move clock run out (after
// a first move: the clock waits for it) loses on time, and a player who resigns (two clicks: the
// button asks for confirmation) loses by resignation; the other side's page says so too.

import test from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launchBrowser, newPage, waitMatchReady, enterLobby, openAdvanced, playOneTurn, rng,
} from './lib.mjs';

// Creates a MAD match in the lobby's Advanced form as "Red": against a random bot (the page goes
// to the match at once) or a human seat (the page shows the invite link, returned).
async function createFromLobby(page, server, { blue, clock }) {
  await enterLobby(page, server, 'Red');
  await openAdvanced(page);
  await page.selectOption('#seat-1-kind', blue);
  if (blue === 'bot') await page.selectOption('#seat-1-bot', 'random');
  if (clock) {
    await page.selectOption('#clock-kind', 'per_move');
    await page.fill('#clock-per-move', String(clock));
  }
  await page.click('#create');
  let invite = null;
  if (blue === 'human') {
    await page.waitForSelector('#go-match');
    invite = await page.inputValue('.invite-link[data-seat="1"]');
    await page.click('#go-match');
  }
  await page.waitForURL(/\/m\/[0-9a-f]{16}$/);
  await waitMatchReady(page);
  return invite;
}

test('the per-move clock runs out: the page shows the loss on time', { timeout: 120000 }, async () => {
  // The first move waits an hour, not 30 s: the match is live from its creation, and on a loaded
  // machine the page may load later than that.
  const server = await startServer({ args: ['--first-move-seconds', '3600'] });
  const browser = await launchBrowser();
  try {
    const page = await newPage(browser);
    await createFromLobby(page, server, { blue: 'bot', clock: 2 });
    await page.waitForFunction(() => document.body.dataset.myTurn === 'true');
    // The clock waits for Red's first move; Red makes it, then lets the next one run out.
    assert.ok(await page.evaluate(() => document.getElementById('clock-0').classList.contains('first-move')));
    // Red's clock running is recorded as the page shows it: two seconds later it has run out,
    // sooner than a loaded machine's test may look.
    await page.evaluate(() => {
      window.__redRan = false;
      new MutationObserver(() => {
        if (document.getElementById('clock-0')?.classList.contains('running')) window.__redRan = true;
      }).observe(document.body, { attributes: true, attributeFilter: ['class'], subtree: true });
    });
    await playOneTurn(page, rng(1));
    // Nobody clicks: two seconds later the server ends the game.
    await page.waitForFunction(() => document.body.dataset.status === 'finished');
    assert.ok(await page.evaluate(() => window.__redRan), 'Red\'s clock ran after the first move');
    assert.equal(await page.getAttribute('#result-panel', 'data-kind'), 'timeout');
    assert.match(await page.textContent('#result-text'), /\(Blue\) wins: Red \(Red\) ran out of time/);
    assert.equal(await page.getAttribute('#clock-0', 'data-ms'), '0');
    assert.deepEqual(page.jsErrors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});

test('a player resigns: both pages show the resignation', { timeout: 120000 }, async () => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const red = await newPage(browser);
    const blue = await newPage(browser);
    const invite = await createFromLobby(red, server, { blue: 'human' });
    await blue.goto(invite);
    await waitMatchReady(blue);
    await red.waitForFunction(() => document.body.dataset.status === 'live');
    // Blue resigns while it is Red's turn: one click arms the button, the second resigns.
    await blue.click('#resign');
    assert.equal(await blue.evaluate(() => document.body.dataset.status), 'live');
    await blue.click('#resign');
    for (const p of [red, blue]) {
      await p.waitForFunction(() => document.body.dataset.status === 'finished');
      assert.equal(await p.getAttribute('#result-panel', 'data-kind'), 'resign');
      assert.match(await p.textContent('#result-text'), /Red \(Red\) wins: .+ \(Blue\) resigned/);
      assert.ok(await p.isVisible('#rematch'));
      assert.deepEqual(p.jsErrors, []);
    }
    // The replay names the resignation as the last step, in words.
    await red.click('#replay-link');
    await red.waitForSelector('#moves .mv');
    const last = await red.$$eval('#moves button.mv', (bs) => bs[bs.length - 1].textContent);
    assert.equal(last, 'Blue resigns');
    assert.deepEqual(red.jsErrors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});
