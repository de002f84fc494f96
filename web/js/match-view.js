// @ts-check
// The match page's view: draws the page from its state (match-state.js) — the status, the game's
// board and panel through the game's module (games.js), the move list, the clocks, the offers, the
// result and the step-back banner. It sends nothing itself: what a player does goes through the
// controls match.js gives it (`setControls`).

import { el, byId, findId, absolute, formatClock, copyButton, setText, setAttr } from './api.js';
import { t } from './i18n.js';
import { seatLabel, seatOf } from './seats.js';
import { setBaseTitle, markTitle, soundOn, canAskNotifications } from './notify.js';
import { resultSentence, ratingChanges } from './result.js';
import { renderManners } from './manners.js';
import { applyLayout } from './games.js';
import { svgEl } from './svg.js';
import { runningSeats } from './clocks.js';
import {
  page, stateNow, game, myTurn, canAct, seatWho, playerAt, seatName, seatNames, humanSeats, offersOf, shown, confirmMoves,
  notation,
} from './match-state.js';

const $ = byId;

/**
 * What the view asks of the page's controller (match.js).
 * @typedef {object} Controls
 * @property {(action: import('./games.js').Action, opts?: { confirmed?: boolean }) => void} play plays one action, or a
 *   list of them as one whole turn
 * @property {(msg: object) => boolean} send sends a message on the match's socket
 * @property {(i: number) => void} goToMove shows the position after move `i` of the move list
 */

/** The controller's part of the view, given once at the start. */
const wiring = {
  /** @type {Controls | null} */
  controls: null,
};

/**
 * Gives the view the controller's actions (once, before the first render).
 * @param {Controls} controls
 */
export function setControls(controls) {
  wiring.controls = controls;
}

function controls() {
  if (!wiring.controls) throw new Error('the match view drew before setControls');
  return wiring.controls;
}

/**
 * Shows `msg` in the page's error box (hides it when empty); `code`, the server's error code, goes
 * in the box's `data-code` for programs.
 * @param {string | null} msg
 * @param {string} [code]
 */
export function showError(msg, code = '') {
  const box = $('error');
  box.dataset.code = code;
  if (!msg) {
    box.classList.add('hidden');
    return;
  }
  box.textContent = t('match.error', { msg });
  box.classList.remove('hidden');
}

/**
 * Says how the connection is in the page's head (`key`, a text of i18n.js) and in the body's
 * `data-conn` (`up`, `connecting` or `down`, for tests and styles).
 * @param {string} key
 * @param {boolean} [down] the connection is lost
 */
export function setConn(key, down = false) {
  const c = $('conn');
  c.textContent = t(key);
  c.classList.toggle('down', down);
  document.body.dataset.conn = down ? 'down' : key === 'match.connected' ? 'up' : 'connecting';
}

export function render() {
  if (!page.state) return;
  document.body.dataset.status = page.state.status;
  document.body.dataset.version = String(page.state.version);
  document.body.dataset.myTurn = String(Boolean(canAct()));
  document.body.dataset.seat = page.state.seat === null ? 'spectator' : String(page.state.seat);
  $('title').replaceChildren(page.gameTitle || page.state.game, el('span', { class: 'match-id' }, ` · ${t('match.title', { id: page.id.slice(0, 8) })}`));
  setBaseTitle(`${page.gameTitle || page.state.game} · ${t('app.title')}`);
  markTitle(Boolean(myTurn()));
  renderTurnTools();
  syncChat();
  // A game with a module is drawn on a board; the others show their observation and legal actions
  // as text, in one column.
  const mod = game();
  // match.html has the column.
  /** @type {HTMLElement} */ (document.querySelector('.board-column')).classList.toggle('hidden', !mod);
  applyLayout($('layout'), mod, 'generic');
  renderStatus();
  renderInvites();
  // The board and the game's panel show the position being looked at: while in the past they
  // draw a copy of the state holding that position (`shown`), the live state is put back after.
  // Everything else (status, clocks, result, offers, the whole move list) is the present.
  const live = page.state;
  page.state = shown();
  try {
    renderGame();
  } finally {
    page.state = live;
  }
  renderMoves(page.past ? (page.earlier?.[page.past.index]?.moves ?? 0) - 1 : page.state.moves.length - 1);
  renderPast();
  renderResult();
  $('seed-hash').textContent = page.state.seed_hash || '';
  $('seed').textContent = page.state.seed || t('table.fair.pending');
  renderConfirm();
  renderHint();
  tickClocks();
  fitBoard();
}

export function renderTurnTools() {
  // A seat still to play: not a spectator, nor a seat out of a game that goes on (resigned or
  // eliminated at Bataille Navale: its observation has no viewer).
  const seated = page.state?.seat !== null && page.state?.status !== 'finished' && page.state?.observation?.viewer !== null;
  $('notify-ask').classList.toggle('hidden', !seated || !canAskNotifications());
  // The sound (the others' moves, the end, your turn) can be muted by anyone at the table.
  const on = soundOn();
  $('sound-toggle').replaceChildren(speaker(on));
  $('sound-toggle').title = t(on ? 'table.sound.on' : 'table.sound.off');
  $('sound-toggle').setAttribute('aria-label', t(on ? 'table.sound.on' : 'table.sound.off'));
  $('sound-toggle').setAttribute('aria-pressed', String(on));
  $('confirm-option', HTMLInputElement).checked = confirmMoves();
  $('notation-option', HTMLInputElement).checked = notation();
}

/**
 * A small drawn loudspeaker, with waves when the sound is on and a cross when it is off.
 * @param {boolean} on
 */
function speaker(on) {
  const line = { fill: 'none', stroke: 'currentColor', 'stroke-width': 2, 'stroke-linecap': 'round' };
  return svgEl('svg', { viewBox: '0 0 24 24', width: 18, height: 18, 'aria-hidden': 'true' }, [
    svgEl('path', { d: 'M4 9h4l5-4v14l-5-4H4z', fill: 'currentColor' }),
    ...(on ? ['M16 9a4 4 0 0 1 0 6', 'M18.5 6.5a8 8 0 0 1 0 11'] : ['M16 9l5 6M21 9l-5 6']).map((d) => svgEl('path', { d, ...line })),
  ]);
}

/** The chat's room and the people at the table, from the state and the session's player. */
function syncChat() {
  const state = stateNow();
  const room = state.seat === null ? 'spectators' : 'players';
  const people = state.seats.flatMap((x) => (x.player && x.kind !== 'bot' ? [{ name: x.player.name, seat: x.seat }] : []));
  page.chat?.setRoom(room, page.player?.name ?? playerAt(state.seat)?.name ?? null, room === 'players' ? people : []);
}

function renderRematch() {
  const state = stateNow();
  const offered = offersOf('rematch');
  const seated = state.seat !== null;
  const mine = state.seat !== null && offered.includes(state.seat);
  const others = offered.filter((s) => s !== state.seat);
  const button = $('rematch');
  button.classList.toggle('hidden', !seated || mine);
  button.textContent = t(others.length ? 'offer.accept.rematch' : 'offer.rematch');
  $('rematch-decline').classList.toggle('hidden', !seated || offered.length === 0);
  $('rematch-decline').textContent = t(mine ? 'offer.withdraw' : 'offer.decline');
  const info = $('rematch-info');
  if (info.querySelector('#rematch-go')) return;
  if (mine) {
    const waitingFor = humanSeats().filter((s) => !offered.includes(s));
    info.textContent = t('offer.rematch.sent', { names: seatNames(waitingFor) });
  } else if (others.length) {
    info.textContent = t('offer.rematch.by', { names: seatNames(others) });
  } else {
    info.textContent = '';
  }
  info.dataset.offered = offered.join(',');
}

/** In a first game, the hint of the game's module for the decision at hand (`hint(ctx)`, a text). */
function renderHint() {
  const state = stateNow();
  const mod = game();
  const text = page.learning && state.status === 'live' && !page.past && state.seat !== null ? mod?.hint?.(gameContext(mod)) || '' : '';
  $('learn-hint').textContent = text;
  $('learn-hint').classList.toggle('hidden', !text);
}

/** The move waiting for a confirmation, if any, in words with Play and Cancel. */
function renderConfirm() {
  const state = stateNow();
  if (page.toConfirm && !(canAct() && state.legal.includes(page.toConfirm.action))) page.toConfirm = null;
  $('confirm-box').classList.toggle('hidden', !page.toConfirm);
  $('confirm-text').textContent = page.toConfirm ? t('table.confirm.ask', { move: page.toConfirm.words }) : '';
}

/** A phone or a narrow window: one column, the board above the turn panel. */
export const NARROW = window.matchMedia('(max-width: 900px)');

/**
 * On a narrow screen, makes the board small enough that the board, its bars and the turn panel
 * (whose turn, the clocks, the controls of the decision) fit the screen together without
 * scrolling; the game's details, the chat and the moves come below. On a wide screen the board
 * keeps its own size.
 */
export function fitBoard() {
  const board = $('board');
  if (!NARROW.matches || !game()) {
    board.style.maxHeight = '';
    return;
  }
  const top = (/** @type {HTMLElement} */ node) => node.getBoundingClientRect().top + window.scrollY;
  const shown = (/** @type {HTMLElement | null} */ node) => node && !node.classList.contains('hidden') && node.offsetParent !== null;
  const height = (/** @type {HTMLElement | null} */ node) => (node && shown(node) ? node.getBoundingClientRect().height : 0);
  const boardTop = top(board);
  const below = top($('bar-bottom')) - (top(board) + board.getBoundingClientRect().height);
  const gap = parseFloat(getComputedStyle($('layout')).rowGap) || 0;
  const rest = Math.max(0, below) + height($('bar-bottom')) + gap + height($('turn-panel')) + 4;
  const room = window.innerHeight - boardTop - rest;
  board.style.maxHeight = `${Math.max(150, Math.floor(room))}px`;
}

/**
 * The board and the game's panel of `state`, drawn by the game's module: the page shows the
 * module's panel and the controls panel (resign, offers) to a seat of a live match, with the parts
 * of it that belong to one game hidden until the module shows them; the player bars start empty.
 */
function renderGame() {
  const state = stateNow();
  const mod = game();
  const panelId = mod ? mod.panel ?? null : 'generic-panel';
  for (const panel of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('[data-game-panel]'))) panel.hidden = panel.id !== panelId;
  if (!mod) {
    renderGeneric();
  } else {
    $('controls-panel').classList.toggle('hidden', !(state.seat !== null && state.status === 'live'));
    for (const part of document.querySelectorAll('[data-game-part]')) part.classList.add('hidden');
    $('resign', HTMLButtonElement).disabled = page.pending;
    for (const bar of ['bar-top', 'bar-bottom']) {
      $(bar).replaceChildren();
      $(bar).classList.add('hidden');
    }
    mod.render?.(gameContext(mod));
  }
  // A seat out of a game that goes on (a Bataille Navale seat eliminated or resigned) is sent the
  // spectators' view: it has nothing left to play or resign.
  if (state.seat !== null && state.observation && state.observation.viewer === null) {
    $('controls-panel').classList.add('hidden');
  }
}

/**
 * What a game module draws from (the contract is in games.js): `state` is the state to draw (the
 * live one, or while in the past the copy `shown()` makes), the rest the page's.
 * @param {import('./games.js').GameModule} mod
 * @param {import('./match-state.js').MatchState} [drawn]
 * @returns {import('./games.js').GameCtx}
 */
function gameContext(mod, drawn = stateNow()) {
  return {
    state: drawn,
    stateAt: page.stateAt,
    canAct: Boolean(canAct()),
    pending: page.pending,
    past: Boolean(page.past),
    config: page.gameConfig,
    play: controls().play,
    redraw: render,
    tickClocks,
    seatWho,
    live: () => gameContext(mod),
    board: $('board', SVGSVGElement),
    barTop: $('bar-top'),
    barBottom: $('bar-bottom'),
    panel: mod.panel ? $(mod.panel) : null,
    decision: $('game-decision'),
    legend: $('board-legend'),
  };
}

/** The banner and the step buttons. */
export function renderPast() {
  const state = stateNow();
  const started = state.version > 0;
  $('step-controls').classList.toggle('hidden', !started);
  const at = page.past ? page.past.index : state.version;
  $('step-first', HTMLButtonElement).disabled = $('step-prev', HTMLButtonElement).disabled = at === 0;
  $('step-next', HTMLButtonElement).disabled = $('step-last', HTMLButtonElement).disabled = !page.past;
  document.body.toggleAttribute('data-past', Boolean(page.past));
  document.body.dataset.step = String(at);
  $('past-banner').classList.toggle('hidden', !page.past && page.wanted === null);
  if (!page.past) return;
  // Counted in the move list's entries, as the list shows them (a version may add several).
  const k = page.earlier?.[page.past.index]?.moves ?? page.past.index;
  $('past-text').replaceChildren(t('past.banner', { k, n: state.moves.length }),
    ...(state.version > page.past.since ? [' ', el('span', { class: 'moved-on', id: 'past-moved-on' }, t('past.moved_on'))] : []));
}

function renderStatus() {
  const state = stateNow();
  const status = $('status');
  status.classList.remove('you');
  if (state.status === 'open') {
    // Every human seat must be taken and opened once before the match (and its clocks) starts.
    const absent = state.seats.filter((x) => x.kind === 'human' && x.seat !== state.seat && (!x.taken || !x.connected));
    const named = absent.filter((x) => x.player?.name);
    status.textContent = named.length === absent.length && named.length
      ? t('match.waiting.for', { names: named.map((x) => seatName(x.seat)).join(', ') })
      : t('match.waiting');
  }
  else if (state.status === 'finished') status.textContent = t('match.result');
  else if (myTurn()) {
    const waits = state.seat === null ? null : state.clocks?.first_move_ms?.[state.seat] ?? null;
    status.textContent = waits === null ? t('match.turn.you') : `${t('match.turn.you')} · ${t('clock.first_move.you')}`;
    status.classList.add('you');
  } else if (state.to_act.length) {
    status.textContent = t('match.turn.other', { side: seatNames(state.to_act) });
  } else status.textContent = '';
  $('who').textContent = state.seat === null ? t('match.spectator') : t('match.you_play', { side: seatLabel(state.game, state.seat) });
  renderManners({ state: state, game: page.gameEntry, send: controls().send, names: seatNames });
  const counters = game()?.counters?.(state.observation);
  if (counters) $('counters').textContent = counters;
}

function renderInvites() {
  const state = stateNow();
  const panel = $('invite-panel');
  const free = state.status === 'open' ? state.seats.filter((s) => s.kind === 'human' && !s.taken) : [];
  panel.classList.toggle('hidden', free.length === 0);
  $('invites').replaceChildren(...free.map((s) => {
    const link = absolute(`/m/${page.id}?join=${s.seat}`);
    const input = el('input', { type: 'text', readonly: true, value: link, class: 'invite-link', 'data-seat': s.seat,
      'aria-label': t('lobby.invite', { n: seatLabel(state.game, s.seat) }) });
    return el('div', { class: 'invite' },
      el('span', { class: 'small' }, seatLabel(state.game, s.seat)), input,
      copyButton(input, t('lobby.copy'), t('lobby.copied')));
  }));
}

/** A game without a module: its observation as text and its legal actions as buttons. */
function renderGeneric() {
  const state = stateNow();
  $('controls-panel').classList.add('hidden');
  $('generic-obs').textContent = JSON.stringify(state.observation, null, 2);
  const acting = canAct();
  $('generic-actions').replaceChildren(...(acting ? state.legal : []).map((a) =>
    el('button', { type: 'button', class: 'chip', 'data-action': a, onclick: () => controls().play(a) }, a)));
}

/**
 * The move list, every move played; `current` (an index) is the move of the position shown, and
 * the moves after it (while in the past) are greyed. A click on a move shows the position after it.
 * @param {number} current
 */
function renderMoves(current) {
  const state = stateNow();
  const list = $('moves');
  const mod = game();
  // Words where the game has them (the replay page's words), or the notation when the player
  // asked for it (a table setting); the notation always in `data-text` and the tooltip. A chance
  // draw is marked by its style (a die before it), not by a word.
  const cell = (/** @type {import('./games.js').LogEntry} */ m, /** @type {number} */ i, extra = '') => {
    const words = notation() ? null : mod?.describe?.(m) || null;
    const label = words || m.text;
    return el('span', {
      class: `mv${extra}${m.by === 'chance' ? ' chance' : ''}${i === current ? ' current' : ''}${i > current ? ' future' : ''}`,
      'data-index': i, 'data-text': m.text, title: m.text,
      role: 'button', tabindex: '0', onclick: () => controls().goToMove(i),
      onkeydown: (ev) => {
        if (ev.key === 'Enter') controls().goToMove(i);
      },
    }, label);
  };
  list.classList.toggle('lines', mod?.moveList === 'lines');
  if (mod?.moveList === 'lines') {
    // Three or four seats and chance entries: one line per logged action, in the seat's colour.
    list.replaceChildren(...state.moves.map((m, i) => {
      const seat = seatOf(m.by);
      return el('li', {},
        el('span', { class: 'num' }, `${i + 1}.`),
        seat === null ? el('span', { class: 'muted small' }, '')
          : el('span', { class: `swatch ${mod.swatch?.(seat) ?? ''}` }),
        cell(m, i));
    }));
    scrollToCurrent(list);
    return;
  }
  // Two seats in turn: numbered pairs, seat 0 then seat 1; a chance draw gets a row of its own,
  // without a number, as on the replay 
  /** @typedef {{ num: string, cells: (HTMLElement | null)[] }} Row */
  /** @type {Row[]} */
  const rows = [];
  /** @type {Row | null} */
  let row = null;
  let n = 0;
  state.moves.forEach((m, i) => {
    const seat = seatOf(m.by);
    const extra = seat === null ? '' : mod?.moveClass?.(seat) ?? '';
    const node = cell(m, i, ` ${extra}`);
    if (seat === null) {
      rows.push({ num: '', cells: [node, null] });
      row = null;
      return;
    }
    if (seat === 0 || row === null || row.cells[1]) {
      n += 1;
      row = { num: `${n}.`, cells: [null, null] };
      rows.push(row);
    }
    row.cells[seat === 1 ? 1 : 0] = node;
  });
  list.replaceChildren(...rows.map((r) => el('li', {},
    el('span', { class: 'num' }, r.num),
    r.cells[0] || el('span', { class: 'mv' }, '…'),
    r.cells[1] || el('span', {}, ''))));
  scrollToCurrent(list);
}

/**
 * Scrolls the move list to its end at the present, to the move shown while in the past.
 * @param {HTMLElement} list
 */
function scrollToCurrent(list) {
  if (!page.past) list.scrollTop = list.scrollHeight;
  else list.querySelector('.current')?.scrollIntoView({ block: 'nearest' });
}

function renderResult() {
  const state = stateNow();
  const finished = state.status === 'finished';
  $('result-panel').classList.toggle('hidden', !finished);
  if (!finished) return;
  $('result-text').textContent = resultSentence(state.game, state.outcome, state.observation?.since ?? '', seatName);
  renderRatings();
  $('result-panel').dataset.kind = state.outcome?.kind || '';
  renderRematch();
  $('replay-link', HTMLAnchorElement).href = `/replay/${page.id}`;
  const mod = game();
  mod?.renderFinal?.(gameContext(mod));
}

/** The rating changes of a finished rated match, under the result; this seat's first. */
function renderRatings() {
  const state = stateNow();
  const box = $('result-ratings');
  const changes = ratingChanges(state.ratings, seatName)
    .sort((a, b) => Number(b.seat === state.seat) - Number(a.seat === state.seat));
  box.hidden = changes.length === 0;
  box.replaceChildren(...changes.map((c) => el('div', {
    class: `rating-change${c.delta > 0 ? ' up' : c.delta < 0 ? ' down' : ''}`,
    'data-seat': c.seat, 'data-delta': c.delta,
  }, c.text)));
}

export function tickClocks() {
  if (!page.state) return;
  const clocks = page.state.clocks;
  for (const s of page.state.seats.map((x) => x.seat)) {
    const node = findId(`clock-${s}`);
    if (!node) continue;
    if (!clocks || clocks.kind === 'none' || !clocks.remaining_ms) {
      setText(node, '∞');
      setAttr(node, 'title', t('match.clock.none'));
      node.classList.remove('running', 'low');
      continue;
    }
    // A seat's clock starts with its first move, or once its first-move time is over.
    const elapsed = performance.now() - page.stateAt;
    const firstMove = clocks.first_move_ms?.[s] ?? null;
    const waiting = firstMove !== null && elapsed < firstMove;
    const runs = runningSeats(page.state).includes(s) || (firstMove !== null && !waiting);
    let ms = clocks.remaining_ms[s];
    if (runs) ms -= firstMove === null ? elapsed : elapsed - firstMove;
    node.classList.toggle('first-move', waiting);
    setAttr(node, 'title', waiting ? t('clock.first_move', { s: Math.ceil((firstMove - elapsed) / 1000) }) : null);
    // The game's own clocks (Bataille Navale) run only in their phase: a stopped one shows no time.
    setText(node, clocks.kind === 'game' && !runs ? '—' : formatClock(ms));
    setAttr(node, 'data-ms', String(Math.max(0, Math.round(ms))));
    node.classList.toggle('running', runs);
    node.classList.toggle('low', runs && ms < 10000);
  }
  const mod = game();
  if (mod?.tick) mod.tick(gameContext(mod, shown()));
}
