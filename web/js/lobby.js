// The lobby (web/index.html): create a match, list open, live and finished matches, join or watch.
// Uses protocol.md sections 3.1 to 3.5.

import { api, el, getToken, setToken, absolute, copyButton } from './api.js';
import { t, setupLanguageSwitch, onLangChange } from './i18n.js';
import { seatLabel } from './seats.js';

let games = [];
let lastCreated = null;
/** The number of seats chosen for the game in the form. */
let seatCount = null;

const $ = (id) => document.getElementById(id);

function showError(err) {
  const box = $('error');
  if (!err) {
    box.classList.add('hidden');
    return;
  }
  box.textContent = t('lobby.error', { msg: `${err.code ? `[${err.code}] ` : ''}${err.message}` });
  box.classList.remove('hidden');
}

function currentGame() {
  return games.find((g) => g.name === $('game').value) || games[0];
}

/** One fieldset per seat: human or bot (with bot name and level), and which seat the creator plays. */
function renderSeats() {
  const game = currentGame();
  const box = $('seats');
  box.replaceChildren();
  if (!game) return;
  if (!seatCount || seatCount < game.min_seats || seatCount > game.max_seats) seatCount = game.default_seats;
  const n = seatCount;
  if (game.min_seats !== game.max_seats) {
    const count = el('select', { id: 'seat-count', 'aria-label': t('lobby.seats') });
    for (let k = game.min_seats; k <= game.max_seats; k++) count.append(el('option', { value: k, selected: k === n }, String(k)));
    count.addEventListener('change', () => {
      seatCount = Number(count.value);
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
      ...(game.bots || []).map((b) => el('option', { value: b }, b)));
    const level = el('select', { id: `seat-${s}-level`, 'aria-label': t('lobby.seat.level') },
      ...[1, 2, 3, 4, 5].map((l) => el('option', { value: l }, String(l))));
    const mine = el('input', { type: 'radio', name: 'creator-seat', id: `seat-${s}-mine`, value: s, checked: s === 0 });
    const botPart = el('span', { class: 'form-row', style: 'margin:0' },
      el('label', {}, t('lobby.seat.bot'), ' ', bot), el('label', {}, t('lobby.seat.level'), ' ', level));
    const minePart = el('label', {}, mine, ' ', t('lobby.seat.mine'));
    const sync = () => {
      const isBot = kind.value === 'bot';
      botPart.classList.toggle('hidden', !isBot);
      minePart.classList.toggle('hidden', isBot);
      if (isBot && mine.checked) {
        mine.checked = false;
        const other = box.querySelector('input[name=creator-seat]:not(:checked)');
        const firstHuman = [...box.querySelectorAll('select[id$=-kind]')].findIndex((k) => k.value === 'human');
        if (other && firstHuman >= 0) $(`seat-${firstHuman}-mine`).checked = true;
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
  const game = currentGame();
  const cfg = game?.default_config;
  if (!cfg || typeof cfg !== 'object') return null;
  const out = { ...cfg };
  let changed = false;
  for (const input of $('options').querySelectorAll('input[data-key]')) {
    const key = input.dataset.key;
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
  const kind = $('clock-kind').value;
  if (kind === 'fischer') {
    return {
      kind, base_seconds: Math.round(Number($('clock-base').value) * 60),
      increment_seconds: Number($('clock-inc').value),
    };
  }
  if (kind === 'per_move') return { kind, seconds: Number($('clock-per-move').value) };
  if (kind === 'game') return { kind };
  return { kind: 'none' };
}

// A game whose rules set clocks is played under them (the default) or without a clock; the
// per-move and Fischer clocks are for the other games (docs/protocol.md section 3.2).
function offerRuleClock() {
  const game = currentGame();
  const rules = Boolean(game?.rule_clock);
  for (const option of $('clock-kind').options) {
    const allowed = option.value === 'none' || (option.value === 'game') === rules;
    option.hidden = !allowed;
    option.disabled = !allowed;
  }
  if (rules) $('clock-kind').value = 'game';
  else if ($('clock-kind').value === 'game') $('clock-kind').value = 'none';
  syncClock();
}

function syncClock() {
  const kind = $('clock-kind').value;
  $('clock-fischer').classList.toggle('hidden', kind !== 'fischer');
  $('clock-move').classList.toggle('hidden', kind !== 'per_move');
}

async function createMatch(ev) {
  ev.preventDefault();
  showError(null);
  const game = currentGame();
  const seats = [];
  for (let s = 0; s < seatCount; s++) {
    if ($(`seat-${s}-kind`).value === 'bot') {
      seats.push({ kind: 'bot', bot: $(`seat-${s}-bot`).value, level: Number($(`seat-${s}-level`).value) });
    } else {
      seats.push({ kind: 'human' });
    }
  }
  const mine = document.querySelector('input[name=creator-seat]:checked');
  const body = { game: game.name, config: readConfig(), seats, time_control: readTimeControl() };
  if (mine && seats[Number(mine.value)]?.kind === 'human') body.creator_seat = Number(mine.value);
  $('create').disabled = true;
  try {
    const res = await api('POST', '/api/matches', body);
    if (res.token) setToken(res.id, res.token);
    lastCreated = res;
    renderCreated();
    refreshLists();
  } catch (err) {
    showError(err);
  } finally {
    $('create').disabled = false;
  }
}

/** After creation: the invite links for the other human seats and a button to the match. */
function renderCreated() {
  const box = $('created');
  if (!lastCreated) {
    box.classList.add('hidden');
    return;
  }
  const res = lastCreated;
  const game = currentGame();
  box.replaceChildren(el('h2', { style: 'margin-top:1rem' }, t('lobby.created')));
  for (const inv of res.invites || []) {
    const link = absolute(inv.url);
    const input = el('input', { type: 'text', readonly: true, value: link, class: 'invite-link', 'data-seat': inv.seat,
      'aria-label': t('lobby.invite', { n: seatLabel(game?.name, inv.seat) }) });
    const copy = copyButton(input, t('lobby.copy'), t('lobby.copied'));
    box.append(el('p', { class: 'small' }, t('lobby.invite', { n: seatLabel(game?.name, inv.seat) })),
      el('div', { class: 'invite' }, input, copy));
  }
  const go = el('a', { class: 'button', id: 'go-match', href: res.url }, t('lobby.go'));
  box.append(el('p', {}, go));
  box.classList.remove('hidden');
  go.focus();
  box.scrollIntoView({ block: 'nearest' });
}

function timeControlText(tc) {
  if (!tc || tc.kind === 'none') return t('match.clock.none');
  if (tc.kind === 'per_move') return `${tc.seconds} s / ${t('lobby.clock.move').toLowerCase()}`;
  if (tc.kind === 'fischer') return `${Math.round(tc.base_seconds / 60 * 10) / 10}′ + ${tc.increment_seconds}″`;
  if (tc.kind === 'game') return t('lobby.clock.game');
  return tc.kind;
}

function outcomeText(m) {
  const winners = m.outcome.ranks.map((r, s) => (r === 1 ? s : null)).filter((s) => s !== null);
  const kind = t(`kind.${m.outcome.kind}`) === `kind.${m.outcome.kind}` ? m.outcome.kind : t(`kind.${m.outcome.kind}`);
  if (winners.length !== 1) return kind;
  return t('lobby.won', { side: seatLabel(m.game, winners[0]), kind });
}

async function joinSeat(id, seat) {
  showError(null);
  try {
    const res = await api('POST', `/api/matches/${id}/join`, { seat });
    setToken(res.id, res.token);
    location.href = res.url;
  } catch (err) {
    showError(err);
    refreshLists();
  }
}

function matchRow(m) {
  const seats = m.seats.map((s) => {
    const who = s.kind === 'bot' ? `${s.bot}${s.level ? ` (${s.level})` : ''}` : s.taken ? t('seat.human') : t('lobby.free');
    return el('span', { class: `seat-pill${s.kind === 'human' && !s.taken ? ' free' : ''}` }, `${seatLabel(m.game, s.seat)}: ${who}`);
  });
  const actions = [];
  const mine = getToken(m.id);
  if (mine && m.status !== 'finished') {
    actions.push(el('a', { class: 'button', href: `/m/${m.id}` }, t('lobby.resume')));
  } else if (m.status === 'open') {
    for (const s of m.seats) {
      if (s.kind === 'human' && !s.taken) {
        actions.push(el('button', { type: 'button', 'data-join': s.seat, onclick: () => joinSeat(m.id, s.seat) },
          t('lobby.join', { n: seatLabel(m.game, s.seat) })));
      }
    }
  }
  if (m.status !== 'finished') actions.push(el('a', { class: 'button secondary', href: `/m/${m.id}` }, t('lobby.watch')));
  else actions.push(el('a', { class: 'button secondary', href: `/replay/${m.id}` }, t('lobby.replay')));
  return el('tr', { 'data-match': m.id, 'data-status': m.status },
    el('td', {}, el('strong', {}, m.title), el('div', { class: 'muted small mono' }, m.id.slice(0, 8))),
    el('td', {}, seats),
    el('td', {}, t(`status.${m.status}`),
      el('div', { class: 'muted small' }, m.outcome ? outcomeText(m) : timeControlText(m.time_control))),
    el('td', {}, el('div', { class: 'actions' }, actions)));
}

function renderList(container, matches) {
  if (!matches.length) {
    container.replaceChildren(el('p', { class: 'muted' }, t('lobby.none')));
    return;
  }
  container.replaceChildren(el('table', { class: 'matches' },
    el('thead', {}, el('tr', {}, el('th', {}, t('lobby.game')), el('th', {}, t('lobby.players')), el('th', {}, t('lobby.status')), el('th', {}, ''))),
    el('tbody', {}, matches.map(matchRow))));
}

let lists = { active: [], finished: [] };

async function refreshLists() {
  try {
    const [active, finished] = await Promise.all([
      api('GET', '/api/matches?status=open,live'),
      api('GET', '/api/matches?status=finished'),
    ]);
    lists = { active: active.matches, finished: finished.matches.slice(0, 20) };
    renderLists();
  } catch (err) {
    showError(err);
  }
}

function renderLists() {
  renderList($('list-active'), lists.active);
  renderList($('list-finished'), lists.finished);
}

async function start() {
  setupLanguageSwitch();
  $('clock-kind').addEventListener('change', syncClock);
  $('create-form').addEventListener('submit', createMatch);
  $('refresh').addEventListener('click', refreshLists);
  $('game').addEventListener('change', () => {
    seatCount = null;
    renderSeats();
    renderOptions();
    offerRuleClock();
  });
  onLangChange(() => {
    renderSeats();
    renderOptions();
    renderCreated();
    renderLists();
  });
  try {
    games = (await api('GET', '/api/games')).games;
  } catch (err) {
    showError(err);
  }
  $('game').replaceChildren(...games.map((g) => el('option', { value: g.name }, g.title)));
  renderSeats();
  renderOptions();
  offerRuleClock();
  await refreshLists();
  setInterval(refreshLists, 5000);
  document.body.dataset.ready = 'true';
}

start();
