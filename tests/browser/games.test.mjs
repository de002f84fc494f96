// The game modules' contract (web/js/games.js): every game the server offers has a page module
// with the members the match and replay pages call, an unknown game has none (the pages then fall
// back to text), and the two pages name no game: what differs between games is the modules'.

import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startServer, launchBrowser, newPage, ROOT } from './lib.mjs';

test('every game has a page module; the match and replay pages name no game', { timeout: 60000 }, async () => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const games = (await (await fetch(`${server.url}/api/games`)).json()).games.map((g) => g.name);
    assert.ok(games.length >= 4, `games: ${games}`);

    const page = await newPage(browser);
    await page.goto(`${server.url}/`);
    const modules = await page.evaluate(async (names) => {
      const { gameModule } = await import('/assets/js/games.js');
      const shape = (m) => m && {
        render: typeof m.render, renderPosition: typeof m.renderPosition, moveList: m.moveList ?? null,
        panel: m.panel ?? null, describe: typeof m.describe,
      };
      return { known: names.map((n) => [n, shape(gameModule(n))]), unknown: gameModule('no-such-game'),
        inherited: gameModule('toString') };
    }, games);
    for (const [name, m] of modules.known) {
      assert.ok(m, `${name} has a module`);
      assert.equal(m.render, 'function', `${name}: render`);
      assert.equal(m.renderPosition, 'function', `${name}: renderPosition`);
      // Words for the move lists, narrations and replays come from one place per game.
      assert.equal(m.describe, 'function', `${name}: describe`);
      assert.ok(['pairs', 'lines'].includes(m.moveList), `${name}: moveList ${m.moveList}`);
    }
    assert.equal(modules.unknown, null, 'an unknown game has no module');
    assert.equal(modules.inherited, null, 'an object property is not a game');

    // The panels the modules name exist on the match page, marked as game panels.
    const html = fs.readFileSync(path.join(ROOT, 'web', 'match.html'), 'utf8');
    for (const [name, m] of modules.known) {
      if (m.panel) assert.match(html, new RegExp(`id="${m.panel}"[^>]*data-game-panel`), `${name}'s panel ${m.panel}`);
    }

    // No game's name as a string in the pages' code: they ask the registry.
    for (const file of ['match.js', 'match-state.js', 'match-view.js', 'replay.js']) {
      const code = fs.readFileSync(path.join(ROOT, 'web', 'js', file), 'utf8');
      for (const name of games) {
        assert.doesNotMatch(code, new RegExp(`['"\`]${name}['"\`]`), `${file} names ${name}`);
      }
    }
  } finally {
    await browser.close();
    await server.stop();
  }
});
