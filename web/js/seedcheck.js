// @ts-check
// The fair-dice check shown on the replay and verify pages (protocol.md section 1, "Fair dice"):
// the seed revealed at the end must have the SHA-256 published at creation. The hash is computed
// here, in the browser; the server's own replay check is shown next to it when it is known.

import { el, sha256Hex, hexToBytes } from './api.js';
import { t } from './i18n.js';

/**
 * Fills `container` with the check of match `summary` (the SUMMARY of protocol.md 3.3).
 * `serverVerified` is the server's replay verdict (true/false) or undefined when unknown.
 * Returns true (verified), false (failed) or null (not finished: no seed yet).
 * @param {HTMLElement} container
 * @param {import('./api.js').MatchSummary} summary
 * @param {boolean | undefined} serverVerified
 */
export function renderSeedCheck(container, summary, serverVerified) {
  const rows = [
    [t('match.seed.hash'), summary.seed_hash || '—'],
    [t('match.seed.revealed'), summary.seed || '—'],
  ];
  let verdict = null;
  let local = null;
  if (summary.seed) {
    const bytes = hexToBytes(summary.seed);
    local = bytes ? sha256Hex(bytes) : t('verify.not_hex');
    rows.push([t('verify.local'), local]);
    verdict = local === summary.seed_hash && serverVerified !== false;
  }
  const dl = el('dl', { class: 'kv' }, rows.map(([k, v]) => [el('dt', {}, k), el('dd', { class: 'mono break' }, v)]));
  /** @type {HTMLElement[]} */
  const parts = [dl];
  if (verdict === null) {
    parts.push(el('p', { class: 'muted' }, t('verify.pending')));
  } else {
    parts.push(el('p', { class: local === summary.seed_hash ? 'small' : 'small error-box' },
      t(local === summary.seed_hash ? 'verify.hash_match' : 'verify.hash_mismatch')));
    if (verdict) {
      const text = serverVerified === true ? t('verify.ok') : t('verify.ok.hash');
      parts.push(el('div', { class: 'ok-box', id: 'verify-result', 'data-verified': 'true' }, `✔ ${text}`));
    } else {
      const why = local !== summary.seed_hash ? t('verify.hash_mismatch') : t('verify.replay_failed');
      parts.push(el('div', { class: 'error-box', id: 'verify-result', 'data-verified': 'false' }, `✘ ${t('verify.bad', { msg: why })}`));
    }
    parts.push(el('p', { class: 'small muted' },
      el('a', { href: `/api/matches/${summary.id}/record`, download: `plateau-${summary.id}.json` }, 'record.json'),
      ' · ', el('code', {}, `plateau replay plateau-${summary.id}.json`)));
  }
  container.replaceChildren(...parts);
  return verdict;
}
