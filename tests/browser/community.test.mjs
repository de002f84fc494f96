// Challenges between two people and the friend list (docs/protocol.md sections 7.7 and 7.8):
// one challenges the other from the other's page, the other (on a phone, in French) hears it in
// the lobby, declines, then accepts the next, and both sit at the match; the challenger follows
// the other, and its friend list shows the other online, then playing, with a Watch link; the
// other then blocks the challenger from its page.

import test from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPage, enterLobby, visitorAddress, screenshot } from './lib.mjs';

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

/** A phone-sized touch page of a visitor of its own, in `locale`. */
async function phonePage(browser, locale) {
  const context = await browser.newContext({
    ...PHONE, locale, extraHTTPHeaders: { 'x-forwarded-for': visitorAddress() },
  });
  const page = await context.newPage();
  page.jsErrors = [];
  page.on('pageerror', (e) => page.jsErrors.push(String(e)));
  return page;
}

/** Sends the challenge dialog (open on `page`) for MAD at the first clock offered. */
async function sendChallenge(page, name) {
  await page.waitForSelector('#challenge-dialog[open]');
  assert.equal(await page.inputValue('#challenge-name'), name);
  await page.selectOption('#challenge-game', 'mad');
  await page.click('#challenge-go');
  await page.waitForFunction(() => document.body.dataset.outgoing === '1');
}

test('a challenge from a player page is declined, then accepted, and the friend list follows', { timeout: 180000 }, async () => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const ada = await newPage(browser);
    await enterLobby(ada, server, 'Ada');
    const bob = await phonePage(browser, 'fr-FR');
    await bob.goto(`${server.url}/`);
    await bob.waitForSelector('body[data-ready="true"]');
    await bob.fill('#welcome-name', 'Bob');
    await bob.tap('#welcome-go');
    await bob.waitForFunction(() => document.body.dataset.player === 'Bob');

    // Ada follows Bob and challenges him from his page.
    await ada.goto(`${server.url}/@/Bob`);
    await ada.waitForSelector('#follow');
    assert.equal(await ada.textContent('#follow'), 'Follow');
    await ada.click('#follow');
    await ada.waitForFunction(() => document.body.dataset.follows === 'true');
    assert.equal(await ada.textContent('#follow'), 'Unfollow');
    await ada.click('#challenge-link');
    await ada.waitForSelector('body[data-ready="true"]');
    await sendChallenge(ada, 'Bob');
    // Her friend list shows Bob online, in the lobby.
    await ada.waitForSelector('.friend[data-friend="Bob"][data-status="online"]');

    // Bob hears it in his lobby, in French, and declines.
    await bob.waitForFunction(() => document.body.dataset.incoming === '1');
    const row = '#incoming-list .challenge[data-from="Ada"]';
    assert.equal(await bob.textContent(`${row} .challenge-no`), 'Refuser');
    assert.match(await bob.textContent(row), /MAD/);
    assert.ok(await bob.evaluate(() => document.documentElement.scrollWidth <= 390), 'no sideways scroll on a phone');
    const box = await bob.$eval(`${row} .challenge-yes`, (b) => {
      const r = b.getBoundingClientRect();
      return { right: r.right, height: r.height };
    });
    assert.ok(box.right <= 390 && box.height >= 40, `a button a finger can hit: ${JSON.stringify(box)}`);
    await screenshot(bob, 'challenge-phone');
    await bob.tap(`${row} .challenge-no`);
    await bob.waitForFunction(() => document.body.dataset.incoming === '0');
    await ada.waitForFunction(() => document.body.dataset.outgoing === '0');
    assert.equal(await ada.textContent('#challenge-news'), 'Bob declined your challenge.');

    // The next one, sent from the friend list, he accepts: both sit at the match.
    await ada.click('.friend[data-friend="Bob"] .friend-challenge');
    await sendChallenge(ada, 'Bob');
    await bob.waitForFunction(() => document.body.dataset.incoming === '1');
    await bob.tap(`${row} .challenge-yes`);
    await Promise.all([ada, bob].map((p) => p.waitForURL(/\/m\/[0-9a-f]+$/)));
    const id = new URL(ada.url()).pathname.split('/').pop();
    assert.equal(new URL(bob.url()).pathname, `/m/${id}`);
    for (const p of [ada, bob]) await p.waitForFunction(() => document.body.dataset.status === 'live', null, { timeout: 60000 });

    // Ada's lobby in another tab shows Bob playing, with a link to watch.
    const lobbyTab = await ada.context().newPage();
    await lobbyTab.goto(`${server.url}/`);
    const playing = `.friend[data-friend="Bob"][data-status="playing"] a[href="/m/${id}"]`;
    await lobbyTab.waitForSelector(playing);
    await lobbyTab.close();

    // Bob blocks Ada from her page: no Challenge or Follow there any more, a line says why.
    const bobPage = await bob.context().newPage();
    await bobPage.goto(`${server.url}/@/Ada`);
    await bobPage.waitForSelector('#block');
    assert.equal(await bobPage.textContent('#block'), 'Bloquer');
    await bobPage.tap('#block');
    await bobPage.waitForFunction(() => document.body.dataset.blocks === 'true');
    assert.equal(await bobPage.$('#challenge-link'), null);
    assert.equal(await bobPage.$('#follow'), null);
    assert.equal(await bobPage.isVisible('#relation-note'), true);
    assert.equal(await bobPage.textContent('#block'), 'Débloquer');

    // A visitor with no name yet follows a challenge link: the name is taken as it sends.
    const cy = await newPage(browser);
    await cy.goto(`${server.url}/?challenge=Ada`);
    await sendChallenge(cy, 'Ada');
    assert.match(await cy.evaluate(() => document.body.dataset.player), /^[A-Za-z]/);
    for (const p of [ada, bob, cy]) assert.deepEqual(p.jsErrors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});
