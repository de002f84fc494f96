// A person plays a 3-seat Moon Leap game (seat 1 is me, seats 2 and 3 random bots) in headless
// Chromium: the match is created through the API, every turn is played by clicking one of the
// offered astronauts or split buttons, and the final score table must match the API's outcome.

import test from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, waitTurnOrEnd, rng, screenshot, openCreatedMatch } from './lib.mjs';

test('play Moon Leap with two bots by clicking, see the final score table', { timeout: 600000 }, async () => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const { page, created } = await openCreatedMatch(server, browser, {
        game: 'moonleap',
        seats: [{ kind: 'human' }, { kind: 'bot', bot: 'random' }, { kind: 'bot', bot: 'random' }],
        creator_seat: 0,
      });
    assert.equal(await page.evaluate(() => document.body.dataset.seat), '0');

    // The default board (rules/moonleap.md "Proposed layout"): 37 craters, cells 1-3 worth -3 and
    // drawn as negative, the end cells 35-37, the 3-player milestone line after cell 13.
    assert.equal(await page.$$eval('svg.board circle.ml-crater', (els) => els.length), 37);
    const firstValues = await page.$$eval('svg.board circle.ml-crater', (els) => els.slice(0, 3).map((e) => [e.dataset.value, e.classList.contains('neg')]));
    assert.deepEqual(firstValues, [['-3', true], ['-3', true], ['-3', true]]);
    assert.deepEqual(await page.$$eval('svg.board circle.ml-crater.end', (els) => els.map((e) => e.dataset.cell)), ['35', '36', '37']);
    assert.equal(await page.getAttribute('svg.board line.ml-milestone', 'data-after'), '13');
    assert.equal(await page.$$eval('#bar-top .ml-seat', (els) => els.length), 3, 'one chip per player above the track');

    const rand = rng(20261130);
    let turns = 0;
    let splits = 0;
    let forced = 0;
    let shot = false;
    for (;;) {
      const now = await waitTurnOrEnd(page, 60000);
      if (now === 'finished') break;
      // The offered choices, one button per legal text of the server, read with the version at once.
      const { before, mine, offered, said } = await page.evaluate(() => ({
        before: document.body.dataset.version,
        mine: document.body.dataset.myTurn === 'true',
        offered: [...document.querySelectorAll('#ml-choices .ml-choice')].map((e) => e.dataset.action),
        said: Boolean(document.getElementById('ml-forced')),
      }));
      if (!mine) continue; // a forced move was played meanwhile
      assert.ok(offered.length > 0, 'my turn, but no choice offered');
      if (offered.length === 1) {
        // The only possible move: the page plays it by itself after a short pause.
        assert.ok(said, 'the page says it plays the forced move');
        await page.waitForFunction((v) => document.body.dataset.version !== v, before);
        forced += 1;
        turns += 1;
        continue;
      }
      const action = offered[Math.floor(rand() * offered.length)];
      const kind = await page.getAttribute(`#ml-choices .ml-choice[data-action="${action}"]`, 'data-kind');
      if (kind === 'move') {
        // A single move is played by clicking the astronaut: on the track or off board.
        const target = `svg.board .ml-hit[data-action="${action}"], #ml-seats .ml-enter[data-action="${action}"]`;
        assert.equal(await page.$$eval(target, (els) => els.length), 1, `astronaut of ${action} is clickable once`);
        await page.click(target);
      } else {
        if (kind === 'split') {
          splits += 1;
          assert.match(await page.textContent(`#ml-choices .ml-choice[data-action="${action}"]`), / then /);
        }
        await page.click(`#ml-choices .ml-choice[data-action="${action}"]`);
      }
      await page.waitForFunction((v) => document.body.dataset.version !== v, before);
      turns += 1;
      if (!shot && turns >= 12) {
        // The die shows the face the status line names (after its short roll animation). Both are
        // read in one look once the die has settled: the bots' rolls keep coming meanwhile, each
        // setting the die tumbling again.
        const [face, said] = await (await page.waitForFunction(() => {
          const shown = document.getElementById('ml-die').dataset.face;
          return shown !== '' && [shown, document.getElementById('ml-roll-text').textContent.trim().slice(-1)];
        })).jsonValue();
        assert.equal(face === '*' ? '★' : face, said);
        await screenshot(page, 'moonleap');
        shot = true;
      }
      assert.ok(turns < 300, 'the game should end within 300 of my turns');
    }

    // The final score table against the API's outcome.
    await page.waitForSelector('#ml-final:not([hidden])');
    const rows = await page.$$eval('#ml-final tbody tr', (els) => els.map((e) => ({
      seat: Number(e.dataset.seat), rank: Number(e.dataset.rank), score: Number(e.dataset.score),
      shown: e.querySelector('td.num').textContent,
    })));
    const summary = await (await fetch(`${server.url}/api/matches/${created.id}`)).json();
    assert.equal(summary.status, 'finished');
    assert.equal(summary.outcome.kind, 'score');
    assert.equal(rows.length, 3);
    for (const row of rows) {
      assert.equal(row.score, summary.outcome.scores[row.seat]);
      assert.equal(row.shown, String(summary.outcome.scores[row.seat]));
      assert.equal(row.rank, summary.outcome.ranks[row.seat]);
    }
    assert.deepEqual(rows.map((r) => r.seat).sort(), [0, 1, 2]);
    // Best rank first; the running scores beside the seats agree with the final ones.
    assert.deepEqual(rows.map((r) => r.rank), [...rows.map((r) => r.rank)].sort((a, b) => a - b));
    const running = await page.$$eval('#bar-top .ml-score', (els) => els.map((e) => Number(e.dataset.score)));
    assert.deepEqual(running, summary.outcome.scores);
    assert.ok(turns > 3, `played ${turns} turns (${splits} splits)`);
    assert.ok(forced > 0, `a forced move was played by the page (${forced} of ${turns} turns)`);
    assert.ok(shot, 'the game lasted long enough for the screenshot');
    assert.match(await page.textContent('#result-text'), /points/);
    assert.equal(await page.$$eval('#moves .mv[data-index]', (els) => els.length), summary.version, 'the move list shows every logged action');
    assert.deepEqual(page.jsErrors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});
