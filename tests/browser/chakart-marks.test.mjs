// Chakart's marks on the match page, with two people playing (White and Black in two browser
// contexts) and a spectator: the squares of the last move are tinted on every page, the pieces
// the seat to act can move (its legal list) are framed on its page only, and after 1. f3 e5
// 2. g4 Qh4 White's king on e1 can be taken: White and the spectator are warned, Black is not.
// Then the words of an item effect, on a page of the module alone: shown while the effect is
// narrated, gone once the next move is played; and the narration following the move list through
// a burst of entries in one state and through takebacks (the list cut, then grown again).

import test from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPage, openCreatedMatch, waitMatchReady, keepSeatToken, seedOf } from './lib.mjs';

const squares = (page, cls) => page.$$eval(`svg.board g.ck-square.${cls}`, (els) => els.map((e) => e.dataset.sq).sort());

/** Plays `from`-`to` (a plain move) on `page` by clicking, and waits until every page in `all` shows the new version. */
async function move(page, from, to, all) {
  const before = await page.evaluate(() => Number(document.body.dataset.version));
  await page.click(`svg.board .ck-hit.from[data-sq="${from}"]`);
  await page.click(`svg.board .ck-hit.target[data-sq="${to}"]`);
  // A queen may also go there by stealth: the plain move is then chosen explicitly.
  const plain = `#ck-choices .ck-choice[data-action="${from}${to}"]`;
  if (await page.$(plain)) await page.click(plain);
  for (const p of all) {
    await p.waitForFunction((v) => Number(document.body.dataset.version) > v, before).catch(async (e) => {
      const info = await Promise.all(all.map((q) => q.evaluate(() => [document.body.dataset.version, document.body.dataset.seat, document.getElementById('error').textContent, document.getElementById('moves').textContent])));
      throw new Error(`${from}-${to}: ${JSON.stringify(info)} ${e}`);
    });
  }
}

test('Chakart: last move, movable pieces and a king in danger', { timeout: 120000 }, async () => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const human = { kind: 'human' };
    const { page: white, created } = await openCreatedMatch(server, browser,
      { game: 'chakart', seats: [human, human], creator_seat: 0, seed: seedOf('chakart-marks') });
    const res = await fetch(`${server.url}/api/matches/${created.id}/join`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seat: 1 }),
    });
    assert.equal(res.status, 200);
    const joined = await res.json();
    const black = await newPage(browser);
    await keepSeatToken(black, server, created.id, joined.token);
    await black.goto(`${server.url}/m/${created.id}`);
    await waitMatchReady(black);
    const watcher = await newPage(browser);
    await watcher.goto(`${server.url}/m/${created.id}`);
    await waitMatchReady(watcher);
    const all = [white, black, watcher];
    for (const p of all) await p.waitForFunction(() => document.body.dataset.status === 'live');

    // The start: White's ten movers framed on White's page only; no last move yet.
    const rank = (r) => [...'abcdefgh'].map((f) => `${f}${r}`);
    assert.deepEqual(await squares(white, 'movable'), [...rank(2), 'b1', 'g1'].sort());
    assert.deepEqual(await squares(black, 'movable'), []);
    assert.deepEqual(await squares(watcher, 'movable'), []);
    assert.deepEqual(await squares(white, 'last'), []);

    await move(white, 'f2', 'f3', all);
    for (const p of all) assert.deepEqual(await squares(p, 'last'), ['f2', 'f3']);
    assert.deepEqual(await squares(white, 'movable'), []);
    assert.deepEqual(await squares(black, 'movable'), [...rank(7), 'b8', 'g8'].sort());

    await move(black, 'e7', 'e5', all);
    for (const p of all) assert.deepEqual(await squares(p, 'last'), ['e5', 'e7']);
    // The pawn left a mushroom on f2 (section 5): f2 is no mover any more, the king gained it.
    assert.deepEqual(await squares(white, 'movable'), ['a2', 'b1', 'b2', 'c2', 'd2', 'e1', 'e2', 'f3', 'g1', 'g2', 'h2']);
    for (const p of all) assert.equal(await p.isVisible('#ck-king-warning'), false);

    await move(white, 'g2', 'g4', all);
    await move(black, 'd8', 'h4', all);
    for (const p of all) assert.deepEqual(await squares(p, 'last'), ['d8', 'h4']);
    // The queen on h4 reaches e1 over the mushrooms of g3 and f2.
    assert.deepEqual(await squares(white, 'danger'), ['e1']);
    assert.equal(await white.textContent('#ck-king-warning'), 'Your king on e1 can be taken next move!');
    assert.deepEqual(await squares(watcher, 'danger'), ['e1']);
    assert.equal(await watcher.textContent('#ck-king-warning'), 'White’s king on e1 can be taken.');
    assert.deepEqual(await squares(black, 'danger'), []);
    assert.equal(await black.isVisible('#ck-king-warning'), false);
    for (const p of all) assert.deepEqual(p.jsErrors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});

/**
 * A page without the match module: the Chakart module drawn alone, fed move lists by hand
 * (`window.feed(moves)` draws the state with that list, as the match page does for each state).
 * `window.told` keeps every text the effect line shows, as it appears.
 */
async function modulePage(server, browser) {
  const page = await newPage(browser);
  await page.goto(`${server.url}/leaderboard`);
  await page.evaluate(async () => {
    const ck = await import('/assets/js/chakart.js');
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.classList.add('board');
    const panel = document.createElement('div');
    const decision = document.createElement('div');
    document.body.append(svg, decision, panel);
    const observation = { board: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR', flags: '1111', captured: '000000000000' };
    const ctx = { svg, panel, decision, canAct: false, play() {}, state: { observation, legal: [], moves: [], seat: 0 } };
    ctx.render = () => ck.renderChakart(ctx);
    window.feed = (moves) => {
      ctx.state = { ...ctx.state, moves };
      ctx.render();
    };
    window.stealth = [...ck.marks({ last_move: { from: 'c1', to: null } }).last];
    window.told = [];
    const look = () => {
      const text = document.getElementById('ck-effect')?.textContent || '';
      if (text && window.told.at(-1) !== text) window.told.push(text);
    };
    new MutationObserver(look).observe(document.body, { childList: true, subtree: true, characterData: true });
    ctx.render();
  });
  return page;
}

test("Chakart: an effect's words stay until the next move", { timeout: 60000 }, async () => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const page = await modulePage(server, browser);
    // An opponent's stealth move marks its start square only.
    assert.deepEqual(await page.evaluate(() => window.stealth), ['c1']);
    const words = () => page.textContent('#ck-effect');
    // Entries as the server sends them, with their parts (docs/protocol.md section 4.1): the
    // narration reads the parts only.
    const knight = { by: { seat: 0 }, text: 'Nc3', info: { kind: 'move', from: 'b1', to: 'c3' } };
    const redirect = { by: 'chance', text: '~e5', info: { kind: 'redirect', to: 'e5' } };
    // A move and its redirect: the words show at once, the squares lit, counted as the state is
    // drawn (they go dark 900 ms on, sooner than a loaded machine's next look may come).
    const lit = await page.evaluate((m) => {
      window.feed(m);
      return [...document.querySelectorAll('svg g.ck-square rect:first-child')].filter((r) => r.getAttribute('fill') === '#f7a8a8').length;
    }, [knight, redirect]);
    assert.equal(await words(), 'Item effect: the piece is sent to e5.');
    assert.ok(lit > 0);
    // The narration ends (the squares go dark); the words stay, nothing was played since.
    await page.waitForFunction(() => ![...document.querySelectorAll('svg g.ck-square rect:first-child')].some((r) => r.getAttribute('fill') === '#f7a8a8'));
    assert.equal(await words(), 'Item effect: the piece is sent to e5.');
    // The next move: the words go with it.
    await page.evaluate((m) => window.feed(m), [knight, redirect, { by: { seat: 1 }, text: 'e6' }]);
    assert.equal(await words(), '');
    // An effect, and a move arriving while it is still narrated: the words go once it is done.
    await page.evaluate((m) => window.feed(m), [knight, redirect, { by: { seat: 1 }, text: 'e6' }, { by: { seat: 0 }, text: 'Bc4' }, { by: 'chance', text: '~d5', info: { kind: 'redirect', to: 'd5' } }]);
    assert.equal(await words(), 'Item effect: the piece is sent to d5.');
    await page.evaluate((m) => window.feed(m), [knight, redirect, { by: { seat: 1 }, text: 'e6' }, { by: { seat: 0 }, text: 'Bc4' }, { by: 'chance', text: '~d5', info: { kind: 'redirect', to: 'd5' } }, { by: { seat: 1 }, text: 'Nf6' }]);
    await page.waitForFunction(() => document.getElementById('ck-effect').textContent === '');
    assert.deepEqual(page.jsErrors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});

test('Chakart: the narration follows the move list through bursts and takebacks', { timeout: 60000 }, async () => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const page = await modulePage(server, browser);
    const words = () => page.textContent('#ck-effect');
    const told = () => page.evaluate(() => window.told);
    const waitWords = (text) => page.waitForFunction((w) => document.getElementById('ck-effect').textContent === w, text)
      .catch(async () => assert.fail(`waited for the words ${JSON.stringify(text)}; the page told ${JSON.stringify(await told())}`));
    const redirect = (sq) => ({ by: 'chance', text: `~${sq}`, info: { kind: 'redirect', to: sq } });
    const knight = { by: { seat: 0 }, text: 'Nc3', info: { kind: 'move', from: 'b1', to: 'c3' } };
    const e6 = { by: { seat: 1 }, text: 'e6', info: { kind: 'move', from: 'e7', to: 'e6' } };
    const egg = { by: { seat: 1 }, text: 'Nf6*B', info: { kind: 'egg', choice: 'boo' } };
    const bishop = { by: { seat: 0 }, text: 'Bc4', info: { kind: 'move', from: 'f1', to: 'c4' } };
    const sent = (sq) => `Item effect: the piece is sent to ${sq}.`;
    const eggWords = await page.evaluate(async () => (await import('/assets/js/chakart.js')).describeEffect({ info: { kind: 'egg', choice: 'boo' } }).text);
    assert.match(eggWords, /^Egg effect: .+!$/);

    // A burst: the move, its redirect and the reply in one state. The redirect is told, then its
    // words go (a move followed it).
    await page.evaluate((m) => window.feed(m), [knight, redirect('e5'), e6]);
    await waitWords(sent('e5'));
    await waitWords('');
    // A takeback and a new move in one whole state, the list as long as before: the new move's
    // egg is told.
    await page.evaluate((m) => window.feed(m), [knight, redirect('e5'), egg]);
    await waitWords(eggWords);
    // The egg taken back (the list cut before it): its words go at once.
    await page.evaluate((m) => window.feed(m), [knight, redirect('e5')]);
    assert.equal(await words(), '');
    // Cut further and grown longer in one state: every effect after the cut is told, in order.
    await page.evaluate((m) => window.feed(m), [knight, redirect('d4'), bishop, redirect('c6')]);
    await waitWords(sent('c6'));
    assert.deepEqual(await told(), [sent('e5'), eggWords, sent('d4'), sent('c6')]);
    // The same list again (a state that brings no move, or a whole state on reconnecting): nothing
    // is told again, and the last words stay.
    await page.evaluate((m) => window.feed(m), [knight, redirect('d4'), bishop, redirect('c6')]);
    await page.waitForFunction(() => ![...document.querySelectorAll('svg g.ck-square rect:first-child')].some((r) => r.getAttribute('fill') === '#f7a8a8'));
    assert.equal(await words(), sent('c6'));
    assert.deepEqual(await told(), [sent('e5'), eggWords, sent('d4'), sent('c6')]);
    assert.deepEqual(page.jsErrors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});
