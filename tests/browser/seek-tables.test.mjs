// A Moon Leap Quick play for a table of 4 that two guests join (one of them in French), filled
// with bots of the chosen level after the wait the seekers allowed; every seat reads with its
// astronauts' colour and who sits there, and chat offers no bot to mute. And "Play the computer"
// by level name.

import test from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launchBrowser, newPage, enterLobby, waitMatchReady, apiGet,
} from './lib.mjs';

test('Moon Leap quick play for 4: two guests and two bots after the wait', { timeout: 180000 }, async () => {
  // A paired match waits for its players as long as a loaded machine needs to open its page.
  const server = await startServer({ args: ['--no-show-seconds', '3600'] });
  const browser = await launchBrowser();
  try {
    const ada = await newPage(browser);
    const bob = await newPage(browser, { lang: 'fr-FR' });
    await enterLobby(ada, server, 'Ada');
    await enterLobby(bob, server, 'Bob');
    // Both accept bots; Ada's wait for them is the longest allowed, Bob's 8 s, so that the bots
    // come once both seek (Bob's wait starts last): had Ada's wait been as short, a loaded
    // machine could spend it before Bob's seek, and seat Ada with three bots.
    const seek = async (page, fillSeconds) => {
      await page.click('#quick-moonleap');
      await page.selectOption('#play-seats', '4');
      await page.selectOption('#play-tc', '1');
      await page.check('#play-fill');
      await page.fill('#play-fill-seconds', String(fillSeconds));
      await page.selectOption('#play-fill-level', 'beginner');
      await page.click('#play-go');
      // What the lobby says of the seek, read as it shows: Bob's is gone with the table 8 s on.
      const said = await page.waitForFunction(() => document.body.dataset.seeking === 'yes' && document.getElementById('seeking-text').textContent);
      return said.jsonValue();
    };
    assert.match(await seek(ada, 600), /table of 4 · .*bots fill the table after 600 s/);
    assert.match(await seek(bob, 8), /table de 4/);
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
    // A person by name, a bot by its level in words ("Beginner", not its player name `beginner-bot`).
    for (const s of m.seats) {
      const who = s.kind === 'bot' ? 'Beginner' : s.player.name;
      assert.ok(rows[s.seat].includes(who) && !rows[s.seat].includes('-bot'), `${rows[s.seat]} names ${who}`);
    }
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

test('play the computer: levels by name, the side chosen, the game starts at once', { timeout: 120000 }, async () => {
  // A paired match waits for its players as long as a loaded machine needs to open its page.
  const server = await startServer({ args: ['--no-show-seconds', '3600'] });
  const browser = await launchBrowser();
  try {
    const page = await newPage(browser);
    await enterLobby(page, server, 'Ada');
    const games = (await apiGet(page, '/api/games')).body.games;
    const levels = games.find((g) => g.name === 'mad').levels;
    await page.click('#bot-mad');
    await page.waitForSelector('#play-dialog[open]');
    const offered = await page.$$eval('#play-level option', (os) => os.map((o) => [o.value, o.textContent]));
    assert.deepEqual(offered.map(([v]) => v), levels, 'the levels of /api/games, weakest first');
    assert.deepEqual(offered.map(([, text]) => text), ['Beginner', 'Casual player', 'Club player', 'Strong player', 'Expert']);
    await page.selectOption('#play-level', 'beginner');
    await page.selectOption('#play-side', '1');
    await page.click('#play-go');
    await page.waitForURL(/\/m\/[0-9a-f]{16}$/);
    await waitMatchReady(page);
    await page.waitForFunction(() => document.body.dataset.status === 'live');
    assert.equal(await page.evaluate(() => document.body.dataset.seat), '1');
    const id = new URL(page.url()).pathname.split('/').pop();
    const m = (await apiGet(page, `/api/matches/${id}`)).body;
    assert.equal(m.rated, false, 'games against the computer are casual');
    assert.equal(m.seats[0].kind, 'bot');
    assert.equal(m.seats[0].bot, 'beginner');
    assert.equal(m.seats[1].player.name, 'Ada');
    // The bar of the bot's side names its level in words, Ada's says it is her.
    assert.equal(await page.textContent('.player-name[data-seat="0"] .seat-who'), '(Beginner)');
    assert.equal(await page.textContent('.player-name[data-seat="1"] .seat-who'), '(Ada, you)');
    assert.deepEqual(page.jsErrors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});
