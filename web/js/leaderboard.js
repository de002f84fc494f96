// @ts-check
// The leaderboard (web/leaderboard.html at /leaderboard): one tab per game, the best players of
// `GET /api/leaderboard/{game}` (people past their provisional games, best first). The tab is
// kept in the query (?game=).

import { api, el, byId, errorMessage } from './api.js';
import { t, setupLanguageSwitch, onLangChange } from './i18n.js';
import { setupIdentity, playerHref, currentPlayer } from './identity.js';

const $ = byId;

/** The leaderboard page's state. */
const page = {
  /** @type {import('./api.js').GameInfo[]} The games of /api/games. */
  games: [],
  /** @type {string | null} The game whose table is shown (the `game` of the query first). */
  game: new URLSearchParams(location.search).get('game'),
  /**
   * @type {{ game: string, start: number, players: ({ name: string, kind: string } & import('./player.js').Rating)[] } | null}
   * The table shown (`GET /api/leaderboard/{game}`), or null before it came.
   */
  board: null,
  /** @type {import('./seats.js').Player | null} The session's player, or null. */
  me: null,
};

function renderTabs() {
  $('board-tabs').replaceChildren(...page.games.map((g) => el('button', {
    type: 'button', role: 'tab', class: 'tab', id: `tab-${g.name}`, 'aria-selected': String(g.name === page.game),
    'aria-controls': 'board-panel', onclick: () => select(g.name),
  }, g.title)));
}

function renderBoard() {
  if (!page.board) return;
  if (!page.board.players.length) {
    $('board-table').replaceChildren(el('p', { class: 'muted' }, t('board.empty')));
    return;
  }
  $('board-table').replaceChildren(el('table', { class: 'matches leaderboard', 'data-game': page.board.game },
    el('thead', {}, el('tr', {}, ...['board.rank', 'board.player', 'profile.rating', 'profile.deviation', 'profile.games']
      .map((k) => el('th', {}, t(k))))),
    el('tbody', {}, ...page.board.players.map((p, i) => el('tr', {
      'data-name': p.name, 'data-rating': p.rating, class: p.name === page.me?.name ? 'me' : null,
    },
    el('td', { class: 'num' }, String(i + 1)),
    el('td', {}, el('a', { href: playerHref(p.name) }, p.name)),
    el('td', {}, el('strong', {}, String(p.rating))),
    el('td', { class: 'muted' }, `± ${p.deviation}`),
    el('td', { class: 'num' }, String(p.games)))))));
}

/**
 * @param {string} name
 */
async function select(name) {
  page.game = name;
  history.replaceState(null, '', `/leaderboard?game=${encodeURIComponent(name)}`);
  renderTabs();
  $('error').classList.add('hidden');
  try {
    page.board = await api('GET', `/api/leaderboard/${encodeURIComponent(name)}`);
  } catch (err) {
    page.board = null;
    $('board-table').replaceChildren();
    $('error').textContent = errorMessage(err);
    $('error').classList.remove('hidden');
  }
  renderBoard();
  document.body.dataset.game = name;
}

async function start() {
  setupLanguageSwitch();
  setupIdentity();
  onLangChange(() => {
    renderTabs();
    renderBoard();
  });
  page.me = await currentPlayer();
  try {
    page.games = (await api('GET', '/api/games')).games;
  } catch (err) {
    $('error').textContent = errorMessage(err);
    $('error').classList.remove('hidden');
  }
  if (!page.games.some((g) => g.name === page.game)) page.game = page.games[0]?.name;
  if (page.game) await select(page.game);
  document.body.dataset.ready = 'true';
}

start();
