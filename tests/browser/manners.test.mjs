// Table manners as lichess and Board Game Arena players expect them: a takeback against the
// computer (on a phone, by touch) and one asked and accepted between two people; a draw offer
// declined then accepted in Chakart, and the words where a game has none (its draw button says
// why); the clock that waits for each seat's first move; the rating change on the result; the
// game downloaded as text from the replay page.

import test from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launchBrowser, newPage, openCreatedMatch, waitMatchReady, waitTurnOrEnd, playOneTurn, rng,
  enterLobby, apiGet,
} from './lib.mjs';

/** The match page's version as a number. */
const version = (page) => page.evaluate(() => Number(document.body.dataset.version));

/** Creates a two-person match of `game` with `extra` fields through the API with `page`'s session
 * (the creator's seat 0), and seats `other` from the invite link; both pages wait for it live. */
async function twoPeople(server, page, other, game, extra = {}) {
  const created = await page.evaluate(async (body) => {
    const res = await fetch('/api/matches', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return res.json();
  }, { game, seats: [{ kind: 'human' }, { kind: 'human' }], creator_seat: 0, ...extra });
  await page.evaluate(([i, tok]) => localStorage.setItem(`plateau.token.${i}`, tok), [created.id, created.token]);
  await page.goto(`${server.url}/m/${created.id}`);
  await waitMatchReady(page);
  await other.goto(`${server.url}${created.invites[0].url}`);
  await waitMatchReady(other);
  for (const p of [page, other]) await p.waitForFunction(() => document.body.dataset.status === 'live');
  return created.id;
}

test('a takeback against the computer on a phone, and one accepted between two people', { timeout: 180000 }, async () => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    // Against the computer, on a 390x844 touch screen: taken back at once, the bot's reply too.
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, locale: 'en-GB' });
    const solo = await phone.newPage();
    const errors = [];
    solo.on('pageerror', (e) => errors.push(String(e)));
    await solo.goto(`${server.url}/`);
    const created = await solo.evaluate(async () => {
      const res = await fetch('/api/matches', {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ game: 'mad', seats: [{ kind: 'human' }, { kind: 'bot', bot: 'random' }] }),
      });
      return res.json();
    });
    await solo.evaluate(([i, tok]) => localStorage.setItem(`plateau.token.${i}`, tok), [created.id, created.token]);
    await solo.goto(`${server.url}/m/${created.id}`);
    await waitMatchReady(solo);
    assert.equal(await waitTurnOrEnd(solo), 'turn');
    assert.ok(!(await solo.isVisible('#takeback')), 'nothing to take back before a first move');
    // The draw button says why there is none against the computer.
    assert.equal(await solo.getAttribute('#offer-agreement', 'data-none'), 'true');
    await solo.tap('#offer-agreement');
    assert.match(await solo.textContent('#no-draw'), /computer never agrees/);
    await solo.tap('#no-draw-close');
    await solo.waitForSelector('#request-panel.hidden', { state: 'attached' });
    await playOneTurn(solo, rng(3));
    await solo.waitForFunction(() => document.body.dataset.version === '2' && document.body.dataset.myTurn === 'true');
    assert.equal(await solo.$$eval('#moves .mv[data-index]', (els) => els.length), 2, 'my move and the bot\'s');
    // On the phone take back, the draw button and Resign share one row beside the board.
    const tops = await solo.$$eval('#takeback, #offer-agreement, #resign', (els) => els.map((e) => Math.round(e.getBoundingClientRect().top)));
    assert.equal(new Set(tops).size, 1, `one row: ${tops}`);
    await solo.tap('#takeback');
    await solo.waitForFunction(() => document.body.dataset.version === '0' && document.body.dataset.myTurn === 'true');
    assert.equal(await solo.$$eval('#moves .mv[data-index]', (els) => els.length), 0);
    assert.ok(!(await solo.isVisible('#request-panel')), 'nothing to answer: the computer agreed');
    const wide = await solo.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= 390, `the page is ${wide} px wide on a 390 px screen`);
    assert.deepEqual(errors, []);
    await phone.close();

    // Between two people: Ada asks, Bob sees the request and accepts.
    const ada = await newPage(browser);
    const bob = await newPage(browser, { lang: 'fr-FR' });
    await enterLobby(ada, server, 'Ada');
    await enterLobby(bob, server, 'Bob');
    await twoPeople(server, ada, bob, 'mad');
    await playOneTurn(ada, rng(4));
    await bob.waitForFunction(() => document.body.dataset.myTurn === 'true');
    await ada.click('#takeback');
    await ada.waitForSelector('#request-panel[data-kind="takeback"]:not(.hidden)');
    assert.match(await ada.textContent('#request-text'), /You asked to take back your last move; waiting for Bob \(Blue\)/);
    await bob.waitForSelector('#request-panel[data-kind="takeback"]:not(.hidden)');
    assert.equal(await bob.textContent('#request-text'), 'Ada (Rouge) demande à reprendre son dernier coup.');
    assert.equal(await version(bob), 1, 'nothing is taken back before the answer');
    await bob.click('#request-accept');
    for (const p of [ada, bob]) {
      await p.waitForFunction(() => document.body.dataset.version === '0');
      await p.waitForSelector('#request-panel.hidden', { state: 'attached' });
    }
    await ada.waitForFunction(() => document.body.dataset.myTurn === 'true');
    assert.equal(await ada.$$eval('#moves .mv[data-index]', (els) => els.length), 0);
    for (const p of [ada, bob]) assert.deepEqual(p.jsErrors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});

test('a draw offered in Chakart: declined, then accepted; Moon Leap says it has none', { timeout: 180000 }, async () => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const ada = await newPage(browser);
    const bob = await newPage(browser);
    await enterLobby(ada, server, 'Ada');
    await enterLobby(bob, server, 'Bob');
    await twoPeople(server, ada, bob, 'chakart');
    assert.equal(await ada.textContent('#offer-agreement .words'), 'Offer a draw');
    await ada.click('#offer-agreement');
    await bob.waitForSelector('#request-panel[data-kind="agreement"]:not(.hidden)');
    assert.equal(await bob.textContent('#request-text'), 'Ada (White) offers a draw.');
    assert.match(await ada.textContent('#request-text'), /You offered a draw/);
    await bob.click('#request-decline');
    for (const p of [ada, bob]) await p.waitForSelector('#request-panel.hidden', { state: 'attached' });
    assert.equal(await ada.evaluate(() => document.body.dataset.status), 'live', 'declined: the game goes on');
    await ada.click('#offer-agreement');
    await bob.waitForSelector('#request-panel[data-kind="agreement"]:not(.hidden)');
    await bob.click('#request-accept');
    for (const p of [ada, bob]) {
      await p.waitForFunction(() => document.body.dataset.status === 'finished');
      assert.equal(await p.textContent('#result-text'), 'Drawn by agreement.');
    }
    assert.ok(!(await ada.isVisible('#result-ratings')), 'a casual game moves no rating');

    // Moon Leap's rules have no draw: the page says so instead of offering one.
    const { page: moon } = await openCreatedMatch(server, browser, {
      game: 'moonleap', seats: [{ kind: 'human' }, { kind: 'human' }],
    });
    const mid = new URL(moon.url()).pathname.split('/').pop();
    const other = await newPage(browser);
    await other.goto(`${server.url}/m/${mid}?join=1`);
    await waitMatchReady(other);
    await moon.waitForFunction(() => document.body.dataset.status === 'live');
    assert.equal(await moon.getAttribute('#offer-agreement', 'data-none'), 'true');
    await moon.click('#offer-agreement');
    assert.match(await moon.textContent('#no-draw'), /^Moon Leap has no draw by agreement/);
    assert.ok(!moon.wsSent.some((f) => f.includes('"agreement"')), 'nothing was offered');
    for (const p of [ada, bob, moon, other]) assert.deepEqual(p.jsErrors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});

test('the clock waits for each seat\'s first move; the rating change shows on the result; the game downloads as text', { timeout: 180000 }, async () => {
  // The clocks wait an hour for a first move, not 30 s: a loaded machine may take that long
  // between the match going live and the test's last look at the whole minute.
  const server = await startServer({ args: ['--first-move-seconds', '3600'] });
  const browser = await launchBrowser();
  try {
    const ada = await newPage(browser);
    const bob = await newPage(browser);
    await enterLobby(ada, server, 'Ada');
    await enterLobby(bob, server, 'Bob');
    const id = await twoPeople(server, ada, bob, 'mad', {
      rated: true, time_control: { kind: 'fischer', base_seconds: 60, increment_seconds: 0 },
    });
    // Ada's clock waits for her first move: it shows the whole minute and does not count.
    await ada.waitForSelector('#clock-0.first-move');
    assert.ok(!(await ada.$eval('#clock-0', (n) => n.classList.contains('running'))));
    assert.equal(await ada.getAttribute('#clock-0', 'data-ms'), '60000');
    assert.match(await ada.textContent('#status'), /your clock starts with your first move/);
    await ada.waitForTimeout(1500);
    assert.equal(await ada.getAttribute('#clock-0', 'data-ms'), '60000', 'still the whole minute');
    assert.equal(await bob.getAttribute('#clock-0', 'data-ms'), '60000', 'the other page agrees');
    await playOneTurn(ada, rng(8));
    // Bob's first move waits likewise; Ada's clock was charged nothing.
    await bob.waitForSelector('#clock-1.first-move');
    assert.equal(await bob.getAttribute('#clock-0', 'data-ms'), '60000');
    await playOneTurn(bob, rng(9));
    // From Ada's second move on, her clock runs from the first instant.
    await ada.waitForSelector('#clock-0.running');
    await ada.waitForFunction(() => Number(document.getElementById('clock-0').dataset.ms) < 60000);
    // A second move each: a game resigned sooner is an abort, which changes no rating.
    await playOneTurn(ada, rng(10));
    await bob.waitForFunction(() => document.body.dataset.myTurn === 'true');
    await playOneTurn(bob, rng(11));
    await ada.waitForFunction(() => document.body.dataset.myTurn === 'true');

    // Bob resigns; both results say how the ratings moved, as the profiles do.
    await bob.click('#resign');
    await bob.click('#resign');
    for (const p of [ada, bob]) await p.waitForSelector('#result-ratings:not([hidden])');
    const profile = (await apiGet(ada, '/api/players/Ada')).body;
    const change = profile.recent[0].rating_change;
    assert.ok(change > 0);
    const mine = ada.locator('#result-ratings .rating-change[data-seat="0"]');
    assert.equal(Number(await mine.getAttribute('data-delta')), change);
    assert.equal(await mine.textContent(), `Ada (Red): 1500 → ${1500 + change} (+${change})`);
    const first = await bob.$eval('#result-ratings .rating-change', (n) => n.dataset.seat);
    assert.equal(first, '1', 'each page lists its own change first');
    assert.match(await bob.textContent('#result-ratings .rating-change[data-seat="1"]'), /^Bob \(Blue\): 1500 → \d+ \(−\d+\)$/);

    // The replay page offers the game as text, which names the players and holds the moves.
    await ada.goto(`${server.url}/replay/${id}`);
    await ada.waitForSelector('body[data-ready="true"]');
    const href = await ada.getAttribute('#export-link', 'href');
    assert.equal(href, `/api/matches/${id}/export`);
    const text = await ada.evaluate(async (h) => (await fetch(h)).text(), href);
    assert.match(text, /^\[Event "Plateau rated game of MAD"\]\n/);
    assert.match(text, /\[Player1 "Ada"\]\n\[Player2 "Bob"\]\n/);
    assert.match(text, /\n1\. seat 1: \S+\n2\. seat 2: \S+\n(\d+\. seat [12]: \S+\n){2,}end: resign seat 2\n$/);
    for (const p of [ada, bob]) assert.deepEqual(p.jsErrors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});
