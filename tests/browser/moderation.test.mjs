// Moderation in the browser (docs/protocol.md section 7.11): Ada reports a line Bob wrote in the
// chat, with a reason from the list; the operator makes Mia a moderator from the server's shell
// (`plateau admin grant`, the server running); Mia, on a phone (390x844, touch), finds the
// report with Bob's line on the moderators' page, warns Bob with a reason, which resolves the
// report, and sees both in the audit log; Bob reads the warning on his next page and marks it
// read. Banned from the shell while at the table, Bob's game ends and his page says why.

import test from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPage, enterLobby, waitMatchReady, admin, visitorAddress } from './lib.mjs';

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, locale: 'en-GB' };

test('a chat line reported, resolved on a phone by a moderator, and the warning read', { timeout: 300000 }, async () => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const ada = await newPage(browser);
    const bob = await newPage(browser);
    await enterLobby(ada, server, 'Ada');
    await enterLobby(bob, server, 'Bob');
    await ada.click('#friend-mad');
    await ada.selectOption('#play-side', '0');
    await ada.click('#play-go');
    const invite = await ada.inputValue('.invite-link[data-seat="1"]');
    const id = invite.match(/\/m\/([0-9a-f]{16})\?join=1$/)[1];
    await ada.click('#go-match');
    await waitMatchReady(ada);
    await bob.goto(invite);
    await waitMatchReady(bob);
    for (const p of [ada, bob]) await p.waitForFunction(() => document.body.dataset.status === 'live');

    // Bob's line, reported by Ada from the chat; her own lines have no report button.
    await bob.fill('#chat-input', 'you play like a potato');
    await bob.click('#chat-send');
    const line = '#chat-lines .chat-line[data-name="Bob"]';
    await ada.waitForSelector(`${line} .chip.report`);
    await ada.fill('#chat-input', 'be nice');
    await ada.click('#chat-send');
    await ada.waitForSelector('#chat-lines .chat-line[data-name="Ada"]');
    assert.equal(await ada.$$eval('#chat-lines .chat-line[data-name="Ada"] .chip.report', (els) => els.length), 0);
    await ada.click(`${line} .chip.report`);
    await ada.waitForSelector('#report-dialog[open]');
    assert.equal(await ada.textContent('#report-title'), 'Report Bob to the moderators');
    assert.equal(await ada.textContent('#report-line'), 'The line: “you play like a potato”');
    await ada.selectOption('#report-reason', 'abuse');
    await ada.fill('#report-text', 'mocks me');
    await ada.click('#report-send');
    await ada.waitForSelector('#report-done:not(.hidden)');
    assert.equal(await ada.textContent('#report-done'), 'Thank you: the moderators will read it.');
    await ada.click('#report-cancel');

    // Mia: an account, not a moderator yet: the page says so.
    const context = await browser.newContext({ ...PHONE, extraHTTPHeaders: { 'x-forwarded-for': visitorAddress() } });
    const mia = await context.newPage();
    await enterLobby(mia, server, 'Mia');
    const made = await mia.evaluate(async () => (await fetch('/api/account', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ password: 'a long pass phrase' }),
    })).status);
    assert.equal(made, 200);
    await mia.goto(`${server.url}/moderation`);
    await mia.waitForSelector('body[data-ready="true"]');
    assert.match(await mia.textContent('#mod-error'), /This page is for moderators/);

    // The operator grants the role from the shell while the server runs.
    assert.match(admin(server, ['grant', 'Mia', '--reason', 'first moderator']), /server grant Mia/);
    await mia.goto(`${server.url}/moderation`);
    await mia.waitForSelector('body[data-ready="true"]');
    await mia.waitForSelector('#moderation-link');
    const card = '.report[data-reported="Bob"]';
    await mia.waitForSelector(card);
    assert.match(await mia.textContent(`${card} .report-chat`), /Bob wrote: “you play like a potato”/);
    assert.match(await mia.textContent(card), /Ada reports/);
    assert.match(await mia.textContent(card), /Insults, threats or harassment/);
    assert.match(await mia.textContent(card), /“mocks me”/);
    // Nothing wider than the phone.
    const overflow = await mia.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page is ${overflow} px wider than the phone`);
    await mia.fill(`${card} .mod-reason`, 'mocking other players');
    await mia.tap(`${card} button[data-act="mod.warn"]`);
    await mia.waitForSelector('body[data-reports="0"]');
    await mia.waitForSelector('#no-reports');
    const log = await mia.$$eval('#audit li', (els) => els.map((e) => [e.dataset.action, e.textContent]));
    assert.deepEqual(log.map(([a]) => a), ['resolve', 'warn', 'grant']);
    assert.match(log[1][1], /Mia warned Bob — mocking other players/);
    assert.match(log[2][1], /The server made Mia a moderator — first moderator/);

    // Bob reads the warning on his next page, and marks it read.
    await bob.reload();
    await bob.waitForSelector('#standing-warnings');
    assert.match(await bob.textContent('#standing-warnings'), /A moderator warns you:.*mocking other players/s);
    await bob.click('#standing-read');
    await bob.waitForSelector('#standing-warnings', { state: 'detached' });
    await bob.reload();
    await bob.waitForSelector('body[data-player="Bob"]');
    assert.equal(await bob.$('#standing-warnings'), null, 'read stays read');

    // Banned from the shell while at the table: Bob's seat resigns, his socket closes (and is
    // not opened again), and his page says why at once; Ada sees the game end.
    await bob.goto(`${server.url}/m/${id}`);
    await waitMatchReady(bob);
    assert.match(admin(server, ['ban', 'Bob', '--days', '2', '--reason', 'again']), /server ban Bob until/);
    await ada.waitForFunction(() => document.body.dataset.status === 'finished');
    await bob.waitForSelector('#standing-banned');
    assert.match(await bob.textContent('#standing-banned'), /A moderator banned you until .*: you cannot play, chat or make matches until then\./);
    for (const p of [ada, bob, mia]) assert.deepEqual(p.jsErrors ?? [], []);
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
});
