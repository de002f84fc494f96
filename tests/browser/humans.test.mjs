// Two people in two browser contexts (separate storage) play MAD through the invite link, by
// clicking. In the middle the server restarts (a network drop for both pages): both pages reconnect
// by themselves and the game goes on. At the end both see the same result and one asks for a
// rematch, which the other accepts, and in which the two players swap colours. Also a spectator
// watches without controls, and the match screenshot of the note is taken (English and French).

import test from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launchBrowser, newPage, waitMatchReady, waitTurnOrEnd, playOneTurn, rng, screenshot,
  enterLobby, openAdvanced,
} from './lib.mjs';

test('two humans through the invite link, a server restart mid-game, result and rematch', { timeout: 600000 }, async () => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const red = await newPage(browser);
    const blue = await newPage(browser, { lang: 'fr-FR' });
    await enterLobby(red, server, 'Rosa');
    await openAdvanced(red);
    await red.selectOption('#seat-1-kind', 'human');
    await red.check('#seat-0-mine');
    await red.fill('#opt-tiebreak_limit', '16');
    await red.check('#opt-positioning_turn');
    await red.click('#create');
    const invite = await red.inputValue('.invite-link[data-seat="1"]');
    assert.match(invite, /^http:\/\/127\.0\.0\.1:\d+\/m\/[0-9a-f]{16}\?join=1$/);
    const id = invite.match(/\/m\/([0-9a-f]{16})/)[1];
    await red.click('#go-match');
    await waitMatchReady(red);
    assert.equal(await red.evaluate(() => document.body.dataset.status), 'open');
    assert.ok(await red.isVisible('#invite-panel'));
    assert.equal(await red.textContent('#status'), 'Waiting for the other player to join');

    // The lobby lists the open match with a join button for Blue.
    const lobby = await newPage(browser);
    await enterLobby(lobby, server);
    await lobby.waitForSelector(`tr[data-match="${id}"] button[data-join="1"]`);
    assert.equal(await lobby.textContent(`tr[data-match="${id}"] .seat-pill[data-seat="0"]`), 'Red: Rosa');

    // Blue follows the invite link (French browser): takes seat 1, sees the board from Blue's side.
    await blue.goto(invite);
    await waitMatchReady(blue);
    assert.equal(await blue.evaluate(() => document.body.dataset.seat), '1');
    assert.equal(new URL(blue.url()).search, '', 'the join parameter is dropped after joining');
    assert.equal(await blue.evaluate(() => document.documentElement.lang), 'fr');
    const y1 = Number(await blue.getAttribute('svg.board rect.hit[data-cell="a1"]', 'y'));
    const y6 = Number(await blue.getAttribute('svg.board rect.hit[data-cell="a6"]', 'y'));
    assert.ok(y6 > y1, 'Blue sees row 6 at the bottom');
    await red.waitForFunction(() => document.body.dataset.status === 'live');
    assert.equal(await red.evaluate(() => document.body.dataset.myTurn), 'true', 'Red moves first');
    // The positioning turn: no movement, but pass and the shifts are offered.
    assert.ok(await red.isVisible('#pass'));
    assert.equal(await red.$$eval('svg.board rect.hit[data-movable]', (els) => els.length), 0);
    assert.ok(await red.$$eval('#shifts .chip', (els) => els.length) >= 4);

    // The invite link, used again once the seat is taken, says so and lets one watch.
    const late = await newPage(browser);
    await late.goto(invite);
    await waitMatchReady(late);
    assert.equal(await late.evaluate(() => document.body.dataset.seat), 'spectator');
    assert.ok(await late.isVisible('#error'), 'the page says the seat is taken');
    assert.equal(await late.getAttribute('#error', 'data-code'), 'seat/taken');
    assert.doesNotMatch(await late.textContent('#error'), /seat\/taken/, 'no error code in the words');
    await late.context().close();

    // A spectator sees the board, no controls and no legal highlights.
    const watcher = await newPage(browser);
    await watcher.goto(`${server.url}/m/${id}`);
    await waitMatchReady(watcher);
    assert.equal(await watcher.evaluate(() => document.body.dataset.seat), 'spectator');
    assert.ok(!(await watcher.isVisible('#controls-panel')));
    assert.equal(await watcher.$$eval('svg.board rect.hit.clickable', (els) => els.length), 0);

    const rand = rng(7);
    let turns = 0;
    let restarted = false;
    let finished = false;
    while (!finished) {
      for (const page of [red, blue]) {
        const now = await waitTurnOrEnd(page, 60000);
        if (now === 'finished') {
          finished = true;
          break;
        }
        await playOneTurn(page, rand);
        turns += 1;
        if (turns === 5) await screenshot(blue, 'match-two-humans-blue');
        if (turns === 6 && !restarted) {
          // A network drop for everyone: the server goes away and comes back on the same port.
          // The version to come back to is that of the page that just moved: the others hear of
          // its move a moment later (one that has not yet would be read a version behind, and
          // would come back a version ahead of it), so every page is first waited for at it.
          const version = await page.evaluate(() => document.body.dataset.version);
          for (const p of [red, blue, watcher]) {
            await p.waitForFunction((v) => document.body.dataset.version === v, version);
            // Each page notes that its line dropped, so that "back" below means reconnected.
            await p.evaluate(() => {
              window.__dropped = false;
              new MutationObserver((records) => {
                if (document.body.dataset.conn !== 'up' || records.some((r) => r.oldValue !== 'up')) window.__dropped = true;
              }).observe(document.body, { attributes: true, attributeFilter: ['data-conn'], attributeOldValue: true });
            });
          }
          await server.restart();
          for (const p of [red, blue, watcher]) {
            try {
              await p.waitForFunction((v) => window.__dropped && document.body.dataset.conn === 'up' && document.body.dataset.version === v, version, { timeout: 30000 });
            } catch (e) {
              // Say where each page stood, and what the server wrote across both runs.
              const seen = await Promise.all([red, blue, watcher].map((q) => q.evaluate(() => `dropped ${window.__dropped}, conn ${document.body.dataset.conn}, version ${document.body.dataset.version}`)));
              throw new Error(`a page was not back at version ${version} within 30 s (red, blue, watcher: ${seen.join('; ')})\nserver log:\n${server.log()}`, { cause: e });
            }
          }
          restarted = true;
        }
        assert.ok(turns < 800, 'the game should end within 800 turns');
      }
    }
    assert.ok(restarted, 'the game lasted long enough to restart the server in the middle');
    for (const p of [red, blue, watcher]) {
      await p.waitForFunction(() => document.body.dataset.status === 'finished');
      await p.waitForSelector('#result-panel:not(.hidden)');
    }
    const kinds = await Promise.all([red, blue, watcher].map((p) => p.getAttribute('#result-panel', 'data-kind')));
    assert.equal(kinds[0], kinds[1]);
    assert.equal(kinds[0], kinds[2]);
    assert.ok(['corvette', 'tiebreak'].includes(kinds[0]));
    assert.match(await blue.textContent('#result-text'), /gagne/, 'the French page says who wins in French');
    assert.ok(!(await watcher.isVisible('#rematch')), 'a spectator has no rematch button');

    // Rematch: Red offers, Blue (in French) accepts; both go to the new match, colours swapped.
    await red.click('#rematch');
    await blue.waitForSelector('#rematch-info:text("propose une revanche")');
    await blue.click('#rematch');
    for (const p of [red, blue]) {
      await p.waitForURL((u) => /\/m\/[0-9a-f]{16}$/.test(u.pathname) && !u.pathname.endsWith(id));
      await waitMatchReady(p);
    }
    assert.equal(await red.evaluate(() => document.body.dataset.seat), '1');
    assert.equal(await blue.evaluate(() => document.body.dataset.seat), '0');
    await blue.waitForFunction(() => document.body.dataset.myTurn === 'true');

    // The lobby now lists the rematch as live and the first match as finished.
    await lobby.reload();
    await lobby.waitForSelector(`#list-finished tr[data-match="${id}"]`);
    await lobby.waitForSelector('#list-active tr[data-status="live"]');

    for (const p of [red, blue, watcher, lobby]) assert.deepEqual(p.jsErrors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});
