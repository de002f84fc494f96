// The move lists in words without reading notation (docs/protocol.md section 4.1: every logged
// entry carries its parts, `info`): the page modules put entries in words from `by` and `info`
// alone, so a text they cannot read changes nothing; a finished Moon Leap match shows its whole
// move list in words on the match page; and web/js holds no reader of action notation.

import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startServer, launchBrowser, newPage, waitMatchReady, seedOf, ROOT } from './lib.mjs';

const BOT = { kind: 'bot', bot: 'random' };

test('web/js reads no action notation: no parser, no notation pattern', () => {
  const dir = path.join(ROOT, 'web', 'js');
  // The only patterns left: a cell name (naval's board geometry), and hex digits (seeds, ids).
  const allowed = ['/^([a-n])(\\d{1,2})$/', '/^([0-9a-fA-F]{2})*$/', '/[0-9a-f]{16}/'];
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.js'))) {
    const code = fs.readFileSync(path.join(dir, file), 'utf8');
    // Rule tables and notation writers the crates' parts replaced (Chakart's egg letters, the naval
    // fleet, placement notation, order templates filled in by the page).
    for (const name of ['parseAction', 'parseOrder', 'placementText', 'placementOn', 'obs.flags', 'obs.pending', 'ITEMS', 'EGGS', 'SHIPS', "startsWith('buoy')", "key.split(':')"]) {
      assert.ok(!code.includes(name), `${file} still has ${name}`);
    }
    // Regular expressions applied to text: every literal before .exec/.test, and in .match().
    const literals = [
      ...code.matchAll(/(\/(?:\\.|\[[^\]]*\]|[^/\n\\[])+\/[gimsuy]*)\.(?:exec|test)\(/g),
      ...code.matchAll(/\.match\((\/(?:\\.|\[[^\]]*\]|[^/\n\\[])+\/[gimsuy]*)\)/g),
      ...code.matchAll(/new RegExp\(/g),
    ].map((m) => m[1] ?? m[0]);
    for (const re of literals) assert.ok(allowed.includes(re), `${file}: ${re} reads text`);
  }
});

test('the page modules put entries in words from their parts alone', { timeout: 60000 }, async () => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const page = await newPage(browser);
    await page.goto(`${server.url}/`);
    const said = await page.evaluate(async () => {
      const { gameModule } = await import('/assets/js/games.js');
      const { describeEffect } = await import('/assets/js/chakart.js');
      const ml = gameModule('moonleap');
      const nv = gameModule('naval');
      // Texts no reader of notation could take for these entries: only the parts speak.
      const text = '???';
      return {
        roll: ml.describe({ by: 'chance', text, info: { kind: 'roll', choice: '4' } }),
        star: ml.describe({ by: 'chance', text, info: { kind: 'roll', choice: '*' } }),
        move: ml.describe({ by: { seat: 0 }, text, info: { kind: 'move', to: '3', pieces: ['m2'] } }),
        leap: ml.describe({ by: { seat: 0 }, text, info: { kind: 'move', from: '4', to: '9', pieces: ['4'] } }),
        split: ml.describe({ by: { seat: 1 }, text, info: { kind: 'split', from: '1', to: '2', pieces: ['2'], then: { kind: 'move', from: '5', to: '7', pieces: ['5'] } } }),
        pass: ml.describe({ by: { seat: 1 }, text, info: { kind: 'pass' } }),
        bare: ml.describe({ by: { seat: 1 }, text: '4' }),
        fire: nv.describe({ by: { seat: 2 }, text, info: { kind: 'fire', to: 'f7', pieces: ['cruiser'], target: 1 } }),
        torpedo: nv.describe({ by: { seat: 0 }, text, info: { kind: 'torpedo', pieces: ['submarine'], target: 1, choice: 'right', cells: ['a5', 'b5', 'n5'] } }),
        shield: nv.describe({ by: { seat: 0 }, text, info: { kind: 'shield', pieces: ['corvette'], target: 0 } }),
        place: nv.describe({ by: { seat: 0 }, text, info: { kind: 'place', pieces: ['carrier'], to: 'a1', choice: 'h' } }),
        buoy: nv.describe({ by: 'chance', text, info: { kind: 'layout', pieces: ['buoy2'], to: 'k10', target: 0 } }),
        ready: nv.describe({ by: { seat: 3 }, text, info: { kind: 'ready' } }),
        first: nv.describe({ by: 'chance', text, info: { kind: 'first', target: 3 } }),
        rocket: nv.describe({ by: 'chance', text, info: { kind: 'rocket', to: 'c4', choice: 'spared' } }),
        redirect: describeEffect({ by: 'chance', text, info: { kind: 'redirect', to: 'e5' } }),
        drop: describeEffect({ by: 'chance', text, info: { kind: 'bomb', to: 'c6' } }),
        egg: describeEffect({ by: 'chance', text, info: { kind: 'egg', choice: 'luigi', to: 'g1' } }),
        // Every egg word the crate gives (docs/protocol.md section 4.1, Chakart's `egg`).
        eggs: ['boo', 'chomp', 'daisy', 'koopa', 'luigi', 'bowser', 'toadette', 'waluigi']
          .map((choice) => describeEffect({ by: 'chance', text, info: { kind: 'egg', choice } })),
        plain: describeEffect({ by: { seat: 0 }, text: '~e5', info: { kind: 'move', from: 'e2', to: 'e4' } }),
      };
    });
    assert.equal(said.roll, 'rolled 4');
    assert.equal(said.star, 'rolled ★');
    assert.equal(said.move, 'mercenary 2 enters at crater 3');
    assert.equal(said.leap, 'astronaut 4 leaps from crater 4 to 9');
    assert.equal(said.split, 'astronaut 2 leaps from crater 1 to 2, then astronaut 5 leaps from crater 5 to 7');
    assert.match(said.pass, /roll is lost/);
    assert.equal(said.bare, null, 'no parts, no words: the notation is shown');
    assert.match(said.fire, /cruiser.*Fleet 2.*f7/i);
    assert.match(said.torpedo, /submarine.*torpedo.*Fleet 2.*rightwards along 5/i);
    assert.match(said.shield, /corvette.*shield/i);
    assert.equal(said.place, 'aircraft carrier → a1 (horizontal)');
    assert.equal(said.buoy, 'Fleet 1: buoy → k10', 'a layout draw names the fleet it is for');
    assert.equal(said.ready, 'Ready');
    assert.equal(said.first, 'Fleet 4 plays first');
    assert.equal(said.rocket, 'no rocket on c4');
    assert.deepEqual([said.redirect.kind, said.redirect.squares], ['redirect', ['e5']]);
    assert.match(said.redirect.text, /e5/);
    assert.deepEqual([said.drop.kind, said.drop.squares], ['drop', ['c6']]);
    assert.match(said.drop.text, /bomb/i);
    assert.deepEqual([said.egg.kind, said.egg.squares], ['egg', ['g1']]);
    assert.match(said.egg.text, /Luigi/);
    assert.deepEqual(said.eggs.filter((e) => !e || /ck\.egg/.test(e.text)), [], 'every egg word has its name');
    assert.equal(said.plain, null, 'a move narrates nothing, whatever its text');
    assert.deepEqual(page.jsErrors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});

test('a finished Moon Leap match lists its moves in words on the match page', { timeout: 120000 }, async () => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const res = await fetch(`${server.url}/api/matches`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ game: 'moonleap', seats: [BOT, BOT], seed: seedOf('words moonleap') }),
    });
    assert.equal(res.status, 201, await res.clone().text());
    const { id } = await res.json();
    const deadline = Date.now() + 60000;
    let summary;
    for (;;) {
      summary = await (await fetch(`${server.url}/api/matches/${id}`)).json();
      if (summary.status === 'finished') break;
      assert.ok(Date.now() < deadline, 'the match did not finish in 60 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    const page = await newPage(browser);
    await page.goto(`${server.url}/m/${id}`);
    await waitMatchReady(page);
    await page.waitForFunction(() => document.querySelectorAll('#moves .mv[data-index]').length > 0);
    const entries = await page.$$eval('#moves .mv[data-index]', (els) => els.map((e) => ({
      label: e.textContent, text: e.dataset.text, chance: e.classList.contains('chance'),
    })));
    assert.equal(entries.length, summary.version, 'every logged action is listed');
    for (const e of entries) {
      // A leap names its astronaut and its craters; a split its two leaps; nothing reads as the
      // notation (`4`, `2+3`, `r4`, `pass`).
      const leap = '(astronaut|mercenary) [1-5] (leaps from crater \\d+ to \\d+|enters at crater \\d+)';
      if (e.chance) assert.match(e.label, /^rolled [1-5★]$/, JSON.stringify(e));
      else assert.match(e.label, new RegExp(`^(${leap}(, then ${leap})?|no astronaut can move: the roll is lost)$`), JSON.stringify(e));
    }
    // The last die shown comes from the log's parts too.
    assert.match(await page.getAttribute('#ml-die', 'data-face'), /^[1-5*]$/);
    assert.deepEqual(page.jsErrors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});
