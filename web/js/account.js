// @ts-check
// The player's own page's account panel (docs/protocol.md section 7.10): "Download my data"
// (`GET /api/me/data`, saved as a file) for any player, and for an account "Delete my account",
// confirmed with its password in a dialog (`POST /api/me/delete`); once deleted the page goes to
// the lobby, signed out.

import { api, el, byId, errorCode } from './api.js';
import { t, onLangChange, errorText } from './i18n.js';
import { currentPlayer } from './identity.js';

const $ = byId;

/** @type {{ name: string, kind: string } | null} The page's player when it is the visitor. */
let own = null;

function draw() {
  if (!own) return;
  $('account-panel').classList.remove('hidden');
  $('account-actions').replaceChildren(
    el('a', { class: 'button', id: 'data-download', href: '/api/me/data', download: '' }, t('account.download')),
    own.kind === 'account'
      ? el('button', { type: 'button', class: 'danger', id: 'delete-open', onclick: openDelete }, t('account.delete'))
      : '');
  $('account-guest').classList.toggle('hidden', own.kind === 'account');
}

function openDelete() {
  const dialog = byId('delete-dialog', HTMLDialogElement);
  $('delete-error').classList.add('hidden');
  byId('delete-password', HTMLInputElement).value = '';
  dialog.showModal();
  $('delete-password').focus();
}

/** @param {SubmitEvent} ev */
async function confirmDelete(ev) {
  ev.preventDefault();
  const button = byId('delete-go', HTMLButtonElement);
  button.disabled = true;
  try {
    await api('POST', '/api/me/delete', { password: byId('delete-password', HTMLInputElement).value });
    byId('delete-dialog', HTMLDialogElement).close();
    location.assign('/');
  } catch (err) {
    // A wrong password: said as such (the sign-in's words name the name too).
    $('delete-error').textContent = errorCode(err) === 'auth/failed' ? t('account.delete.wrong') : errorText(err);
    $('delete-error').classList.remove('hidden');
  } finally {
    button.disabled = false;
  }
}

/**
 * Shows the panel when the page's player (`name`) is the visitor.
 * @param {string} name
 */
export async function setupAccount(name) {
  const me = await currentPlayer();
  if (!me || me.name !== name) return;
  own = me;
  byId('delete-form', HTMLFormElement).addEventListener('submit', confirmDelete);
  $('delete-cancel').addEventListener('click', () => byId('delete-dialog', HTMLDialogElement).close());
  onLangChange(draw);
  draw();
}
