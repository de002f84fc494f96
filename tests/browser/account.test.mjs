// The account panel of a player's own page on a 390x844 phone, by taps: "Download my data"
// saves the JSON of everything the server keeps about the player, and "Delete my account" asks
// for the password (a wrong one deletes nothing), then deletes the account and signs out. On
// another player's page the panel is not shown.

import test from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, visitorAddress, enterLobby, apiGet, screenshot } from './lib.mjs';

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
const PASSWORD = 'a long pass phrase';

/** A phone page of a visitor of its own address. */
async function phone(browser) {
  const context = await browser.newContext({ ...PHONE, locale: 'en-GB', acceptDownloads: true,
    extraHTTPHeaders: { 'x-forwarded-for': visitorAddress() } });
  const page = await context.newPage();
  page.jsErrors = [];
  page.on('pageerror', (e) => page.jsErrors.push(String(e)));
  return page;
}

/** What of `selector` lies outside the 390 px wide screen, or is too small to tap (under 28 px, the
 * least the phone test allows a tapped cell). */
async function badTarget(page, selector) {
  const box = await page.locator(selector).boundingBox();
  if (!box) return `${selector} is not shown`;
  if (box.x < 0 || box.x + box.width > 390) return `${selector} sticks out: ${JSON.stringify(box)}`;
  if (box.height < 28) return `${selector} is ${box.height} px high`;
  return '';
}

test('the account panel downloads the player\'s data and deletes the account on a phone', { timeout: 300000 }, async () => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const dora = await phone(browser);
    await enterLobby(dora, server, 'Dora');
    const made = await dora.evaluate(async (password) => {
      const res = await fetch('/api/account', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ password }) });
      return res.status;
    }, PASSWORD);
    assert.equal(made, 200);
    const other = await phone(browser);
    await enterLobby(other, server, 'Olaf');

    // Another player's page: no panel.
    await dora.goto(`${server.url}/@/Olaf`);
    await dora.waitForSelector('body[data-ready="true"]');
    assert.ok(!(await dora.isVisible('#account-panel')));

    await dora.goto(`${server.url}/@/Dora`);
    await dora.waitForSelector('body[data-ready="true"]');
    await dora.waitForSelector('#account-panel:not(.hidden)');
    await dora.locator('#account-panel').scrollIntoViewIfNeeded();
    for (const target of ['#data-download', '#delete-open']) assert.equal(await badTarget(dora, target), '');
    assert.ok(await dora.evaluate(() => document.documentElement.scrollWidth <= 390), 'no sideways scrolling');
    await screenshot(dora, 'account-phone');

    // The download: a file named for the player, holding every section.
    const [download] = await Promise.all([dora.waitForEvent('download'), dora.tap('#data-download')]);
    assert.equal(download.suggestedFilename(), 'plateau-Dora.json');
    const chunks = [];
    for await (const chunk of await download.createReadStream()) chunks.push(chunk);
    const data = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    assert.equal(data.account.name, 'Dora');
    assert.equal(data.account.kind, 'account');
    for (const section of ['ratings', 'rating_changes', 'games', 'chat', 'follows', 'blocks', 'challenges', 'tournaments']) {
      assert.ok(section in data, `the download has ${section}`);
    }

    // A wrong password: said so, nothing deleted.
    await dora.tap('#delete-open');
    await dora.waitForSelector('#delete-dialog[open]');
    assert.equal(await badTarget(dora, '#delete-go'), '');
    assert.equal(await badTarget(dora, '#delete-password'), '');
    await dora.fill('#delete-password', 'not my password');
    await dora.tap('#delete-go');
    await dora.waitForSelector('#delete-error:not(.hidden)');
    assert.equal(await dora.textContent('#delete-error'), 'Wrong password: nothing was deleted.');
    assert.equal((await apiGet(dora, '/api/players/Dora')).status, 200);

    // The right one: deleted, signed out, back in the lobby.
    await dora.fill('#delete-password', PASSWORD);
    await dora.tap('#delete-go');
    await dora.waitForURL(`${server.url}/`);
    await dora.waitForSelector('body[data-ready="true"]');
    await dora.waitForSelector('#open-signin');
    assert.equal((await apiGet(dora, '/api/me')).body.player, null);
    assert.equal((await apiGet(dora, '/api/players/Dora')).status, 404);
    const signIn = await other.evaluate(async (password) => {
      const res = await fetch('/api/login', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'Dora', password }) });
      return res.status;
    }, PASSWORD);
    assert.equal(signIn, 401, 'the deleted account signs in no more');
    assert.deepEqual([...dora.jsErrors, ...other.jsErrors], []);
  } finally {
    await browser.close();
    await server.stop();
  }
});
