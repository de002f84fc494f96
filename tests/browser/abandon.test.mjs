// A Bataille Navale table whose people all left: the lobby's "in play" list stops showing it as
// soon as nobody sits at it, and the abandonment rule (the server runs with a short
// --abandon-seconds) resigns each absent fleet, so the match ends.

import test from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launchBrowser, newPage, enterLobby, waitMatchReady, waitApi,
} from './lib.mjs';

test('a Bataille Navale table whose humans all left ends by abandonment', { timeout: 180000 }, async () => {
  const server = await startServer({ args: ['--abandon-seconds', '3'] });
  const browser = await launchBrowser();
  try {
    const ada = await newPage(browser);
    const bob = await newPage(browser);
    const cleo = await newPage(browser);
    const lobby = await newPage(browser);
    await enterLobby(ada, server, 'Ada');
    await enterLobby(bob, server, 'Bob');
    await enterLobby(cleo, server, 'Cleo');
    await enterLobby(lobby, server, 'Watcher');
    // Ada creates the table in the Advanced form: three people and a bot, the game's clocks.
    await ada.click('#advanced > summary');
    await ada.selectOption('#game', 'naval');
    await ada.selectOption('#seat-1-kind', 'human');
    await ada.selectOption('#seat-2-kind', 'human');
    await ada.selectOption('#seat-3-bot', 'random');
    assert.equal(await ada.inputValue('#clock-kind'), 'game');
    await ada.click('#create');
    const invite = await ada.inputValue('.invite-link[data-seat="1"]');
    const invite2 = await ada.inputValue('.invite-link[data-seat="2"]');
    const id = invite.match(/\/m\/([0-9a-f]{16})/)[1];
    await ada.click('#go-match');
    await waitMatchReady(ada);
    await bob.goto(invite);
    await waitMatchReady(bob);
    await cleo.goto(invite2);
    await waitMatchReady(cleo);
    for (const p of [ada, bob, cleo]) await p.waitForFunction(() => document.body.dataset.status === 'live');
    // The seat rows name the fleets from 1 and who commands them.
    const rows = await ada.$$eval('.nv-seat-row .player-name', (els) => els.map((e) => e.textContent));
    assert.equal(rows[0], 'Ada (Fleet 1)');
    assert.equal(rows[1], 'Bob (Fleet 2)');

    // With people at the table the lobby lists it as in play.
    await lobby.waitForSelector(`#list-active tr[data-match="${id}"][data-status="live"]`);

    // Everyone leaves. The list drops the table at once, and the abandonment rule resigns each
    // fleet of the people gone, which leaves the bot's fleet the last afloat.
    for (const p of [ada, bob, cleo]) await p.close();
    await lobby.waitForSelector(`#list-active tr[data-match="${id}"]`, { state: 'detached' });
    const ended = await waitApi(lobby, `/api/matches/${id}`, (m) => m.status === 'finished', 60000).catch((e) => {
      throw new Error(`${e.message}\nserver log:\n${server.log()}`);
    });
    assert.equal(ended.outcome.ranks.indexOf(1), 3, 'the bot, the last fleet at the table, wins');
    await lobby.waitForSelector(`#list-finished tr[data-match="${id}"]`);
    assert.deepEqual(lobby.jsErrors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});
