// @ts-check
// The tournaments of the player page (web/player.html): each tournament the player joined, with
// its place and points, latest first, from `GET /api/players/{name}/tournaments` (docs/protocol.md
// section 7.9).

import { api, el, errorCode } from './api.js';
import { t } from './i18n.js';
import { dateText } from './tournament-words.js';

/**
 * One tournament of a player: the tournament, and the player's place, points and games in it.
 * @typedef {{ tournament: import('./tournament-words.js').TourInfo, place: number, points: number,
 *   games: number }} PlayerTournament
 */

/** Tournaments read one by one when the server has no list of a player's (see `derived`). */
const READ_AT_MOST = 12;

/**
 * The player's tournaments made out of the tournaments' own reads: those of `GET
 * /api/tournaments` (live and the last finished), at most READ_AT_MOST, in which the player has
 * a line. For a server without `GET /api/players/{name}/tournaments`.
 * @param {string} name
 * @returns {Promise<PlayerTournament[]>}
 */
async function derived(name) {
  const list = await api('GET', '/api/tournaments');
  /** @type {import('./tournament-words.js').TourInfo[]} */
  const infos = [...list.live, ...list.finished].slice(0, READ_AT_MOST);
  const details = await Promise.all(infos.map((i) => api('GET', `/api/tournaments/${encodeURIComponent(i.id)}`).catch(() => null)));
  /** @type {PlayerTournament[]} */
  const out = [];
  for (const d of details) {
    const line = d?.standings.find((/** @type {import('./tournament-words.js').TourLine} */ l) => l.name.toLowerCase() === name.toLowerCase());
    if (line) out.push({ tournament: d.tournament, place: line.place, points: line.points, games: line.games });
  }
  return out;
}

/**
 * The player's tournaments, latest start first.
 * @param {string} name
 * @returns {Promise<PlayerTournament[]>}
 */
async function playerTournaments(name) {
  try {
    const body = await api('GET', `/api/players/${encodeURIComponent(name)}/tournaments`);
    return body.tournaments;
  } catch (err) {
    if (errorCode(err) === 'request/not_found') return derived(name);
    throw err;
  }
}

/**
 * Fills `container` with the tournaments of the player `name`.
 * @param {HTMLElement} container
 * @param {string} name
 * @param {(game: string) => string} title a game's title by its name
 */
export async function renderPlayerTournaments(container, name, title) {
  /** @type {PlayerTournament[]} */
  let entries;
  try {
    entries = await playerTournaments(name);
  } catch {
    entries = [];
  }
  if (!entries.length) {
    container.replaceChildren(el('p', { class: 'muted' }, t('profile.notournaments')));
    return;
  }
  container.replaceChildren(el('table', { class: 'matches player-tournaments' },
    el('thead', {}, el('tr', {}, ...['tours.name', 'lobby.game', 'profile.tour.rank', 'tour.points']
      .map((k) => el('th', {}, t(k))))),
    el('tbody', {}, ...entries.map((e) => el('tr', {
      'data-tournament': e.tournament.id, 'data-place': e.place, 'data-points': e.points,
    },
    el('td', {}, el('a', { href: `/t/${encodeURIComponent(e.tournament.id)}` }, e.tournament.name),
      el('div', { class: 'small muted' }, dateText(e.tournament.starts_at))),
    el('td', {}, title(e.tournament.game)),
    el('td', { class: 'num' }, String(e.place)),
    el('td', { class: 'num' }, String(e.points)))))));
}
