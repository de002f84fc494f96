// Stepping back through a live game (docs/protocol.md section 3.9): two people play MAD in two
// browser contexts; Red steps back with the arrow keys and the |< < > >| buttons and sees each
// earlier position as it saw it then (the board read-only, a banner naming the move), returns to
// the present, then steps back again while Blue moves: Red's view stays where it was, the banner
// says the game moved on, and "Back to the present" shows the position Blue's move made.

import test from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPage, openCreatedMatch, waitMatchReady, keepSeatToken, waitTurnOrEnd, playOneTurn, rng, seedOf } from './lib.mjs';

/** The board as the page draws it, whatever its side: each cell's name and what stands on it. */
const board = (page) => page.$$eval('svg.board rect.hit', (els) => els.map((e) => e.getAttribute('aria-label')).sort());
const step = (page) => page.evaluate(() => [document.body.dataset.step, document.body.hasAttribute('data-past')]);

test('MAD: step back through a live game and return to the present', { timeout: 180000 }, async () => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const human = { kind: 'human' };
    const { page: red, created } = await openCreatedMatch(server, browser, { game: 'mad', seats: [human, human], seed: seedOf('live-steps') });
    const res = await fetch(`${server.url}/api/matches/${created.id}/join`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seat: 1 }),
    });
    const joined = await res.json();
    const blue = await newPage(browser);
    await keepSeatToken(blue, server, created.id, joined.token);
    await blue.goto(`${server.url}/m/${created.id}`);
    await waitMatchReady(blue);
    await red.waitForFunction(() => document.body.dataset.status === 'live');

    // Five plies; Red's board after each (snaps[v]: the position of version v).
    const rand = rng(7);
    const snaps = [await board(red)];
    for (let ply = 0; ply < 5; ply++) {
      const mover = ply % 2 === 0 ? red : blue;
      assert.equal(await waitTurnOrEnd(mover), 'turn');
      await playOneTurn(mover, rand);
      await red.waitForFunction((v) => document.body.dataset.version === String(v), ply + 1);
      snaps.push(await board(red));
    }
    assert.equal(new Set(snaps.map(String)).size, 6, 'every ply changed the board');
    assert.equal(await red.isVisible('#past-banner'), false);
    assert.deepEqual(await step(red), ['5', false]);

    // The arrow keys: one move back, then two more.
    await red.keyboard.press('ArrowLeft');
    await red.waitForFunction(() => document.body.dataset.step === '4' && document.body.hasAttribute('data-past'));
    assert.deepEqual(await board(red), snaps[4]);
    assert.equal(await red.textContent('#past-text'), 'Viewing move 4 of 5.');
    assert.equal(await red.getAttribute('#moves .mv.current', 'data-index'), '3');
    await red.keyboard.press('ArrowLeft');
    await red.keyboard.press('ArrowLeft');
    await red.waitForFunction(() => document.body.dataset.step === '2');
    assert.deepEqual(await board(red), snaps[2]);
    // The buttons: the start, then one forward.
    await red.click('#step-first');
    await red.waitForFunction(() => document.body.dataset.step === '0');
    assert.deepEqual(await board(red), snaps[0]);
    assert.ok(await red.isDisabled('#step-prev'));
    await red.click('#step-next');
    await red.waitForFunction(() => document.body.dataset.step === '1');
    assert.deepEqual(await board(red), snaps[1]);
    // A move of the list: the position after it.
    await red.click('#moves .mv[data-index="2"]');
    await red.waitForFunction(() => document.body.dataset.step === '3');
    assert.deepEqual(await board(red), snaps[3]);
    // Forward to the present with the keys: the banner goes.
    await red.keyboard.press('ArrowRight');
    await red.waitForFunction(() => document.body.dataset.step === '4');
    await red.keyboard.press('ArrowRight');
    await red.waitForFunction(() => !document.body.hasAttribute('data-past'));
    assert.deepEqual(await board(red), snaps[5]);
    assert.equal(await red.isVisible('#past-banner'), false);

    // Back again, then Blue moves meanwhile: Red's view does not move.
    await red.keyboard.press('ArrowLeft');
    await red.keyboard.press('ArrowLeft');
    await red.waitForFunction(() => document.body.dataset.step === '3');
    assert.equal(await waitTurnOrEnd(blue), 'turn');
    await playOneTurn(blue, rand);
    await red.waitForFunction(() => document.body.dataset.version === '6');
    assert.deepEqual(await step(red), ['3', true]);
    assert.deepEqual(await board(red), snaps[3]);
    assert.equal(await red.textContent('#past-text'), 'Viewing move 3 of 6. The game has moved on since you stepped back.');
    assert.ok(await red.isVisible('#past-moved-on'));
    // Back to the present: the position Blue's move made, and Red may play on it.
    await red.click('#past-return');
    await red.waitForFunction(() => !document.body.hasAttribute('data-past'));
    assert.deepEqual(await board(red), await board(blue));
    assert.equal(await waitTurnOrEnd(red), 'turn');
    const clickable = () => red.$$eval('svg.board rect.hit.clickable', (els) => els.length);
    assert.ok(await clickable() > 0);
    // On Red's turn, a step back: the board takes no click; End comes back to it.
    await red.keyboard.press('ArrowLeft');
    await red.waitForFunction(() => document.body.dataset.step === '5');
    assert.equal(await clickable(), 0);
    assert.equal(await red.evaluate(() => document.body.dataset.myTurn), 'true', "the turn is still Red's");
    await red.keyboard.press('End');
    await red.waitForFunction(() => !document.body.hasAttribute('data-past'));
    assert.ok(await clickable() > 0);
    assert.deepEqual(red.jsErrors, []);
    assert.deepEqual(blue.jsErrors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});
