// @ts-check
// One tournament (web/tournament.html at /t/{id}), followed live over the lobby socket
// (`tournament_follow`, docs/protocol.md section 7.9): the countdown to its start or its end,
// Join and Withdraw (a refusal said in words), the standings, the games in play each with a
// Watch link, the player's own game with "Play your game", and the latest results.

import { api, el, byId, idFromPath, errorCode } from './api.js';
import { t, setupLanguageSwitch, onLangChange } from './i18n.js';
import { setupIdentity, currentPlayer, onPlayerChange, chooseName, playerHref } from './identity.js';
import { askName } from './nameprompt.js';
import { factsText, whenText, tourErrorText, followLive, kindOf, pointsText } from './tournament-words.js';

const $ = byId;

/** @typedef {import('./tournament-words.js').TourDetail} TourDetail */
/** @typedef {import('./tournament-words.js').TourGame} TourGame */

/** Results shown under "Latest results". */
const RESULTS_SHOWN = 10;

/** The page's state. */
const page = {
  /** The tournament's id, from the path. */
  id: idFromPath() || '',
  /** @type {TourDetail | null} The tournament as last heard. */
  detail: null,
  /** Whether the socket has sent it: then an HTTP answer read earlier is older. */
  live: false,
  /** @type {{ name: string, kind: string } | null} The session's player. */
  me: null,
  /** @type {Record<string, string>} The games' titles, by name. */
  titles: {},
};

const title = (/** @type {string} */ game) => page.titles[game] || game;

/** The player's line of the standings, if it ever joined. */
function myLine() {
  return page.detail?.standings.find((l) => l.name === page.me?.name) ?? null;
}

/** The player's game in play, if any. */
function myGame() {
  return page.detail?.games.find((g) => g.ranks === null && g.match_id && g.players.includes(page.me?.name ?? '')) ?? null;
}

/**
 * "Ada against Bob"; a table's players one after the other.
 * @param {TourGame} g
 */
const pairing = (g) => (g.players.length === 2 ? t('tour.vs', { a: g.players[0], b: g.players[1] }) : g.players.join(', '));

/**
 * A finished game's result in words.
 * @param {TourGame} g
 */
function resultText(g) {
  const ranks = g.ranks ?? [];
  const best = Math.min(...ranks);
  const winners = g.players.filter((_, i) => ranks[i] === best);
  if (winners.length === 1) return t('tour.won', { name: winners[0] });
  return winners.length === g.players.length ? t('tour.draw') : t('tour.shared', { names: winners.join(', ') });
}

function renderWhen() {
  if (!page.detail) return;
  $('tour-when').textContent = whenText(page.detail.tournament, Date.now());
}

function renderMe() {
  if (!page.detail) return;
  const info = page.detail.tournament;
  const line = myLine();
  const open = info.phase !== 'finished';
  $('join').classList.toggle('hidden', !open || Boolean(line?.active));
  $('withdraw').classList.toggle('hidden', !open || !line?.active);
  const game = myGame();
  let words = '';
  if (line && !line.active) words = t('tour.out');
  else if (line && info.phase === 'running' && !game) words = t(kindOf(info) === 'arena' ? 'tour.wait' : 'tour.wait.round');
  else if (line) words = t('tour.in');
  $('tour-me').textContent = words;
  $('your-game').classList.toggle('hidden', !game);
  if (game?.match_id) {
    const other = game.players.find((p) => p !== page.me?.name) ?? '';
    $('your-game-text').textContent = t('tour.paired', { name: other });
    $('your-game-link', HTMLAnchorElement).href = `/m/${encodeURIComponent(game.match_id)}`;
  }
  document.body.dataset.joined = String(Boolean(line?.active));
  document.body.dataset.myGame = game?.match_id ?? '';
}

function renderStandings() {
  if (!page.detail) return;
  const info = page.detail.tournament;
  const lines = page.detail.standings;
  if (!lines.length) {
    $('standings').replaceChildren(el('p', { class: 'muted' }, t('tour.nobody')));
    return;
  }
  $('standings').replaceChildren(el('table', { class: 'matches standings' },
    el('thead', {}, el('tr', {}, ...['tour.place', 'tour.player', 'tour.points', 'tour.played', 'tour.wins']
      .map((k) => el('th', {}, t(k))))),
    el('tbody', {}, ...lines.map((l) => el('tr', {
      class: l.name === page.me?.name ? 'me' : null, 'data-name': l.name, 'data-points': l.points,
    },
    el('td', { class: 'num' }, String(l.place)),
    el('td', {}, el('a', { href: playerHref(l.name) }, l.name),
      l.on_fire ? el('span', { class: 'fire', title: t('tour.fire'), 'aria-label': t('tour.fire') }, ' 🔥') : '',
      l.active ? '' : el('span', { class: 'muted small' }, ` (${t('tour.withdrawn')})`)),
    el('td', { class: 'num points' }, pointsText(info, l.points)),
    el('td', { class: 'num' }, String(l.games)),
    el('td', { class: 'num' }, String(l.wins)))))));
}

/**
 * A game of the list: its players, its result once over, and a link to it (Play your game for
 * the player's own, Watch while it is played, Replay once over).
 * @param {TourGame} g
 * @param {TourGame | null} mine
 */
function gameItem(g, mine) {
  const link = () => {
    if (!g.match_id) return '';
    if (g.ranks !== null) return el('a', { class: 'button secondary', href: `/replay/${g.match_id}` }, t('lobby.replay'));
    if (g === mine) return el('a', { class: 'button', href: `/m/${g.match_id}` }, t('tour.play'));
    return el('a', { class: 'button secondary', href: `/m/${g.match_id}` }, t('tour.watch'));
  };
  return el('li', { class: g === mine ? 'tour-game mine' : 'tour-game', 'data-match': g.match_id },
    el('span', {}, pairing(g), g.ranks === null ? '' : [' · ', el('strong', {}, resultText(g))]), link());
}

/**
 * @param {string} id the list's element
 * @param {TourGame[]} games
 * @param {string} none the words when there is none
 */
function listGames(id, games, none) {
  const mine = myGame();
  $(id).replaceChildren(...(games.length ? games.map((g) => gameItem(g, mine)) : [el('li', { class: 'muted small' }, t(none))]));
}

/** An arena's games in play, or a round's games (and its bye); then the latest results. */
function renderGames() {
  if (!page.detail) return;
  const info = page.detail.tournament;
  const round = info.round ?? 0;
  const inRounds = kindOf(info) !== 'arena' && round > 0;
  $('games-title').textContent = inRounds ? t('tour.round.games', { round }) : t('tour.games');
  const current = inRounds
    ? page.detail.games.filter((g) => g.round === round)
    : page.detail.games.filter((g) => g.ranks === null && g.match_id);
  listGames('games', current, 'tour.nogames');
  const bye = (page.detail.byes ?? []).find((b) => b.round === round);
  if (inRounds && bye) $('games').append(el('li', { class: 'muted small tour-bye' }, t('tour.bye', { name: bye.name })));
  const done = page.detail.games.filter((g) => g.ranks !== null && !current.includes(g)).slice(-RESULTS_SHOWN).reverse();
  listGames('results', done, 'tour.noresults');
}

function render() {
  if (!page.detail) return;
  const info = page.detail.tournament;
  document.title = `${info.name} · ${t('app.title')}`;
  $('tour-name').textContent = info.name;
  $('tour-facts').textContent = factsText(info, title);
  renderWhen();
  renderMe();
  renderStandings();
  renderGames();
  $('tour').classList.remove('hidden');
  document.body.dataset.phase = info.phase;
  document.body.dataset.results = String(page.detail.games.filter((g) => g.ranks !== null).length);
}

/**
 * @param {unknown} err a refusal to show, or null to hide the box
 */
function showRefusal(err) {
  $('join-error').classList.toggle('hidden', !err);
  $('join-error').textContent = err ? tourErrorText(err, { min: page.detail?.tournament.min_rating ?? '' }) : '';
  if (err) $('join-error').dataset.code = errorCode(err);
}

/**
 * Joins or withdraws; a visitor without a name is asked for one first.
 * @param {'join' | 'withdraw'} action
 */
async function act(action) {
  showRefusal(null);
  if (!page.me) {
    page.me = await askName({ purpose: 'join', choose: chooseName });
    if (!page.me) return;
  }
  const button = $(action, HTMLButtonElement);
  button.disabled = true;
  try {
    page.detail = await api('POST', `/api/tournaments/${encodeURIComponent(page.id)}/${action}`);
    render();
  } catch (err) {
    showRefusal(err);
  } finally {
    button.disabled = false;
  }
}

/**
 * @param {any} msg a lobby socket message
 */
function heard(msg) {
  if (msg.type === 'tournament' && msg.tournament.id === page.id) {
    page.detail = { tournament: msg.tournament, standings: msg.standings, games: msg.games };
    page.live = true;
    render();
  }
}

async function start() {
  setupLanguageSwitch();
  setupIdentity();
  onLangChange(render);
  onPlayerChange((p) => {
    page.me = p;
    render();
  });
  $('join').addEventListener('click', () => act('join'));
  $('withdraw').addEventListener('click', () => act('withdraw'));
  try {
    const [games, me, detail] = await Promise.all([
      api('GET', '/api/games').catch(() => ({ games: [] })),
      currentPlayer(),
      api('GET', `/api/tournaments/${encodeURIComponent(page.id)}`),
    ]);
    page.titles = Object.fromEntries(games.games.map((/** @type {import('./api.js').GameInfo} */ g) => [g.name, g.title]));
    page.me = me;
    if (!page.live) page.detail = detail;
    render();
    followLive({ type: 'tournament_follow', id: page.id }, heard);
    setInterval(renderWhen, 1000);
  } catch (err) {
    $('error').textContent = errorCode(err) === 'tournament/not_found' ? t('tour.notfound') : tourErrorText(err);
    $('error').classList.remove('hidden');
  }
  document.body.dataset.ready = 'true';
}

start();
