// Tables of more than two: a Moon Leap Quick play for a table of 4 that two guests join, filled
// with bots after the wait the first one chose; and a Bataille Navale table whose humans all left,
// which the abandonment rule ends (the server runs with a short --abandon-seconds) and which the
// lobby's "in play" list stops showing as soon as nobody sits at it.

import test from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launchBrowser, newPage, enterLobby, waitMatchReady, apiGet, waitApi,
} from './lib.mjs';

test('Moon Leap quick play for 4: two guests and two bots after the wait', { timeout: 180000 }, async () => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const ada = await newPage(browser);
    const bob = await newPage(browser, { lang: 'fr-FR' });
    await enterLobby(ada, server, 'Ada');
    await enterLobby(bob, server, 'Bob');
    const seek = async (page, fill) => {
      await page.click('#quick-moonleap');
      await page.selectOption('#play-seats', '4');
      await page.selectOption('#play-tc', '1');
      if (fill) {
        await page.check('#play-fill');
        await page.fill('#play-fill-seconds', '8');
        await page.selectOption('#play-fill-level', 'beginner');
      }
      await page.click('#play-go');
      await page.waitForFunction(() => document.body.dataset.seeking === 'yes');
    };
    await seek(ada, true);
    assert.match(await ada.textContent('#seeking-text'), /table of 4 · .*bots fill the table after 8 s/);
    await seek(bob, true);
    assert.match(await bob.textContent('#seeking-text'), /table de 4/);
    for (const p of [ada, bob]) {
      await p.waitForURL(/\/m\/[0-9a-f]{16}$/, { timeout: 60000 });
      await waitMatchReady(p);
    }
    const id = new URL(ada.url()).pathname.split('/').pop();
    assert.equal(new URL(bob.url()).pathname, `/m/${id}`);
    const m = (await apiGet(ada, `/api/matches/${id}`)).body;
    assert.equal(m.game, 'moonleap');
    assert.equal(m.seats.length, 4);
    const humans = m.seats.filter((s) => s.kind === 'human').map((s) => s.player.name).sort();
    assert.deepEqual(humans, ['Ada', 'Bob']);
    const bots = m.seats.filter((s) => s.kind === 'bot');
    assert.equal(bots.length, 2);
    for (const b of bots) {
      assert.equal(b.bot, 'beginner');
      assert.equal(b.player.kind, 'bot');
    }
    // Every seat reads with its astronauts' colour and who sits there; bots are never offered a mute.
    await ada.waitForFunction(() => document.body.dataset.status === 'live');
    const rows = await ada.$$eval('.ml-seat .player-name', (els) => els.map((e) => e.textContent));
    assert.deepEqual(rows.map((r) => r.split(' ')[0]), ['Blue', 'Orange', 'Green', 'Purple']);
    for (const s of m.seats) assert.ok(rows[s.seat].includes(s.player.name), `${rows[s.seat]} names ${s.player.name}`);
    await ada.fill('#chat-input', 'good luck all');
    await ada.click('#chat-send');
    await bob.waitForSelector('#chat-lines .chat-text:text-is("good luck all")');
    const mutable = await bob.$$eval('#chat-mutes .mute', (els) => els.map((e) => e.dataset.name));
    assert.deepEqual(mutable, ['Ada']);
    for (const p of [ada, bob]) assert.deepEqual(p.jsErrors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});

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
    await lobby.waitForSelector(`#list-active tr[data-match="${id}"][data-status="live"]`, { timeout: 15000 });

    // Everyone leaves. The list drops the table at once, and the abandonment rule resigns each
    // fleet of the people gone, which leaves the bot's fleet the last afloat.
    for (const p of [ada, bob, cleo]) await p.close();
    await lobby.waitForSelector(`#list-active tr[data-match="${id}"]`, { state: 'detached', timeout: 15000 });
    const ended = await waitApi(lobby, `/api/matches/${id}`, (m) => m.status === 'finished', 60000);
    assert.equal(ended.outcome.ranks.indexOf(1), 3, 'the bot, the last fleet at the table, wins');
    await lobby.waitForSelector(`#list-finished tr[data-match="${id}"]`, { timeout: 15000 });
    assert.deepEqual(lobby.jsErrors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});
