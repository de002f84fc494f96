// @ts-check
// The verify page (web/verify.html at /verify): checks a finished match's revealed seed against
// its published hash. Takes a match id, a match link, or ?id= in the address.

import { api, el, byId, errorMessage, errorCode } from './api.js';
import { t, setupLanguageSwitch, onLangChange } from './i18n.js';
import { setupIdentity } from './identity.js';
import { renderSeedCheck } from './seedcheck.js';

const $ = byId;
/** The verify page's state. */
const page = {
  /** @type {{ summary: import('./api.js').MatchSummary, serverVerified: boolean | undefined } | null} The last match checked, redrawn on a language change; or null. */
  last: null,
};

/**
 * @param {string} input
 */
async function verify(input) {
  const m = /[0-9a-f]{16}/.exec(input.trim().toLowerCase());
  const box = $('verify');
  if (!m) {
    box.replaceChildren(el('div', { class: 'error-box' }, t('match.notfound')));
    return;
  }
  const id = m[0];
  try {
    const summary = await api('GET', `/api/matches/${id}`);
    let serverVerified;
    if (summary.status === 'finished') {
      try {
        serverVerified = (await api('GET', `/api/matches/${id}/replay`)).verified;
      } catch {
        serverVerified = undefined;
      }
    }
    page.last = { summary, serverVerified };
    draw();
    history.replaceState(null, '', `/verify?id=${id}`);
  } catch (err) {
    box.replaceChildren(el('div', { class: 'error-box' }, errorCode(err) === 'match/not_found' ? t('match.notfound') : errorMessage(err)));
  }
}

function draw() {
  if (!page.last) return;
  const box = $('verify');
  const inner = el('div');
  renderSeedCheck(inner, page.last.summary, page.last.serverVerified);
  box.replaceChildren(inner,
    el('p', {}, el('a', { href: `/replay/${page.last.summary.id}` }, t('lobby.replay'))));
}

function start() {
  setupLanguageSwitch();
  setupIdentity();
  onLangChange(draw);
  $('form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    verify($('match-id', HTMLInputElement).value);
  });
  const id = new URLSearchParams(location.search).get('id');
  if (id) {
    $('match-id', HTMLInputElement).value = id;
    verify(id);
  }
}

start();
