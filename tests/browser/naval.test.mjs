// A person plays Bataille Navale (seat 1 of 4) against three random bots in headless Chromium,
// under the game's own clocks (time control `game`: a 300 s placement clock, a 20 s turn clock, long
// enough that a slow machine never races the clock, except in the turn left to it on purpose).
// Placement: pieces are moved with real mouse drags (one turned with R while dragged, one by a
// double-click), a drop on another piece is refused and snaps back, Ready becomes possible once a
// piece was picked up (rules/naval.md section 4.5). Battle: orders are planned by clicking boards (green/red aim), one
// turn uses a special (the cruiser's artillery, once it has the energy), and one turn is left to the
// clock, with a reload in between: the page fires the partial plan itself before the turn runs out
// (section 5.10).

import test from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPage, waitMatchReady, rng, screenshot, openCreatedMatch, watchTurnLeaves } from './lib.mjs';

const COLS = 'abcdefghijklmn';
const cellName = (r, c) => `${COLS[c]}${r + 1}`;
const parse = (name) => ({ r: Number(name.slice(1)) - 1, c: COLS.indexOf(name[0]) });
/** The text (rules/naval.md section 13b) of a shot or an aimed special the page sent in parts. */
const notation = (json) => {
  const p = JSON.parse(json);
  return `${p.piece}:${p.kind} ${p.target + 1}:${p.to}`;
};

test('play Bataille Navale: drag the fleet into place, plan and fire orders, a special, the clock fires a partial plan', { timeout: 180000 }, async () => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const { page, created } = await openCreatedMatch(server, browser, {
        game: 'naval',
        config: { placement_seconds: 300, turn_seconds: 20, placement_moves: 8 },
        seats: [{ kind: 'human' }, { kind: 'bot', bot: 'random' }, { kind: 'bot', bot: 'random' }, { kind: 'bot', bot: 'random' }],
        time_control: { kind: 'game' },
        creator_seat: 0,
      });
    await page.waitForFunction(() => document.body.dataset.nvPhase === 'placement' && document.body.dataset.myTurn === 'true');

    // ---- Placement ------------------------------------------------------------------------------
    const pieces = () => page.$$eval('.nv-board.own .nv-piece[data-at]', (els) => Object.fromEntries(els.map((e) => [e.dataset.piece, { at: e.dataset.at, cells: e.dataset.cells.split(' ') }])));
    let fleet = await pieces();
    assert.equal(Object.keys(fleet).length, 9, 'six ships and three buoys on my board');
    assert.equal(await page.isDisabled('#nv-ready'), true, 'Ready waits until a piece is picked up');
    assert.match(await page.textContent('#nv-countdown'), /^\d+\.\d s left$/, 'the placement countdown shows');

    // Measured inside the page in one go: the boards are redrawn with every state.
    const centre = (seat, name) => page.evaluate(([s, n]) => {
      const box = document.querySelector(`rect.nv-cell[data-seat="${s}"][data-cell="${n}"]`).getBoundingClientRect();
      return [box.x + box.width / 2, box.y + box.height / 2];
    }, [seat, name]);
    /** Drags `piece` by its top-left cell so that the top-left lands on `to`; `rotate` presses R on the way. */
    const drag = async (piece, to, rotate = false) => {
      const before = await page.evaluate(() => document.body.dataset.version);
      const [x0, y0] = await centre(0, fleet[piece].cells[0]);
      const [x1, y1] = await centre(0, to);
      await page.mouse.move(x0, y0);
      await page.mouse.down();
      await page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, { steps: 6 });
      if (rotate) await page.keyboard.press('r');
      await page.mouse.move(x1, y1, { steps: 6 });
      await page.mouse.up();
      return before;
    };
    /** A top-left cell where a `long` x `short` piece fits on free cells (ignoring `piece` itself). */
    const freeSpot = (piece, vertical) => {
      const taken = new Set(Object.entries(fleet).filter(([p]) => p !== piece).flatMap(([, v]) => v.cells));
      const n = fleet[piece].cells.length;
      const short = piece === 'carrier' ? 2 : 1;
      const long = n / short;
      const [h, w] = vertical ? [long, short] : [short, long];
      const spots = [];
      for (let r = 0; r + h <= 14; r++) {
        for (let c = 0; c + w <= 14; c++) {
          let ok = true;
          for (let i = 0; i < h && ok; i++) for (let j = 0; j < w && ok; j++) ok = !taken.has(cellName(r + i, c + j));
          if (ok && `${cellName(r, c)}${vertical ? 'v' : 'h'}` !== fleet[piece].at) spots.push(cellName(r, c));
        }
      }
      return spots[Math.floor(spots.length / 2)];
    };
    const waitVersion = (before) => page.waitForFunction((v) => document.body.dataset.version !== v, before);

    // 1. The corvette moves to a free spot, same orientation.
    const corvetteVertical = fleet.corvette.at.endsWith('v');
    const spot = freeSpot('corvette', corvetteVertical);
    await waitVersion(await drag('corvette', spot));
    await page.waitForFunction((at) => document.querySelector('.nv-board.own .nv-piece[data-piece="corvette"]')?.dataset.at === at,
      `${spot}${corvetteVertical ? 'v' : 'h'}`);
    assert.equal(await page.isDisabled('#nv-ready'), false, 'Ready is possible once a piece was picked up');
    fleet = await pieces();

    // 2. The battleship is turned with R while dragged.
    const bsVertical = !fleet.battleship.at.endsWith('v');
    const bsSpot = freeSpot('battleship', bsVertical);
    await waitVersion(await drag('battleship', bsSpot, true));
    await page.waitForFunction((at) => document.querySelector('.nv-board.own .nv-piece[data-piece="battleship"]')?.dataset.at === at,
      `${bsSpot}${bsVertical ? 'v' : 'h'}`);
    fleet = await pieces();

    // 3. A double-click turns a piece about its top-left cell (one whose turned footprint is free).
    const turnable = Object.entries(fleet).find(([p, v]) => !p.startsWith('buoy') && (() => {
      const taken = new Set(Object.entries(fleet).filter(([q]) => q !== p).flatMap(([, w]) => w.cells));
      const top = parse(v.cells[0]);
      const rows = new Set(v.cells.map((x) => parse(x).r)).size;
      const cols = new Set(v.cells.map((x) => parse(x).c)).size;
      for (let i = 0; i < cols; i++) {
        for (let j = 0; j < rows; j++) {
          if (top.r + i > 13 || top.c + j > 13 || taken.has(cellName(top.r + i, top.c + j))) return false;
        }
      }
      return true;
    })());
    if (turnable) {
      const [piece, v] = turnable;
      const before = await page.evaluate(() => document.body.dataset.version);
      const [x, y] = await centre(0, v.cells[0]);
      await page.mouse.dblclick(x, y);
      await waitVersion(before);
      const turned = `${v.cells[0]}${v.at.endsWith('v') ? 'h' : 'v'}`;
      await page.waitForFunction(([p, at]) => document.querySelector(`.nv-board.own .nv-piece[data-piece="${p}"]`)?.dataset.at === at, [piece, turned]);
      fleet = await pieces();
    }

    // 4. A drop on the carrier is refused, with the reason in words, and the corvette goes back.
    const corvetteAt = fleet.corvette.at;
    const carrierTop = fleet.carrier.cells[0];
    await drag('corvette', carrierTop);
    await page.waitForFunction(() => /another piece/.test(document.getElementById('nv-message').textContent));
    await page.waitForFunction((at) => document.querySelector('.nv-board.own .nv-piece[data-piece="corvette"]')?.dataset.at === at, corvetteAt);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'naval-placement');

    await page.click('#nv-ready');
    await page.waitForFunction(() => document.body.dataset.nvPhase === 'battle', null, { timeout: 30000 });
    const movesText = () => page.$$eval('#moves .mv[data-index]', (els) => els.map((e) => e.dataset.text));
    assert.ok((await movesText()).includes(`corvette@${corvetteAt}`), 'the drag was logged as a placement move');

    // A spectator sees the four boards and nobody's hidden fleet (rules/naval.md section 13).
    const watcher = await newPage(browser);
    await watcher.goto(`${server.url}${created.url}`);
    await waitMatchReady(watcher);
    assert.equal(await watcher.evaluate(() => document.body.dataset.seat), 'spectator');
    assert.equal(await watcher.$$eval('svg.board .nv-board', (els) => els.length), 4);
    assert.equal(await watcher.$$eval('svg.board .nv-piece.mine, svg.board .nv-piece.revealed', (els) => els.length), 0, 'no fleet shown');
    assert.equal(await watcher.$$eval('.nv-ship', (els) => els.length), 0, 'no ship panel');
    assert.deepEqual(watcher.jsErrors, []);
    await watcher.close();

    // ---- Battle -----------------------------------------------------------------------------------
    const rand = rng(20261130);
    const myTurn = () => page.waitForFunction(() => document.body.dataset.status === 'finished'
      || (document.body.dataset.myTurn === 'true' && document.body.dataset.nvFiring === 'false'), null, { timeout: 60000 });
    /** Hovers cells of opponents' boards until the page shows a legal (green) aim; returns its order's parts as JSON. */
    const aimLegal = async () => {
      for (let i = 0; i < 60; i++) {
        const seat = 1 + Math.floor(rand() * 3);
        const [x, y] = await centre(seat, cellName(Math.floor(rand() * 14), Math.floor(rand() * 14)));
        await page.mouse.move(x, y);
        const aim = await page.evaluate(() => [document.querySelector('svg.board').dataset.aim, document.querySelector('svg.board').dataset.aimParts]);
        if (aim[0] === 'ok') return [x, y, aim[1]];
      }
      throw new Error('no legal aim found');
    };

    let turns = 0;
    let special = null;
    while (turns < 8 && !special) {
      await myTurn();
      if (await page.evaluate(() => document.body.dataset.status === 'finished')) break;
      turns += 1;
      if (turns === 1) {
        // My own board is never a target: the aim is red there.
        const [ox, oy] = await centre(0, 'g7');
        await page.mouse.move(ox, oy);
        assert.equal(await page.getAttribute('svg.board', 'data-aim'), 'bad');
      }
      const cruiser = Number(await page.getAttribute('.nv-ship[data-ship="cruiser"]', 'data-energy'));
      const artillery = page.locator('.nv-mode[data-mode="artillery"]');
      if (cruiser >= 200) {
        await page.click('.nv-ship[data-ship="cruiser"]');
        assert.equal(await artillery.isDisabled(), false, `artillery costs 200, the cruiser has ${cruiser}`);
        await artillery.click();
        const [x, y, parts] = await aimLegal();
        const p = JSON.parse(parts);
        assert.deepEqual([p.kind, p.piece, Object.keys(p).join()], ['artillery', 'cruiser', 'kind,piece,target,to'], parts);
        assert.ok([1, 2, 3].includes(p.target) && /^[a-m]\d+$/.test(p.to), parts);
        await page.mouse.click(x, y);
        assert.equal(await page.getAttribute('.nv-ship[data-ship="cruiser"]', 'data-order'), parts);
        special = notation(parts);
      } else {
        await page.click('.nv-ship[data-ship="cruiser"]');
        assert.equal(await artillery.isDisabled(), true, `the cruiser has ${cruiser} energy, artillery costs 200`);
      }
      if (turns === 1) {
        // A pass given explicitly is planned like any order, and the boards draw the plan with it.
        await page.click('.nv-ship[data-ship="corvette"]');
        await page.click('.nv-mode[data-mode="pass"]');
        assert.equal(await page.getAttribute('.nv-ship[data-ship="corvette"]', 'data-state'), 'passes');
        assert.equal(await page.locator('#nv-overlay').count(), 1);
        assert.deepEqual(page.jsErrors, []);
      }
      // The carrier fires a normal shot; everyone else passes by default.
      await page.click('.nv-ship[data-ship="carrier"]');
      const [x, y, parts] = await aimLegal();
      await page.mouse.click(x, y);
      assert.equal(await page.getAttribute('.nv-ship[data-ship="carrier"]', 'data-order'), parts);
      const text = notation(parts);
      if (special) {
        // Every text the banner shows from now on: the bots' turns may replace this turn's
        // announcement before the test reads it.
        await page.evaluate(() => {
          window.__banners = [];
          const banner = document.getElementById('nv-banner');
          const look = () => {
            if (banner.textContent && window.__banners.at(-1) !== banner.textContent) window.__banners.push(banner.textContent);
          };
          new MutationObserver(look).observe(banner, { childList: true, subtree: true, characterData: true });
        });
      }
      const sentBefore = page.wsSent.length;
      // My battle turn is over once the server moved on (not merely while an order is on its way).
      const turnLeft = await watchTurnLeaves(page);
      await page.click('#nv-fire');
      await turnLeft();
      // The whole turn left the page as one message: every ship's order in parts, passes included.
      const acts = page.wsSent.slice(sentBefore).map((p) => JSON.parse(p)).filter((m) => m.type === 'act');
      assert.equal(acts.length, 1, `one message for the turn: ${JSON.stringify(acts)}`);
      const sent = acts[0].actions;
      assert.ok(sent.some((a) => JSON.stringify(a) === parts) && sent.some((a) => a.kind === 'pass'), JSON.stringify(acts[0]));
      if (special) {
        // The turn just resolved: its announcements reach the banner and its cells light up.
        await page.evaluate(() => window.scrollTo(0, 0));
        await screenshot(page, 'naval-battle');
        const announced = /Your turn[^]*cruiser: artillery at Fleet [234] [a-m]\d+/;
        await page.waitForFunction((source) => window.__banners.some((b) => new RegExp(source).test(b)), announced.source);
      }
      const log = await movesText();
      assert.ok(log.includes(text), `the carrier's order ${text} is in the move list`);
      if (special) assert.ok(log.includes(special), `the special ${special} is in the move list`);
    }
    assert.ok(special, `a special was fired within ${turns} turns`);
    // Every resolved order is announced to all (section 13): the special is in the battle log.
    await page.waitForSelector(`#nv-log li[data-order="${special}"]`);

    // ---- A turn left to the clock ------------------------------------------------------------
    await myTurn();
    const started = Date.now();
    const before = (await movesText()).length;
    await page.click('.nv-ship[data-ship="carrier"]');
    const [cx, cy, carrierOrder] = await aimLegal();
    await page.mouse.click(cx, cy);
    // The plan survives a reload of the page.
    await page.reload();
    await waitMatchReady(page);
    await page.waitForFunction((o) => document.querySelector('.nv-ship[data-ship="carrier"]')?.dataset.order === o, carrierOrder);
    // ... and the ship picked is the first one still without an order, not the carrier.
    const picked = await page.$$eval('.nv-ship', (els) => [els.find((e) => !e.disabled && !e.dataset.order)?.dataset.ship, document.querySelector('.nv-ship.selected')?.dataset.ship]);
    assert.ok(picked[0] && picked[0] !== 'carrier', `a ship without an order: ${picked}`);
    assert.equal(picked[1], picked[0], 'after a reload the first ship without an order is picked');
    // The ships afloat now are the ones that pass: read before the turn leaves, as the bots that
    // play next may sink one before the page is read again.
    const sunk = await page.$$eval('.nv-ship.sunk', (els) => els.map((e) => e.dataset.ship));
    await (await watchTurnLeaves(page))();
    const waited = Date.now() - started;
    assert.ok(waited > 10000, `the page waited for the clock (${waited} ms)`);
    const after = (await movesText()).slice(before);
    const mine = after.filter((m) => /^[a-z]+:/.test(m)).slice(0, 6);
    assert.equal(mine[0], notation(carrierOrder), 'the planned order went first, fired by the page before the clock ran out');
    const rest = ['cruiser', 'battleship', 'frigate', 'submarine', 'corvette'].filter((s) => !sunk.includes(s)).map((s) => `${s}:pass`);
    assert.deepEqual(mine.slice(1, 1 + rest.length), rest, 'the ships without an order passed');

    // ---- Resigning: the seat leaves, the bots play on, and the page has nothing left to offer --
    // The first click arms the button for a few seconds, the second confirms.
    const label = await page.textContent('#resign');
    await page.click('#resign');
    await page.waitForFunction((l) => document.getElementById('resign').textContent !== l, label);
    await page.click('#resign');
    await page.waitForFunction(() => document.getElementById('controls-panel').classList.contains('hidden'));
    assert.ok(!(await page.isVisible('#resign')), 'no Resign button once out of the game');
    assert.deepEqual(page.jsErrors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});
