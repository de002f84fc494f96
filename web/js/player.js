// @ts-check
// The player page (web/player.html at /@/{name}): the profile of `GET /api/players/{name}`
// (docs/protocol.md, PROFILE): ratings per game with their provisional mark, the rating-over-time
// chart, win/loss/draw counts, the tournaments played and the recent games with links to their
// replays; on the visitor's own page, its account panel (js/account.js).

import { api, el, byId, errorMessage, errorCode } from './api.js';
import { t, lang, setupLanguageSwitch, onLangChange } from './i18n.js';
import { setupIdentity, playerHref, currentPlayer } from './identity.js';
import { reportButton } from './report.js';
import { ratingChart, chartLegend } from './chart.js';
import { setupRelations } from './relations.js';
import { renderPlayerTournaments } from './player-tournaments.js';
import { setupAccount } from './account.js';

const $ = byId;

/** The player page's state. */
const page = {
  /** @type {Profile | null} The profile of `GET /api/players/{name}`, or null before it came. */
  profile: null,
  /** @type {Record<string, string>} The games' titles, by name. */
  titles: {},
  /** Whether the viewer may report this player (a person, and not the viewer). */
  reportable: false,
};

/**
 * A player's rating in one game (docs/protocol.md section 7.3, PROFILE).
 * @typedef {{ rating: number, deviation: number, games: number, wins: number, losses: number,
 *   draws: number, provisional: boolean }} Rating
 */

/**
 * A finished match of a profile's `recent`.
 * @typedef {{ id: string, game: string, title?: string, seat: number, seats: number, rank: number,
 *   result: 'win' | 'draw' | 'loss', rated: boolean, unrated: string | null,
 *   rating_change: number | null, opponents: string[], ended_at: number }} RecentGame
 */

/**
 * A PROFILE (`GET /api/players/{name}`).
 * @typedef {{ name: string, kind: string, created_at?: number, ratings: Record<string, Rating>,
 *   history: import('./chart.js').History, recent: RecentGame[] }} Profile
 */

/** The name in the path: /@/{name}. */
function nameFromPath() {
  const parts = location.pathname.split('/').filter(Boolean);
  if (parts[0] === '@' && parts[1]) return decodeURIComponent(parts[1]);
  return new URLSearchParams(location.search).get('name');
}

const title = (/** @type {string} */ game) => page.titles[game] || game;

/**
 * A rating as read: "1512" or "1512?" while provisional (fewer than 10 rated games).
 * @param {{ rating: number, provisional: boolean }} r
 */
export function ratingText(r) {
  return `${r.rating}${r.provisional ? '?' : ''}`;
}

/**
 * @param {number} ms unix ms
 */
function date(ms) {
  return new Date(ms).toLocaleDateString(lang() === 'fr' ? 'fr-FR' : 'en-GB', { year: 'numeric', month: 'short', day: 'numeric' });
}

/**
 * @param {number | null | undefined} n
 */
function change(n) {
  if (n === null || n === undefined) return el('span', { class: 'muted' }, t('profile.casual'));
  const cls = n > 0 ? 'up' : n < 0 ? 'down' : '';
  return el('span', { class: `delta ${cls}`, 'data-change': n }, n > 0 ? `+${n}` : String(n));
}

/**
 * @param {Profile} profile
 */
function renderRatings(profile) {
  const entries = Object.entries(profile.ratings || {});
  if (!entries.length) {
    $('ratings').replaceChildren(el('p', { class: 'muted' }, t('profile.norating')));
    return;
  }
  $('ratings').replaceChildren(el('table', { class: 'matches ratings' },
    el('thead', {}, el('tr', {}, ...['lobby.game', 'profile.rating', 'profile.deviation', 'profile.games', 'profile.wins', 'profile.losses', 'profile.draws']
      .map((k) => el('th', {}, t(k))))),
    el('tbody', {}, ...entries.map(([game, r]) => el('tr', { 'data-game': game, 'data-rating': r.rating, 'data-provisional': String(r.provisional) },
      el('td', {}, title(game)),
      el('td', {}, el('strong', { class: 'rating' }, ratingText(r)),
        r.provisional ? el('span', { class: 'muted small' }, ` ${t('profile.provisional')}`) : ''),
      el('td', { class: 'muted' }, `± ${r.deviation}`),
      el('td', { class: 'num' }, String(r.games)),
      el('td', { class: 'num wins' }, String(r.wins)),
      el('td', { class: 'num losses' }, String(r.losses)),
      el('td', { class: 'num draws' }, String(r.draws)))))));
}

/**
 * @param {Profile} profile
 */
function renderChart(profile) {
  const history = profile.history || {};
  const any = Object.values(history).some((points) => points.length > 1);
  if (!any) {
    $('chart').replaceChildren(el('p', { class: 'muted' }, t('profile.nochart')));
    return;
  }
  $('chart').replaceChildren(ratingChart(history, title, t('profile.chart.label', { name: profile.name }), t('profile.chart.x')), chartLegend(history, title));
}

/**
 * @param {Profile} profile
 */
function renderRecent(profile) {
  const recent = profile.recent || [];
  if (!recent.length) {
    $('recent').replaceChildren(el('p', { class: 'muted' }, t('profile.nogames')));
    return;
  }
  $('recent').replaceChildren(el('table', { class: 'matches recent' },
    el('thead', {}, el('tr', {}, ...['profile.date', 'lobby.game', 'profile.opponents', 'profile.result', 'profile.change', '']
      .map((k) => el('th', {}, k ? t(k) : '')))),
    el('tbody', {}, ...recent.map((g) => el('tr', { 'data-match': g.id, 'data-result': g.result },
      el('td', { class: 'small' }, date(g.ended_at)),
      el('td', {}, g.title || title(g.game)),
      el('td', {}, ...(g.opponents || []).flatMap((name, i) => [i ? ', ' : '',
        name.endsWith('-bot') ? el('span', {}, name) : el('a', { href: playerHref(name) }, name)])),
      el('td', { class: `result ${g.result}` }, t(`profile.result.${g.result}`)),
      el('td', {}, change(g.rated ? g.rating_change : null)),
      el('td', {}, el('a', { class: 'button secondary', href: `/replay/${g.id}` }, t('lobby.replay'))))))));
}

function draw() {
  if (!page.profile) return;
  document.title = `${page.profile.name} · ${t('app.title')}`;
  $('player-name').textContent = page.profile.name;
  $('player-kind').textContent = t(`profile.kind.${page.profile.kind}`);
  $('player-since').textContent = page.profile.created_at ? t('profile.since', { date: date(page.profile.created_at) }) : '';
  renderRatings(page.profile);
  renderChart(page.profile);
  renderRecent(page.profile);
  renderPlayerTournaments($('tournaments'), page.profile.name, title);
  $('report-slot').replaceChildren(...(page.reportable ? [reportButton({ name: page.profile.name }, 'secondary')] : []));
}

async function start() {
  setupLanguageSwitch();
  setupIdentity();
  onLangChange(draw);
  const name = nameFromPath();
  try {
    const [games, p] = await Promise.all([
      api('GET', '/api/games').catch(() => ({ games: [] })),
      api('GET', `/api/players/${encodeURIComponent(name || '')}`),
    ]);
    page.titles = Object.fromEntries(games.games.map((/** @type {import('./api.js').GameInfo} */ g) => [g.name, g.title]));
    page.profile = p;
    $('profile').classList.remove('hidden');
    draw();
    await setupRelations(p);
    await setupAccount(p.name);
    // Another person may be reported to the moderators from their page.
    const me = await currentPlayer();
    page.reportable = Boolean(me && me.name !== p.name && p.kind !== 'bot');
    draw();
  } catch (err) {
    $('error').textContent = errorCode(err) === 'player/not_found' ? t('profile.notfound', { name }) : errorMessage(err);
    $('error').classList.remove('hidden');
  }
  document.body.dataset.ready = 'true';
}

start();
