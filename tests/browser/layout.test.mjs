// Every page on a phone (390x844, touch) and on a laptop (1366x900): no page is wider than the
// screen, and every visible control lies within it. Screenshots of each game at both sizes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, screenshot, waitMatchReady, watchTurnLeaves } from './lib.mjs';

const SIZES = [
  { name: 'phone', viewport: { width: 390, height: 844 }, hasTouch: true },
  { name: 'laptop', viewport: { width: 1366, height: 900 }, hasTouch: false },
];

const bot = { kind: 'bot', bot: 'random' };
const TABLES = {
  mad: [{ kind: 'human' }, bot],
  moonleap: [{ kind: 'human' }, bot],
  chakart: [{ kind: 'human' }, bot],
  naval: [{ kind: 'human' }, bot, bot, bot],
};

/** What sticks out of the screen on `page`: the page's own width, and the controls past an edge. */
async function overflow(page) {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const wide = document.documentElement.scrollWidth > width ? [`page ${document.documentElement.scrollWidth} px`] : [];
    const out = [...document.querySelectorAll('button, select, input, textarea, a[href]')]
      .filter((e) => e.offsetParent !== null && !e.closest('.hidden, [hidden]'))
      .map((e) => [e, e.getBoundingClientRect()])
      .filter(([, r]) => r.width > 0 && (r.left < -1 || r.right > width + 1))
      .map(([e, r]) => `${e.tagName.toLowerCase()}#${e.id || ''}.${e.className || ''} [${Math.round(r.left)}, ${Math.round(r.right)}]`);
    return wide.concat(out);
  });
}

test('every page fits a phone and a laptop screen', async () => {
  const server = await startServer({ args: ['--bot-delay-ms', '1000'] });
  const browser = await launchBrowser();
  try {
    for (const size of SIZES) {
      const context = await browser.newContext({ viewport: size.viewport, hasTouch: size.hasTouch, locale: 'en-GB' });
      const page = await context.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      for (const url of ['/', '/leaderboard', '/howto']) {
        await page.goto(`${server.url}${url}`);
        await page.waitForLoadState('networkidle');
        assert.deepEqual(await overflow(page), [], `${url} on a ${size.name}`);
      }
      // A how-to page with its pictures (the boards drawn as at the table).
      await page.goto(`${server.url}/howto/mad`);
      await page.waitForSelector('#howto-pictures svg.board');
      assert.deepEqual(await overflow(page), [], `/howto/mad on a ${size.name}`);
      await page.locator('#howto-pictures').scrollIntoViewIfNeeded();
      await screenshot(page, `howto-${size.name}`);
      await page.goto(`${server.url}/`);
      await screenshot(page, `lobby-${size.name}`);
      for (const [game, seats] of Object.entries(TABLES)) {
        const res = await fetch(`${server.url}/api/matches`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ game, seats }),
        });
        assert.equal(res.status, 201, await res.clone().text());
        const created = await res.json();
        await page.evaluate(([i, tok]) => localStorage.setItem(`plateau.token.${i}`, tok), [created.id, created.token]);
        await page.goto(`${server.url}${created.url}`);
        await waitMatchReady(page);
        assert.deepEqual(await overflow(page), [], `${game} on a ${size.name}`);
        await screenshot(page, `${game}-${size.name}`);
      }
      assert.deepEqual(errors, []);
      await context.close();
    }
  } finally {
    await browser.close();
    await server.stop();
  }
});

test('Bataille Navale on a phone: one board at a time, a placement and a turn by taps', async () => {
  const server = await startServer({ args: ['--bot-delay-ms', '0'] });
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, locale: 'en-GB' });
    const page = await context.newPage();
    const sent = [];
    page.on('websocket', (ws) => ws.on('framesent', (f) => sent.push(String(f.payload))));
    const bot = { kind: 'bot', bot: 'random' };
    const res = await fetch(`${server.url}/api/matches`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ game: 'naval', seats: [{ kind: 'human' }, bot, bot, bot], creator_seat: 0 }),
    });
    const created = await res.json();
    await page.goto(`${server.url}/`);
    await page.evaluate(([i, tok]) => localStorage.setItem(`plateau.token.${i}`, tok), [created.id, created.token]);
    await page.goto(`${server.url}${created.url}`);
    await waitMatchReady(page);
    await page.waitForFunction(() => document.body.dataset.nvPhase === 'placement' && document.body.dataset.myTurn === 'true', null, { timeout: 20000 });

    // One board at a time, the own one first while placing, with cells a finger can hit.
    await page.waitForSelector('#nv-tabs:not(.hidden) .nv-tab[aria-selected="true"][data-seat="0"]');
    const side = await page.evaluate(() => document.querySelector('rect.nv-cell[data-seat="0"][data-cell="a1"]').getBoundingClientRect().width);
    assert.ok(side >= 22, `cells of ${side.toFixed(1)} px on a 390 px screen (28 and more while aiming: phone.test.mjs)`);
    assert.deepEqual(await overflow(page), []);

    const centre = (seat, name) => page.evaluate(([s, n]) => {
      const box = document.querySelector(`rect.nv-cell[data-seat="${s}"][data-cell="${n}"]`).getBoundingClientRect();
      return [box.x + box.width / 2, box.y + box.height / 2];
    }, [seat, name]);
    const fleet = await page.$$eval('.nv-board.own .nv-piece[data-at]', (els) => Object.fromEntries(els.map((e) => [e.dataset.piece, e.dataset.cells.split(' ')])));
    const taken = new Set(Object.values(fleet).flat());
    // Tap to place: tap the corvette, then tap free water where it fits lying the same way.
    const cells = fleet.corvette;
    const across = cells[0].slice(1) === cells[1].slice(1);
    const name = (r, c) => `${'abcdefghijklmn'[c]}${r + 1}`;
    let spot = null;
    for (let r = 0; r < 14 && !spot; r++) {
      for (let c = 0; c < 14 && !spot; c++) {
        const second = across ? [r, c + 1] : [r + 1, c];
        if (second[0] < 14 && second[1] < 14 && !taken.has(name(r, c)) && !taken.has(name(...second))) spot = name(r, c);
      }
    }
    const before = await page.evaluate(() => document.body.dataset.version);
    await page.touchscreen.tap(...(await centre(0, cells[0])));
    await page.touchscreen.tap(...(await centre(0, spot)));
    await page.waitForFunction((v) => document.body.dataset.version !== v, before, { timeout: 10000 });
    await page.waitForFunction((s) => document.querySelector('.nv-board.own .nv-piece[data-piece="corvette"]')?.dataset.cells.split(' ')[0] === s, spot, { timeout: 10000 });
    await page.tap('#nv-ready');

    // A turn by taps: the tab of Fleet 2, the carrier, a cell of that board, then Fire.
    await page.waitForFunction(() => document.body.dataset.nvTurn === 'mine' && document.body.dataset.nvFiring === 'false', null, { timeout: 60000 });
    await page.tap('#nv-tabs .nv-tab[data-seat="1"]');
    await page.waitForSelector('#nv-tabs .nv-tab[data-seat="1"][aria-selected="true"]');
    await page.tap('.nv-ship[data-ship="carrier"]');
    let order = null;
    // A finger aims in two taps on the same cell: the first shows the aim (in a window of the
    // board drawn larger), the second gives the order.
    for (let i = 0; i < 40 && !order; i++) {
      if (await page.isVisible('#nv-zoom-out')) await page.tap('#nv-zoom-out');
      const cell = name((i * 5) % 14, (i * 3) % 14);
      await page.touchscreen.tap(...(await centre(1, cell)));
      await page.touchscreen.tap(...(await centre(1, cell)));
      order = await page.getAttribute('.nv-ship[data-ship="carrier"]', 'data-order');
    }
    const p = JSON.parse(order || '{}');
    assert.deepEqual([p.kind, p.piece, p.target], ['fire', 'carrier', 1], order);
    assert.match(p.to, /^[a-n]\d+$/);
    const sentBefore = sent.length;
    const turnLeft = await watchTurnLeaves(page);
    await page.tap('#nv-fire');
    await turnLeft();
    const acts = sent.slice(sentBefore).map((p) => JSON.parse(p)).filter((m) => m.type === 'act');
    assert.equal(acts.length, 1, JSON.stringify(acts));
    assert.equal(JSON.stringify(acts[0].actions[0]), order);
    await screenshot(page, 'naval-phone-battle');
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
});
