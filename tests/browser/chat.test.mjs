// A match between friends, with its chat and its offers: Ada creates a MAD match with "Play a
// friend" (Blitz 3 + 2), Bob follows the invite link; the match starts only once both opened it.
// Chat lines reach the other player as plain text; a spectator names themself to write and their
// lines stay in the spectators' room; a muted player's lines no longer arrive; the rate limit shows
// as an error. An agreed stop is declined, then accepted. A rematch offered is not a match until it
// is accepted, and accepted it starts no clock until both players opened it. The replay shows the
// stored chat.

import test from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launchBrowser, newPage, enterLobby, waitMatchReady, playOneTurn, rng, screenshot, apiGet, waitApi,
} from './lib.mjs';

/** Sends a chat line from `page` and waits until its own room shows it back. */
async function say(page, text) {
  const before = await page.$$eval('#chat-lines .chat-line', (els) => els.length);
  await page.fill('#chat-input', text);
  await page.click('#chat-send');
  await page.waitForFunction(([n, t]) => {
    const lines = [...document.querySelectorAll('#chat-lines .chat-text')].map((e) => e.textContent);
    return lines.length > n && lines.includes(t);
  }, [before, text]);
}

const lines = (page) => page.$$eval('#chat-lines .chat-line', (els) => els.map((e) => `${e.dataset.name}: ${e.querySelector('.chat-text').textContent}`));
const hasLine = (page, text) => page.waitForFunction((t) => [...document.querySelectorAll('#chat-lines .chat-text')].some((e) => e.textContent === t), text);

test('friends: invite, chat rooms, mute, rate limit, agreed stop, rematch offer and clocks', { timeout: 300000 }, async () => {
  // The clocks wait an hour for a first move, not 30 s: a loaded machine may take that long
  // between a match going live and the test's look at its clock.
  const server = await startServer({ args: ['--first-move-seconds', '3600'] });
  const browser = await launchBrowser();
  try {
    const ada = await newPage(browser);
    const bob = await newPage(browser);
    await enterLobby(ada, server, 'Ada');
    await enterLobby(bob, server, 'Bob');

    await ada.click('#friend-mad');
    await ada.selectOption('#play-tc', { label: 'Blitz 3 + 2' });
    await ada.selectOption('#play-side', '0');
    assert.equal(await ada.isChecked('#play-casual'), true, 'a game with a friend is casual by default');
    await ada.click('#play-go');
    const invite = await ada.inputValue('.invite-link[data-seat="1"]');
    const id = invite.match(/\/m\/([0-9a-f]{16})\?join=1$/)[1];
    await ada.click('#go-match');
    await waitMatchReady(ada);
    assert.equal(await ada.evaluate(() => document.body.dataset.status), 'open');
    assert.equal(await ada.getAttribute('#clock-0', 'data-ms'), '180000');

    await bob.goto(invite);
    await waitMatchReady(bob);
    for (const p of [ada, bob]) await p.waitForFunction(() => document.body.dataset.status === 'live');
    assert.match(await bob.textContent('#status'), /Ada \(Red\) to play/);

    // Chat between the players: the text arrives as text, markup and all.
    const html = 'Hello <b>Bob</b> & <script>alert(1)</script>';
    await say(ada, html);
    await hasLine(bob, html);
    assert.equal(await bob.$$eval('#chat-lines b, #chat-lines script', (els) => els.length), 0);
    assert.equal(await bob.getAttribute('#chat-panel', 'data-room'), 'players');
    await say(bob, 'Hi Ada');
    await hasLine(ada, 'Hi Ada');

    // A spectator without a name is asked for one before writing; their room is the spectators'.
    const cleo = await newPage(browser);
    await cleo.goto(`${server.url}/m/${id}`);
    await waitMatchReady(cleo);
    assert.equal(await cleo.getAttribute('#chat-panel', 'data-room'), 'spectators');
    assert.ok(await cleo.isVisible('#chat-name-form'));
    assert.equal(await cleo.$$eval('#chat-lines .chat-line', (els) => els.length), 0, 'spectators do not read the players');
    await cleo.fill('#chat-name', 'Cleo');
    await cleo.click('#chat-name-form button');
    await cleo.waitForFunction(() => document.body.dataset.player === 'Cleo');
    await cleo.waitForSelector('#chat-form:not(.hidden)');
    await waitMatchReady(cleo);
    const dan = await newPage(browser);
    await enterLobby(dan, server, 'Dan');
    await dan.goto(`${server.url}/m/${id}`);
    await waitMatchReady(dan);
    await say(cleo, 'from the stands');
    await hasLine(dan, 'from the stands');
    // A players' line sent after it reaches Ada after Cleo's would have: Cleo's never came.
    await say(bob, 'after the stands');
    await hasLine(ada, 'after the stands');
    assert.ok(!(await lines(ada)).some((l) => l.includes('from the stands')));
    await say(cleo, 'spectators only');
    await hasLine(dan, 'spectators only');
    assert.ok(!(await lines(dan)).some((l) => l.includes('after the stands')));

    // The rate limit: five lines in ten seconds (Dan's first ones), the sixth is refused with the
    // reason. The six are typed and sent through the form in one go: sent one by one, each
    // waited for, a loaded machine could spread them over more than the ten seconds.
    await dan.evaluate(() => {
      const input = document.getElementById('chat-input');
      for (let i = 1; i <= 6; i++) {
        input.value = `line ${i}`;
        document.getElementById('chat-send').click();
      }
    });
    await dan.waitForSelector('#chat-error:text("at most 5 lines")');
    for (let i = 1; i <= 5; i++) await hasLine(dan, `line ${i}`);
    assert.ok(!(await lines(dan)).includes('Dan: line 6'));

    // Bob mutes Ada: her next line does not reach him (his own later line arrives after it would).
    await bob.click('#chat-mutes .mute[data-name="Ada"]');
    await bob.waitForSelector('#chat-mutes .mute[data-name="Ada"][aria-pressed="true"]');
    assert.ok(!(await lines(bob)).some((l) => l.startsWith('Ada:')), 'her earlier lines are hidden too');
    await say(ada, 'can you read me?');
    await say(bob, 'quiet now');
    assert.ok(!(await lines(bob)).some((l) => l.includes('can you read me?')));
    await bob.click('#chat-mutes .mute[data-name="Ada"]');
    await bob.waitForSelector('#chat-mutes .mute[data-name="Ada"][aria-pressed="false"]');
    await ada.setViewportSize({ width: 1280, height: 1250 });
    await screenshot(ada, 'match-chat');
    await ada.setViewportSize({ width: 1280, height: 860 });

    // A few moves, then an agreed stop: offered, declined, offered again, accepted.
    const rand = rng(5);
    for (const p of [ada, bob, ada, bob]) {
      await p.waitForFunction(() => document.body.dataset.myTurn === 'true');
      await playOneTurn(p, rand);
    }
    await ada.waitForFunction(() => document.body.dataset.myTurn === 'true');
    await ada.click('#offer-agreement');
    await bob.waitForSelector('#request-panel[data-kind="agreement"]:not(.hidden)');
    assert.match(await bob.textContent('#request-text'), /Ada \(Red\) offers to stop the game here/);
    await bob.click('#request-decline');
    for (const p of [ada, bob]) await p.waitForSelector('#request-panel.hidden', { state: 'attached' });
    await ada.waitForSelector('#offer-agreement');
    await ada.click('#offer-agreement');
    await bob.waitForSelector('#request-panel[data-kind="agreement"]:not(.hidden)');
    await bob.click('#request-accept');
    for (const p of [ada, bob, cleo]) await p.waitForFunction(() => document.body.dataset.status === 'finished');
    assert.equal(await ada.getAttribute('#result-panel', 'data-kind'), 'agreement');

    // The rematch is an offer: nothing exists until Bob accepts.
    await ada.click('#rematch');
    await bob.waitForSelector('#rematch-info:text("Ada (Red) offers a rematch.")');
    assert.equal(await bob.textContent('#rematch'), 'Accept the rematch');
    // Ada's page hears of her offer from the server too, as Bob's does: not always before his.
    await ada.waitForSelector('#rematch-info:text("waiting for Bob (Blue)")');
    assert.equal((await apiGet(ada, `/api/matches/${id}`)).body.rematch, null);
    assert.ok(!(await cleo.isVisible('#rematch')), 'a spectator has no rematch button');

    // Bob accepts, but his page does not open the new match: its clocks must not start.
    await bob.route('**/m/*', (route) => route.abort());
    await bob.click('#rematch');
    await ada.waitForURL((u) => /^\/m\/[0-9a-f]{16}$/.test(u.pathname) && !u.pathname.endsWith(id));
    await waitMatchReady(ada);
    const second = new URL(ada.url()).pathname.split('/').pop();
    assert.equal(await ada.evaluate(() => document.body.dataset.seat), '1', 'the seats rotate: Ada plays Blue');
    assert.equal(await ada.evaluate(() => document.body.dataset.status), 'open');
    await ada.waitForSelector('#status:text("Waiting for Bob (Red) to open the match")');
    const open = (await apiGet(ada, `/api/matches/${second}`)).body;
    assert.equal(open.status, 'open');
    assert.equal(open.version, 0);
    assert.ok(!(await ada.$$eval('.clock.running', (els) => els.length)), 'no clock runs');
    assert.equal(await ada.getAttribute('#clock-0', 'data-ms'), '180000');

    // Bob opens it: the match goes live, and Red's clock (Bob's) waits for his first move.
    await bob.unroute('**/m/*');
    await bob.goto(`${server.url}/m/${second}`);
    await waitMatchReady(bob);
    assert.equal(await bob.evaluate(() => document.body.dataset.seat), '0');
    for (const p of [ada, bob]) await p.waitForFunction(() => document.body.dataset.status === 'live');
    await ada.waitForSelector('#clock-0.first-move');
    await waitApi(ada, `/api/matches/${id}`, (m) => m.rematch === second);

    // The replay of the first match shows both rooms of its chat.
    await cleo.goto(`${server.url}/replay/${id}`);
    await cleo.waitForSelector('body[data-ready="true"]');
    const stored = await cleo.$$eval('#chat-stored .chat-room', (rooms) => Object.fromEntries(rooms.map((r) => [r.dataset.room,
      [...r.querySelectorAll('.chat-line')].map((l) => `${l.dataset.name}: ${l.querySelector('.chat-text').textContent}`)])));
    assert.deepEqual(stored.players, [`Ada: ${html}`, 'Bob: Hi Ada', 'Bob: after the stands', 'Ada: can you read me?', 'Bob: quiet now']);
    assert.deepEqual(stored.spectators, ['Cleo: from the stands', 'Cleo: spectators only', ...[1, 2, 3, 4, 5].map((i) => `Dan: line ${i}`)]);

    for (const p of [ada, bob, cleo, dan]) assert.deepEqual(p.jsErrors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});
