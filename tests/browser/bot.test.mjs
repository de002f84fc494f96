// A person plays MAD against the random bot in headless Chromium: creates the match in the lobby,
// plays every turn by clicking highlighted ships and cells (or chips), reloads the page in the
// middle and goes on, and sees the result; then steps through the replay and its seed check.

import test from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launchBrowser, newPage, waitMatchReady, waitTurnOrEnd, playOneTurn, rng, screenshot,
  enterLobby, openAdvanced,
} from './lib.mjs';

test('play MAD against a bot by clicking, reload mid-game, see the result and the replay', { timeout: 600000 }, async () => {
  // The clock waits an hour for a first move, not 30 s: on a loaded machine the page may load
  // later than that after the match (live at once against a bot) began.
  const server = await startServer({ args: ['--first-move-seconds', '3600'] });
  const browser = await launchBrowser();
  try {
    const page = await newPage(browser);
    await enterLobby(page, server, 'Ada');
    await openAdvanced(page);
    assert.equal(await page.inputValue('#game'), 'mad');
    // Red (seat 0) is me, Blue (seat 1) a bot, the weakest level: the defaults of the form. The
    // random bot keeps the game short.
    assert.equal(await page.inputValue('#seat-0-kind'), 'human');
    assert.equal(await page.inputValue('#seat-1-kind'), 'bot');
    assert.equal(await page.inputValue('#seat-1-bot'), 'beginner');
    await page.selectOption('#seat-1-bot', 'random');
    // A short tie-break keeps the random game short; a Fischer clock shows the clocks.
    await page.fill('#opt-tiebreak_limit', '16');
    await page.selectOption('#clock-kind', 'fischer');
    await page.fill('#clock-base', '30');
    await page.fill('#clock-inc', '5');
    await page.click('#create');
    await page.waitForURL(/\/m\/[0-9a-f]{16}$/);
    const id = page.url().split('/').pop();
    await waitMatchReady(page);
    assert.equal(await page.evaluate(() => document.body.dataset.seat), '0');
    assert.equal(await page.evaluate((i) => localStorage.getItem(`plateau.token.${i}`)?.length, id), 64);

    // The start position, from Red's side: R111 on b1, B111 on b6, nothing on rows 3-4.
    assert.equal(await page.getAttribute('svg.board g.ship[data-ship="R111"]', 'data-ship'), 'R111');
    assert.equal(await page.$$eval('svg.board g.ship', (els) => els.length), 16);
    const r111 = await page.$eval('svg.board rect.hit[data-cell="b1"]', (e) => e.getAttribute('aria-label'));
    assert.match(r111, /111/);
    const y1 = Number(await page.getAttribute('svg.board rect.hit[data-cell="a1"]', 'y'));
    const y6 = Number(await page.getAttribute('svg.board rect.hit[data-cell="a6"]', 'y'));
    assert.ok(y1 > y6, 'Red sees row 1 at the bottom');

    // Hovering a permutation rings the two ships it swaps: R111 on b1 and R222 on c1.
    await page.hover('#shifts .chip[data-action="P(111,222)"]');
    const ringed = await page.$$eval('svg.board .involved-ring', (els) => els.map((e) => e.dataset.cell).sort());
    assert.deepEqual(ringed, ['b1', 'c1']);
    await page.mouse.move(0, 0);
    assert.equal(await page.$$eval('svg.board .involved-ring', (els) => els.length), 0);

    // My clock (Fischer 30 minutes) waits for my first move, as on lichess.
    assert.equal(await page.getAttribute('#clock-0', 'data-ms'), String(30 * 60 * 1000));
    assert.ok(await page.evaluate(() => document.getElementById('clock-0').classList.contains('first-move')));

    const rand = rng(20261130);
    let turns = 0;
    let reloaded = false;
    for (;;) {
      const now = await waitTurnOrEnd(page, 60000);
      if (now === 'finished') break;
      if (turns === 1) {
        // From my second move on my clock runs on my turn: it counts down between two looks.
        const ms1 = Number(await page.getAttribute('#clock-0', 'data-ms'));
        assert.ok(ms1 <= 30 * 60 * 1000 + 5000, `clock ${ms1}`);
        await page.waitForFunction((before) => Number(document.getElementById('clock-0').dataset.ms) < before, ms1);
        assert.ok(await page.evaluate(() => document.getElementById('clock-0').classList.contains('running')));
      }
      await playOneTurn(page, rand);
      turns += 1;
      if (turns === 3) {
        await screenshot(page, 'match-vs-bot');
      }
      if (turns === 4 && !reloaded) {
        // Reload in the middle: the token in localStorage resumes the seat at the same version.
        const before = await page.evaluate(() => document.body.dataset.version);
        await page.reload();
        await waitMatchReady(page);
        assert.equal(await page.evaluate(() => document.body.dataset.seat), '0');
        const after = Number(await page.evaluate(() => document.body.dataset.version));
        assert.ok(after >= Number(before), `resumed at version ${after}, was ${before}`);
        reloaded = true;
      }
      assert.ok(turns < 400, 'the game should end within 400 of my turns');
    }
    assert.ok(reloaded, 'the game lasted long enough to reload in the middle');

    // The result, as the page shows it and as the API says.
    await page.waitForSelector('#result-panel:not(.hidden)');
    const kind = await page.getAttribute('#result-panel', 'data-kind');
    assert.ok(['corvette', 'tiebreak'].includes(kind), `unexpected end ${kind}`);
    const text = await page.textContent('#result-text');
    assert.match(text, kind === 'corvette' ? /corvette/i : /tie-break/i);
    const summary = await (await fetch(`${server.url}/api/matches/${id}`)).json();
    assert.equal(summary.status, 'finished');
    assert.equal(summary.outcome.kind, kind);
    const shown = await page.$$eval('#moves .mv[data-index]', (els) => els.length);
    assert.equal(shown, summary.version, 'the move list shows every logged action');
    assert.match(await page.textContent('#seed'), /^[0-9a-f]{64}$/);
    await screenshot(page, 'match-finished');

    // The replay, with the seed check: it steps through every position (docs/protocol.md 3.7).
    await page.click('#replay-link');
    await page.waitForSelector('body[data-ready="true"]');
    assert.equal(await page.getAttribute('#verify-result', 'data-verified'), 'true');
    const total = Number(await page.evaluate(() => document.body.dataset.total));
    assert.equal(total, summary.version);
    assert.ok(!(await page.isVisible('#nosteps')));
    await page.click('#first');
    assert.equal(await page.evaluate(() => document.body.dataset.step), '0');
    assert.equal(await page.$$eval('svg.board g.ship', (els) => els.length), 16);
    await page.click('#next');
    assert.equal(await page.evaluate(() => document.body.dataset.step), '1');
    await page.click('#last');
    assert.equal(await page.evaluate(() => document.body.dataset.step), String(total));
    await screenshot(page, 'replay');

    // The verify page (linked from the replay, no longer from the top menu) checks the same match
    // from its id.
    assert.equal(await page.$$eval('nav a[href="/verify"]', (els) => els.length), 0, 'not in the top menu');
    await page.click('#verify-page-link');
    await page.fill('#match-id', id);
    await page.click('#form button[type="submit"]');
    await page.waitForSelector('#verify-result');
    assert.equal(await page.getAttribute('#verify-result', 'data-verified'), 'true');

    assert.deepEqual(page.jsErrors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});
