// @ts-check
// Challenges to a named player and the friend list, in the lobby (docs/protocol.md sections 7.7
// and 7.8): the challenges waiting for this player's answer (Accept, Decline) and those it sent
// (Withdraw), with a chime and a system notification when one comes; what became of a challenge
// that ended; the players it follows, who of them is online or playing (Watch), each with a
// Challenge button; and the challenge dialog (a name, a game, a clock, rated or not), opened from
// the friend list, from a player's page (`/?challenge=Name`) or by typing a name.
//
// The lobby gives the mount points `#incoming-panel`, `#friends-panel` and `#challenge-dialog`
// (web/index.html) and passes its socket; the lobby's `paired` handler opens the match.

import { el, byId } from './api.js';
import { t, errorText, onLangChange } from './i18n.js';
import { playerHref, onPlayerChange } from './identity.js';
import { clockPresets, timeControlText } from './clocks.js';
import { chime, notifyText } from './notify.js';

const $ = byId;

/**
 * One side of a challenge.
 * @typedef {{ name: string, kind: string, rating: number }} Side
 */

/**
 * CHALLENGE (docs/protocol.md section 7.7).
 * @typedef {{ challenge: number, from: Side, to: Side, game: string, seats: number,
 *   time_control: import('./clocks.js').TimeControl, rated: boolean, expires_at: number }} Challenge
 */

/**
 * A followed player as the lobby's `friends` message shows it (section 7.8).
 * @typedef {{ name: string, kind: string, online: boolean, playing: string | null }} Friend
 */

/**
 * What the lobby lends this module: its socket's send, the games, the player (null before a
 * name), a way to get a name first (resolved once the socket is open with it), and its error
 * box.
 * @typedef {{ send: (msg: object) => boolean, games: () => import('./api.js').GameInfo[],
 *   player: () => { name: string } | null, ensureName: () => Promise<void>,
 *   showError: (err: unknown) => void }} Lobby
 */

const state = {
  /** @type {Challenge[]} */
  incoming: [],
  /** @type {Challenge[]} */
  outgoing: [],
  /** @type {Friend[] | null} null before the first `friends` message. */
  friends: null,
  /** @type {Set<number>} The incoming challenges already announced. */
  announced: new Set(),
  /** @type {string} The last word on a challenge that ended, or ''. */
  news: '',
};

/** @type {Lobby | null} */
let lobby = null;

/** The games a challenge may be for: those played by two. */
function twoSeatGames() {
  return (lobby?.games() || []).filter((g) => g.min_seats <= 2 && g.max_seats >= 2);
}

/** @param {string} name */
const titleOf = (name) => lobby?.games().find((g) => g.name === name)?.title || name;

/**
 * "MAD · 10′ + 5″ · Casual"
 * @param {Challenge} c
 */
function facts(c) {
  return [titleOf(c.game), timeControlText(c.time_control), t(c.rated ? 'play.rated' : 'play.casual')].join(' · ');
}

/**
 * @param {object} msg
 */
function send(msg) {
  if (!lobby?.send(msg)) lobby?.showError(Object.assign(new Error(t('match.reconnecting')), { code: 'network' }));
}

/**
 * @param {Challenge} c
 * @param {boolean} mine whether this player sent it
 */
function challengeRow(c, mine) {
  const other = mine ? c.to : c.from;
  const who = el('span', { class: 'challenge-who' },
    el('a', { href: playerHref(other.name) }, other.name), ` (${other.rating})`);
  const buttons = mine
    ? [el('button', { type: 'button', class: 'secondary challenge-cancel', onclick: () => send({ type: 'challenge_cancel', challenge: c.challenge }) }, t('challenge.cancel'))]
    : [el('button', { type: 'button', class: 'challenge-yes', onclick: () => send({ type: 'challenge_accept', challenge: c.challenge }) }, t('challenges.accept')),
      el('button', { type: 'button', class: 'secondary challenge-no', onclick: () => send({ type: 'challenge_decline', challenge: c.challenge }) }, t('challenge.decline'))];
  return el('li', { class: 'challenge', 'data-challenge': c.challenge, 'data-from': c.from.name, 'data-to': c.to.name },
    el('span', {}, mine ? t('challenge.to') : t('challenge.from'), ' ', who),
    el('span', { class: 'muted small' }, facts(c)),
    el('span', { class: 'actions' }, ...buttons));
}

function renderChallenges() {
  const panel = $('incoming-panel');
  const any = state.incoming.length + state.outgoing.length > 0;
  panel.classList.toggle('hidden', !any && !state.news);
  panel.classList.toggle('attention', state.incoming.length > 0);
  $('incoming-list').replaceChildren(...state.incoming.map((c) => challengeRow(c, false)),
    ...state.outgoing.map((c) => challengeRow(c, true)));
  $('challenge-news').textContent = state.news;
  document.body.dataset.incoming = String(state.incoming.length);
  document.body.dataset.outgoing = String(state.outgoing.length);
}

/**
 * @param {Friend} f
 */
function friendRow(f) {
  const status = f.playing ? 'playing' : f.online ? 'online' : 'offline';
  return el('li', { class: `friend ${status}`, 'data-friend': f.name, 'data-status': status },
    el('span', { class: 'friend-dot', 'aria-hidden': 'true' }),
    el('a', { href: playerHref(f.name) }, f.name),
    el('span', { class: 'muted small' }, t(`friend.${status}`)),
    el('span', { class: 'actions' },
      f.playing ? el('a', { class: 'button secondary', href: `/m/${f.playing}` }, t('lobby.watch')) : null,
      el('button', { type: 'button', class: 'secondary friend-challenge', onclick: () => openChallenge(f.name) }, t('challenge.send'))));
}

function renderFriends() {
  const list = state.friends || [];
  $('friends-panel').classList.toggle('hidden', !lobby?.player());
  $('friends-list').replaceChildren(...list.map(friendRow));
  $('friends-none').classList.toggle('hidden', list.length > 0);
  const online = list.filter((f) => f.online).length;
  $('friends-count').textContent = list.length ? t('friends.online', { n: online, of: list.length }) : '';
}

/** Every part drawn again (a language change, a new player). */
export function renderCommunity() {
  if (!lobby) return;
  renderChallenges();
  renderFriends();
}

/**
 * The challenge dialog, for `name` (or an empty name to type).
 * @param {string} name
 */
export function openChallenge(name) {
  const games = twoSeatGames();
  const game = $('challenge-game', HTMLSelectElement);
  game.replaceChildren(...games.map((g) => el('option', { value: g.name }, g.title)));
  $('challenge-name', HTMLInputElement).value = name;
  $('challenge-error').classList.add('hidden');
  fillClocks();
  $('challenge-dialog', HTMLDialogElement).showModal();
}

/** The clocks of the game chosen in the dialog. */
function fillClocks() {
  const game = twoSeatGames().find((g) => g.name === $('challenge-game', HTMLSelectElement).value);
  const presets = clockPresets(game);
  $('challenge-clock', HTMLSelectElement).replaceChildren(...presets.map((p, i) => el('option',
    { value: String(i), selected: Boolean(p.preferred) }, `${t(p.key)} (${timeControlText(p.tc)})`)));
}

/**
 * @param {SubmitEvent} ev
 */
async function submitChallenge(ev) {
  ev.preventDefault();
  const box = $('challenge-error');
  try {
    await lobby?.ensureName();
    const gameName = $('challenge-game', HTMLSelectElement).value;
    const game = twoSeatGames().find((g) => g.name === gameName);
    const preset = clockPresets(game)[Number($('challenge-clock', HTMLSelectElement).value)];
    send({
      type: 'challenge', name: $('challenge-name', HTMLInputElement).value.trim(), game: gameName,
      time_control: preset?.tc || { kind: 'none' }, rated: $('challenge-rated', HTMLInputElement).checked,
    });
    $('challenge-dialog', HTMLDialogElement).close();
  } catch (err) {
    box.textContent = errorText(err);
    box.classList.remove('hidden');
  }
}

/**
 * @param {{ incoming: Challenge[], outgoing: Challenge[] }} msg
 */
function onChallenges(msg) {
  state.incoming = msg.incoming;
  state.outgoing = msg.outgoing;
  for (const c of msg.incoming) {
    if (state.announced.has(c.challenge)) continue;
    state.announced.add(c.challenge);
    state.news = '';
    chime();
    notifyText(t('challenge.notify', { name: c.from.name }), facts(c), `challenge-${c.challenge}`);
  }
  renderChallenges();
}

/**
 * @param {{ challenge: number, name: string, reason: 'declined' | 'cancelled' | 'expired' }} msg
 */
function onEnded(msg) {
  state.news = t(`challenge.ended.${msg.reason}`, { name: msg.name });
  renderChallenges();
}

/**
 * @param {{ friends: Friend[] }} msg
 */
function onFriends(msg) {
  state.friends = msg.friends;
  renderFriends();
}

/**
 * Sets the parts up over `given`; returns the lobby socket's handlers of their messages. A
 * `?challenge=Name` in the address opens the dialog for that player.
 * @param {Lobby} given
 * @returns {Record<string, (msg: any) => void>}
 */
export function setupCommunity(given) {
  lobby = given;
  $('challenge-form').addEventListener('submit', submitChallenge);
  $('challenge-game').addEventListener('change', fillClocks);
  $('challenge-close').addEventListener('click', () => $('challenge-dialog', HTMLDialogElement).close());
  $('friends-challenge').addEventListener('click', () => openChallenge(''));
  onLangChange(renderCommunity);
  onPlayerChange(renderCommunity);
  const asked = new URLSearchParams(location.search).get('challenge');
  if (asked) openChallenge(asked);
  renderCommunity();
  return {
    challenges: onChallenges,
    challenge_sent: () => {
      state.news = '';
      renderChallenges();
    },
    challenge_ended: onEnded,
    friends: onFriends,
  };
}
