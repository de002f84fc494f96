// @ts-check
// The leaderboard (web/leaderboard.html at /leaderboard): one tab per game, the best players of
// `GET /api/leaderboard/{game}` (people past their provisional games, best first). The tab is
// kept in the query (?game=).

import { api, el, byId, errorMessage } from './api.js';
import { t, setupLanguageSwitch, onLangChange } from './i18n.js';
import { setupIdentity, playerHref, currentPlayer } from './identity.js';

const $ = byId;

let games = [];
let game = new URLSearchParams(location.search).get('game');
let board = null;
let me = null;

function renderTabs() {
  $('board-tabs').replaceChildren(...games.map((g) => el('button', {
    type: 'button', role: 'tab', class: 'tab', id: `tab-${g.name}`, 'aria-selected': String(g.name === game),
    'aria-controls': 'board-panel', onclick: () => select(g.name),
  }, g.title)));
}

function renderBoard() {
  if (!board) return;
  if (!board.players.length) {
    $('board-table').replaceChildren(el('p', { class: 'muted' }, t('board.empty')));
    return;
  }
  $('board-table').replaceChildren(el('table', { class: 'matches leaderboard', 'data-game': board.game },
    el('thead', {}, el('tr', {}, ...['board.rank', 'board.player', 'profile.rating', 'profile.deviation', 'profile.games']
      .map((k) => el('th', {}, t(k))))),
    el('tbody', {}, ...board.players.map((p, i) => el('tr', {
      'data-name': p.name, 'data-rating': p.rating, class: p.name === me?.name ? 'me' : null,
    },
    el('td', { class: 'num' }, String(i + 1)),
    el('td', {}, el('a', { href: playerHref(p.name) }, p.name)),
    el('td', {}, el('strong', {}, String(p.rating))),
    el('td', { class: 'muted' }, `± ${p.deviation}`),
    el('td', { class: 'num' }, String(p.games)))))));
}

async function select(name) {
  game = name;
  history.replaceState(null, '', `/leaderboard?game=${encodeURIComponent(name)}`);
  renderTabs();
  $('error').classList.add('hidden');
  try {
    board = await api('GET', `/api/leaderboard/${encodeURIComponent(name)}`);
  } catch (err) {
    board = null;
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
  me = await currentPlayer();
  try {
    games = (await api('GET', '/api/games')).games;
  } catch (err) {
    $('error').textContent = errorMessage(err);
    $('error').classList.remove('hidden');
  }
  if (!games.some((g) => g.name === game)) game = games[0]?.name;
  if (game) await select(game);
  document.body.dataset.ready = 'true';
}

start();
