// @ts-check
// The name a new visitor is asked for on arriving at a table, before sitting down from an invite
// link or on opening a match to watch: a name already typed in (a suggestion), so one tap accepts
// it, or any other name; or "I have an account" to sign in. A watcher needs no name, so its
// dialog also has "Just watch" (the chat asks again when they first write). The name is the
// visitor's guest name (`POST /api/guest`), which the others see at the table, in the chat and on
// the profiles; a guest may change it until its first rated game (the header's Rename).

import { el, errorCode } from './api.js';
import { t, errorText } from './i18n.js';

/** Names the server accepts: 3 to 20 of letters, digits, `_` and `-`, starting with a letter or digit. */
export const NAME_PATTERN = '[A-Za-z0-9][A-Za-z0-9_\\-]{2,19}';

/** A suggestion for a new visitor's name, e.g. "Comet-417" (any name can be typed instead). */
export function suggestName() {
  const words = ['Comet', 'Corsair', 'Nebula', 'Harbour', 'Falcon', 'Meteor', 'Pilot', 'Voyager', 'Orbit', 'Mariner'];
  const word = words[Math.floor(Math.random() * words.length)];
  return `${word}-${100 + Math.floor(Math.random() * 900)}`;
}

/**
 * Shows the name dialog and resolves with the player once the server took the name
 * (`{name, kind}`). `purpose` picks the words: `'join'` (an invite: a name is required),
 * `'watch'` (a match opened to watch: "Just watch" or Escape resolves with null) or `'rename'`
 * (the header's Rename, prefilled with `current`; Cancel or Escape resolves with null). The name
 * is taken by `choose` (identity.js's `chooseName`, which changes the session: passed in, so this
 * dialog and the header's Rename need not import each other).
 * @param {{ purpose?: 'join' | 'watch' | 'rename', current?: string,
 *   choose: (name: string) => Promise<import('./seats.js').Player> }} options
 * @returns {Promise<import('./seats.js').Player | null>}
 */
export function askName({ purpose = 'join', current = '', choose }) {
  return new Promise((resolve) => {
    const input = el('input', {
      id: 'name-input', name: 'name', required: true, maxlength: 20, pattern: NAME_PATTERN,
      autocomplete: 'nickname', value: current || suggestName(), 'aria-labelledby': 'name-title',
    });
    const error = el('div', { class: 'error-box hidden', role: 'alert', id: 'name-error' });
    const go = el('button', { type: 'submit', id: 'name-go' }, t(`name.${purpose}.go`));
    const signin = el('button', {
      type: 'button', class: 'link', id: 'name-signin',
      // The sign-in dialog opens above this one; signing in reloads the page.
      onclick: () => document.getElementById('open-signin')?.click(),
    }, t('welcome.signin'));
    /** @type {Record<string, HTMLButtonElement[]>} */
    const extra = {
      join: [signin],
      watch: [el('button', { type: 'button', class: 'secondary', id: 'name-skip', onclick: () => done(null) }, t('name.watch.skip')), signin],
      rename: [el('button', { type: 'button', class: 'secondary', id: 'name-cancel', onclick: () => done(null) }, t('match.cancel'))],
    };
    const form = el('form', { method: 'dialog' },
      el('h2', { id: 'name-title' }, t(`name.${purpose}.title`)),
      el('p', { class: 'small muted' }, t(`name.${purpose}.help`)),
      el('div', { class: 'form-row' }, input),
      error,
      el('div', { class: 'actions' }, go, ...(extra[purpose] ?? [])));
    const dialog = el('dialog', { id: 'name-dialog', class: 'dialog', 'data-purpose': purpose }, form);
    const done = (/** @type {import('./seats.js').Player | null} */ player) => {
      dialog.close();
      dialog.remove();
      resolve(player);
    };
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      go.disabled = true;
      error.classList.add('hidden');
      try {
        done(await choose(input.value.trim()));
      } catch (err) {
        error.textContent = errorText(err);
        error.dataset.code = errorCode(err) || '';
        error.classList.remove('hidden');
      } finally {
        go.disabled = false;
      }
    });
    // Escape must not leave an invited visitor without a name (the seat would hold none).
    dialog.addEventListener('cancel', (ev) => {
      if (purpose === 'join') ev.preventDefault();
      else done(null);
    });
    document.body.append(dialog);
    dialog.showModal();
    input.select();
  });
}
