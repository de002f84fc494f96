// @ts-check
// The tournaments of the player page (web/player.html): each tournament the player joined, with
// its place and points, latest first, from `GET /api/players/{name}/tournaments` (docs/protocol.md
// section 7.9).

import { api, el } from './api.js';
import { t } from './i18n.js';
import { dateText, pointsText } from './tournament-words.js';

/**
 * One tournament of a player: the tournament, and the player's place, points and games in it.
 * @typedef {{ tournament: import('./tournament-words.js').TourInfo, place: number, points: number,
 *   games: number }} PlayerTournament
 */

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
    entries = (await api('GET', `/api/players/${encodeURIComponent(name)}/tournaments`)).tournaments;
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
    el('td', { class: 'num' }, pointsText(e.tournament, e.points)))))));
}
