// Players, end to end: two guests in two browser contexts name themselves in the lobby, press
// Quick play for MAD (rated), get paired, play to the end by clicking; both ratings move by the
// Weng-Lin amounts computed here (wenglin.mjs), again after an accepted rematch, and both player
// pages list the games with their chart.
// Then one guest makes an account, signs in from a fresh context and finds the same history; the
// leaderboard leaves both off until they have played 10 rated games. Also the lobby in French,
// and the screenshots of the note.

import test from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launchBrowser, newPage, enterLobby, waitMatchReady, playMadToEnd, rng, screenshot, apiGet,
} from './lib.mjs';
import { wengLin, START, shown } from './wenglin.mjs';

test('quick play pairs two guests; ratings, profiles, accounts and the leaderboard follow', { timeout: 600000 }, async () => {
  // A paired match waits for its players as long as a loaded machine needs to open its page.
  const server = await startServer({ args: ['--no-show-seconds', '3600'] });
  const browser = await launchBrowser();
  try {
    const ada = await newPage(browser);
    const bob = await newPage(browser, { lang: 'fr-FR' });
    await enterLobby(ada, server, 'Ada');
    await enterLobby(bob, server, 'Bob_2');
    // The French lobby speaks French, the welcome form is gone once named.
    assert.equal(await bob.textContent('#quick-mad'), 'Partie rapide');
    assert.ok(!(await bob.isVisible('#welcome')));
    await bob.waitForFunction(() => Number(document.body.dataset.online) >= 2);

    // Ada seeks first: the lobby shows her waiting, and the MAD card shows one seeker to Bob.
    await ada.click('#quick-mad');
    await ada.waitForSelector('#play-dialog[open]');
    assert.equal(await ada.isChecked('#play-rated'), true, 'quick play is rated by default');
    await ada.selectOption('#play-tc', { label: 'Rapid 10 + 5' });
    await ada.click('#play-go');
    await ada.waitForFunction(() => document.body.dataset.seeking === 'yes');
    assert.match(await ada.textContent('#seeking-text'), /Looking for players for MAD/);
    await bob.waitForSelector('.game-card[data-game="mad"] .seekers[data-seekers="1"]');
    await ada.waitForSelector('#seeking-text:text("1 waiting in this pool")');
    await screenshot(ada, 'lobby');

    await bob.click('#quick-mad');
    await bob.selectOption('#play-tc', { label: 'Rapide 10 + 5' });
    await bob.click('#play-go');
    for (const p of [ada, bob]) {
      await p.waitForURL(/\/m\/[0-9a-f]{16}$/);
      await waitMatchReady(p);
    }
    const id = new URL(ada.url()).pathname.split('/').pop();
    assert.equal(new URL(bob.url()).pathname, `/m/${id}`, 'both were paired into the same match');
    for (const p of [ada, bob]) await p.waitForFunction(() => document.body.dataset.status === 'live');
    const seatOf = async (p) => Number(await p.evaluate(() => document.body.dataset.seat));
    const seats = [await seatOf(ada), await seatOf(bob)];
    assert.deepEqual([...seats].sort(), [0, 1]);
    const bySeat = seats[0] === 0 ? [ada, bob] : [bob, ada];
    const nameBySeat = seats[0] === 0 ? ['Ada', 'Bob_2'] : ['Bob_2', 'Ada'];
    // The seat bars name both players with MAD's side words.
    const bars = await ada.$$eval('.player-bar .player-name', (els) => els.map((e) => e.textContent));
    assert.ok(bars.some((b) => b.includes('Red') && b.includes(nameBySeat[0])), bars.join(' | '));
    assert.ok(bars.some((b) => b.includes('Blue') && b.includes(nameBySeat[1])), bars.join(' | '));
    const summary = (await apiGet(ada, `/api/matches/${id}`)).body;
    assert.equal(summary.rated, true);
    assert.deepEqual(summary.seats.map((s) => s.player?.name), nameBySeat);

    // Red moves first: a second tab of Red's player finds the match among the games waiting for
    // them, and the tab title counts it.
    const tab = await bySeat[0].context().newPage();
    await tab.goto(`${server.url}/`);
    await tab.waitForSelector(`#waiting-list li[data-match="${id}"]`);
    assert.match(await tab.title(), /^\(1\) Plateau$/);
    await tab.close();

    // Two rated games: the quick-play match, then its rematch (offered by Ada, accepted by Bob),
    // in which the seats rotate. The second update starts from the ratings the first one gave, so
    // it checks the formulas away from the symmetric start.
    const ratings = { Ada: START, Bob_2: START };
    const history = { Ada: [1500], Bob_2: [1500] };
    const games = { Ada: [], Bob_2: [] };
    let matchId = id;
    let names = nameBySeat;
    let pages = bySeat;
    for (let round = 0; round < 2; round++) {
      await playMadToEnd(pages, rng(11 + round));
      for (const p of [ada, bob]) await p.waitForFunction(() => document.body.dataset.status === 'finished');
      const { outcome } = (await apiGet(ada, `/api/matches/${matchId}`)).body;
      const winner = outcome.ranks.indexOf(1);
      assert.ok(winner === 0 || winner === 1);
      const after = wengLin(ratings[names[0]], ratings[names[1]], winner === 0 ? 1 : 0);
      names.forEach((name, seat) => {
        const before = shown(ratings[name]).rating;
        ratings[name] = after[seat];
        history[name].push(shown(after[seat]).rating);
        games[name].push({ id: matchId, result: winner === seat ? 'win' : 'loss', change: shown(after[seat]).rating - before });
      });
      if (round === 1) break;
      await ada.click('#rematch');
      await bob.waitForSelector('#rematch-info:text("propose une revanche")');
      await bob.click('#rematch');
      for (const p of [ada, bob]) {
        await p.waitForURL((u) => /^\/m\/[0-9a-f]{16}$/.test(u.pathname) && !u.pathname.endsWith(matchId));
        await waitMatchReady(p);
      }
      matchId = new URL(ada.url()).pathname.split('/').pop();
      const rematch = (await apiGet(ada, `/api/matches/${matchId}`)).body;
      assert.equal(rematch.rated, true, 'a rematch of a rated match is rated');
      names = rematch.seats.map((x) => x.player.name);
      assert.deepEqual(names, [...nameBySeat].reverse(), 'the seats rotate');
      pages = names.map((n) => (n === 'Ada' ? ada : bob));
    }
    const expected = Object.fromEntries(Object.entries(ratings).map(([n, r]) => [n, shown(r)]));

    // Both profiles: the ratings the formulas give, two rated games, both matches in the recent
    // list with their rating changes, and the chart with three points.
    for (const [page, name] of [[ada, 'Ada'], [bob, 'Bob_2']]) {
      await page.click('#me-link');
      await page.waitForURL(new RegExp(`/@/${name}$`));
      await page.waitForSelector('body[data-ready="true"]');
      const row = page.locator('#ratings tr[data-game="mad"]');
      assert.equal(Number(await row.getAttribute('data-rating')), expected[name].rating, `${name}'s rating`);
      assert.equal(await row.getAttribute('data-provisional'), 'true');
      assert.equal(await row.locator('.rating').textContent(), `${expected[name].rating}?`);
      const wins = games[name].filter((g) => g.result === 'win').length;
      assert.equal(await row.locator('.wins').textContent(), String(wins));
      assert.equal(await row.locator('.losses').textContent(), String(2 - wins));
      for (const g of games[name]) {
        const line = page.locator(`#recent tr[data-match="${g.id}"]`);
        assert.equal(await line.getAttribute('data-result'), g.result);
        assert.equal(Number(await line.locator('.delta').getAttribute('data-change')), g.change);
        assert.equal(await line.locator(`a[href="/replay/${g.id}"]`).count(), 1);
      }
      const points = await page.$$eval('svg.rating-chart circle.point[data-game="mad"]', (els) => els.map((e) => Number(e.dataset.rating)));
      assert.deepEqual(points, history[name]);
      const profile = (await apiGet(page, `/api/players/${name}`)).body;
      assert.equal(profile.ratings.mad.deviation, expected[name].deviation);
      assert.equal(profile.ratings.mad.games, 2);
      assert.deepEqual(profile.history.mad.map((h) => h.rating), history[name]);
    }
    await ada.evaluate(() => window.scrollTo(0, 0));
    await screenshot(ada, 'player-page');

    // Ada turns her guest into an account (same player, same games), then signs in elsewhere.
    await ada.click('#open-account');
    await ada.waitForSelector('#account-dialog[open]');
    assert.equal(await ada.inputValue('#account-name'), 'Ada');
    await ada.fill('#account-password', 'correct horse 1');
    await ada.click('#account-dialog button[type=submit]');
    await ada.waitForSelector('#signout');
    assert.equal((await apiGet(ada, '/api/me')).body.player.kind, 'account');

    const laptop = await newPage(browser);
    await enterLobby(laptop, server);
    assert.ok(await laptop.isVisible('#welcome'), 'a fresh browser is asked for a name');
    await laptop.click('#open-signin');
    await laptop.fill('#signin-name', 'ada');
    await laptop.fill('#signin-password', 'wrong password');
    await laptop.click('#signin-dialog button[type=submit]');
    await laptop.waitForSelector('#signin-dialog .error-box:not(.hidden)');
    assert.equal(await laptop.textContent('#signin-dialog .error-box'), 'Wrong name or password.');
    await laptop.fill('#signin-password', 'correct horse 1');
    await laptop.click('#signin-dialog button[type=submit]');
    await laptop.waitForFunction(() => document.body.dataset.player === 'Ada');
    await laptop.click('#me-link');
    await laptop.waitForSelector(`#recent tr[data-match="${id}"]`);
    assert.equal(Number(await laptop.getAttribute('#ratings tr[data-game="mad"]', 'data-rating')), expected.Ada.rating);
    for (const g of games.Ada) await laptop.waitForSelector(`#recent tr[data-match="${g.id}"]`);

    // The leaderboard lists players once they have played 10 rated games (the store's tests
    // check its order): two games each leave Ada and Bob off it, and the page says why.
    await laptop.goto(`${server.url}/leaderboard?game=mad`);
    await laptop.waitForFunction(() => document.body.dataset.game === 'mad');
    await laptop.waitForSelector('#board-table p');
    assert.equal(await laptop.textContent('#board-table'), 'Nobody has played 10 rated games of this game yet.');
    assert.equal((await apiGet(laptop, '/api/leaderboard/mad')).body.players.length, 0);
    await screenshot(laptop, 'leaderboard');

    // Signing out leaves a visitor without a player.
    await laptop.click('#signout');
    await laptop.waitForSelector('#open-signin');
    assert.equal((await apiGet(laptop, '/api/me')).body.player, null);

    for (const p of [ada, bob, laptop]) assert.deepEqual(p.jsErrors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});
