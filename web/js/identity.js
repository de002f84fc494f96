// @ts-check
// Who is playing: the session's player (docs/protocol.md, "Sessions and players") and the header
// every page shows: the player's name (a link to /@/{name}), "Create an account", "Sign in" and
// "Sign out". Names are always put in the page as text (textContent), never as HTML.

import { api, el, byId } from './api.js';
import { t, onLangChange, errorText } from './i18n.js';
import { askName, NAME_PATTERN } from './nameprompt.js';

/** @typedef {import('./seats.js').Player} Player */

/** The session as this page knows it. */
const session = {
  /** @type {{ name: string, kind: string } | null | undefined} The session's player, or null; undefined before `GET /api/me` answered. */
  player: undefined,
  /** Whether the player may still rename itself (`can_rename` of `GET /api/me`). */
  canRename: false,
  /** @type {Promise<any> | null} The `GET /api/me` asked once per page, or null before. */
  loaded: null,
  /**
   * The player's standing with the moderators (`standing` of `GET /api/me`), or null.
   * @type {{ moderator: boolean, banned: boolean, banned_until: number | null,
   *   muted_until: number | null, warnings: { id: number, at: number, reason: string }[] } | null}
   */
  standing: null,
};
/** @type {((player: Player | null) => void)[]} */
const listeners = [];

/** The session's PLAYER ({name, kind}) or null; asked once per page (`GET /api/me`). */
export function currentPlayer() {
  if (!session.loaded) {
    session.loaded = api('GET', '/api/me').then((res) => {
      session.player = res?.player ?? null;
      session.canRename = Boolean(res?.can_rename);
      session.standing = res?.standing ?? null;
      return session.player;
    }).catch(() => {
      session.player = null;
      return null;
    });
  }
  return session.loaded;
}

/**
 * Calls `fn(player)` whenever the page's player changes (named, signed in or out).
 * @param {(player: Player | null) => void} fn called with the new player when the session's changes
 */
export function onPlayerChange(fn) {
  listeners.push(fn);
}

/**
 * @param {Player | null} p
 */
function setPlayer(p) {
  session.player = p;
  session.loaded = Promise.resolve(p);
  renderIdentity();
  for (const fn of listeners) fn(p);
}

/**
 * Becomes (or renames the current guest to) `name`: `POST /api/guest`. Throws the ApiError.
 * @param {string} name
 */
export async function chooseName(name) {
  const res = await api('POST', '/api/guest', { name });
  // A new guest, or one renamed: its name stays changeable until its first rated game.
  if (!session.player) session.canRename = true;
  setPlayer(res.player);
  return res.player;
}

/**
 * The link to a player's page.
 * @param {string} name
 */
export function playerHref(name) {
  return `/@/${encodeURIComponent(name)}`;
}

/**
 * A player's name as a link to their page (bots are shown as text: they have no page to read).
 * @param {Player | null | undefined} p
 * @param {Record<string, import('./api.js').Attr>} [attrs]
 */
export function playerLink(p, attrs = {}) {
  if (!p?.name) return el('span', attrs, '');
  if (p.kind === 'bot') return el('span', { class: 'player-bot', ...attrs }, p.name);
  return el('a', { href: playerHref(p.name), class: 'player-link', ...attrs }, p.name);
}

// ---- The header ------------------------------------------------------------------------------

/** Adds the identity slot to the page's header and fills it; call once per page. */
export function setupIdentity() {
  const bar = document.querySelector('.topbar');
  if (!bar || document.getElementById('identity')) return;
  const slot = el('div', { id: 'identity', class: 'identity', 'aria-live': 'polite' });
  const lang = bar.querySelector('label');
  bar.insertBefore(slot, lang);
  document.body.append(accountDialog(), signInDialog());
  onLangChange(renderIdentity);
  currentPlayer().then(renderIdentity);
  // A ban closes the page's sockets (socket.js): the page says why at once.
  document.addEventListener('plateau:banned', () => {
    session.loaded = null;
    currentPlayer().then(renderIdentity);
  });
}

function renderIdentity() {
  const slot = document.getElementById('identity');
  if (!slot) return;
  const parts = [];
  if (session.player) {
    parts.push(el('a', { id: 'me-link', class: 'me', href: playerHref(session.player.name), 'data-kind': session.player.kind }, session.player.name));
    if (session.player.kind === 'guest') parts.push(el('span', { class: 'badge' }, t('id.guest')));
    if (session.player.kind === 'guest' && session.canRename) {
      parts.push(el('button', { type: 'button', class: 'link', id: 'rename', onclick: rename }, t('id.rename')));
    }
  }
  if (!session.player || session.player.kind === 'guest') {
    parts.push(el('button', { type: 'button', class: 'link', id: 'open-account', onclick: () => openDialog('account-dialog') }, t('id.create')));
    parts.push(el('button', { type: 'button', class: 'link', id: 'open-signin', onclick: () => openDialog('signin-dialog') }, t('id.signin')));
  }
  if (session.standing?.moderator) {
    parts.push(el('a', { id: 'moderation-link', href: '/moderation' }, t('mod.nav')));
  }
  if (session.player?.kind === 'account') {
    parts.push(el('button', { type: 'button', class: 'link', id: 'signout', onclick: signOut }, t('id.signout')));
  }
  slot.replaceChildren(...parts);
  renderStanding();
  document.body.dataset.player = session.player ? session.player.name : '';
}

/**
 * A time the player reads: its date and hour in the page's language.
 * @param {number} ms unix ms
 */
function when(ms) {
  return new Date(ms).toLocaleString(document.documentElement.lang === 'fr' ? 'fr-FR' : 'en-GB',
    { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/**
 * What the moderators said to the player, above the page (docs/protocol.md section 7.11): a ban
 * or a mute with its end, and the warnings not read yet with "I have read it".
 */
function renderStanding() {
  const s = session.standing;
  const main = document.querySelector('main');
  let box = document.getElementById('standing');
  if (!main) return;
  if (!box) {
    box = el('div', { id: 'standing', class: 'standing', role: 'status' });
    main.prepend(box);
  }
  const notes = [];
  if (s?.banned) {
    notes.push(el('p', { class: 'error-box', id: 'standing-banned' },
      s.banned_until ? t('standing.banned.until', { when: when(s.banned_until) }) : t('standing.banned')));
  }
  if (s?.muted_until) {
    notes.push(el('p', { class: 'note', id: 'standing-muted' }, t('standing.muted', { when: when(s.muted_until) })));
  }
  const warnings = s?.warnings ?? [];
  if (warnings.length) {
    const last = warnings[warnings.length - 1].id;
    notes.push(el('div', { class: 'note warning', id: 'standing-warnings' },
      el('strong', {}, t('standing.warned')),
      el('ul', {}, ...warnings.map((w) => el('li', { 'data-warning': w.id }, `${when(w.at)}: ${w.reason}`))),
      el('button', {
        type: 'button', id: 'standing-read',
        onclick: async () => {
          try {
            await api('POST', '/api/me/warnings', { up_to: last });
            if (session.standing) session.standing.warnings = [];
          } catch {
            // Shown again at the next page: the warning stays unread.
          }
          renderStanding();
        },
      }, t('standing.read'))));
  }
  box.replaceChildren(...notes);
  box.classList.toggle('hidden', !notes.length);
}

/** The guest's Rename: the name dialog, prefilled with the current name. */
async function rename() {
  await askName({ purpose: 'rename', current: session.player?.name ?? '', choose: chooseName });
}

/** @param {string} id */
function openDialog(id) {
  const dialog = byId(id, HTMLDialogElement);
  dialog.querySelector('.error-box')?.classList.add('hidden');
  const name = /** @type {HTMLInputElement | null} */ (dialog.querySelector('input[name=name]'));
  if (name && !name.value && session.player) name.value = session.player.name;
  dialog.showModal();
  const password = /** @type {HTMLInputElement | null} */ (dialog.querySelector('input[type=password]'));
  (name && !name.value ? name : password || name)?.focus();
}

/**
 * @param {HTMLDialogElement} dialog
 * @param {unknown} err
 */
function dialogError(dialog, err) {
  const box = dialog.querySelector('.error-box');
  if (!box) return;
  box.textContent = errorText(err);
  box.classList.remove('hidden');
}

/**
 * @param {string} name
 * @param {string} type
 * @param {string} labelKey
 */
function field(name, type, labelKey, attrs = {}) {
  const input = el('input', { name, type, required: true, ...attrs });
  const label = el('label', { class: 'stack' }, el('span', { 'data-i18n': labelKey }, t(labelKey)), input);
  return label;
}

/**
 * @param {string} id
 * @param {string} titleKey
 * @param {(HTMLLabelElement | HTMLParagraphElement)[]} fields
 * @param {string} submitKey
 * @param {(data: Record<string, string>) => Promise<void>} onSubmit called with the form's fields by name
 */
function dialogShell(id, titleKey, fields, submitKey, onSubmit) {
  const form = el('form', { method: 'dialog' },
    el('h2', { 'data-i18n': titleKey }, t(titleKey)),
    ...fields,
    el('div', { class: 'error-box hidden', role: 'alert' }),
    el('div', { class: 'actions' },
      el('button', { type: 'submit', 'data-i18n': submitKey }, t(submitKey)),
      el('button', { type: 'button', class: 'secondary', 'data-i18n': 'match.cancel',
        onclick: () => byId(id, HTMLDialogElement).close() }, t('match.cancel'))));
  const dialog = el('dialog', { id, class: 'dialog' }, form);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    // Every field is a text input.
    const data = Object.fromEntries([...new FormData(form)].map(([k, v]) => [k, String(v)]));
    const button = /** @type {HTMLButtonElement} */ (form.querySelector('button[type=submit]'));
    button.disabled = true;
    try {
      await onSubmit(data);
      dialog.close();
      form.reset();
    } catch (err) {
      dialogError(dialog, err);
    } finally {
      button.disabled = false;
    }
  });
  return dialog;
}

/** "Create an account": keeps the guest's games and ratings under a password (`POST /api/account`). */
function accountDialog() {
  return dialogShell('account-dialog', 'id.create.title', [
    el('p', { class: 'small muted', 'data-i18n': 'id.create.help' }, t('id.create.help')),
    field('name', 'text', 'id.name', { pattern: NAME_PATTERN, maxlength: 20, autocomplete: 'username', id: 'account-name' }),
    field('password', 'password', 'id.password', { minlength: 8, maxlength: 128, autocomplete: 'new-password', id: 'account-password' }),
  ], 'id.create', async ({ name, password }) => {
    /** @type {{ password: string, name?: string }} */
    const body = { password };
    if (name && name !== session.player?.name) body.name = name;
    const res = await api('POST', '/api/account', body);
    afterSignIn(res.player);
  });
}

/** "Sign in" with an account's name and password (`POST /api/login`). */
function signInDialog() {
  return dialogShell('signin-dialog', 'id.signin.title', [
    field('name', 'text', 'id.name', { maxlength: 20, autocomplete: 'username', id: 'signin-name' }),
    field('password', 'password', 'id.password', { maxlength: 128, autocomplete: 'current-password', id: 'signin-password' }),
  ], 'id.signin', async ({ name, password }) => {
    const res = await api('POST', '/api/login', { name, password });
    afterSignIn(res.player);
  });
}

// Signing in or out changes who holds the seats and sockets of this page: the page is loaded
// again, so every WebSocket opens with the new session cookie.
/**
 * @param {Player} p
 */
function afterSignIn(p) {
  setPlayer(p);
  location.reload();
}

async function signOut() {
  try {
    await api('POST', '/api/logout', {});
  } catch {
    // Already signed out: the page is reloaded all the same.
  }
  setPlayer(null);
  location.reload();
}
