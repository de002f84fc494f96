// The post-game analysis on the replay page (web/js/analysis.js, docs/protocol.md section 3.8):
// for a finished all-bot game of each of the four games, "Analyse this game" shows the analysis
// waiting or running (a progress bar and its words), then a graph with one line per seat, the
// biggest losses circled and marked in the move list ("?!", "?" or "??"), all from the server's analysis, each loss
// in the game's words. Two games are asked for in French, two in English. A click on a circled loss
// shows its position; at 390x844 the panel fits the screen.

import test from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPage, screenshot, seedOf } from './lib.mjs';

const BOT = { kind: 'bot', bot: 'random' };
const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1280, height: 860 };

const GAMES = [
  { game: 'mad', seats: 2, config: null, lang: 'en' },
  { game: 'moonleap', seats: 3, config: null, lang: 'fr' },
  { game: 'chakart', seats: 2, config: { turn_limit: 20 }, lang: 'fr' },
  { game: 'naval', seats: 4, config: { max_rounds: 5, placement_moves: 2 }, lang: 'en' },
];

/** Creates an all-bot match and waits (at most 60 s) until it is finished; returns its id. */
async function finishedMatch(server, { game, seats, config }) {
  const res = await fetch(`${server.url}/api/matches`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ game, config, seats: Array(seats).fill(BOT), seed: seedOf(`analysis ${game}`) }),
  });
  assert.equal(res.status, 201, await res.clone().text());
  const { id } = await res.json();
  const deadline = Date.now() + 60000;
  for (;;) {
    const summary = await (await fetch(`${server.url}/api/matches/${id}`)).json();
    if (summary.status === 'finished') return id;
    assert.ok(Date.now() < deadline, `${game} match ${id} did not finish in 60 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('the replay page shows each game\'s analysis, its progress first', { timeout: 300000 }, async () => {
  const server = await startServer({ args: ['--bot-delay-ms', '0', '--analysis-iterations', '30'] });
  const browser = await launchBrowser();
  try {
    const ids = await Promise.all(GAMES.map((g) => finishedMatch(server, g)));
    const page = await newPage(browser);
    for (const [i, g] of GAMES.entries()) {
      const id = ids[i];
      await page.goto(`${server.url}/replay/${id}`);
      await page.waitForSelector('body[data-ready="true"]');
      await page.selectOption('#lang', g.lang);
      await page.waitForSelector('#analysis[data-status="none"]');
      assert.equal(await page.textContent('#an-ask'), g.lang === 'fr' ? 'Analyser cette partie' : 'Analyse this game');
      // Every status the panel goes through, and every text of its progress, recorded as they
      // change: an analysis of 30 iterations may be done at the first poll, 0.4 s after it
      // showed its progress, too short a time to be sure to look at it.
      await page.evaluate(() => {
        window.statuses = [];
        window.progress = [];
        const panel = document.getElementById('analysis');
        new MutationObserver(() => {
          if (window.statuses.at(-1) !== panel.dataset.status) window.statuses.push(panel.dataset.status);
          const words = document.getElementById('an-progress-text')?.textContent;
          if (words && window.progress.at(-1) !== words) window.progress.push(words);
        }).observe(panel, { attributes: true, attributeFilter: ['data-status'], childList: true, subtree: true, characterData: true });
      });
      await page.click('#an-ask');
      // The server answers the request with the analysis in line: the page shows it waiting.
      await page.waitForSelector('#analysis[data-status="done"]', { timeout: 120000 });
      const progress = await page.evaluate(() => window.progress);
      assert.ok(progress.length > 0, 'the progress was worded');
      for (const words of progress) {
        assert.match(words, g.lang === 'fr' ? /^(L’analyse va commencer…|Analyse : \d+ décisions jugées sur \d+)$/
          : /^(Waiting for the analysis to start…|Analysing: \d+ of \d+ decisions judged)$/);
      }
      const seen = await page.evaluate(() => window.statuses);
      assert.equal(seen.at(-1), 'done');
      assert.ok(seen.slice(0, -1).every((s) => s === 'queued' || s === 'running'), seen.join(', '));
      assert.ok(seen.includes('queued') || seen.includes('running'), 'the progress was shown');

      // The graph is the server's analysis: one line per seat, one point per action and the start.
      const { analysis } = await (await fetch(`${server.url}/api/matches/${id}/analysis`)).json();
      assert.equal(analysis.game, g.game);
      // Each judged decision gives the judge's choice in parts, so the page words it without its text.
      for (const p of analysis.plies) if (p.judgement) assert.equal(typeof p.judgement.best_info?.kind, 'string', JSON.stringify(p));
      const lines = await page.$$eval('#an-graph polyline.an-line', (els) => els.map((e) => e.getAttribute('points').split(' ').length));
      assert.deepEqual(lines, Array(g.seats).fill(analysis.plies.length + 1));
      assert.equal(await page.$$eval('#an-graph circle.an-loss', (els) => els.length), analysis.biggest_losses.length);
      assert.equal(await page.$$eval('#moves .an-mark', (els) => els.length), analysis.biggest_losses.length);
      assert.equal(await page.$$eval('#an-losses li', (els) => els.length), analysis.biggest_losses.length);
      const ticks = await page.$$eval('#an-graph text.an-tick', (els) => els.map((e) => e.textContent));
      assert.deepEqual(ticks, g.lang === 'fr' ? ['0\u00a0%', '50\u00a0%', '100\u00a0%'] : ['0%', '50%', '100%']);
      assert.equal(await page.textContent('#analysis-title'), g.lang === 'fr' ? 'Analyse' : 'Analysis');

      // Words, not notation: each loss names the played action and the judge's choice in the game's
      // words (a notation that is more than a number, like "c6xc4" or "carrier@e4h", never shows).
      const texts = await page.$$eval('#an-losses li', (els) => els.map((e) => e.textContent));
      for (const [k, loss] of analysis.biggest_losses.entries()) {
        const ply = analysis.plies[loss.index - 1];
        for (const notation of [ply.action, ply.judgement?.best]) {
          if (notation && !/^\d+$/.test(notation)) assert.ok(!texts[k].includes(notation), `${notation} in "${texts[k]}"`);
        }
        assert.match(texts[k], g.lang === 'fr' ? /l’expert préférait \S/ : /the expert preferred \S/);
      }
      if (analysis.biggest_losses.length) {
        // The biggest loss's circle leads to the position after that action.
        const at = Number(await page.getAttribute('#an-graph circle.an-loss', 'data-index'));
        await page.click('#first');
        await page.dispatchEvent('#an-graph circle.an-loss', 'click');
        assert.equal(Number(await page.evaluate(() => document.body.dataset.step)), at);
        assert.equal(await page.getAttribute('#moves .mv.current', 'data-index'), String(at));
        const mark = analysis.biggest_losses[0].mark;
        assert.ok(['?!', '?', '??'].includes(mark), mark);
        assert.ok((await page.textContent('#moves .mv.current')).endsWith(mark));
      }
      await screenshot(page, `analysis-${g.game}`);
      // On a phone the panel fits the screen: nothing wider than it, the graph and the losses in reach.
      await page.setViewportSize(PHONE);
      const fit = await page.evaluate(() => {
        const right = (sel) => Math.max(0, ...[...document.querySelectorAll(sel)].map((e) => e.getBoundingClientRect().right));
        return { page: document.documentElement.scrollWidth, graph: right('#an-graph'), losses: right('#an-losses li button') };
      });
      assert.ok(fit.page <= PHONE.width && fit.graph <= PHONE.width && fit.losses <= PHONE.width, JSON.stringify(fit));
      await page.locator('#an-graph').scrollIntoViewIfNeeded();
      await screenshot(page, `analysis-${g.game}-phone`);
      await page.setViewportSize(LAPTOP);
    }
    assert.deepEqual(page.jsErrors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});
