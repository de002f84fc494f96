// The bonus move (rules/mad.md section 6) as a person makes it, in a scripted game between two
// browser contexts: Red's R121 walks up column a, expels B121 on a5, then steps onto a6 expelling
// B221. That 1-step move onto Red's last row offers the bonus choices: the page shows them with a
// "no bonus" button, hovering a choice rings the ships it moves, Cancel goes back, and choosing the
// permutation with R212 plays `a5xa6+P(121,212)`.

import test from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPage, waitMatchReady, enterLobby, openAdvanced } from './lib.mjs';

/** Clicks `from` then `to` on `page` and waits until the server acknowledged the move. */
async function clickMove(page, from, to) {
  await page.waitForFunction(() => document.body.dataset.myTurn === 'true');
  const before = await page.evaluate(() => document.body.dataset.version);
  await page.click(`svg.board rect.hit[data-cell="${from}"]`);
  await page.click(`svg.board rect.hit[data-cell="${to}"]`);
  await page.waitForFunction((v) => document.body.dataset.version !== v, before);
}

const shipOn = (page, cell) => page.getAttribute(`svg.board rect.hit[data-cell="${cell}"]`, 'aria-label');

test('a 1-step move onto the last row offers the bonus choices', { timeout: 120000 }, async () => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const red = await newPage(browser);
    const blue = await newPage(browser);
    await enterLobby(red, server, 'Red');
    await openAdvanced(red);
    await red.selectOption('#seat-1-kind', 'human');
    await red.click('#create');
    const invite = await red.inputValue('.invite-link[data-seat="1"]');
    await red.click('#go-match');
    await blue.goto(invite);
    await waitMatchReady(blue);
    await waitMatchReady(red);

    await clickMove(red, 'a2', 'a3');
    await clickMove(blue, 'd5', 'd4');
    await clickMove(red, 'a3', 'a4');
    await clickMove(blue, 'd4', 'd5');
    // a5 holds B121 (1 shield); R121 has 2 cannons: the target is marked as a capture.
    await red.waitForFunction(() => document.body.dataset.myTurn === 'true');
    await red.click('svg.board rect.hit[data-cell="a4"]');
    assert.equal(await red.getAttribute('svg.board rect.hit[data-cell="a5"]', 'data-target'), 'capture');
    await red.click('svg.board rect.hit[data-cell="a5"]');
    await blue.waitForFunction(() => document.body.dataset.myTurn === 'true');
    assert.match(await red.textContent('#exile-b'), /121/);
    await clickMove(blue, 'd5', 'd4');

    // The step onto a6 (expelling B221) asks for the bonus instead of playing at once.
    await red.waitForFunction(() => document.body.dataset.myTurn === 'true');
    const version = await red.evaluate(() => document.body.dataset.version);
    await red.click('svg.board rect.hit[data-cell="a5"]');
    await red.click('svg.board rect.hit[data-cell="a6"]');
    await red.waitForSelector('#bonus:not(.hidden)');
    assert.equal(await red.evaluate(() => document.body.dataset.version), version, 'nothing was sent yet');
    assert.equal(await red.getAttribute('#bonus-none', 'data-action'), 'a5xa6');
    const options = await red.$$eval('#bonus .chip[data-action*="+"]', (els) => els.map((e) => e.dataset.action));
    assert.ok(options.includes('a5xa6+P(121,212)'), `bonus options: ${options}`);
    assert.ok(options.every((a) => a.startsWith('a5xa6+') && a.includes('121')), 'every bonus involves the arriving ship');
    assert.ok(!(await red.isVisible('#shifts-box')), 'the plain shifts are hidden during the bonus choice');

    // Hovering the permutation rings R121 (a5) and R212 (d1).
    await red.hover('#bonus .chip[data-action="a5xa6+P(121,212)"]');
    const ringed = await red.$$eval('svg.board .involved-ring', (els) => els.map((e) => e.dataset.cell).sort());
    assert.deepEqual(ringed, ['a5', 'd1']);

    // Cancel, then choose again and take the permutation.
    await red.click('#bonus-cancel');
    assert.ok(!(await red.isVisible('#bonus')));
    await red.click('svg.board rect.hit[data-cell="a5"]');
    await red.click('svg.board rect.hit[data-cell="a6"]');
    await red.click('#bonus .chip[data-action="a5xa6+P(121,212)"]');
    await red.waitForFunction((v) => document.body.dataset.version !== v, version);
    assert.match(await shipOn(red, 'a6'), /Red ship 212/);
    assert.match(await shipOn(red, 'd1'), /Red ship 121/);
    assert.match(await red.textContent('#exile-b'), /221/);
    // The move list says it in words, the notation kept in the entry's data.
    const last = await red.$$eval('#moves .mv[data-index]', (els) => [els.at(-1).textContent, els.at(-1).dataset.text]);
    assert.deepEqual(last, ['frigate 121 a5 → a6, expels destroyer 221, then Swap 121 ⇄ 212', 'a5xa6+P(121,212)']);
    // Blue sees the same board, from its side.
    await blue.waitForFunction(() => document.body.dataset.myTurn === 'true');
    assert.match(await shipOn(blue, 'a6'), /Red ship 212/);
    for (const p of [red, blue]) assert.deepEqual(p.jsErrors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});
