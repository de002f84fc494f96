// Shared helpers of the browser tests: start the real `plateau serve` on a free loopback port with
// a fresh SQLite file, reach headless Chromium through playwright-core (the run's one browser, or
// one launched for the file), and play MAD by clicking what the page highlights.

import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The repository root. */
export const ROOT = path.resolve(here, '..', '..');
/**
 * Where screenshots go: a temporary folder, so a test run leaves the tree as it was; set
 * PLATEAU_SCREENSHOTS=docs/screenshots to refresh the committed ones.
 */
export const SHOTS = path.resolve(
  ROOT,
  process.env.PLATEAU_SCREENSHOTS || path.join(os.tmpdir(), 'plateau-screenshots'),
);

/** A free TCP port on 127.0.0.1. */
async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function serverBinary() {
  if (process.env.PLATEAU_BIN) return process.env.PLATEAU_BIN;
  // The newest build of either profile: an old release binary must not stand in for the code
  // under test.
  const targets = [process.env.CARGO_TARGET_DIR, path.join(ROOT, 'target')].filter(Boolean);
  const found = targets
    .flatMap((dir) => ['release', 'debug'].map((profile) => path.join(dir, profile, 'plateau')))
    .filter((candidate) => fs.existsSync(candidate))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  if (found.length > 0) return found[0];
  throw new Error('no plateau binary: build it (cargo build --release) or set PLATEAU_BIN');
}

/**
 * Every page of a test comes from 127.0.0.1. The server trusts that address as a proxy
 * (`--exempt-address`, docs/deploy.md), and each browser context of `newPage` names a client
 * address of its own in `X-Forwarded-For`, as a proxy in front of a public server would: two
 * players of a test are two visitors, so the rule that players of one address play no rated
 * game together (docs/protocol.md section 7.3) holds as it does for people. Requests without the
 * header (the tests' own fetches) are the proxy's, to which no limit applies. The limits per
 * address (docs/protocol.md section 6) are raised so one context's matches fit in.
 */
const PER_ADDRESS = [
  '--exempt-address', '127.0.0.1',
  '--matches-per-minute', '500', '--open-matches-per-address', '100', '--bot-matches-per-address', '50',
  '--bot-tables-per-address', '50', '--guests-per-minute', '500', '--max-connections-per-address', '1000',
];

/** How many visitors `visitorAddress` has given out in this process. */
let visitors = 0;

/** A client address of its own for a new visitor (a browser context): 10.x.y.z, counted. */
export function visitorAddress() {
  visitors += 1;
  return `10.${(visitors >> 16) & 255}.${(visitors >> 8) & 255}.${visitors & 255}`;
}

/**
 * Starts the server and waits for /health. Returns {url, stop(), restart()}.
 * The server runs with `--test-seeds`: every match's dice come from its creation order (or from a
 * `seed` given at creation), so a test plays the same games every run.
 * `args`: more arguments of `plateau serve` (e.g. `['--abandon-seconds', '3']`). Bots play at once
 * (`--bot-delay-ms 0`) unless `args` sets the delay: a test of the pacing itself gives its own.
 * PLATEAU_SERVE_CMD (a command with {port} and {db}) replaces the binary, e.g. for a mock.
 */
export async function startServer({ args = [] } = {}) {
  if (!args.includes('--bot-delay-ms')) args = ['--bot-delay-ms', '0', ...args];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plateau-browser-'));
  const db = path.join(dir, 'plateau.sqlite');
  let port = await freePort();
  let url = `http://127.0.0.1:${port}`;
  let child = null;
  const log = [];
  const launch = async () => {
    if (process.env.PLATEAU_SERVE_CMD) {
      const cmd = process.env.PLATEAU_SERVE_CMD.replace('{port}', String(port)).replace('{db}', db);
      child = spawn('sh', ['-c', cmd], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    } else {
      child = spawn(serverBinary(), ['serve', '--addr', `127.0.0.1:${port}`, '--database', db, '--test-seeds', ...PER_ADDRESS, ...args], {
        stdio: ['ignore', 'pipe', 'pipe'], detached: true,
        // The server's own scheduled tournaments stay off unless a test's environment asks.
        env: { PLATEAU_SCHEDULED_TOURNAMENTS: 'false', ...process.env, RUST_LOG: process.env.RUST_LOG || 'warn' },
      });
    }
    for (const stream of [child.stdout, child.stderr]) {
      stream.on('data', (d) => {
        log.push(String(d));
        if (log.length > 400) log.shift();
      });
    }
    const deadline = Date.now() + 30000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${log.join('')}`);
      try {
        const res = await fetch(`${url}/health`);
        if (res.ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`server did not answer /health in 30 s:\n${log.join('')}`);
  };
  const stopChild = async () => {
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      child.kill('SIGTERM');
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }, 5000);
    await exited;
    clearTimeout(timer);
  };
  // The port was free when chosen, but another process's socket may take it before the server
  // binds it: the server then says it cannot listen there and exits, and another port is tried.
  for (let tries = 1; ; tries += 1) {
    try {
      await launch();
      break;
    } catch (err) {
      if (tries === 3 || !log.join('').includes('cannot listen there')) throw err;
      log.length = 0;
      port = await freePort();
      url = `http://127.0.0.1:${port}`;
    }
  }
  return {
    url,
    /** The database's file, for `plateau admin --database` beside the running server. */
    db,
    log: () => log.join(''),
    /** Stops the server (SIGTERM, graceful) and starts it again on the same port and database. */
    async restart() {
      await stopChild();
      await launch();
    },
    async stop() {
      await stopChild();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Runs `plateau admin ARGS` on `server`'s database from the shell, as its operator would while
 * it runs; returns what it printed, or throws with its error.
 */
export function admin(server, args) {
  return execFileSync(serverBinary(), ['admin', '--database', `sqlite://${server.db}`, ...args], { encoding: 'utf8' });
}

/**
 * How Chromium is launched: headless, with a fresh, empty profile, through chromium.sh (Debian's
 * Chromium or $CHROMIUM, without the address bar's popups a headless browser never shows).
 */
export const BROWSER_OPTIONS = {
  executablePath: path.join(here, 'chromium.sh'),
  headless: true,
  args: [
    '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
  ],
};

/**
 * How often, in ms, a page's `waitForFunction` evaluates its predicate when the call names no
 * `polling`: as often as playwright's default (every animation frame, 60 a second), but on a
 * timer. A page that asks for animation frames makes Chromium draw them, in its renderer and its
 * compositor, for as long as the test waits; a timer looks at the page without drawing it.
 */
const POLL_MS = 16;

/** Gives `page`'s `waitForFunction` the polling of POLL_MS unless a call names its own. */
function pollOnTimer(page) {
  const waitForFunction = page.waitForFunction.bind(page);
  page.waitForFunction = (fn, arg, options = {}) => waitForFunction(fn, arg, { polling: POLL_MS, ...options });
}

/**
 * The browser of a test. In a run of run.sh, the run's one Chromium (browser-server.mjs, its
 * endpoint in PLATEAU_BROWSER_WS): `close()` then closes the contexts this test opened and
 * disconnects. Otherwise (a file run alone, transfer.mjs) a Chromium of its own. Every page of
 * the contexts it opens waits on a timer (`pollOnTimer`), and for a navigation 60 s.
 */
export async function launchBrowser() {
  const shared = process.env.PLATEAU_BROWSER_WS;
  const browser = shared ? await chromium.connect(shared) : await chromium.launch(BROWSER_OPTIONS);
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.on('page', pollOnTimer);
    // A page loads its modules one by one from a debug build: on a loaded 2-core machine its
    // load event can come later than Playwright's 30 s default.
    context.setDefaultNavigationTimeout(60000);
    return context;
  };
  return browser;
}

/**
 * A new browser context (its own localStorage) with a page sized like a laptop screen, for a
 * visitor of its own address (`visitorAddress`, sent as a proxy would).
 */
export async function newPage(browser, { lang = 'en-GB' } = {}) {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 860 }, locale: lang,
    extraHTTPHeaders: { 'x-forwarded-for': visitorAddress() },
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    // The browser's own reports of refused connections (the server restarting, a route answering
    // 404 on purpose) are not errors of the page's code.
    if (m.type() === 'error' && !/WebSocket connection to|Failed to load resource/.test(m.text())) errors.push(m.text());
  });
  page.jsErrors = errors;
  // Every WebSocket frame the page sends, as text: tests count what leaves the page.
  page.wsSent = [];
  page.on('websocket', (ws) => ws.on('framesent', (f) => page.wsSent.push(String(f.payload))));
  return page;
}

/**
 * Puts a seat's `token` for match `id` where the lobby keeps it (`plateau.token.<id>` in the
 * localStorage of `server`'s origin), `page` standing on the site's icon meanwhile: the match page
 * needs the origin's storage, not the lobby, whose scripts, requests and socket a test paid for
 * each time it opened the lobby only to reach that storage.
 */
export async function keepSeatToken(page, server, id, token) {
  await page.goto(`${server.url}/assets/favicon.svg`);
  await page.evaluate(([i, tok]) => localStorage.setItem(`plateau.token.${i}`, tok), [id, token]);
}

/**
 * Creates a match over the HTTP API with `request` (docs/protocol.md section 3.2), whose creator
 * seat is a human, and opens that seat's page in a fresh page of `browser` (the seat token put
 * where the lobby would keep it). Returns `{ page, created }`, `created` being the API's answer.
 */
export async function openCreatedMatch(server, browser, request) {
  const res = await fetch(`${server.url}/api/matches`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(request),
  });
  assert.equal(res.status, 201, await res.clone().text());
  const created = await res.json();
  const page = await newPage(browser);
  await keepSeatToken(page, server, created.id, created.token);
  await page.goto(`${server.url}${created.url}`);
  await waitMatchReady(page);
  return { page, created };
}

/**
 * Waits until the match page is connected and shows a state. A new visitor is first asked a name:
 * following an invite, the suggested one is accepted with one tap, as a person in a hurry would;
 * come to watch, they choose "Just watch" (the chat asks a name later), unless `watcherName` is
 * true, when they too take the suggestion. A name already sent (its button disabled until the
 * server answers) is waited for, not sent again.
 */
export async function waitMatchReady(page, { watcherName = false } = {}) {
  const asked = '#name-dialog[open] #name-go:not([disabled])';
  await page.waitForFunction((sel) => (document.body.dataset.conn === 'up' && document.body.dataset.version !== undefined)
    || document.querySelector(sel), asked, { timeout: 30000 });
  const skip = '#name-dialog[open] #name-skip';
  if (!watcherName && await page.$(skip)) await page.click(skip);
  else if (await page.$(asked)) await page.click(asked);
  await page.waitForFunction(() => document.body.dataset.conn === 'up' && document.body.dataset.version !== undefined, null, { timeout: 30000 });
}

/**
 * Taps `selector` on a touch page and waits until the page has taken the tap's click: Chromium
 * turns a tap into a click after Playwright's `tap` returns (later on a loaded machine), so what a
 * test reads next could be read before the tap's effect. A listener of the capture phase on the
 * document (put on the page at its first tap) notes the click on `selector`; the wait looks in a
 * task after the click's, when its handlers have run. Not for a tap that leaves the page.
 */
export async function tapDone(page, selector) {
  await page.evaluate((sel) => {
    if (window.__tap === undefined) {
      document.addEventListener('click', (ev) => {
        const tap = window.__tap;
        if (!tap.done && ev.target instanceof Element && ev.target.closest(tap.selector)) tap.done = true;
      }, { capture: true, passive: true });
    }
    window.__tap = { selector: sel, done: false };
  }, selector);
  await page.tap(selector);
  await page.waitForFunction(() => window.__tap.done);
}

/** Waits until it is this page's turn or the game is over; returns "turn" or "finished". */
export async function waitTurnOrEnd(page, timeout = 30000) {
  await page.waitForFunction(
    () => document.body.dataset.status === 'finished' || document.body.dataset.myTurn === 'true',
    null, { timeout },
  );
  return page.evaluate(() => (document.body.dataset.status === 'finished' ? 'finished' : 'turn'));
}

/**
 * Bataille Navale: resolves once this page's battle turn has been over, even for a moment. Call
 * it before firing. Bots without delay may hand the turn back before a poll of the page's state
 * would see it leave, so every change of `data-nv-turn` is recorded as it happens.
 */
export async function watchTurnLeaves(page) {
  await page.evaluate(() => {
    window.__turnLeft = false;
    new MutationObserver((records) => {
      if (document.body.dataset.nvTurn !== 'mine' || records.some((r) => r.oldValue !== 'mine')) window.__turnLeft = true;
    }).observe(document.body, { attributes: true, attributeFilter: ['data-nv-turn'], attributeOldValue: true });
  });
  return () => page.waitForFunction(() => window.__turnLeft, null, { timeout: 40000 });
}

/**
 * A match seed (64 hex digits) named by `label`, for a `seed` field at creation: a test that
 * creates several matches at once names each one's dice, whatever order the server sees them in.
 */
export function seedOf(label) {
  return crypto.createHash('sha256').update(label).digest('hex');
}

/** A small seeded generator so a failing run can be repeated (xorshift32). */
export function rng(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 2 ** 32;
  };
}

const pick = (rand, list) => list[Math.floor(rand() * list.length)];

/**
 * Plays one turn of MAD on `page` by clicking, as a person would: either a highlighted
 * ship then one of its highlighted target cells (preferring captures, so games end sooner; a
 * bonus choice is answered by clicking one of its chips), or a permutation/rotation chip, or
 * the pass button. Waits until the server acknowledged the action (the version changed).
 * Returns the action text that was sent.
 */
export async function playOneTurn(page, rand) {
  const before = await page.evaluate(() => document.body.dataset.version);
  const movable = await page.$$eval('svg.board rect.hit[data-movable="true"]', (els) => els.map((e) => e.dataset.cell));
  const chips = await page.$$eval('#shifts .chip', (els) => els.map((e) => e.dataset.action));
  const passVisible = await page.isVisible('#pass');
  let sent;
  if (passVisible && rand() < 0.5) {
    sent = 'pass';
    await page.click('#pass');
  } else if (movable.length && (chips.length === 0 || rand() < 0.85)) {
    // Look at the ships in a random order: take a capture at once when one shows, else stop at a
    // random ship (or the last one) and take one of its targets.
    const order = [...movable].sort(() => rand() - 0.5);
    let from = null;
    let to = null;
    for (const [i, cell] of order.entries()) {
      await page.click(`svg.board rect.hit[data-cell="${cell}"]`);
      const targets = await page.$$eval('svg.board rect.hit[data-target]', (els) => els.map((e) => [e.dataset.cell, e.dataset.target]));
      if (targets.length === 0) throw new Error(`ship ${cell} was highlighted but shows no target`);
      const captures = targets.filter(([, kind]) => kind === 'capture');
      if (captures.length || rand() < 0.3 || i === order.length - 1) {
        from = cell;
        to = pick(rand, captures.length ? captures : targets)[0];
        break;
      }
    }
    await page.click(`svg.board rect.hit[data-cell="${to}"]`);
    if (await page.isVisible('#bonus')) {
      const options = await page.$$eval('#bonus .chip', (els) => els.map((e) => e.dataset.action));
      sent = pick(rand, options);
      await page.click(`#bonus .chip[data-action="${sent}"]`);
    } else {
      sent = `${from}->${to}`;
    }
  } else if (chips.length) {
    sent = pick(rand, chips);
    await page.hover(`#shifts .chip[data-action="${sent}"]`);
    await page.click(`#shifts .chip[data-action="${sent}"]`);
  } else {
    throw new Error('my turn, but nothing to click');
  }
  await page.waitForFunction((v) => document.body.dataset.version !== v, before);
  return sent;
}

/** Saves a screenshot of `page` under docs/screenshots/<name>.png. */
export async function screenshot(page, name) {
  fs.mkdirSync(SHOTS, { recursive: true });
  const file = path.join(SHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

/**
 * Opens the lobby on `page` and, when `name` is given, names the visitor through the welcome form
 * (POST /api/guest), waiting until the header shows that name.
 */
export async function enterLobby(page, server, name = null) {
  await page.goto(`${server.url}/`);
  await page.waitForSelector('body[data-ready="true"]');
  if (name) {
    await page.fill('#welcome-name', name);
    await page.click('#welcome-go');
    await page.waitForFunction((n) => document.body.dataset.player === n, name);
    await page.waitForSelector(`#me-link:text-is("${name}")`);
  }
}

/** Opens the lobby's Advanced fold (the full match form). */
export async function openAdvanced(page) {
  if (!(await page.$eval('#advanced', (d) => d.open))) await page.click('#advanced > summary');
  await page.waitForSelector('#seat-0-kind', { state: 'visible' });
}

/** The JSON of `GET path` on the server, with `page`'s cookies (its session). */
export async function apiGet(page, path) {
  return page.evaluate(async (p) => {
    const res = await fetch(p);
    return { status: res.status, body: await res.json().catch(() => null) };
  }, path);
}

/**
 * Waits until `predicate(body)` holds for `GET path` (polled through `page`, i.e. with its
 * session), and returns that body: for server state a page does not show by itself.
 */
export async function waitApi(page, path, predicate, timeout = 30000) {
  const deadline = Date.now() + timeout;
  let last = null;
  while (Date.now() < deadline) {
    last = await apiGet(page, path);
    if (last.status === 200 && predicate(last.body)) return last.body;
    await page.waitForTimeout(200);
  }
  throw new Error(`GET ${path}: condition not met in ${timeout} ms; last answer ${JSON.stringify(last)}`);
}

/**
 * Plays MAD between two pages until the game is over, each page clicking on its own turns with
 * the shared seeded generator `rand` (the seat order fixes who clicks first, so the game is the same
 * whichever page sits where). `pages` is indexed by seat. Returns the number of turns played.
 */
export async function playMadToEnd(pages, rand, maxTurns = 800) {
  let turns = 0;
  for (;;) {
    for (const page of pages) {
      if ((await waitTurnOrEnd(page, 60000)) === 'finished') return turns;
      await playOneTurn(page, rand);
      turns += 1;
      if (turns > maxTurns) throw new Error(`the game did not end within ${maxTurns} turns`);
    }
  }
}
