// A person plays Chakart (White, seat 1) against the random bot in headless Chromium: every turn
// is played by clicking a highlighted piece then a highlighted square (or a drop button, then a
// square), and an explicit choice button when several actions share the same squares. The game
// goes on until it ends, or until a random item effect (a banana/bomb redirect `~e5` or an egg
// effect `*B`, rules/chakart.md section 11) has happened and 60 plies are logged; then I resign.
// The server runs with test seeds, so the dice, the bot's moves and my clicks (a seeded generator)
// are the same every run. Every effect must be narrated on the page: a recorder in the page keeps
// each narration as it appears, and the test waits until all of them have been shown.
// A game that ends before any effect happened is followed by a fresh match (the next seed), up to
// five, so a change of the rules or of the bots that shortens the first game still finds an effect.

import test from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, waitTurnOrEnd, rng, screenshot, openCreatedMatch } from './lib.mjs';

/** A redirect (chance text `~e5`) or an egg effect (`*B`, `Rxf6*Wg8`) in the SAN move list. */
const isEffect = (san) => /^~[a-h][1-8]$/.test(san) || /\*[BKTCDMLW]/.test(san);

test('play Chakart against the random bot by clicking, with item effects', { timeout: 600000 }, async () => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const rand = rng(20261130);
    let game = null;
    for (let attempt = 0; attempt < 5 && !game?.moves.some(isEffect); attempt += 1) {
      game = await playOne(server, browser, rand);
    }
    const { page, created, moves, itemsSeen, shot, resigned } = game;
    const summary = await (await fetch(`${server.url}/api/matches/${created.id}`)).json();
    assert.equal(summary.status, 'finished');
    assert.ok(moves.some(isEffect), `an item effect happened in ${moves.length} plies`);
    assert.ok(itemsSeen > 0, 'items were drawn on the board');
    // Each effect of the move list was named on the page, in order (the page narrates one every
    // 0.9 s, so the last ones may still be on their way: wait for them).
    const expected = dedupe(moves.filter(isEffect).map(effectKey));
    await page.waitForFunction((want) => {
      const seen = [];
      for (const text of window.__narrations) {
        const m = /the piece is sent to ([a-h][1-8])\.$/.exec(text);
        const key = m ? `redirect ${m[1]}` : /^Egg effect: .+!$/.test(text) ? 'egg' : null;
        if (key && seen.at(-1) !== key) seen.push(key);
      }
      return JSON.stringify(seen) === JSON.stringify(want);
    }, expected, { timeout: 30000 }).catch(async () => {
      const shown = await page.evaluate(() => window.__narrations);
      assert.fail(`effects ${JSON.stringify(expected)} but the page narrated ${JSON.stringify(shown)}`);
    });
    if (resigned) {
      assert.equal(await page.getAttribute('#result-panel', 'data-kind'), 'resign');
      assert.equal(summary.outcome.kind, 'resign');
    }
    assert.ok((await page.textContent('#result-text')).trim().length > 0, 'the result shows');
    assert.ok(await page.isVisible('#result-text'));
    assert.ok(shot, 'the screenshot was taken');
    assert.deepEqual(page.jsErrors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});

/** What the narration of an effect's SAN must say: `redirect e5` or `egg`. */
const effectKey = (san) => (san.startsWith('~') ? `redirect ${san.slice(1)}` : 'egg');
/** The list without consecutive repeats (two equal narrations in a row show as one). */
const dedupe = (keys) => keys.filter((k, i) => k !== keys[i - 1]);

/** One match against the random bot, played by clicking until it ends or an effect was seen late enough. */
async function playOne(server, browser, rand) {
  const { page, created } = await openCreatedMatch(server, browser, { game: 'chakart', seats: [{ kind: 'human' }, { kind: 'bot', bot: 'random' }], creator_seat: 0 });
  assert.equal(await page.evaluate(() => document.body.dataset.seat), '0');
  // Keeps every text the effect line shows, as it appears (the panel is redrawn on every state).
  await page.evaluate(() => {
    window.__narrations = [];
    const look = () => {
      const text = document.getElementById('ck-effect')?.textContent || '';
      if (text && window.__narrations.at(-1) !== text) window.__narrations.push(text);
    };
    new MutationObserver(look).observe(document.body, { childList: true, subtree: true, characterData: true });
    look();
  });

  // The orthodox start seen from White: 32 pieces, white king on e1 at the bottom, no item.
  assert.equal(await page.$$eval('svg.board .ck-piece', (els) => els.length), 32);
  assert.equal(await page.$$eval('svg.board .ck-item', (els) => els.length), 0);
  assert.equal(await page.getAttribute('svg.board g[data-sq="e1"] .ck-piece', 'data-piece'), 'k');
  assert.ok(await page.$eval('svg.board g[data-sq="e1"] rect', (r) => Number(r.getAttribute('y'))) >
    await page.$eval('svg.board g[data-sq="e8"] rect', (r) => Number(r.getAttribute('y'))), 'White plays upwards');

  const pick = (xs) => xs[Math.floor(rand() * xs.length)];
  const sans = () => page.$$eval('#moves .mv[data-index]', (els) => els.map((e) => e.dataset.text));
  let turns = 0;
  let itemsSeen = 0;
  let shot = false;
  let resigned = false;
  for (;;) {
    const now = await waitTurnOrEnd(page, 60000);
    if (now === 'finished') break;
    const moves = await sans();
    itemsSeen = Math.max(itemsSeen, await page.$$eval('svg.board .ck-item', (els) => els.length));
    if (!shot && moves.some(isEffect) && itemsSeen > 0) {
      await screenshot(page, 'chakart');
      shot = true;
    }
    if (moves.some(isEffect) && moves.length >= 60) {
      // Resigning takes two clicks: the button asks for confirmation.
      await page.click('#resign');
      await page.click('#resign');
      resigned = true;
      await page.waitForFunction(() => document.body.dataset.status === 'finished');
      break;
    }
    const before = await page.evaluate(() => document.body.dataset.version);
    const froms = await page.$$eval('svg.board .ck-hit.from', (els) => els.map((e) => `sq:${e.dataset.sq}`));
    const buttons = await page.$$eval('#ck-choices button', (els) => els.map((e) => (e.dataset.action ? `act:${e.dataset.action}` : `drop:${e.dataset.drop}`)));
    const all = [...froms, ...buttons];
    assert.ok(all.length > 0, 'my turn, but nothing to click');
    const first = pick(all);
    const [kind, value] = first.split(/:(.*)/s);
    if (kind === 'act') {
      await page.click(`#ck-choices button[data-action="${value}"]`);
    } else {
      await page.click(kind === 'sq' ? `svg.board .ck-hit.from[data-sq="${value}"]` : `#ck-choices button[data-drop="${value}"]`);
      const targets = await page.$$eval('svg.board .ck-hit.target', (els) => els.map((e) => e.dataset.sq));
      assert.ok(targets.length > 0, `${first} selected, but no target highlighted`);
      await page.click(`svg.board .ck-hit.target[data-sq="${pick(targets)}"]`);
      // Either the action went out, or an explicit choice (promotion, stealth, shell) is offered.
      await page.waitForFunction((v) => document.body.dataset.version !== v || document.querySelector('#ck-choices .ck-choice:not(.promote)'), before);
      const options = await page.$$eval('#ck-choices .ck-choice', (els) => els.map((e) => e.dataset.action));
      if (await page.evaluate((v) => document.body.dataset.version === v, before) && options.length > 1) {
        await page.click(`#ck-choices .ck-choice[data-action="${pick(options)}"]`);
      }
    }
    await page.waitForFunction((v) => document.body.dataset.version !== v, before);
    turns += 1;
    assert.ok(turns < 400, 'an item effect should happen within 400 of my turns');
  }

  return { page, created, moves: await sans(), itemsSeen, shot, resigned };
}
