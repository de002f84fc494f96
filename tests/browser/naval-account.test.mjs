// Bataille Navale's account of the turns: two people (Fleets 1 and 2) and two bots. Fleet 1 sinks
// one of Fleet 2's ships in one turn and misses once (it aims at the ship's cells, which Fleet 2's
// own page shows); its account then names the hits, the miss and the sink, and Fleet 2's account
// says what hit its own ship and announces the sinking (rules/naval.md section 13: the markers
// are public, which ship a hit struck is known to its owner only).

import test from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPage, waitMatchReady, seedOf, openCreatedMatch, watchTurnLeaves } from './lib.mjs';

const BOT = { kind: 'bot', bot: 'random' };
const COLS = 'abcdefghijklmn';

test('a Bataille Navale turn whose account names a hit, a miss and a sink', { timeout: 300000 }, async () => {
  const server = await startServer({ args: ['--bot-delay-ms', '0'] });
  const browser = await launchBrowser();
  try {
    const { page: one, created } = await openCreatedMatch(server, browser, {
      game: 'naval', config: { placement_seconds: 300, turn_seconds: 120 }, seats: [{ kind: 'human' }, { kind: 'human' }, BOT, BOT],
      seed: seedOf('naval account'), time_control: { kind: 'game' }, creator_seat: 0,
    });
    const two = await newPage(browser);
    await two.goto(`${server.url}${created.invites.find((i) => i.seat === 1).url}`);
    await waitMatchReady(two);
    for (const page of [one, two]) {
      await page.waitForFunction(() => document.body.dataset.nvPhase === 'placement' && document.body.dataset.myTurn === 'true');
      // Rule 4.5: a piece picked up (and put back) opens Ready. The board is redrawn whenever
      // another seat places a piece: a click whose point was read before such a redraw (the board
      // fitted anew) may miss the piece, so it is read and clicked again until Ready opens.
      for (let tries = 0; await page.isDisabled('#nv-ready'); tries++) {
        assert.ok(tries < 10, 'picking a piece up opens Ready');
        const box = await page.$eval('.nv-board.own .nv-piece[data-at]', (e) => {
          const r = e.getBoundingClientRect();
          return [r.x + 6, r.y + 6];
        });
        await page.mouse.click(...box);
        await page.waitForFunction(() => document.querySelector('#nv-ready')?.disabled === false, null, { timeout: 5000 }).catch(() => {});
      }
      await page.click('#nv-ready');
    }
    const centre = (page, seat, cell) => page.evaluate(([s, c]) => {
      const r = document.querySelector(`rect.nv-cell[data-seat="${s}"][data-cell="${c}"]`).getBoundingClientRect();
      return [r.x + r.width / 2, r.y + r.height / 2];
    }, [seat, cell]);
    const myTurn = (page) => page.evaluate(() => document.body.dataset.nvTurn === 'mine' && document.body.dataset.nvFiring === 'false');

    let sunk = null;
    for (let round = 0; round < 30 && !sunk; round++) {
      await Promise.race([one, two].map((p) => p.waitForFunction(() => document.body.dataset.nvTurn === 'mine'
        && document.body.dataset.nvFiring === 'false', null, { timeout: 60000 })));
      if (await myTurn(two)) {
        // Fleet 2 passes with every ship.
        const left = await watchTurnLeaves(two);
        await two.click('#nv-fire');
        await left();
        continue;
      }
      if (!(await myTurn(one))) continue;
      // Fleet 2's smallest ship afloat, read from Fleet 2's own page, and a cell of open water.
      const fleet = await two.$$eval('.nv-board.own .nv-piece[data-at]:not(.sunk)', (els) => els.map((e) => ({ piece: e.dataset.piece, cells: e.dataset.cells.split(' ') })));
      const ships = await one.$$eval('.nv-ship:not(.sunk)', (els) => els.filter((e) => !e.disabled).map((e) => e.dataset.ship));
      const taken = new Set(fleet.flatMap((p) => p.cells));
      const target = fleet.filter((p) => !p.piece.startsWith('buoy') && p.cells.length < ships.length)
        .sort((a, b) => a.cells.length - b.cells.length)[0];
      assert.ok(target, 'a ship of Fleet 2 small enough to sink in one turn');
      /** Plans `ship`'s normal shot at `cell` of Fleet 2's board, if the aim is legal (green). */
      const plan = async (ship, cell) => {
        await one.click(`.nv-ship[data-ship="${ship}"]`);
        const [x, y] = await centre(one, 1, cell);
        await one.mouse.move(x, y);
        if ((await one.getAttribute('svg.board', 'data-aim')) !== 'ok') return false;
        await one.mouse.click(x, y);
        return Boolean(await one.getAttribute(`.nv-ship[data-ship="${ship}"]`, 'data-order'));
      };
      let ok = true;
      for (const [i, cell] of target.cells.entries()) ok = ok && (await plan(ships[i], cell));
      const water = [...Array(196).keys()].map((n) => `${COLS[n % 14]}${Math.floor(n / 14) + 1}`).filter((c) => !taken.has(c));
      let missed = false;
      for (const cell of water) {
        if (!ok || missed) break;
        missed = await plan(ships[target.cells.length], cell);
      }
      if (!ok || !missed) {
        // A cell is blocked for Fleet 1 this turn (another fleet hit beside it): try next turn.
        await one.click('#nv-clear');
        const left = await watchTurnLeaves(one);
        await one.click('#nv-fire');
        await left();
        continue;
      }
      const left = await watchTurnLeaves(one);
      await one.click('#nv-fire');
      await left();
      sunk = target.piece;
    }
    assert.ok(sunk, 'Fleet 1 had a turn to sink a ship');
    const ship = { carrier: 'aircraft carrier' }[sunk] ?? sunk;
    // Fleet 1's account: its own turn, with the hits, the miss and the sink in words.
    await one.waitForFunction((s) => [...document.querySelectorAll('#nv-banner .nv-turn')].some((t) => t.textContent.includes(`${s} sunk`)), ship);
    const mine = await one.$$eval('#nv-banner .nv-turn', (els) => els.map((e) => e.innerText.trim()).find((x) => x.includes('sunk')));
    assert.match(mine, /^Your turn/);
    assert.match(mine, /shot at Fleet 2 [a-n]\d+: hit\b/);
    assert.match(mine, /shot at Fleet 2 [a-n]\d+: hit, [a-z ]+ sunk/);
    assert.match(mine, /shot at Fleet 2 [a-n]\d+: miss/);
    // Fleet 2's account: what hit its own ship, and the sinking announced in the turn panel.
    await two.waitForFunction((s) => document.getElementById('nv-hurt')?.textContent.includes(`Your ${s} has been sunk.`), ship);
    const theirs = await two.$$eval('#nv-banner .nv-turn', (els) => els.map((e) => e.innerText.trim()).find((x) => x.includes('sunk')));
    assert.match(theirs, /^Fleet 1’s turn/);
    assert.match(theirs, new RegExp(`shot at your [a-n]\\d+: your ${ship} is hit`));
    assert.match(theirs, new RegExp(`shot at your [a-n]\\d+: your ${ship} is sunk`));
    // In French too, with the same facts.
    await two.selectOption('#lang', 'fr');
    await two.waitForFunction(() => /Coulé : votre /.test(document.getElementById('nv-hurt')?.textContent || ''));
    assert.deepEqual(one.jsErrors, []);
    assert.deepEqual(two.jsErrors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});
