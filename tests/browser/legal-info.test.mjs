// The MAD and Moon Leap pages compose moves from the structured legal list (`legal_info`,
// docs/protocol.md section 4.1), not from the notation of `legal`: with the parts as the server
// sends them, the ships ringed as movable are exactly the moves' `from` cells, the shift buttons
// are the permutations and rotations, the Moon Leap buttons are the decisions; when the test
// removes `legal_info` from every state on its way to the page, the page offers nothing at all
// although `legal` still lists every action.

import test from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPage, waitMatchReady, waitTurnOrEnd } from './lib.mjs';

/**
 * Opens seat 0 of a new match whose WebSocket passes through the test: every `state` the server
 * sends is recorded in `page.states` and, with `strip`, loses its `legal_info` first.
 */
async function openRouted(server, browser, request, strip) {
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
        if (strip) delete msg.legal_info;
      }
      ws.send(JSON.stringify(msg));
    });
    ws.onMessage((text) => upstream.send(text));
  });
  await page.goto(`${server.url}/`);
  await page.evaluate(([i, tok]) => localStorage.setItem(`plateau.token.${i}`, tok), [created.id, created.token]);
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
    let page = await openRouted(server, browser, mad, false);
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

    page = await openRouted(server, browser, mad, true);
    assert.equal(await waitTurnOrEnd(page), 'turn');
    assert.ok(lastLegal(page).length > 0, 'the server still lists legal actions');
    assert.equal(await page.$$eval('svg.board rect.hit[data-movable="true"]', (els) => els.length), 0);
    assert.equal(await page.$$eval('#shifts .chip', (els) => els.length), 0);
    await page.context().close();

    // Moon Leap: one button per decision, each with its action's text.
    const moon = { game: 'moonleap', seats: [{ kind: 'human' }, { kind: 'bot', bot: 'random' }] };
    page = await openRouted(server, browser, moon, false);
    await page.waitForSelector('#ml-choices .ml-choice');
    legal = lastLegal(page);
    assert.deepEqual(await page.$$eval('#ml-choices .ml-choice', (els) => els.map((e) => [e.dataset.action, e.dataset.kind])),
      legal.map((a) => [a.text, a.kind]));
    await page.context().close();

    page = await openRouted(server, browser, moon, true);
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
