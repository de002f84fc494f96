// Every person has a name, and quick play strands nobody: an invited visitor is asked a name
// before sitting down (a suggestion already typed in) and can rename until a first rated game; a
// new visitor come to watch is offered one too, or just watches;
// a seek shows to the others as an open challenge they accept; a lone seeker sees the time waited
// and, after 30 s, is offered the computer; tables of three or four take bots by default.

import test from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launchBrowser, newPage, enterLobby, waitMatchReady, apiGet, openCreatedMatch,
} from './lib.mjs';

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

test('an invited visitor is asked a name first, and may rename until a rated game', { timeout: 120000 }, async () => {
  // A paired match waits for its players as long as a loaded machine needs to open its page.
  const server = await startServer({ args: ['--no-show-seconds', '3600'] });
  const browser = await launchBrowser();
  try {
    const ada = await newPage(browser);
    await enterLobby(ada, server, 'Ada');
    await ada.click('#friend-mad');
    await ada.selectOption('#play-side', '0');
    await ada.click('#play-go');
    const invite = await ada.inputValue('.invite-link[data-seat="1"]');
    await ada.click('#go-match');
    await ada.waitForFunction(() => document.body.dataset.conn === 'up');

    // A new visitor: the name comes first, prefilled with a suggestion that the server takes.
    const zoe = await newPage(browser, { lang: 'fr-FR' });
    await zoe.goto(invite);
    await zoe.waitForSelector('#name-dialog[open]');
    assert.equal(await zoe.textContent('#name-go'), 'M’asseoir sous ce nom');
    const suggested = await zoe.inputValue('#name-input');
    assert.match(suggested, /^[A-Za-z][A-Za-z0-9_-]{2,19}$/);
    assert.equal(await zoe.evaluate(() => document.body.dataset.conn), undefined, 'not seated before a name');
    await zoe.fill('#name-input', 'Zoe');
    await zoe.click('#name-go');
    await waitMatchReady(zoe);
    assert.equal(await zoe.evaluate(() => document.body.dataset.seat), '1');
    assert.equal(await zoe.evaluate(() => document.body.dataset.player), 'Zoe');
    // The inviter sees the name at the table.
    await ada.waitForFunction(() => document.body.dataset.status === 'live');
    await ada.waitForFunction(() => [...document.querySelectorAll('.player-bar .player-name')].some((e) => e.textContent.includes('Zoe')));

    // Until a rated game, the header's Rename changes it.
    await zoe.click('#rename');
    await zoe.waitForSelector('#name-dialog[open]');
    assert.equal(await zoe.inputValue('#name-input'), 'Zoe');
    await zoe.fill('#name-input', 'Zoe_B');
    await zoe.click('#name-go');
    await zoe.waitForFunction(() => document.body.dataset.player === 'Zoe_B');
    await ada.waitForFunction(() => [...document.querySelectorAll('.player-bar .player-name')].some((e) => e.textContent.includes('Zoe_B')));
    for (const p of [ada, zoe]) assert.deepEqual(p.jsErrors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});

/** A fresh phone-sized browser context with touch (no player, no seat), and its page. */
async function phonePage(browser, locale) {
  const context = await browser.newContext({ ...PHONE, locale });
  const page = await context.newPage();
  page.jsErrors = [];
  page.on('pageerror', (e) => page.jsErrors.push(String(e)));
  return page;
}

/** Whether the node `sel` lies wholly inside the page's viewport. */
async function inView(page, sel) {
  return page.$eval(sel, (node) => {
    const r = node.getBoundingClientRect();
    return r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth;
  });
}

const connected = () => document.body.dataset.conn === 'up' && document.body.dataset.version !== undefined;

test('a new visitor opening a match link is offered a name, taken with one tap, or just watches', { timeout: 120000 }, async () => {
  // A paired match waits for its players as long as a loaded machine needs to open its page.
  const server = await startServer({ args: ['--no-show-seconds', '3600'] });
  const browser = await launchBrowser();
  try {
    // A seated player (its seat token in the browser) is not asked: the seat is who they are.
    const { page: red, created } = await openCreatedMatch(server, browser, {
      game: 'mad', seats: [{ kind: 'human' }, { kind: 'bot', bot: 'random' }],
    });
    assert.equal(await red.$('#name-dialog'), null);
    assert.equal(await red.evaluate(() => document.body.dataset.player), '');
    const link = `${server.url}/m/${created.id}`;

    // A new visitor on a phone: the dialog comes before the table, a suggestion typed in, and
    // one tap on the first button takes it.
    const eve = await phonePage(browser, 'en-GB');
    await eve.goto(link);
    await eve.waitForSelector('#name-dialog[open][data-purpose="watch"]');
    assert.equal(await eve.evaluate(() => document.body.dataset.conn), undefined, 'not connected before the answer');
    assert.equal(await eve.textContent('#name-go'), 'Use this name');
    assert.equal(await eve.textContent('#name-skip'), 'Just watch');
    for (const sel of ['#name-input', '#name-go', '#name-skip']) assert.ok(await inView(eve, sel), `${sel} on the screen`);
    const suggested = await eve.inputValue('#name-input');
    assert.match(suggested, /^[A-Za-z][A-Za-z0-9_-]{2,19}$/);
    await eve.tap('#name-go');
    await eve.waitForFunction(connected);
    assert.equal(await eve.evaluate(() => document.body.dataset.player), suggested);
    assert.equal(await eve.textContent('#me-link'), suggested);
    assert.equal(await eve.evaluate(() => document.body.dataset.seat), 'spectator');
    // The name is hers in the spectators' chat at once: no second question there.
    assert.equal(await eve.getAttribute('#chat-panel', 'data-room'), 'spectators');
    assert.ok(!(await eve.isVisible('#chat-name-form')));
    await eve.fill('#chat-input', 'watching from the stands');
    await eve.tap('#chat-send');
    await eve.waitForSelector(`#chat-lines .chat-line[data-name="${suggested}"]`);
    assert.equal((await apiGet(eve, '/api/me')).body.player.name, suggested);

    // Another new visitor, in French, just watches: the board, and no name anywhere.
    const max = await phonePage(browser, 'fr-FR');
    await max.goto(link);
    await max.waitForSelector('#name-dialog[open][data-purpose="watch"]');
    assert.equal(await max.textContent('#name-go'), 'Prendre ce nom');
    assert.equal(await max.textContent('#name-skip'), 'Juste regarder');
    assert.match(await max.textContent('#name-title'), /^Bienvenue/);
    await max.tap('#name-skip');
    await max.waitForFunction(connected);
    assert.equal(await max.$('#name-dialog'), null);
    assert.ok(await max.isVisible('svg#board'));
    assert.equal(await max.evaluate(() => document.body.dataset.player), '');
    assert.equal(await max.$('#me-link'), null);
    assert.equal((await apiGet(max, '/api/me')).body?.player ?? null, null);
    // The chat asks for a name when they want to write, as before.
    assert.ok(await max.isVisible('#chat-name-form'));

    // A finished game is only looked at: nobody is asked.
    await red.click('#resign');
    await red.click('#resign');
    await red.waitForFunction(() => document.body.dataset.status === 'finished');
    const late = await phonePage(browser, 'en-GB');
    await late.goto(link);
    await late.waitForFunction(connected);
    assert.equal(await late.$('#name-dialog'), null);
    assert.equal(await late.evaluate(() => document.body.dataset.status), 'finished');
    for (const p of [red, eve, max, late]) assert.deepEqual(p.jsErrors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});

test('a seek is an open challenge others accept; a lone seeker is offered the computer', { timeout: 180000 }, async () => {
  // A paired match waits for its players as long as a loaded machine needs to open its page.
  const server = await startServer({ args: ['--no-show-seconds', '3600'] });
  const browser = await launchBrowser();
  try {
    const ada = await newPage(browser);
    const bob = await newPage(browser);
    await enterLobby(ada, server, 'Ada');
    await enterLobby(bob, server, 'Bob');

    // Tables of three or four take bots by default.
    await ada.click('#quick-moonleap');
    assert.equal(await ada.isChecked('#play-fill'), false, 'a table of two waits for people');
    await ada.selectOption('#play-seats', '4');
    assert.equal(await ada.isChecked('#play-fill'), true);
    await ada.click('#play-close');

    // Ada seeks; Bob sees her among the open challenges and accepts.
    await ada.click('#quick-mad');
    await ada.selectOption('#play-tc', { label: 'Blitz 3 + 2' });
    await ada.click('#play-go');
    await ada.waitForFunction(() => document.body.dataset.seeking === 'yes');
    const row = bob.locator('#challenges .challenge[data-game="mad"]');
    await row.waitFor();
    assert.match(await row.textContent(), /Ada \(1500\)MAD · 3′ \+ 2″ · Rated/);
    assert.ok(!(await ada.isVisible('#challenges .challenge')), 'one\'s own seek is no challenge');
    await row.locator('.challenge-accept').click();
    for (const p of [ada, bob]) {
      await p.waitForURL(/\/m\/[0-9a-f]{16}$/);
      await waitMatchReady(p);
    }
    assert.equal(new URL(ada.url()).pathname, new URL(bob.url()).pathname, 'paired together');

    // Ada alone now: the wait counts up, and after 30 s the computer is offered. The offer is
    // the page's alone (the server only holds the seek), so the page's clock is run forward by
    // 30 s rather than waited for; from there it runs on in real time.
    await ada.clock.install();
    await enterLobby(ada, server);
    await ada.click('#quick-mad');
    await ada.selectOption('#play-tc', { label: 'Rapid 10 + 5' });
    await ada.click('#play-go');
    await ada.waitForSelector('#seek-elapsed');
    // Seconds so far, fewer than the offer's 30 (a loaded machine may take ten before this look).
    assert.match(await ada.textContent('#seek-elapsed'), /^waiting 0:[0-2]\d · no estimate yet for this pool$/);
    assert.ok(!(await ada.isVisible('#seek-offer')), 'no offer at once');
    await ada.clock.fastForward(30000);
    await ada.waitForSelector('#seek-offer');
    assert.ok(Number(await ada.getAttribute('#seek-elapsed', 'data-ms')) >= 30000);
    await ada.selectOption('#seek-level', 'beginner');
    await ada.click('#seek-computer');
    await ada.waitForURL(/\/m\/[0-9a-f]{16}$/);
    await waitMatchReady(ada);
    const id = new URL(ada.url()).pathname.split('/').pop();
    const m = (await apiGet(ada, `/api/matches/${id}`)).body;
    assert.equal(m.rated, false, 'a game against the computer is casual');
    assert.deepEqual(m.time_control, { kind: 'fischer', base_seconds: 600, increment_seconds: 5 });
    assert.deepEqual(m.seats.map((s) => s.kind).sort(), ['bot', 'human']);
    assert.equal(m.seats.find((s) => s.kind === 'bot').bot, 'beginner');
    for (const p of [ada, bob]) assert.deepEqual(p.jsErrors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});
