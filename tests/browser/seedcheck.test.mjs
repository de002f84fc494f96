// The fair-dice check (web/js/seedcheck.js) says why a check failed in the page's language: drawn
// alone on a page in French, for a seed with the published hash that the server could not replay,
// and for a revealed seed that is not hex, every word shown is from the French table (no English
// reason), and the same failures in English read as the English table has them.

import test from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { startServer, launchBrowser, newPage } from './lib.mjs';

const seed = 'ab'.repeat(32);
const hash = crypto.createHash('sha256').update(Buffer.from(seed, 'hex')).digest('hex');

test("the dice check's failures are in the page's language", { timeout: 60000 }, async () => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    for (const lang of ['fr', 'en']) {
      const page = await newPage(browser);
      await page.goto(`${server.url}/leaderboard`);
      const shown = await page.evaluate(async ([code, s, h]) => {
        const { setLang, t } = await import('/assets/js/i18n.js');
        const { renderSeedCheck } = await import('/assets/js/seedcheck.js');
        setLang(code);
        const check = (summary) => {
          const box = document.createElement('div');
          document.body.append(box);
          const verdict = renderSeedCheck(box, { id: 'm1', ...summary }, false);
          return { verdict, result: box.querySelector('#verify-result')?.textContent, dds: [...box.querySelectorAll('dd')].map((d) => d.textContent) };
        };
        return {
          unreplayed: check({ seed: s, seed_hash: h }),
          notHex: check({ seed: 'zz', seed_hash: h }),
          want: {
            unreplayed: `✘ ${t('verify.bad', { msg: t('verify.replay_failed') })}`,
            notHex: `✘ ${t('verify.bad', { msg: t('verify.hash_mismatch') })}`,
            notHexValue: t('verify.not_hex'),
          },
        };
      }, [lang, seed, hash]);
      assert.equal(shown.unreplayed.verdict, false);
      assert.equal(shown.unreplayed.result, shown.want.unreplayed);
      assert.equal(shown.notHex.verdict, false);
      assert.equal(shown.notHex.result, shown.want.notHex);
      assert.deepEqual(shown.notHex.dds, [hash, 'zz', shown.want.notHexValue]);
      if (lang === 'fr') {
        assert.equal(shown.unreplayed.result, '✘ Vérification ÉCHOUÉE : le serveur n’a pas pu rejouer la partie');
        assert.equal(shown.want.notHexValue, 'pas des chiffres hexadécimaux');
      } else {
        assert.equal(shown.unreplayed.result, '✘ Verification FAILED: the server could not replay the record');
      }
      assert.deepEqual(page.jsErrors, []);
    }
  } finally {
    await browser.close();
    await server.stop();
  }
});
