// @ts-check
// The lobby's "Advanced" fold (web/index.html #advanced): the full match form, every seat human or
// bot, the rule options of the game's config and any clock (docs/protocol.md section 3.2).

import { el, byId } from './api.js';
import { t } from './i18n.js';
import { seatLabel, botName } from './seats.js';

const $ = byId;

/** The form's state: the games it offers and the seat count chosen. */
const form = {
  /** @type {import('./api.js').GameInfo[]} The games of /api/games. */
  games: [],
  /** @type {number | null} The number of seats chosen for the game in the form. */
  seatCount: null,
};

function currentGame() {
  return form.games.find((g) => g.name === $('game', HTMLSelectElement).value) || form.games[0];
}

/** One fieldset per seat: human or bot (by its level name), and which seat the creator plays. */
function renderSeats() {
  const game = currentGame();
  const box = $('seats');
  box.replaceChildren();
  if (!game) return;
  const chosen = form.seatCount;
  /** @type {number} */
  const n = chosen && chosen >= game.min_seats && chosen <= game.max_seats ? chosen : game.default_seats;
  form.seatCount = n;
  if (game.min_seats !== game.max_seats) {
    const count = el('select', { id: 'seat-count', 'aria-label': t('lobby.seats') });
    for (let k = game.min_seats; k <= game.max_seats; k++) count.append(el('option', { value: k, selected: k === n }, String(k)));
    count.addEventListener('change', () => {
      form.seatCount = Number(count.value);
      renderSeats();
    });
    box.append(el('div', { class: 'form-row' }, el('label', {}, t('lobby.seats'), ' ', count)));
  }
  for (let s = 0; s < n; s++) {
    const kind = el('select', { id: `seat-${s}-kind`, 'aria-label': `${seatLabel(game.name, s)}: ${t('lobby.seat.human')} / ${t('lobby.seat.bot')}` },
      el('option', { value: 'human' }, t('lobby.seat.human')),
      el('option', { value: 'bot' }, t('lobby.seat.bot')));
    // By default: I play the first seat, a bot plays the others.
    kind.value = s === 0 ? 'human' : 'bot';
    const bot = el('select', { id: `seat-${s}-bot`, 'aria-label': t('lobby.seat.bot') },
      ...(game.bots || []).map((b) => el('option', { value: b, selected: b === (game.levels || [])[0] }, botName(b))));
    const mine = el('input', { type: 'radio', name: 'creator-seat', id: `seat-${s}-mine`, value: s, checked: s === 0 });
    const botPart = el('span', { class: 'form-row', style: 'margin:0' }, el('label', {}, t('lobby.seat.bot'), ' ', bot));
    const minePart = el('label', {}, mine, ' ', t('lobby.seat.mine'));
    const sync = () => {
      const isBot = kind.value === 'bot';
      botPart.classList.toggle('hidden', !isBot);
      minePart.classList.toggle('hidden', isBot);
      if (isBot && mine.checked) {
        mine.checked = false;
        const firstHuman = [.../** @type {NodeListOf<HTMLSelectElement>} */ (box.querySelectorAll('select[id$=-kind]'))].findIndex((k) => k.value === 'human');
        if (firstHuman >= 0) $(`seat-${firstHuman}-mine`, HTMLInputElement).checked = true;
      }
    };
    kind.addEventListener('change', sync);
    box.append(el('fieldset', {},
      el('legend', {}, seatLabel(game.name, s)),
      el('div', { class: 'form-row' }, kind, botPart, minePart)));
    sync();
  }
}

/** Inputs for the game's config fields (from default_config): booleans and numbers. */
function renderOptions() {
  const game = currentGame();
  const box = $('options');
  box.replaceChildren();
  const cfg = game?.default_config;
  const entries = cfg && typeof cfg === 'object' ? Object.entries(cfg) : [];
  $('options-box').classList.toggle('hidden', entries.length === 0);
  for (const [key, value] of entries) {
    let input;
    if (typeof value === 'boolean') input = el('input', { type: 'checkbox', checked: value });
    else if (typeof value === 'number') input = el('input', { type: 'number', value, style: 'width:6rem' });
    else if (typeof value === 'string') input = el('input', { type: 'text', value });
    else continue;
    input.dataset.key = key;
    input.dataset.type = typeof value;
    input.id = `opt-${key}`;
    const text = t(`opt.${key}`);
    box.append(el('div', { class: 'form-row' }, el('label', {}, input, ' ', text === `opt.${key}` ? key.replaceAll('_', ' ') : text)));
  }
}

function readConfig() {
  const cfg = currentGame()?.default_config;
  if (!cfg || typeof cfg !== 'object') return null;
  const out = { ...cfg };
  let changed = false;
  for (const input of /** @type {NodeListOf<HTMLInputElement>} */ ($('options').querySelectorAll('input[data-key]'))) {
    // The selector asks for the attribute: every input here has its key.
    const key = input.dataset.key ?? '';
    let v;
    if (input.dataset.type === 'boolean') v = input.checked;
    else if (input.dataset.type === 'number') v = Number(input.value);
    else v = input.value;
    if (v !== cfg[key]) changed = true;
    out[key] = v;
  }
  return changed ? out : null;
}

function readTimeControl() {
  const kind = $('clock-kind', HTMLSelectElement).value;
  if (kind === 'fischer') {
    return {
      kind, base_seconds: Math.round(Number($('clock-base', HTMLInputElement).value) * 60),
      increment_seconds: Number($('clock-inc', HTMLInputElement).value),
    };
  }
  if (kind === 'per_move') return { kind, seconds: Number($('clock-per-move', HTMLInputElement).value) };
  if (kind === 'game') return { kind };
  return { kind: 'none' };
}

// A game whose rules set clocks is played under them (the default) or without a clock; the
// per-move and Fischer clocks are for the other games (docs/protocol.md section 3.2).
function offerRuleClock() {
  const rules = Boolean(currentGame()?.rule_clock);
  for (const option of $('clock-kind', HTMLSelectElement).options) {
    const allowed = option.value === 'none' || (option.value === 'game') === rules;
    option.hidden = !allowed;
    option.disabled = !allowed;
  }
  if (rules) $('clock-kind', HTMLSelectElement).value = 'game';
  else if ($('clock-kind', HTMLSelectElement).value === 'game') $('clock-kind', HTMLSelectElement).value = 'none';
  syncClock();
}

function syncClock() {
  const kind = $('clock-kind', HTMLSelectElement).value;
  $('clock-fischer').classList.toggle('hidden', kind !== 'fischer');
  $('clock-move').classList.toggle('hidden', kind !== 'per_move');
}

/**
 * Wires the form: `gameList` are the games of /api/games; `create(body)` sends the request (the
 * lobby names the player first and shows the answer); it throws the server's refusal, shown by
 * the lobby.
 * @param {import('./api.js').GameInfo[]} gameList
 * @param {(body: import('./api.js').NewMatch) => Promise<void>} create
 */
export function setupAdvanced(gameList, create) {
  form.games = gameList;
  $('game').replaceChildren(...form.games.map((g) => el('option', { value: g.name }, g.title)));
  $('clock-kind').addEventListener('change', syncClock);
  $('game').addEventListener('change', () => {
    form.seatCount = null;
    renderAdvanced();
    offerRuleClock();
  });
  $('create-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const game = currentGame();
    const seats = [];
    for (let s = 0; s < (form.seatCount ?? 0); s++) {
      seats.push($(`seat-${s}-kind`, HTMLSelectElement).value === 'bot' ? { kind: 'bot', bot: $(`seat-${s}-bot`, HTMLSelectElement).value } : { kind: 'human' });
    }
    const mine = /** @type {HTMLInputElement | null} */ (document.querySelector('input[name=creator-seat]:checked'));
    /** @type {import('./api.js').NewMatch} */
    const body = { game: game.name, config: readConfig(), seats, time_control: readTimeControl(), rated: $('adv-rated', HTMLInputElement).checked };
    if (mine && seats[Number(mine.value)]?.kind === 'human') body.creator_seat = Number(mine.value);
    $('create', HTMLButtonElement).disabled = true;
    try {
      await create(body);
    } finally {
      $('create', HTMLButtonElement).disabled = false;
    }
  });
  renderAdvanced();
  offerRuleClock();
}

/** Redraws the seats and options (after a language change). */
export function renderAdvanced() {
  renderSeats();
  renderOptions();
}
