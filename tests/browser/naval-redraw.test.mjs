// Bataille Navale's boards are drawn again only when what the seat sees changed (web/js/naval-draw.js,
// `drawChanged`). Two people place their fleets (seats 0 and 1; random bots on 2 and 3). While
// seat 0 holds a buoy half-dragged, seat 1 moves a piece (a secret move) and leaves the page, which
// sends seat 0 a state whose only news is that seat 1 is away: seat 0's boards are not drawn
// afresh (the SVG keeps its children), and the drag ends where the buoy is dropped. Seat 1 comes
// back (nothing drawn again either), moves a piece and declares Ready: that seat 0 sees (the board's
// title says so), and its boards are drawn again.

import test from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPage, waitMatchReady, keepSeatToken } from './lib.mjs';

const post = async (url, body) => {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.ok(res.ok, await res.clone().text());
  return res.json();
};

/** The centre of cell `name` of seat `seat`'s board on `page`, in page pixels. */
const centre = (page, seat, name) => page.evaluate(([s, n]) => {
  const box = document.querySelector(`rect.nv-cell[data-seat="${s}"][data-cell="${n}"]`).getBoundingClientRect();
  return [box.x + box.width / 2, box.y + box.height / 2];
}, [seat, name]);

/** Where `piece` (a buoy: one cell) is now and a legal cell to put it (from the observation's anchors). */
const buoyMove = (page, piece) => page.evaluate(async (p) => {
  const { page: state } = await import('/assets/js/match-state.js');
  const obs = state.state.observation;
  const at = obs.boards[obs.viewer].fleet.find((x) => x.piece === p).cells[0];
  const anchors = obs.placement.find((x) => x.piece === p).ways[0].anchors.filter((c) => c !== at);
  return { from: at, to: anchors[Math.floor(anchors.length / 2)] };
}, piece);

/** Drags buoy `piece` of `seat` to a legal cell on `page` and waits until the server applied it. */
async function moveBuoy(page, seat, piece) {
  const { from, to } = await buoyMove(page, piece);
  const before = await page.evaluate(() => document.body.dataset.version);
  const [x0, y0] = await centre(page, seat, from);
  const [x1, y1] = await centre(page, seat, to);
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  await page.mouse.move(x1, y1, { steps: 6 });
  await page.mouse.up();
  await page.waitForFunction((v) => document.body.dataset.version !== v, before);
  await page.waitForFunction(([p, at]) => document.querySelector(`.nv-board.own .nv-piece[data-piece="${p}"]`)?.dataset.at === at, [piece, to]);
}

test('Bataille Navale: the boards are drawn again only when what the seat sees changed', { timeout: 180000 }, async () => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const bot = { kind: 'bot', bot: 'random' };
    const created = await post(`${server.url}/api/matches`, {
      game: 'naval', config: { placement_seconds: 300, turn_seconds: 20, placement_moves: 8 },
      seats: [{ kind: 'human' }, { kind: 'human' }, bot, bot], time_control: { kind: 'game' }, creator_seat: 0,
    });
    const joined = await post(`${server.url}/api/matches/${created.id}/join`, { seat: 1 });
    const open = async (token) => {
      const page = await newPage(browser);
      await keepSeatToken(page, server, created.id, token);
      await page.goto(`${server.url}/m/${created.id}`);
      await waitMatchReady(page);
      return page;
    };
    /** Waits until `page` places its fleet (the match starts once both people opened it). */
    const placing = (page) => page.waitForFunction(() => document.body.dataset.nvPhase === 'placement' && document.body.dataset.myTurn === 'true', null, { timeout: 30000 });
    const mine = await open(created.token);
    let other = await open(joined.token);
    await placing(mine);
    await placing(other);
    const away = (connected) => mine.waitForFunction(async (c) => {
      const { page } = await import('/assets/js/match-state.js');
      return page.state.seats.find((s) => s.seat === 1).connected === c;
    }, connected, { timeout: 30000 });
    await away(true);
    // The bots declare Ready once the match starts, one state each (the second bot chooses again
    // after the first one's move): both show on seat 0's boards, so the count below starts once
    // seat 0 has drawn them, else a loaded machine brings them in during the count.
    await mine.waitForFunction(() => [2, 3].every((s) => / · ready( · |$)/.test(document.querySelector(`.nv-board.nv-seat-${s} .nv-title`)?.textContent || '')), null, { timeout: 30000 });

    // Counts the changes of the boards' SVG children (a drawing of the boards replaces them all;
    // the overlay alone, one child, follows a drag).
    const drawings = () => mine.evaluate(() => window.__drawings);
    const resetCount = () => mine.evaluate(() => {
      window.__drawings = 0;
      window.__kept = [...document.querySelector('svg.board').children];
    });
    await mine.evaluate(() => {
      new MutationObserver((records) => {
        window.__drawings += records.length;
      }).observe(document.querySelector('svg.board'), { childList: true });
    });
    const kept = () => mine.evaluate(() => {
      const now = [...document.querySelector('svg.board').children];
      return now.length === window.__kept.length && now.every((node, i) => node === window.__kept[i]);
    });

    // Seat 0 picks a buoy up and holds it half-way.
    const { from, to } = await buoyMove(mine, 'buoy1');
    const before = await mine.evaluate(() => document.body.dataset.version);
    const [x0, y0] = await centre(mine, 0, from);
    const [x1, y1] = await centre(mine, 0, to);
    await mine.mouse.move(x0, y0);
    await mine.mouse.down();
    await mine.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, { steps: 4 });
    await mine.waitForFunction(() => document.querySelector('svg.board .nv-overlay .ghost'));
    await resetCount();

    // Seat 1 moves a piece (nothing of it reaches seat 0), then leaves (seat 0 is told).
    await moveBuoy(other, 1, 'buoy2');
    await other.close();
    await away(false);
    assert.equal(await drawings(), 0, 'no drawing for a state that changes nothing on the boards');
    assert.ok(await kept(), 'the boards are the same nodes');
    assert.ok(await mine.$('svg.board .nv-overlay .ghost'), 'the dragged buoy still follows the pointer');

    // The drag goes on and ends where the buoy is dropped.
    await mine.mouse.move(x1, y1, { steps: 4 });
    await mine.mouse.up();
    await mine.waitForFunction((v) => document.body.dataset.version !== v, before);
    await mine.waitForFunction((at) => document.querySelector('.nv-board.own .nv-piece[data-piece="buoy1"]')?.dataset.at === at, to);

    // Seat 1 comes back: again nothing to draw.
    await resetCount();
    other = await open(joined.token);
    await placing(other);
    await away(true);
    assert.equal(await drawings(), 0, 'no drawing when seat 1 comes back');
    assert.ok(await kept());

    // Seat 1 declares Ready (after picking a piece up, rule 4.5): seat 0 sees it, drawn afresh.
    await moveBuoy(other, 1, 'buoy3');
    await other.click('#nv-ready');
    await mine.waitForFunction(() => / · ready( · |$)/.test(document.querySelector('.nv-board.nv-seat-1 .nv-title')?.textContent || ''));
    assert.ok(await drawings() > 0, 'the boards are drawn again for what changed');
    assert.equal(await kept(), false);
    assert.deepEqual(mine.jsErrors, []);
    assert.deepEqual(other.jsErrors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});
