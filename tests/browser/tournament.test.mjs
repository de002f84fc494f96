// A tournament followed through two games by two people (docs/protocol.md section 7.9): Ada, an
// account on a laptop, creates an arena from the tournaments page (a bad name first, refused in
// words); Bob, on a French touch phone, sees it appear in the list as it is made, opens it, and
// both see the countdown and join; two more players (Cyril and Delia, through the API) join after
// them, so the start pairs Bob with Ada and Cyril with Delia. Both reach their game from "Play your
// game"; Ada resigns. Back on the tournament page, Delia's resignation moves the standings on both
// pages live, and pairs each of them again: both reach their second game. Bob then withdraws,
// and his player page lists the tournament with his place and points.

import test from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPage, enterLobby, visitorAddress, screenshot, waitApi, waitMatchReady } from './lib.mjs';

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

/** A phone-sized touch page of a visitor of its own, in `locale`. */
async function phonePage(browser, locale) {
  const context = await browser.newContext({
    ...PHONE, locale, extraHTTPHeaders: { 'x-forwarded-for': visitorAddress() },
  });
  const page = await context.newPage();
  page.jsErrors = [];
  page.on('pageerror', (e) => page.jsErrors.push(String(e)));
  return page;
}

/** No sideways scrolling, and every button and link of `selectors` inside the screen. */
async function fitsPhone(page, selectors) {
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390), 'no sideways scroll on a phone');
  for (const sel of selectors) {
    const box = await page.$eval(sel, (b) => {
      const r = b.getBoundingClientRect();
      return { left: r.left, right: r.right, height: r.height };
    });
    assert.ok(box.left >= 0 && box.right <= 390 && box.height >= 40, `${sel}, a control a finger can hit: ${JSON.stringify(box)}`);
  }
}

/** `page`'s POST of `path` (with its session): the status. */
async function post(page, path, body = null) {
  return page.evaluate(async ([p, b]) => {
    const res = await fetch(p, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) });
    return res.status;
  }, [path, body]);
}

/** The match of `name`'s game in play in tournament `id`, once paired (read through `page`). */
async function gameOf(page, id, name, not = null) {
  const detail = await waitApi(page, `/api/tournaments/${id}`, (d) => d.games.some((g) => g.ranks === null && g.match_id && g.match_id !== not && g.players.includes(name)), 60000);
  return detail.games.find((g) => g.ranks === null && g.match_id && g.match_id !== not && g.players.includes(name)).match_id;
}

/** Opens match `matchId` on `page` as its player (a socket with its session), to resign later. */
async function sitAt(page, matchId) {
  await page.evaluate((m) => new Promise((resolve) => {
    window.__table = new WebSocket(`ws://${location.host}/api/matches/${m}/ws`);
    window.__table.onopen = resolve;
  }), matchId);
}

test('a tournament is followed through two games by two people, one on a French phone', { timeout: 300000 }, async () => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const ada = await newPage(browser);
    await enterLobby(ada, server, 'Ada');
    assert.equal(await post(ada, '/api/account', { password: 'a long pass phrase' }), 200);
    const bob = await phonePage(browser, 'fr-FR');
    await bob.goto(`${server.url}/`);
    await bob.waitForSelector('body[data-ready="true"]');
    await bob.fill('#welcome-name', 'Bob');
    await bob.tap('#welcome-go');
    await bob.waitForFunction(() => document.body.dataset.player === 'Bob');
    // The lobby links to the tournaments.
    await bob.tap('.topbar a[href="/tournaments"]');
    await bob.waitForSelector('body[data-ready="true"][data-tournaments="0"]');
    assert.equal(await bob.isVisible('#create-guest'), true, 'a guest is told why there is no form');
    await fitsPhone(bob, []);
    // Two more players, who join through the API.
    const cyril = await newPage(browser);
    await enterLobby(cyril, server, 'Cyril');
    const delia = await newPage(browser);
    await enterLobby(delia, server, 'Delia');

    // Ada creates it; a name of spaces is refused in words first.
    await ada.goto(`${server.url}/tournaments`);
    await ada.waitForSelector('#create-form:not(.hidden)');
    // A Swiss asks for rounds, tables for their size too; an arena for its length.
    await ada.selectOption('#tour-kind', 'tables');
    for (const [field, shown] of [['#rounds-field', true], ['#seats-field', true], ['#minutes-field', false]]) assert.equal(await ada.isVisible(field), shown, field);
    await ada.selectOption('#tour-kind', 'swiss');
    for (const [field, shown] of [['#rounds-field', true], ['#seats-field', false], ['#minutes-field', false]]) assert.equal(await ada.isVisible(field), shown, field);
    await ada.selectOption('#tour-kind', 'arena');
    await ada.fill('#tour-name', '   ');
    await ada.selectOption('#tour-game', 'mad');
    // It starts 30 s on: what comes before the start (Bob finds it, sees the countdown, and all
    // four join) takes about 4 s on the 2-core machine loaded twenty deep, and everything that
    // needs no tournament (the four players in the lobby) is done before it is created.
    await ada.evaluate(() => {
      const d = new Date(Date.now() + 30000);
      const pad = (n) => String(n).padStart(2, '0');
      document.getElementById('tour-start').value = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
    });
    await ada.fill('#tour-minutes', '20');
    await ada.click('#tour-create');
    await ada.waitForSelector('#create-error:not(.hidden)');
    assert.match(await ada.textContent('#create-error'), /^These settings are not allowed: a name of 1 to 60 characters/);
    await ada.fill('#tour-name', 'Sunday arena');
    await ada.click('#tour-create');
    await ada.waitForURL(/\/t\/[A-Za-z0-9]+$/);
    const id = new URL(ada.url()).pathname.split('/').pop();
    await ada.waitForSelector('body[data-phase="waiting"]');
    assert.match(await ada.textContent('#tour-when'), /^Starts in \d:\d\d$/);

    // Bob's list shows it as it is made; he opens it, sees the countdown in French and joins.
    const listed = `.tour-item[data-tournament="${id}"][data-phase="waiting"]`;
    await bob.waitForSelector(`#list-waiting ${listed} .tour-countdown`);
    assert.match(await bob.textContent(`${listed} .tour-countdown`), /^Début dans \d:\d\d$/);
    await screenshot(bob, 'tournaments-phone');
    await bob.tap(`${listed} .tour-link`);
    await bob.waitForSelector('body[data-ready="true"][data-phase="waiting"]');
    assert.match(await bob.textContent('#tour-when'), /^Début dans \d:\d\d$/);
    assert.equal(await bob.textContent('#join'), 'Participer');
    await fitsPhone(bob, ['#join']);
    await bob.tap('#join');
    await bob.waitForSelector('body[data-joined="true"]');
    await fitsPhone(bob, ['#withdraw']);
    // Ada's page hears of Bob's join without asking.
    await ada.waitForSelector('#standings tr[data-name="Bob"]');
    await ada.click('#join');
    await ada.waitForSelector('body[data-joined="true"]');
    await bob.waitForSelector('#standings tr[data-name="Ada"]');
    await screenshot(bob, 'tournament-phone');
    for (const p of [cyril, delia]) assert.equal(await post(p, `/api/tournaments/${id}/join`), 200);

    // The start pairs Bob with Ada: both are shown their game, and reach it.
    for (const p of [ada, bob]) await p.waitForSelector('body[data-phase="running"] #your-game:not(.hidden)', { timeout: 120000 });
    const first = await bob.evaluate(() => document.body.dataset.myGame);
    assert.equal(await ada.evaluate(() => document.body.dataset.myGame), first);
    assert.equal(await bob.textContent('#your-game-link'), 'Jouer votre partie');
    assert.equal(await bob.textContent('#your-game-text'), 'Vous jouez contre Ada.');
    await bob.waitForSelector(`#games li.mine[data-match="${first}"]`);
    await fitsPhone(bob, ['#your-game-link']);
    await screenshot(bob, 'tournament-paired-phone');
    // Each opens its game at once (a player who has not come 30 s after the pairing loses it).
    await bob.tap('#your-game-link');
    await ada.click('#your-game-link');
    const helpersGame = await gameOf(cyril, id, 'Cyril');
    await sitAt(cyril, helpersGame);
    await sitAt(delia, helpersGame);
    for (const p of [ada, bob]) {
      await p.waitForURL(`**/m/${first}`);
      await waitMatchReady(p);
      await p.waitForFunction(() => document.body.dataset.status === 'live', null, { timeout: 60000 });
    }
    await ada.click('#resign');
    await ada.click('#resign');
    for (const p of [ada, bob]) await p.waitForFunction(() => document.body.dataset.status === 'finished', null, { timeout: 30000 });

    // Back on the tournament: Bob leads. Delia resigns: both pages move live, and pair again.
    for (const p of [ada, bob]) {
      await p.goto(`${server.url}/t/${id}`);
      await p.waitForSelector('#standings tr[data-name="Bob"][data-points="2"]');
    }
    assert.equal(await ada.isVisible('#your-game'), false, 'not paired with the same opponent twice running');
    await delia.evaluate(() => window.__table.send(JSON.stringify({ type: 'resign' })));
    for (const p of [ada, bob]) {
      await p.waitForSelector('#standings tr[data-name="Cyril"][data-points="2"]');
      await p.waitForFunction((f) => document.body.dataset.myGame && document.body.dataset.myGame !== f, first, { timeout: 60000 });
    }
    assert.equal(await bob.textContent('#your-game-text'), 'Vous jouez contre Cyril.');
    assert.match(await bob.textContent('#results'), /Bob a gagné/);
    await screenshot(bob, 'tournament-second-phone');
    const bobSecond = await bob.evaluate(() => document.body.dataset.myGame);
    const adaSecond = await ada.evaluate(() => document.body.dataset.myGame);
    await bob.tap('#your-game-link');
    await ada.click('#your-game-link');
    await sitAt(cyril, bobSecond);
    await sitAt(delia, adaSecond);
    for (const [p, m] of [[ada, adaSecond], [bob, bobSecond]]) {
      await p.waitForURL(`**/m/${m}`);
      await waitMatchReady(p);
      await p.waitForFunction(() => document.body.dataset.status === 'live', null, { timeout: 60000 });
    }

    // Bob withdraws (his game goes on): he is told so, and may join again.
    await bob.goto(`${server.url}/t/${id}`);
    await bob.waitForSelector('body[data-joined="true"]');
    await bob.tap('#withdraw');
    await bob.waitForSelector('body[data-joined="false"]');
    assert.match(await bob.textContent('#tour-me'), /^Vous vous êtes retiré/);
    assert.match(await bob.textContent('#standings tr[data-name="Bob"]'), /retiré/);
    await fitsPhone(bob, ['#join']);

    // Bob's page lists the tournament, with his place and points.
    await bob.goto(`${server.url}/@/Bob`);
    const row = `#tournaments tr[data-tournament="${id}"]`;
    await bob.waitForSelector(row);
    assert.equal(await bob.getAttribute(row, 'data-points'), '2');
    await fitsPhone(bob, []);
    await bob.locator('#tournaments').scrollIntoViewIfNeeded();
    await screenshot(bob, 'player-tournaments-phone');
    for (const p of [ada, bob, cyril, delia]) assert.deepEqual(p.jsErrors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});
