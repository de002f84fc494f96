// @ts-check
// A player's page's Follow, Block and Challenge buttons (docs/protocol.md section 7.8): shown to
// a signed-in visitor on another person's page; Challenge opens the lobby's challenge dialog for
// that name (`/?challenge=Name`); a blocked player is neither followed nor challenged.

import { api, el, byId, errorMessage } from './api.js';
import { t, onLangChange } from './i18n.js';
import { currentPlayer } from './identity.js';

const $ = byId;

/** What the visitor keeps of the page's player: followed, blocked, or neither. */
const seen = { name: '', follows: false, blocks: false };

function draw() {
  const box = $('relation-actions');
  const path = (/** @type {string} */ kind) => `/api/me/${kind}/${encodeURIComponent(seen.name)}`;
  /**
   * @param {string} kind `follows` or `blocks`
   * @param {boolean} on the relation now
   */
  const toggle = async (kind, on) => {
    try {
      await api(on ? 'DELETE' : 'PUT', path(kind));
      await load();
    } catch (err) {
      $('relation-error').textContent = errorMessage(err);
      $('relation-error').classList.remove('hidden');
    }
  };
  box.replaceChildren(
    seen.blocks ? '' : el('a', { class: 'button', id: 'challenge-link', href: `/?challenge=${encodeURIComponent(seen.name)}` }, t('challenge.send')),
    seen.blocks ? '' : el('button', { type: 'button', id: 'follow', class: 'secondary', 'data-on': String(seen.follows), onclick: () => toggle('follows', seen.follows) },
      t(seen.follows ? 'relation.unfollow' : 'relation.follow')),
    el('button', { type: 'button', id: 'block', class: 'secondary', 'data-on': String(seen.blocks), onclick: () => toggle('blocks', seen.blocks) },
      t(seen.blocks ? 'relation.unblock' : 'relation.block')));
  $('relation-note').classList.toggle('hidden', !seen.blocks);
  box.classList.remove('hidden');
  document.body.dataset.follows = String(seen.follows);
  document.body.dataset.blocks = String(seen.blocks);
}

async function load() {
  /** @type {{ follows: { name: string }[], blocks: { name: string }[] }} */
  const mine = await api('GET', '/api/me/relations');
  const same = (/** @type {{ name: string }} */ p) => p.name.toLowerCase() === seen.name.toLowerCase();
  seen.follows = mine.follows.some(same);
  seen.blocks = mine.blocks.some(same);
  $('relation-error').classList.add('hidden');
  draw();
}

/**
 * Shows the buttons for the page's player `profile`, unless the visitor has no name, is that
 * player, or it is a bot.
 * @param {{ name: string, kind: string }} profile
 */
export async function setupRelations(profile) {
  const me = await currentPlayer();
  if (!me || me.name === profile.name || profile.kind === 'bot') return;
  seen.name = profile.name;
  onLangChange(() => { if (seen.name) draw(); });
  try {
    await load();
  } catch (err) {
    $('relation-error').textContent = errorMessage(err);
    $('relation-error').classList.remove('hidden');
  }
}
