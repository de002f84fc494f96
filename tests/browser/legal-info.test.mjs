// The MAD, Moon Leap and Chakart pages compose moves from the structured legal list (`legal_info`,
// docs/protocol.md section 4.1), not from the notation of `legal`: with the parts as the server
// sends them, the ships ringed as movable are exactly the moves' `from` cells, the shift buttons
// are the permutations and rotations, the Moon Leap buttons are the decisions; when the test
// removes `legal_info` from every state on its way to the page, the page offers nothing at all
// although `legal` still lists every action. Chakart's board and pools are drawn from the
// observation's `pieces`, `items` and `pools`: with the FEN fields `board` and `captured` taken
// out in transit, the page draws the same position.

import test from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPage, waitMatchReady, keepSeatToken, waitTurnOrEnd } from './lib.mjs';

/** Takes `legal_info` out of a `state` message. */
const STRIP = (msg) => delete msg.legal_info;

/**
 * Opens seat 0 of a new match whose WebSocket passes through the test: every `state` the server
 * sends is recorded in `page.states` and, with `edit`, changed by it first.
 */
async function openRouted(server, browser, request, edit) {
  const res = await fetch(`${server.url}/api/matches`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request),
  });
  assert.equal(res.status, 201, await res.clone().text());
  const created = await res.json();
  const page = await newPage(browser);
  page.states = [];
  await page.routeWebSocket(/\/api\/matches\/[0-9a-f]+\/ws$/, (ws) => {
    const upstream = ws.connectToServer();
    upstream.onMessage((text) => {
      const msg = JSON.parse(String(text));
      if (msg.type === 'state') {
        page.states.push(structuredClone(msg));
        if (edit) edit(msg);
      }
      ws.send(JSON.stringify(msg));
    });
    ws.onMessage((text) => upstream.send(text));
  });
  await keepSeatToken(page, server, created.id, created.token);
  await page.goto(`${server.url}${created.url}`);
  await waitMatchReady(page);
  return page;
}

/** The last state's legal list with its parts, as the server sent them. */
function lastLegal(page) {
  const last = page.states.findLast((s) => s.legal.length > 0);
  return last.legal.map((text, i) => ({ text, ...last.legal_info[i] }));
}

test('MAD and Moon Leap compose their moves from legal_info alone', { timeout: 120000 }, async () => {
  const server = await startServer({ args: ['--bot-delay-ms', '0'] });
  const browser = await launchBrowser();
  try {
    const mad = { game: 'mad', seats: [{ kind: 'human' }, { kind: 'bot', bot: 'random' }] };
    let page = await openRouted(server, browser, mad, null);
    assert.equal(await waitTurnOrEnd(page), 'turn');
    let legal = lastLegal(page);
    const froms = [...new Set(legal.filter((a) => a.kind === 'move').map((a) => a.from))].sort();
    assert.ok(froms.length > 0);
    const movable = await page.$$eval('svg.board rect.hit[data-movable="true"]', (els) => els.map((e) => e.dataset.cell).sort());
    assert.deepEqual(movable, froms);
    const shifts = legal.filter((a) => a.kind === 'permute' || a.kind === 'rotate').map((a) => a.text).sort();
    assert.deepEqual(await page.$$eval('#shifts .chip', (els) => els.map((e) => e.dataset.action).sort()), shifts);
    // A ship's targets are its moves' `to` cells; the page plays the text of the one clicked.
    // (One with no bonus on the same cells, which would ask which shift goes with it.)
    const move = legal.find((a) => a.kind === 'move'
      && !legal.some((b) => b.then && b.from === a.from && b.to === a.to));
    const before = await page.evaluate(() => document.body.dataset.version);
    await page.click(`svg.board rect.hit[data-cell="${move.from}"]`);
    await page.click(`svg.board rect.hit[data-cell="${move.to}"]`);
    await page.waitForFunction((v) => document.body.dataset.version !== v, before);
    assert.ok(page.wsSent.some((f) => f.includes(`"${move.text}"`)), `sent ${move.text}`);
    // No words in notation on the shift buttons.
    assert.equal(await waitTurnOrEnd(page), 'turn');
    for (const words of await page.$$eval('#shifts .chip', (els) => els.map((e) => e.textContent))) {
      assert.doesNotMatch(words, /[PR]\(/);
    }
    await page.context().close();

    page = await openRouted(server, browser, mad, STRIP);
    assert.equal(await waitTurnOrEnd(page), 'turn');
    assert.ok(lastLegal(page).length > 0, 'the server still lists legal actions');
    assert.equal(await page.$$eval('svg.board rect.hit[data-movable="true"]', (els) => els.length), 0);
    assert.equal(await page.$$eval('#shifts .chip', (els) => els.length), 0);
    await page.context().close();

    // Moon Leap: one button per decision, each with its action's text.
    const moon = { game: 'moonleap', seats: [{ kind: 'human' }, { kind: 'bot', bot: 'random' }] };
    page = await openRouted(server, browser, moon, null);
    // The buttons and the version they were drawn for, in one look: a forced choice (one button)
    // is played by the page itself a moment later, and the buttons go with it.
    const drawn = await (await page.waitForFunction(() => {
      const chips = [...document.querySelectorAll('#ml-choices .ml-choice')];
      return chips.length > 0
        && { version: Number(document.body.dataset.version), chips: chips.map((e) => [e.dataset.action, e.dataset.kind]) };
    })).jsonValue();
    const shown = page.states.findLast((st) => st.version === drawn.version);
    assert.ok(shown, `a state of version ${drawn.version} reached the page`);
    assert.deepEqual(drawn.chips, shown.legal.map((text, i) => [text, shown.legal_info[i].kind]));
    await page.context().close();

    page = await openRouted(server, browser, moon, STRIP);
    await page.waitForFunction(() => document.body.dataset.myTurn === 'true');
    assert.ok(lastLegal(page).length > 0);
    assert.equal(await page.$$eval('#ml-choices .ml-choice', (els) => els.length), 0);
    assert.equal(await page.$$eval('svg#board [data-action]', (els) => els.length), 0);
    assert.deepEqual(page.jsErrors, []);
    await page.context().close();
  } finally {
    await browser.close();
    await server.stop();
  }
});

test('Chakart composes its moves from legal_info and draws from pieces, items and pools', { timeout: 120000 }, async () => {
  const server = await startServer({ args: ['--bot-delay-ms', '0'] });
  const browser = await launchBrowser();
  try {
    const chakart = { game: 'chakart', seats: [{ kind: 'human' }, { kind: 'bot', bot: 'random' }] };
    // Without the FEN fields: whatever the page draws comes from the structured ones.
    const noFen = (msg) => {
      for (const obs of [msg.observation, msg.observation_patch]) {
        if (obs) {
          delete obs.board;
          delete obs.captured;
        }
      }
    };
    let page = await openRouted(server, browser, chakart, noFen);
    assert.equal(await waitTurnOrEnd(page), 'turn');
    const legal = lastLegal(page);
    const froms = [...new Set(legal.filter((a) => a.from).map((a) => a.from))].sort();
    assert.ok(froms.length > 0);
    const movable = await page.$$eval('svg.board .ck-hit.from', (els) => els.map((e) => e.dataset.sq).sort());
    assert.deepEqual(movable, froms);
    // The observation now: the last whole one with the deltas since applied.
    let obs = null;
    for (const s of page.states) {
      if (s.observation) obs = structuredClone(s.observation);
      if (s.observation_patch) Object.assign(obs, s.observation_patch);
      for (const k of s.observation_removed || []) delete obs[k];
    }
    const pieces = await page.$$eval('svg.board g.ck-square', (els) => els.flatMap((g) => {
      const p = g.querySelector('.ck-piece');
      return p ? [`${g.dataset.sq}:${p.classList.contains('w') ? 'w' : 'b'}${p.dataset.piece}`] : [];
    }).sort());
    const letter = { pawn: 'p', rook: 'r', knight: 'n', bishop: 'b', queen: 'q', king: 'k' };
    assert.deepEqual(pieces, obs.pieces.map((p) => `${p.square}:${p.side[0]}${letter[p.kind]}`).sort());
    // A plain move with no other action on the same squares: two clicks send its text.
    const move = legal.find((a) => a.kind === 'move' && !a.choice
      && legal.filter((b) => b.from === a.from && b.to === a.to).length === 1);
    const before = await page.evaluate(() => document.body.dataset.version);
    await page.click(`svg.board .ck-hit.from[data-sq="${move.from}"]`);
    await page.click(`svg.board .ck-hit.target[data-sq="${move.to}"]`);
    await page.waitForFunction((v) => document.body.dataset.version !== v, before);
    assert.ok(page.wsSent.some((f) => f.includes(`"${move.text}"`)), `sent ${move.text}`);
    assert.deepEqual(page.jsErrors, []);
    await page.context().close();

    page = await openRouted(server, browser, chakart, STRIP);
    assert.equal(await waitTurnOrEnd(page), 'turn');
    assert.ok(lastLegal(page).length > 0, 'the server still lists legal actions');
    assert.equal(await page.$$eval('svg.board .ck-hit', (els) => els.length), 0);
    assert.equal(await page.$$eval('svg.board g.ck-square.movable', (els) => els.length), 0);
    assert.equal(await page.$$eval('#ck-choices button', (els) => els.length), 0);
    assert.deepEqual(page.jsErrors, []);
    await page.context().close();
  } finally {
    await browser.close();
    await server.stop();
  }
});
