// A line that dies without a close (a phone changing networks, a laptop asleep, a proxy dropping
// it): the browser says nothing for minutes. The pages' socket (web/js/socket.js) pings every
// PING_EVERY_MS and takes a ping left unanswered for PONG_WITHIN_MS as a dead line: it says the
// connection is lost and opens a new one. Here the test's route swallows everything on the first
// connection from one moment on, both ways, and never closes it; the page must notice, open a
// second connection and show the match again from it.

import test from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPage, waitMatchReady, keepSeatToken } from './lib.mjs';

test('the match page notices a silent dead line and reconnects on its own', { timeout: 120000 }, async (t) => {
  const server = await startServer({ args: ['--bot-delay-ms', '0'] });
  const browser = await launchBrowser();
  try {
    const res = await fetch(`${server.url}/api/matches`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ game: 'mad', seats: [{ kind: 'human' }, { kind: 'bot', bot: 'random' }] }),
    });
    assert.equal(res.status, 201, await res.clone().text());
    const created = await res.json();
    const page = await newPage(browser);

    // Every connection of the match page passes through here; `cut` silences the first.
    const line = { opened: 0, cut: false, cutAt: 0, reopenedAt: 0, pingsUnanswered: 0 };
    await page.routeWebSocket(/\/api\/matches\/[0-9a-f]+\/ws$/, (ws) => {
      line.opened += 1;
      const first = line.opened === 1;
      if (!first && !line.reopenedAt) line.reopenedAt = Date.now();
      const upstream = ws.connectToServer();
      const silent = () => first && line.cut;
      upstream.onMessage((text) => {
        if (!silent()) ws.send(text);
      });
      ws.onMessage((text) => {
        if (!silent()) upstream.send(text);
        else if (String(text) === '{"type":"ping"}') line.pingsUnanswered += 1;
      });
    });
    await keepSeatToken(page, server, created.id, created.token);
    await page.goto(`${server.url}${created.url}`);
    await waitMatchReady(page);
    const seat = await page.evaluate(() => document.body.dataset.seat);
    assert.equal(seat, '0');
    assert.equal(line.opened, 1);

    line.cut = true;
    line.cutAt = Date.now();
    // The page says the line is lost: 4 s to the next ping at most, 4 s for its answer.
    await page.waitForFunction(() => document.body.dataset.conn === 'down');
    // It opens a second connection by itself, and the match comes back on it, seat and all.
    await page.waitForFunction(() => document.body.dataset.conn === 'up');
    assert.equal(line.opened, 2);
    assert.equal(await page.evaluate(() => document.body.dataset.seat), '0');
    t.diagnostic(`a second connection ${line.reopenedAt - line.cutAt} ms after the line went silent`);
    // It was a ping left without an answer that told the page.
    assert.ok(line.pingsUnanswered >= 1, `${line.pingsUnanswered} pings unanswered`);
    assert.deepEqual(page.jsErrors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});
