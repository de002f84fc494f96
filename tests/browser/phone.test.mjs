// Every game played whole on a phone (390x844, touch) against a random bot, by taps only: at
// every decision the board and everything the decision needs (whose turn, the clock, the
// choices, Fire) are inside the screen at once, without scrolling; and no line of the move list
// or of the narration reads as the game's notation (each game's patterns below), in English and
// in French (the language changes at every decision). Bataille Navale: the placement and five
// battle turns, aimed on the board itself in cells of at least 28 px.

import test from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launchBrowser, waitMatchReady, keepSeatToken, rng, seedOf, screenshot, watchTurnLeaves, tapDone,
} from './lib.mjs';

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
const BOT = { kind: 'bot', bot: 'random' };

/**
 * Each game's notation (rules/<game>.md): a line of the move list or of the narration that
 * matches one of these shows notation to a person.
 */
const NOTATION = {
  mad: [/P\(\d{3},\d{3}\)/, /R\(\d{3}>\d{3}>\d{3}\)/, /\b[a-d][1-6][-x][a-d][1-6]\b/, /^pass$/],
  moonleap: [/^m?[1-5](\+m?[1-5])?$/, /^r[1-5*]$/, /^pass$/, /^(chance|hasard)\b/, /\b(die|dé) [1-5★]$/],
  chakart: [/^[KQRBN]x?[a-h][1-8]/, /^[a-h](x[a-h])?[1-8](=[QRBNK])?$/, /~[a-z]?@/, /\*[BTDMLWKC]\b/, /^[KQRBN]?@[a-h][1-8]/,
    /Q\?\?/, /\b[a-h][1-8][a-h][1-8]\b/, /=[QRBNKSM]\b/, /^(chance|hasard)\b/, /^[a-h]$/],
  naval: [/\b\d:\w+@[a-n]\d{1,2}[hv]?\b/, /\b\w+@[a-n]\d{1,2}[hv]?\b/, /\b(carrier|cruiser|battleship|frigate|submarine|corvette):[a-z]+/,
    /:fire \d:/, /^first \d$/, /^rocket [a-n]\d{1,2} (shot|spared)$/, /^ready$/, /^(chance|hasard)\b/],
};

/** The lines a person reads: the move list's entries and the games' narrations and accounts. */
const READ = '#moves .mv, #ck-effect, #nv-banner .nv-said, #nv-banner .nv-turn-head, #nv-log li, #nv-hurt, #confirm-text, #status';

/** The lines of `page` that read as `game`'s notation (none expected). */
async function notationLines(page, game) {
  const lines = await page.$$eval(READ, (els) => els.map((e) => e.textContent.trim()).filter(Boolean));
  return lines.filter((line) => NOTATION[game].some((re) => re.test(line)));
}

/**
 * What of the decision is not on the screen: the page must not have scrolled, and the board, the
 * status, the turn panel's controls and `more` (the clock, Fire...) must lie within the viewport.
 * Returns the list of what sticks out (empty when all is in view); `more` must all exist.
 * `standing`: the version of a decision that may play itself (Moon Leap's forced move, after a
 * pause a loaded machine can outlast): once the page has sent it (no longer this seat's turn to
 * act) or moved on from it, there is nothing left to check and the list is empty. One
 * evaluation, so the page cannot move on in between.
 */
async function outOfView(page, more, standing = null) {
  return page.evaluate(([extra, version]) => {
    const out = [];
    const gone = document.body.dataset.version !== version || document.body.dataset.myTurn !== 'true';
    if (version !== null && gone) return out;
    if (window.scrollY !== 0) out.push(`the page scrolled by ${window.scrollY} px`);
    const check = (node, name) => {
      const r = node.getBoundingClientRect();
      if (r.top < -1 || r.left < -1 || r.bottom > window.innerHeight + 1 || r.right > window.innerWidth + 1) {
        out.push(`${name} at [${Math.round(r.left)}, ${Math.round(r.top)}, ${Math.round(r.right)}, ${Math.round(r.bottom)}]`);
      }
    };
    const shown = (node) => node.checkVisibility() && node.getClientRects().length > 0;
    for (const sel of ['svg#board', '#status', ...extra]) {
      const nodes = [...document.querySelectorAll(sel)].filter(shown);
      if (!nodes.length) out.push(`${sel} is missing`);
      for (const node of nodes) check(node, sel);
    }
    for (const node of document.querySelectorAll('#turn-panel button, #turn-panel .chip')) {
      if (shown(node)) check(node, `#turn-panel button "${node.textContent.trim().slice(0, 30)}"`);
    }
    return out;
  }, [more, standing]);
}

/** Opens a created match on a phone-sized page with touch, the seat token where the lobby keeps it. */
async function openOnPhone(server, browser, request) {
  const res = await fetch(`${server.url}/api/matches`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request),
  });
  assert.equal(res.status, 201, await res.clone().text());
  const created = await res.json();
  const context = await browser.newContext({ ...PHONE, locale: 'en-GB' });
  const page = await context.newPage();
  page.jsErrors = [];
  page.on('pageerror', (e) => page.jsErrors.push(String(e)));
  await keepSeatToken(page, server, created.id, created.token);
  await page.goto(`${server.url}${created.url}`);
  await waitMatchReady(page);
  return { page, created };
}

/**
 * The checks of one decision: the language alternates (English, then French...), then nothing
 * reads as notation and the decision is in view. `k` counts the decisions; `standing` as for
 * outOfView.
 */
async function checkDecision(page, game, k, more, standing = null) {
  const lang = k % 2 === 0 ? 'en' : 'fr';
  if ((await page.inputValue('#lang')) !== lang) await page.selectOption('#lang', lang);
  assert.deepEqual(await notationLines(page, game), [], `${game}, decision ${k} (${lang}): notation in the lines`);
  assert.deepEqual(await outOfView(page, more, standing), [], `${game}, decision ${k}: the decision is not all on the screen`);
}

/** Waits for this page's turn or the end: "turn" or "finished". */
async function turnOrEnd(page) {
  await page.waitForFunction(() => document.body.dataset.status === 'finished' || document.body.dataset.myTurn === 'true', null, { timeout: 60000 });
  return page.evaluate(() => (document.body.dataset.status === 'finished' ? 'finished' : 'turn'));
}

/** Taps `selector` and waits until the server has the action (the version moved on). */
async function tapAndWait(page, selector, before) {
  await page.tap(selector);
  await page.waitForFunction((v) => document.body.dataset.version !== v, before);
}

const version = (page) => page.evaluate(() => document.body.dataset.version);

test('MAD on a phone: a whole game by taps, the decision always in view, moves in words', { timeout: 600000 }, async () => {
  const server = await startServer({ args: ['--bot-delay-ms', '0'] });
  const browser = await launchBrowser();
  try {
    const { page } = await openOnPhone(server, browser, {
      game: 'mad', config: { tiebreak_limit: 12 }, seats: [{ kind: 'human' }, BOT], seed: seedOf('phone mad'),
      time_control: { kind: 'fischer', base_seconds: 600, increment_seconds: 5 },
    });
    const rand = rng(7);
    let k = 0;
    let previews = 0;
    let confirmed = false;
    while ((await turnOrEnd(page)) === 'turn') {
      await checkDecision(page, 'mad', k, ['#clock-0', '#clock-1', 'svg#board rect.hit[data-movable="true"]']);
      const before = await version(page);
      if (k === 2) {
        // The confirm-move setting (among the table's settings, below): the move then waits in
        // the turn panel, in words, for "Play it".
        await tapDone(page, '#confirm-option');
        await page.evaluate(() => window.scrollTo(0, 0));
        const ship = (await page.$$eval('svg.board rect.hit[data-movable="true"]', (els) => els.map((e) => e.dataset.cell)))[0];
        await tapDone(page, `svg.board rect.hit[data-cell="${ship}"]`);
        const to = await page.$eval('svg.board rect.hit[data-target]', (e) => e.dataset.cell);
        await page.tap(`svg.board rect.hit[data-cell="${to}"]`);
        await page.waitForSelector('#confirm-box:not(.hidden)');
        assert.match(await page.textContent('#confirm-text'), new RegExp(`^(Play|Jouer) .*${ship} → ${to} ?\\?$`));
        assert.equal(await version(page), before, 'nothing is sent before the confirmation');
        await checkDecision(page, 'mad', k, ['#confirm-play', '#confirm-cancel']);
        await tapAndWait(page, '#confirm-play', before);
        await tapDone(page, '#confirm-option');
        await page.evaluate(() => window.scrollTo(0, 0));
        confirmed = true;
        k += 1;
        continue;
      }
      const movable = await page.$$eval('svg.board rect.hit[data-movable="true"]', (els) => els.map((e) => e.dataset.cell));
      const chips = await page.$$eval('#shifts .chip', (els) => els.map((e) => e.dataset.action));
      if (chips.length && rand() < 0.2) {
        // A swap or rotation: the first tap rings the ships it moves, the second plays it.
        const chip = `#shifts .chip[data-action="${chips[Math.floor(rand() * chips.length)]}"]`;
        await page.tap(chip);
        await page.waitForSelector(`${chip}.armed`);
        assert.ok(await page.$$eval('svg.board .involved-ring', (els) => els.length) >= 1, 'the first tap shows the ships it moves');
        assert.equal(await version(page), before, 'the first tap plays nothing');
        previews += 1;
        await tapAndWait(page, chip, before);
      } else {
        const order = [...movable].sort(() => rand() - 0.5);
        let target = null;
        for (const cell of order) {
          await tapDone(page, `svg.board rect.hit[data-cell="${cell}"]`);
          const targets = await page.$$eval('svg.board rect.hit[data-target]', (els) => els.map((e) => [e.dataset.cell, e.dataset.target]));
          const captures = targets.filter(([, kind]) => kind === 'capture');
          target = (captures.length ? captures : targets)[Math.floor(rand() * (captures.length || targets.length))]?.[0];
          if (captures.length || rand() < 0.5) break;
        }
        await page.tap(`svg.board rect.hit[data-cell="${target}"]`);
        if (await page.isVisible('#bonus')) await tapAndWait(page, '#bonus-none', before);
        else await page.waitForFunction((v) => document.body.dataset.version !== v, before);
      }
      k += 1;
      assert.ok(k < 200, 'the game ends within 200 decisions');
    }
    assert.ok(k > 3, `${k} decisions`);
    assert.ok(previews > 0, 'a swap or rotation was previewed by a first tap');
    assert.ok(confirmed, 'a move was played through the confirmation');
    // A sound for the other side's moves, one for the end (the speaker in the head mutes them).
    const sounds = await page.evaluate(() => [Number(document.body.dataset.moveSounds || 0), Number(document.body.dataset.endSounds || 0)]);
    assert.ok(sounds[0] > 0 && sounds[1] === 1, `sounds: ${sounds}`);
    // The last move of the other seat is marked on the board, and the whole list reads in words.
    assert.ok(await page.$$eval('svg.board rect.last-to', (els) => els.length) >= 1);
    for (const lang of ['en', 'fr']) {
      await page.selectOption('#lang', lang);
      assert.deepEqual(await notationLines(page, 'mad'), [], `the finished game's list in ${lang}`);
    }
    assert.deepEqual(page.jsErrors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});

test('Moon Leap on a phone: a whole game by taps, a first tap shows the leap', { timeout: 600000 }, async () => {
  const server = await startServer({ args: ['--bot-delay-ms', '0'] });
  const browser = await launchBrowser();
  try {
    const { page } = await openOnPhone(server, browser, {
      game: 'moonleap', seats: [{ kind: 'human' }, BOT], seed: seedOf('phone moonleap'),
      time_control: { kind: 'fischer', base_seconds: 600, increment_seconds: 5 },
    });
    const rand = rng(11);
    let k = 0;
    let previews = 0;
    let marked = 0;
    while ((await turnOrEnd(page)) === 'turn') {
      const { before, offered, forced } = await page.evaluate(() => ({
        before: document.body.dataset.version,
        offered: [...document.querySelectorAll('#ml-choices .ml-choice')].map((e) => e.dataset.action),
        forced: Boolean(document.getElementById('ml-forced')),
      }));
      if (!offered.length) continue;
      // A forced move plays itself after a pause: it is checked only while it stands.
      await checkDecision(page, 'moonleap', k, ['#clock-0', '#ml-die', '#ml-choices .ml-choice'], forced ? before : null);
      marked += Math.min(1, await page.$$eval('svg.board .ml-leap:not(.ml-preview)', (els) => els.length));
      if (forced) {
        await page.waitForFunction((v) => document.body.dataset.version !== v, before);
      } else {
        const chip = `#ml-choices .ml-choice[data-action="${offered[Math.floor(rand() * offered.length)]}"]`;
        await page.tap(chip);
        await page.waitForSelector(`${chip}.armed`);
        assert.ok(await page.$$eval('svg.board .ml-leap.ml-preview', (els) => els.length) >= 1, 'the first tap draws the leap');
        assert.equal(await version(page), before, 'the first tap plays nothing');
        previews += 1;
        await tapAndWait(page, chip, before);
      }
      k += 1;
      assert.ok(k < 300, 'the game ends within 300 decisions');
    }
    assert.ok(previews > 0 && k > 5, `${k} decisions, ${previews} previewed`);
    assert.ok(marked > 0, 'the other seat\'s last leap was drawn on the track');
    for (const lang of ['en', 'fr']) {
      await page.selectOption('#lang', lang);
      assert.deepEqual(await notationLines(page, 'moonleap'), [], `the finished game's list in ${lang}`);
    }
    assert.deepEqual(page.jsErrors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});

test('Chakart on a phone: a whole game by taps, drawn pieces, moves in words', { timeout: 600000 }, async () => {
  const server = await startServer({ args: ['--bot-delay-ms', '0'] });
  const browser = await launchBrowser();
  try {
    const { page } = await openOnPhone(server, browser, {
      game: 'chakart', config: { turn_limit: 60 }, seats: [{ kind: 'human' }, BOT], seed: seedOf('phone chakart'),
      time_control: { kind: 'fischer', base_seconds: 600, increment_seconds: 5 },
    });
    // Both sides' pieces are drawn, not typed: no text in any piece, and the two sides differ.
    assert.equal(await page.$$eval('svg.board .ck-piece text', (els) => els.length), 0);
    const fills = await page.$$eval('svg.board .ck-piece', (els) => [...new Set(els.map((e) => e.querySelector('path').getAttribute('fill')))]);
    assert.equal(fills.length, 2, `two colours: ${fills}`);
    const rand = rng(5);
    const pick = (xs) => xs[Math.floor(rand() * xs.length)];
    let k = 0;
    while ((await turnOrEnd(page)) === 'turn') {
      await checkDecision(page, 'chakart', k, ['#clock-0', '#clock-1']);
      const before = await version(page);
      const froms = await page.$$eval('svg.board .ck-hit.from', (els) => els.map((e) => e.dataset.sq));
      const buttons = await page.$$eval('#ck-choices button', (els) => els.map((e) => (e.dataset.action ? `act:${e.dataset.action}` : `drop:${e.dataset.drop}`)));
      if (buttons.length && (!froms.length || rand() < 0.5)) {
        const [kind, value] = pick(buttons).split(/:(.*)/s);
        if (kind === 'act') await tapAndWait(page, `#ck-choices button[data-action="${value}"]`, before);
        else {
          await tapDone(page, `#ck-choices button[data-drop="${value}"]`);
          await checkDecision(page, 'chakart', k, ['svg.board .ck-hit.target']);
          await tapAndWait(page, `svg.board .ck-hit.target[data-sq="${pick(await page.$$eval('svg.board .ck-hit.target', (els) => els.map((e) => e.dataset.sq)))}"]`, before);
        }
      } else {
        await tapDone(page, `svg.board .ck-hit.from[data-sq="${pick(froms)}"]`);
        const targets = await page.$$eval('svg.board .ck-hit.target', (els) => els.map((e) => e.dataset.sq));
        await page.tap(`svg.board .ck-hit.target[data-sq="${pick(targets)}"]`);
        await page.waitForFunction((v) => document.body.dataset.version !== v || document.querySelector('#ck-choices .ck-choice'), before);
        if ((await version(page)) === before) {
          // A choice on the same squares (promotion, stealth move, shell): in view, then tapped.
          await checkDecision(page, 'chakart', k, ['#ck-choices .ck-choice']);
          await tapAndWait(page, `#ck-choices .ck-choice[data-action="${pick(await page.$$eval('#ck-choices .ck-choice', (els) => els.map((e) => e.dataset.action)))}"]`, before);
        }
      }
      k += 1;
      assert.ok(k < 200, 'the game ends within its turn limit');
    }
    assert.ok(k > 5, `${k} decisions`);
    for (const lang of ['en', 'fr']) {
      await page.selectOption('#lang', lang);
      assert.deepEqual(await notationLines(page, 'chakart'), [], `the finished game's list in ${lang}`);
    }
    assert.deepEqual(page.jsErrors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});

test('Bataille Navale on a phone: placement and five turns, ships picked and shots aimed on the board', { timeout: 600000 }, async () => {
  const server = await startServer({ args: ['--bot-delay-ms', '0'] });
  const browser = await launchBrowser();
  try {
    const { page } = await openOnPhone(server, browser, {
      game: 'naval', config: { placement_seconds: 300, turn_seconds: 120 }, seats: [{ kind: 'human' }, BOT, BOT, BOT],
      seed: seedOf('phone naval'), time_control: { kind: 'game' },
    });
    await page.waitForFunction(() => document.body.dataset.nvPhase === 'placement' && document.body.dataset.myTurn === 'true');
    let k = 0;
    await checkDecision(page, 'naval', k++, ['#nv-countdown', '#nv-ready', '#nv-rotate']);
    // Placement by taps: the corvette picked, then a free cell for its top-left corner.
    const cellAt = (seat, name) => page.evaluate(([s, n]) => {
      const box = document.querySelector(`rect.nv-cell[data-seat="${s}"][data-cell="${n}"]`).getBoundingClientRect();
      return { x: box.x + box.width / 2, y: box.y + box.height / 2, size: box.width };
    }, [seat, name]);
    const fleet = await page.$$eval('.nv-board.own .nv-piece[data-at]', (els) => Object.fromEntries(els.map((e) => [e.dataset.piece, e.dataset.cells.split(' ')])));
    const taken = new Set(Object.values(fleet).flat());
    const corvette = fleet.corvette;
    const across = corvette[0].slice(1) === corvette[1].slice(1);
    const name = (r, c) => `${'abcdefghijklmn'[c]}${r + 1}`;
    let spot = null;
    for (let r = 0; r < 13 && !spot; r++) {
      for (let c = 0; c < 13 && !spot; c++) {
        if (!taken.has(name(r, c)) && !taken.has(across ? name(r, c + 1) : name(r + 1, c))) spot = name(r, c);
      }
    }
    const before = await version(page);
    const from = await cellAt(0, corvette[0]);
    await page.touchscreen.tap(from.x, from.y);
    const to = await cellAt(0, spot);
    await page.touchscreen.tap(to.x, to.y);
    await page.waitForFunction((v) => document.body.dataset.version !== v, before);
    await page.waitForFunction((s) => document.querySelector('.nv-board.own .nv-piece[data-piece="corvette"]')?.dataset.cells.split(' ')[0] === s, spot);
    await page.tap('#nv-ready');

    // Five battle turns: each time the carrier fires at a cell of an opponent's board and the
    // cruiser, picked by a tap on its ship on the own board, fires at another.
    const rand = rng(3);
    for (let turn = 0; turn < 5; turn++) {
      await page.waitForFunction(() => document.body.dataset.status === 'finished'
        || (document.body.dataset.nvTurn === 'mine' && document.body.dataset.nvFiring === 'false'), null, { timeout: 90000 });
      if (await page.evaluate(() => document.body.dataset.status === 'finished')) break;
      await checkDecision(page, 'naval', k++, ['#nv-countdown', '#nv-fire', '.nv-ship', '.nv-mode']);
      const target = await page.getAttribute('#nv-tabs .nv-tab[aria-selected="true"]', 'data-seat');
      assert.notEqual(target, '0', 'an opponent\'s board is shown first');
      /** Aims the picked ship at a free cell of the shown board by two taps; returns the order's cell. */
      const aim = async (ship) => {
        for (let i = 0; i < 40; i++) {
          // A cell of the whole board, or of the window a first tap opened (9 cells a side).
          const zoomed = await page.getAttribute('svg.board', 'data-zoom');
          const corner = zoomed ? zoomed.split(':')[1] : 'a1';
          const [r0, c0] = [Number(corner.slice(1)) - 1, 'abcdefghijklmn'.indexOf(corner[0])];
          const span = zoomed ? 9 : 14;
          const cell = name(r0 + Math.floor(rand() * span), c0 + Math.floor(rand() * span));
          const first = await cellAt(target, cell);
          await page.touchscreen.tap(first.x, first.y);
          // The tap's click reaches the page after the tap itself returns (later on a loaded
          // machine): the aim and the window are read once the page shows this cell aimed at.
          const shown = await page.waitForFunction((at) => document.querySelector('svg.board')?.dataset.aimAt === at, `${target}:${cell}`, { timeout: 5000 })
            .then(() => true, () => false);
          if (!shown) continue;
          const again = await cellAt(target, cell);
          assert.ok(again.size >= 28, `a cell of ${again.size.toFixed(1)} px while aiming`);
          if ((await page.getAttribute('svg.board', 'data-aim')) !== 'ok') continue;
          await checkDecision(page, 'naval', k++, ['#nv-countdown', '#nv-fire']);
          await page.touchscreen.tap(again.x, again.y);
          // The second tap on an aim shown as legal plans the order (once its click arrives).
          const order = await page.waitForFunction((s) => document.querySelector(`.nv-ship[data-ship="${s}"]`)?.getAttribute('data-order'), ship, { timeout: 5000 })
            .then((h) => h.jsonValue(), () => null);
          if (order) return JSON.parse(order);
        }
        throw new Error(`no legal aim for the ${ship}`);
      };
      const carrier = await aim('carrier');
      assert.deepEqual([carrier.kind, carrier.piece, String(carrier.target)], ['fire', 'carrier', target]);
      // The cruiser, picked on the own board.
      if (!(await page.$eval('.nv-ship[data-ship="cruiser"]', (e) => e.disabled))) {
        await tapDone(page, '#nv-tabs .nv-tab[data-seat="0"]');
        const ship = await page.$eval('.nv-board.own .nv-piece[data-piece="cruiser"]', (e) => e.dataset.cells.split(' ')[0]);
        const at = await cellAt(0, ship);
        await page.touchscreen.tap(at.x, at.y);
        await page.waitForSelector('.nv-ship.selected[data-ship="cruiser"]');
        await tapDone(page, `#nv-tabs .nv-tab[data-seat="${target}"]`);
        await aim('cruiser');
      }
      await checkDecision(page, 'naval', k++, ['#nv-countdown', '#nv-fire']);
      if (turn === 1) await screenshot(page, 'naval-phone-aim');
      const left = await watchTurnLeaves(page);
      await page.tap('#nv-fire');
      await left();
    }
    // The account of the turns since this seat's last is in words.
    await page.waitForSelector('#nv-banner .nv-turn');
    for (const lang of ['en', 'fr']) {
      await page.selectOption('#lang', lang);
      assert.deepEqual(await notationLines(page, 'naval'), [], `the lines in ${lang}`);
    }
    assert.deepEqual(page.jsErrors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});

test('a small phone (360x640): every game\'s first decision fits the screen with its board', { timeout: 300000 }, async () => {
  const server = await startServer({ args: ['--bot-delay-ms', '0'] });
  const browser = await launchBrowser();
  try {
    const tables = {
      mad: [['#clock-0', 'svg#board rect.hit[data-movable="true"]'], [{ kind: 'human' }, BOT]],
      moonleap: [['#clock-0', '#ml-die'], [{ kind: 'human' }, BOT, BOT, BOT]],
      chakart: [['#clock-0', 'svg.board .ck-hit.from'], [{ kind: 'human' }, BOT]],
      naval: [['#nv-countdown', '#nv-ready'], [{ kind: 'human' }, BOT, BOT, BOT]],
    };
    for (const [game, [more, seats]] of Object.entries(tables)) {
      const res = await fetch(`${server.url}/api/matches`, {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ game, seats, seed: seedOf(`small ${game}`), time_control: game === 'naval' ? { kind: 'game' } : { kind: 'fischer', base_seconds: 600, increment_seconds: 5 } }),
      });
      const created = await res.json();
      const context = await browser.newContext({ viewport: { width: 360, height: 640 }, hasTouch: true, isMobile: true, locale: 'en-GB' });
      const page = await context.newPage();
      await keepSeatToken(page, server, created.id, created.token);
      await page.goto(`${server.url}${created.url}`);
      await waitMatchReady(page);
      await turnOrEnd(page);
      assert.deepEqual(await outOfView(page, more), [], `${game} on a 360x640 screen`);
      await context.close();
    }
  } finally {
    await browser.close();
    await server.stop();
  }
});

test('a first game from the how-to page: against the beginner bot, a hint at every step', { timeout: 120000 }, async () => {
  const server = await startServer({ args: ['--bot-delay-ms', '0'] });
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ ...PHONE, locale: 'en-GB' });
    const page = await context.newPage();
    await page.goto(`${server.url}/howto/mad`);
    await page.waitForSelector('body[data-ready="true"]');
    // The how-to page draws its pictures with the table's own board drawing.
    assert.ok(await page.$$eval('#howto-pictures svg.board g.ship', (els) => els.length) >= 16);
    await page.tap('#howto-learn');
    await page.waitForURL(/\/m\/[0-9a-f]{16}$/);
    await waitMatchReady(page);
    const id = new URL(page.url()).pathname.split('/').pop();
    const summary = await (await fetch(`${server.url}/api/matches/${id}`)).json();
    assert.deepEqual(summary.seats.map((s) => s.bot ?? s.kind), ['human', 'beginner']);
    await turnOrEnd(page);
    assert.equal(await page.textContent('#learn-hint'), 'Tap one of your ships with a dashed ring.');
    const ship = await page.$eval('svg.board rect.hit[data-movable="true"]', (e) => e.dataset.cell);
    await tapDone(page, `svg.board rect.hit[data-cell="${ship}"]`);
    assert.match(await page.textContent('#learn-hint'), /^Now tap a dot/);
    assert.deepEqual(await outOfView(page, ['#learn-hint']), []);
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
});
