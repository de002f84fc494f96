// @ts-check
// The tournaments (web/tournaments.html at /tournaments): upcoming, running and finished, kept
// current over the lobby socket (`tournaments_follow`, docs/protocol.md section 7.9), and the
// form an account creates one with (`POST /api/tournaments`): an arena, a Swiss or rounds of
// tables.

import { api, el, byId } from './api.js';
import { t, tn, setupLanguageSwitch, onLangChange } from './i18n.js';
import { setupIdentity, currentPlayer, onPlayerChange } from './identity.js';
import { clockPresets } from './clocks.js';
import { factsText, whenText, dateText, tourErrorText, followLive } from './tournament-words.js';

const $ = byId;

/** @typedef {import('./tournament-words.js').TourInfo} TourInfo */

/** The page's state. */
const page = {
  /** @type {import('./api.js').GameInfo[]} The games of /api/games. */
  games: [],
  /** @type {{ live: TourInfo[], finished: TourInfo[] } | null} The list, as last sent. */
  list: null,
};

const title = (/** @type {string} */ game) => page.games.find((g) => g.name === game)?.title || game;

/**
 * One tournament of a list: its name (a link to its page), its facts, its time and players.
 * @param {TourInfo} info
 */
function item(info) {
  const when = info.phase === 'finished' ? '' : el('span', { class: 'tour-countdown', 'data-for': info.id }, whenText(info, Date.now()));
  const ended = info.phase === 'finished' && info.ends_at !== null ? dateText(info.ends_at) : '';
  return el('li', { class: 'tour-item', 'data-tournament': info.id, 'data-phase': info.phase },
    el('a', { class: 'tour-link', href: `/t/${encodeURIComponent(info.id)}` }, info.name),
    el('span', { class: 'small muted' }, factsText(info, title)),
    el('span', { class: 'small' }, tn('tours.players', info.players), when ? ' · ' : '', when, ended ? ` · ${ended}` : ''));
}

/**
 * @param {string} id the list's element
 * @param {TourInfo[]} infos
 */
function renderList(id, infos) {
  $(id).replaceChildren(...(infos.length ? infos.map(item) : [el('li', { class: 'muted small' }, t('tours.none'))]));
}

function render() {
  if (!page.list) return;
  const live = page.list.live;
  // The soonest start first; the running ones by their start.
  renderList('list-waiting', live.filter((i) => i.phase === 'waiting').sort((a, b) => a.starts_at - b.starts_at));
  renderList('list-running', live.filter((i) => i.phase === 'running').sort((a, b) => a.starts_at - b.starts_at));
  renderList('list-finished', page.list.finished);
  document.body.dataset.tournaments = String(live.length + page.list.finished.length);
}

/** Ticks the time shown of the upcoming and running ones. */
function tick() {
  for (const node of document.querySelectorAll('.tour-countdown')) {
    if (!(node instanceof HTMLElement)) continue;
    const info = page.list?.live.find((i) => i.id === node.dataset.for);
    if (info) node.textContent = whenText(info, Date.now());
  }
}

// ---- The form ----------------------------------------------------------------------------------

/**
 * A `datetime-local` value (local time, to the second) of `ms`.
 * @param {number} ms
 */
function localInput(ms) {
  const d = new Date(ms);
  const pad = (/** @type {number} */ n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** The kind chosen in the form. */
const kind = () => $('tour-kind', HTMLSelectElement).value;

/**
 * Whether `game` can be played in a tournament of kind `k`: a game for two in an arena or a
 * Swiss, a game of three seats or more at tables.
 * @param {import('./api.js').GameInfo} game
 * @param {string} k
 */
const fits = (game, k) => (k === 'tables' ? game.max_seats >= 3 : game.min_seats <= 2 && game.max_seats >= 2);

/** The chosen game's entry. */
const chosenGame = () => page.games.find((g) => g.name === $('tour-game', HTMLSelectElement).value);

function fillClocks() {
  const presets = clockPresets(chosenGame());
  $('tour-clock', HTMLSelectElement).replaceChildren(...presets.map((p, i) => el('option', {
    value: String(i), selected: Boolean(p.preferred),
  }, t(p.key))));
  const game = chosenGame();
  /** @type {number[]} */
  const sizes = [];
  for (let n = Math.max(3, game?.min_seats ?? 3); n <= (game?.max_seats ?? 0); n += 1) sizes.push(n);
  $('tour-seats', HTMLSelectElement).replaceChildren(...sizes.map((n) => el('option', { value: String(n), selected: n === sizes[sizes.length - 1] }, String(n))));
}

/** Shows the fields of the chosen kind, and the games it can be played with. */
function fillKind() {
  const k = kind();
  const before = $('tour-game', HTMLSelectElement).value;
  const games = page.games.filter((g) => fits(g, k));
  $('tour-game', HTMLSelectElement).replaceChildren(...games.map((g) => el('option', { value: g.name, selected: g.name === before }, g.title)));
  $('tour-kind-help').textContent = t(`tours.kind.${k}.help`);
  $('minutes-field').classList.toggle('hidden', k !== 'arena');
  $('rounds-field').classList.toggle('hidden', k === 'arena');
  $('seats-field').classList.toggle('hidden', k !== 'tables');
  $('bots-field').classList.toggle('hidden', k !== 'tables');
  $('tour-minutes', HTMLInputElement).required = k === 'arena';
  $('tour-rounds', HTMLInputElement).required = k !== 'arena';
  fillClocks();
}

function setupForm() {
  $('tour-kind').addEventListener('change', fillKind);
  $('tour-game').addEventListener('change', fillClocks);
  fillKind();
  // Ten minutes from now, to the minute.
  $('tour-start', HTMLInputElement).value = localInput(Math.ceil((Date.now() + 10 * 60000) / 60000) * 60000);
  $('create-form').addEventListener('submit', create);
}

/**
 * @param {SubmitEvent} ev
 */
async function create(ev) {
  ev.preventDefault();
  $('create-error').classList.add('hidden');
  const game = $('tour-game', HTMLSelectElement).value;
  const preset = clockPresets(chosenGame())[Number($('tour-clock', HTMLSelectElement).value)];
  const start = new Date($('tour-start', HTMLInputElement).value).getTime();
  const min = $('tour-min', HTMLInputElement).value.trim();
  const k = kind();
  // Each kind's own fields only: the server refuses a field of another kind.
  const length = k === 'arena'
    ? { minutes: Number($('tour-minutes', HTMLInputElement).value) }
    : { rounds: Number($('tour-rounds', HTMLInputElement).value) };
  const tables = k === 'tables'
    ? { seats: Number($('tour-seats', HTMLSelectElement).value), bots: $('tour-bots', HTMLInputElement).checked }
    : {};
  const request = {
    name: $('tour-name', HTMLInputElement).value.trim(),
    game,
    kind: k,
    time_control: preset.tc,
    starts_in_seconds: Math.max(0, Math.round((start - Date.now()) / 1000)),
    ...length,
    ...tables,
    rated: $('tour-rated', HTMLInputElement).checked,
    min_rating: min === '' ? null : Number(min),
  };
  const button = $('tour-create', HTMLButtonElement);
  button.disabled = true;
  try {
    const made = await api('POST', '/api/tournaments', request);
    location.assign(`/t/${encodeURIComponent(made.tournament.id)}`);
  } catch (err) {
    $('create-error').textContent = tourErrorText(err);
    $('create-error').classList.remove('hidden');
    button.disabled = false;
  }
}

/**
 * Shows the form to an account, and to anyone else why it is not there.
 * @param {{ kind: string } | null} player
 */
function showForm(player) {
  const account = player?.kind === 'account';
  $('create-form').classList.toggle('hidden', !account);
  $('create-guest').classList.toggle('hidden', account);
}

async function start() {
  setupLanguageSwitch();
  setupIdentity();
  onLangChange(() => {
    render();
    $('tour-kind-help').textContent = t(`tours.kind.${kind()}.help`);
  });
  try {
    const games = await api('GET', '/api/games');
    page.games = games.games;
  } catch (err) {
    $('error').textContent = tourErrorText(err);
    $('error').classList.remove('hidden');
  }
  setupForm();
  showForm(await currentPlayer());
  onPlayerChange(showForm);
  followLive({ type: 'tournaments_follow' }, (msg) => {
    if (msg.type !== 'tournaments') return;
    page.list = { live: msg.live, finished: msg.finished };
    render();
  });
  setInterval(tick, 1000);
  document.body.dataset.ready = 'true';
}

start();
