// The replay page draws every game's board, not only MAD's: for a finished all-bot match of
// Moon Leap, Chakart and Bataille Navale it shows the game's SVG, moves between positions with the
// step buttons, lists one entry per shown step (numbered pairs for Chakart, one line per action
// for the others) and hides MAD's Red/Blue bars. The bots play at once (--bot-delay-ms 0).

import test from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPage, screenshot, seedOf } from './lib.mjs';

const BOT = { kind: 'bot', bot: 'random' };

async function post(url, body) {
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  assert.equal(res.status, 201, await res.clone().text());
  return res.json();
}

/**
 * Creates an all-bot match (random bots unless `bot` is given) with its own seed (the three are
 * created at once) and waits (at most 60 s) until it is finished; returns its replay.
 */
async function finishedMatch(server, game, seats, config = null, bot = BOT) {
  const { id } = await post(`${server.url}/api/matches`, { game, config, seats: Array(seats).fill(bot), seed: seedOf(`replay ${game}`) });
  const deadline = Date.now() + 60000;
  for (;;) {
    const summary = await (await fetch(`${server.url}/api/matches/${id}`)).json();
    if (summary.status === 'finished') break;
    assert.ok(Date.now() < deadline, `${game} match ${id} did not finish in 60 s (version ${summary.version})`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const replay = await (await fetch(`${server.url}/api/matches/${id}/replay`)).json();
  return { id, steps: replay.steps };
}

/** The entries the list must show: every step after the start but chance draws without text. */
function shownSteps(steps) {
  return steps.slice(1).filter((s) => !(s.by === 'chance' && s.text === null)).length;
}

const step = (page) => page.evaluate(() => Number(document.body.dataset.step));

/**
 * From the start, presses Next until the drawing changes (within `limit` steps), then Previous
 * once: the drawing is the one before again. The drawings are compared inside the page: four
 * Bataille Navale boards are some 100 kB of markup, too much to carry out at every step.
 */
async function stepChangesBoard(page, limit) {
  if (await step(page) !== 0) await page.click('#first');
  assert.equal(await step(page), 0);
  const sameAsKept = () => page.evaluate(() => document.querySelector('svg#board').innerHTML === window.keptBoard);
  await page.evaluate(() => {
    window.keptBoard = document.querySelector('svg#board').innerHTML;
  });
  for (let i = 1; i <= limit; i++) {
    await page.click('#next');
    assert.equal(await step(page), i);
    if (!(await sameAsKept())) {
      await page.click('#prev');
      assert.equal(await step(page), i - 1);
      assert.ok(await sameAsKept(), 'Previous shows the position before again');
      return i;
    }
  }
  throw new Error(`the board did not change in ${limit} steps`);
}

/** Opens the replay; checks the common parts: steps, no MAD bars, the move list's length. */
async function openReplay(page, server, match) {
  await page.goto(`${server.url}/replay/${match.id}`);
  await page.waitForSelector('body[data-ready="true"]');
  assert.equal(Number(await page.evaluate(() => document.body.dataset.total)), match.steps.length - 1);
  assert.equal(await step(page), match.steps.length - 1, 'the page opens on the last position');
  assert.ok(await page.isVisible('svg#board'));
  assert.equal(await page.$$eval('.player-bar', (els) => els.filter((e) => !e.classList.contains('hidden')).length), 0,
    'the Red/Blue bars of MAD are hidden');
  const entries = await page.$$eval('#moves .mv[data-index]', (els) => els.map((e) => Number(e.dataset.index)));
  assert.equal(entries.length, shownSteps(match.steps));
  assert.deepEqual(entries, [...entries].sort((a, b) => a - b), 'entries in the order of the steps');
  return entries;
}

test('the replay page draws Moon Leap, Chakart and Bataille Navale', { timeout: 120000 }, async () => {
  const server = await startServer({ args: ['--bot-delay-ms', '0'] });
  const browser = await launchBrowser();
  try {
    const [moon, chakart, naval] = await Promise.all([
      finishedMatch(server, 'moonleap', 3),
      finishedMatch(server, 'chakart', 2, { turn_limit: 20 }),
      // Greedy bots aim, so ships are sunk within the five rounds.
      finishedMatch(server, 'naval', 4, { max_rounds: 5, placement_moves: 2 }, { kind: 'bot', bot: 'greedy' }),
    ]);
    const page = await newPage(browser);

    // Moon Leap: the track of the observation's length; astronauts appear once someone moves.
    await openReplay(page, server, moon);
    assert.ok(!(await page.textContent('#moves')).includes('…'), 'no empty cells in a one-line list');
    const cells = moon.steps[0].observation.values.length;
    assert.equal(await page.$$eval('svg#board circle.ml-crater', (els) => els.length), cells);
    const onTrackAtEnd = moon.steps.at(-1).observation.track.filter(Boolean).length;
    assert.ok(onTrackAtEnd > 0);
    assert.equal(await page.$$eval('svg#board g[data-cell]', (els) => els.length), onTrackAtEnd);
    // One line per entry, the die's draws as chance, every seat action with its seat's name.
    const rolls = moon.steps.filter((s) => s.by === 'chance').length;
    assert.equal(await page.$$eval('#moves .mv.chance', (els) => els.length), rolls);
    assert.match(await page.textContent('#moves .mv.chance'), /^rolled [1-5★]$/);
    assert.equal(await page.$$eval('#moves [data-seat]', (els) => els.length), moon.steps.length - 1 - rolls);
    assert.equal(await page.$$eval('#moves .num', (els) => els.length), moon.steps.length - 1);
    const seatIndex = moon.steps.findIndex((s) => s.by && typeof s.by === 'object');
    assert.match(await page.textContent(`#moves .mv[data-index="${seatIndex}"]`),
      /^(astronaut [1-5] (leaps from crater \d+ to \d+|enters at crater \d+)|.* then .*|no astronaut can move: the roll is lost)$/);
    // The scores of the last position, one line per seat.
    const scores = await page.$$eval('#info [data-score]', (els) => els.map((e) => Number(e.dataset.score)));
    assert.deepEqual(scores, moon.steps.at(-1).observation.scores);
    await stepChangesBoard(page, 4);
    // The words follow the language.
    await page.selectOption('#lang', 'fr');
    assert.match(await page.textContent('#moves .mv.chance'), /^a fait [1-5★]$/);
    await page.selectOption('#lang', 'en');
    await page.click('#first');
    assert.equal(await page.$$eval('svg#board g[data-cell]', (els) => els.length), 0, 'nobody on the track at the start');
    await screenshot(page, 'replay-moonleap');

    // Chakart: 64 squares, 32 pieces at the start; the list is numbered pairs.
    await openReplay(page, server, chakart);
    await page.click('#first');
    assert.equal(await page.$$eval('svg#board g.ck-square', (els) => els.length), 64);
    assert.equal(await page.$$eval('svg#board .ck-piece', (els) => els.length), 32);
    assert.equal(await page.$$eval('svg#board .ck-hit', (els) => els.length), 0, 'read-only: nothing to click');
    assert.equal(await page.getAttribute('svg#board g[data-sq="e1"] .ck-piece', 'data-piece'), 'k');
    await page.click('#next');
    // The first move is White's (seat 0): its words open row 1 ("Toad e2 → e4"), not its SAN.
    const first = chakart.steps[1];
    assert.deepEqual(first.by, { seat: 0 });
    assert.equal(await page.textContent('#moves li:first-child .num'), '1.');
    const said = await page.textContent('#moves .mv[data-index="1"]');
    assert.match(said, new RegExp(`^(Toad|Donkey Kong|Yoshi|Wario|Mario|Peach) ${first.info.from} → ${first.info.to}`));
    assert.notEqual(said, first.text);
    assert.equal(await page.getAttribute('#moves .mv.current', 'data-index'), '1');
    const seatMoves = chakart.steps.filter((s) => s.by && typeof s.by === 'object').length;
    const numbered = await page.$$eval('#moves .num', (els) => els.filter((e) => e.textContent).length);
    assert.ok(numbered >= Math.ceil(seatMoves / 2) && numbered <= seatMoves, `${numbered} rows for ${seatMoves} moves`);
    await stepChangesBoard(page, 2);
    await screenshot(page, 'replay-chakart');

    // Bataille Navale: four 14x14 boards; the fleets show at the end, none at the start.
    const navalEntries = await openReplay(page, server, naval);
    assert.equal(await page.$$eval('svg#board rect.nv-cell', (els) => els.length), 4 * 14 * 14);
    assert.ok(await page.$$eval('svg#board g.nv-piece', (els) => els.length) > 0, 'the fleets are revealed at the end');
    const hidden = naval.steps.filter((s) => s.by && typeof s.by === 'object' && s.text === null).length;
    assert.equal(await page.$$eval('#moves .mv', (els) => els.filter((e) => e.textContent === 'hidden').length), hidden);
    assert.equal(await page.$$eval('#moves [data-seat]', (els) => els.length),
      naval.steps.filter((s) => s.by && typeof s.by === 'object').length);
    // A battle order reads in words, as the match page announces it.
    const shot = naval.steps.findIndex((s) => typeof s.text === 'string' && /^[a-z]+:fire \d:[a-n]\d+$/.test(s.text));
    if (shot > 0) {
      const [, , seat, cell] = naval.steps[shot].text.split(/[: ]/);
      assert.match(await page.textContent(`#moves .mv[data-index="${shot}"]`), new RegExp(`: shot at Fleet ${seat} ${cell}$`));
    }
    await page.click('#first');
    assert.equal(await page.$$eval('svg#board g.nv-piece', (els) => els.length), 0, 'no fleet is public at the start');
    await stepChangesBoard(page, naval.steps.length - 1);
    await page.click('#last');
    // A sunk ship is drawn with its name, no hit cross over its cells to hide it.
    const sunkShips = await page.$$eval('svg#board g.nv-piece.sunk', (els) => els.map((g) => {
      const seat = g.closest('.nv-board').dataset.seat;
      const crossed = g.dataset.cells.split(' ').filter((c) => document.querySelector(`svg#board .nv-hit[data-seat="${seat}"][data-cell="${c}"]`));
      return { label: g.querySelector('.nv-label')?.textContent, crossed: crossed.length };
    }));
    assert.ok(sunkShips.length > 0, 'ships were sunk by the end');
    assert.deepEqual(sunkShips.filter((s) => !s.label || s.crossed > 0), [], 'every sunk ship named and uncrossed');
    await screenshot(page, 'replay-naval');

    // A click on an entry goes to its step.
    const target = navalEntries[Math.floor(navalEntries.length / 2)];
    await page.click(`#moves .mv[data-index="${target}"]`);
    assert.equal(await step(page), target);
    assert.equal(await page.getAttribute('#moves .mv.current', 'data-index'), String(target));

    assert.deepEqual(page.jsErrors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});
