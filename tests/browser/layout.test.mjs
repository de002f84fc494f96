// Every page on a phone (390x844, touch) and on a laptop (1366x900): no page is wider than the
// screen, and every visible control lies within it; on the phone every field, list and button is
// a touch target of at least 44x44 px. Screenshots of each game and of a how-to page at both
// sizes. Playing on a phone, decision by decision, is phone.test.mjs's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, screenshot, waitMatchReady } from './lib.mjs';

const SIZES = [
  { name: 'phone', viewport: { width: 390, height: 844 }, hasTouch: true },
  { name: 'laptop', viewport: { width: 1366, height: 900 }, hasTouch: false },
];

const bot = { kind: 'bot', bot: 'random' };
const TABLES = {
  mad: [{ kind: 'human' }, bot],
  moonleap: [{ kind: 'human' }, bot],
  chakart: [{ kind: 'human' }, bot],
  naval: [{ kind: 'human' }, bot, bot, bot],
};

/** What sticks out of the screen on `page`: the page's own width, and the controls past an edge. */
async function overflow(page) {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const wide = document.documentElement.scrollWidth > width ? [`page ${document.documentElement.scrollWidth} px`] : [];
    const out = [...document.querySelectorAll('button, select, input, textarea, a[href]')]
      .filter((e) => e.offsetParent !== null && !e.closest('.hidden, [hidden]'))
      .map((e) => [e, e.getBoundingClientRect()])
      .filter(([, r]) => r.width > 0 && (r.left < -1 || r.right > width + 1))
      .map(([e, r]) => `${e.tagName.toLowerCase()}#${e.id || ''}.${e.className || ''} [${Math.round(r.left)}, ${Math.round(r.right)}]`);
    return wide.concat(out);
  });
}

/** A finger's least target, in CSS pixels (WCAG 2.5.5; web/css/style.css sets it on narrow screens). */
const TOUCH = 44;

/**
 * The touch targets of `page` smaller than TOUCH either way: its visible fields, lists and
 * buttons; check boxes and radio buttons aside (their labels are the targets), and the game
 * table's choices, sized with the board so that a decision fits the screen (web/css/style.css
 * says why; phone.test.mjs checks them).
 */
async function smallTargets(page) {
  return page.evaluate((least) => {
    const targets = ':is(button, .button, select, textarea, input:not([type="checkbox"], [type="radio"], [type="hidden"])):not(.chip, .nv-tab, .nv-ship)';
    return [...document.querySelectorAll(targets)]
      .filter((e) => e.offsetParent !== null && !e.closest('.hidden, [hidden]'))
      .map((e) => [e, e.getBoundingClientRect()])
      .filter(([, r]) => r.width > 0 && (r.height < least - 0.5 || r.width < least - 0.5))
      .map(([e, r]) => `${e.tagName.toLowerCase()}#${e.id || ''}.${e.className || ''} "${(e.textContent || '').trim().slice(0, 20)}" ${r.width.toFixed(1)}x${r.height.toFixed(1)} px`);
  }, TOUCH);
}

/** What a page's check finds wrong at `size`: what sticks out, and on a phone the targets too small. */
async function misfits(page, size) {
  const small = size.hasTouch ? await smallTargets(page) : [];
  return (await overflow(page)).concat(small);
}

test('every page fits a phone and a laptop screen, its targets big enough for a finger on the phone', async () => {
  const server = await startServer({ args: ['--bot-delay-ms', '1000'] });
  const browser = await launchBrowser();
  try {
    for (const size of SIZES) {
      const context = await browser.newContext({ viewport: size.viewport, hasTouch: size.hasTouch, locale: 'en-GB' });
      const page = await context.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      for (const url of ['/', '/leaderboard', '/howto', '/tournaments']) {
        await page.goto(`${server.url}${url}`);
        await page.waitForLoadState('networkidle');
        assert.deepEqual(await misfits(page, size), [], `${url} on a ${size.name}`);
      }
      // A how-to page with its pictures (the boards drawn as at the table).
      await page.goto(`${server.url}/howto/mad`);
      await page.waitForSelector('#howto-pictures svg.board');
      assert.deepEqual(await misfits(page, size), [], `/howto/mad on a ${size.name}`);
      await page.locator('#howto-pictures').scrollIntoViewIfNeeded();
      await screenshot(page, `howto-${size.name}`);
      await page.goto(`${server.url}/`);
      await screenshot(page, `lobby-${size.name}`);
      for (const [game, seats] of Object.entries(TABLES)) {
        const res = await fetch(`${server.url}/api/matches`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ game, seats }),
        });
        assert.equal(res.status, 201, await res.clone().text());
        const created = await res.json();
        await page.evaluate(([i, tok]) => localStorage.setItem(`plateau.token.${i}`, tok), [created.id, created.token]);
        await page.goto(`${server.url}${created.url}`);
        await waitMatchReady(page);
        assert.deepEqual(await misfits(page, size), [], `${game} on a ${size.name}`);
        await screenshot(page, `${game}-${size.name}`);
      }
      assert.deepEqual(errors, []);
      await context.close();
    }
  } finally {
    await browser.close();
    await server.stop();
  }
});
