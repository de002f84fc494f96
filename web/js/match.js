// The match page (web/match.html, served at /m/{id}): play a seat or watch, over the WebSocket of
// protocol.md section 4. Everything shown comes from the server's `state` messages; the page only
// offers the texts of `legal` and sends one back. The board, the game's panel and its controls are
// drawn by the game's module (games.js): this page never asks which game it shows.

import { api, el, getToken, setToken, idFromPath, absolute, formatClock, copyButton } from './api.js';
import { t, setupLanguageSwitch, onLangChange } from './i18n.js';
import { seatLabel, seatWithName, botName } from './seats.js';
import { setupIdentity, currentPlayer, chooseName, errorText, onPlayerChange } from './identity.js';
import { createChat } from './chat.js';
import {
  setBaseTitle, markTitle, chime, moveSound, endSound, soundOn, setSound, canAskNotifications, askNotifications,
  notifyTurn,
} from './notify.js';
import { resultSentence, ratingChanges } from './result.js';
import { renderManners } from './manners.js';
import { askName } from './nameprompt.js';
import { gameModule, applyLayout, seatOf } from './games.js';
import { disarm } from './touch.js';
import { svgEl } from './svg.js';
// How the clock contract says whose clocks run (also the naval panel's countdown reads it).
import { runningSeats } from './naval.js';

const $ = (id) => document.getElementById(id);
const id = idFromPath();

/** The latest `state` message, or null before the first. */
let state = null;
/** Local time (performance.now) at which `state` arrived, for the clocks. */
let stateAt = 0;
/** An action was sent and its answer (a new state or an error) has not come yet. */
let pending = false;
/** The rematch this page offered or accepted, to follow it when it arrives. */
let askedRematch = false;
/** The session's player ({name, kind}) or null. */
let player = null;
/** The chat panel (chat.js). */
let chat = null;
/** Whether the last state rendered was this page's turn (to tell only when the turn arrives). */
let wasMyTurn = false;
/** The game's entry of /api/games (its agreed ending, for the manners), or null. */
let gameEntry = null;
/** The game's title from the match summary. */
let gameTitle = null;
/** The game's config: the summary's when it gives one, else the game's default (for Bataille Navale, its costs). */
let gameConfig = null;
/** A move waiting for the player's confirmation (the confirm-move setting): `{action, words}`. */
let toConfirm = null;
/** The moves and status last announced by a sound (the other seats' moves, the end). */
let heard = null;

/** A first game (the how-to page's, `?learn`): the turn panel says what to tap at each step. */
let learning = false;

const CONFIRM_KEY = 'plateau.confirm';
const NOTATION_KEY = 'plateau.notation';
/** Whether moves wait for a confirmation before they are sent (the table setting, off by default). */
const confirmMoves = () => localStorage.getItem(CONFIRM_KEY) === 'on';
/** Whether the move list shows the notation rather than words (the table setting). */
const notation = () => localStorage.getItem(NOTATION_KEY) === 'on';

/**
 * Stepping back (docs/protocol.md section 3.9): `null` at the present, else `{ index, since }`,
 * the version of this viewer whose position is shown and the version the match was at when the
 * player stepped back (later moves do not move the view; the banner says the game went on).
 */
let past = null;
/**
 * The positions fetched from `/history` (one per version), or null before the first step back.
 * (Not named `history`, which would hide the browser's `window.history`.)
 */
let earlier = null;
/** The step asked for while `/history` is being fetched (the latest key press wins), or null. */
let wanted = null;

let socket = null;
/**
 * A seat token was sent in an `auth` message and its answer has not come: the spectator's state
 * the server sends first is kept aside (`asideState`) rather than shown, so the page does not
 * flicker from spectator to seat.
 */
let awaitingAuth = false;
let asideState = null;
let retryDelay = 500;
let pingTimer = null;

/** Shows `msg` in the page's error box (hides it when empty); `code`, the server's error code, goes
 * in the box's `data-code` for programs. */
function showError(msg, code = '') {
  const box = $('error');
  box.dataset.code = code;
  if (!msg) {
    box.classList.add('hidden');
    return;
  }
  box.textContent = t('match.error', { msg });
  box.classList.remove('hidden');
}

function setConn(key, down = false) {
  const c = $('conn');
  c.textContent = t(key);
  c.classList.toggle('down', down);
  document.body.dataset.conn = down ? 'down' : key === 'match.connected' ? 'up' : 'connecting';
}

// ---- Connection ----------------------------------------------------------------------------

function connect() {
  // The seat token never goes in the URL (logs and histories keep URLs): it is sent in an `auth`
  // message once the socket is open (docs/protocol.md section 4).
  const token = getToken(id);
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  const url = `${proto}://${location.host}/api/matches/${encodeURIComponent(id)}/ws`;
  setConn(state ? 'match.reconnecting' : 'match.connecting', Boolean(state));
  const ws = new WebSocket(url);
  socket = ws;
  ws.addEventListener('open', () => {
    retryDelay = 500;
    awaitingAuth = Boolean(token);
    asideState = null;
    if (token) ws.send(JSON.stringify({ type: 'auth', token }));
    chat?.resend();
    clearInterval(pingTimer);
    pingTimer = setInterval(() => {
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: 'ping' }));
    }, 20000);
  });
  ws.addEventListener('message', (ev) => {
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch {
      return;
    }
    onMessage(msg);
  });
  ws.addEventListener('close', () => {
    if (socket !== ws) return;
    clearInterval(pingTimer);
    socket = null;
    pending = false;
    setConn('match.reconnecting', true);
    setTimeout(connect, retryDelay);
    retryDelay = Math.min(retryDelay * 2, 5000);
  });
}

function send(msg) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    showError(t('match.reconnecting'));
    return false;
  }
  socket.send(JSON.stringify(msg));
  return true;
}

function onMessage(msg) {
  if (msg.type === 'state' && awaitingAuth && msg.seat === null) {
    asideState = msg;
  } else if (msg.type === 'error' && msg.code === 'auth/seat' && awaitingAuth) {
    // The stored token is not a seat of this match (or of this player): forget it and watch.
    awaitingAuth = false;
    localStorage.removeItem(`plateau.token.${id}`);
    if (asideState) onMessage(asideState);
    showError(errorText(msg), msg.code);
  } else if (msg.type === 'state') {
    const next = merged(state, msg);
    if (!next) {
      send({ type: 'sync' });
      return;
    }
    awaitingAuth = false;
    // A whole state may follow a takeback: the positions fetched for stepping back are of
    // another past, and a step past the present is no step.
    if (msg.snapshot) {
      earlier = null;
      if (past && past.index >= msg.version) past = null;
    }
    const changed = !state || state.version !== msg.version || state.status !== msg.status;
    // A refusal from before the page knew the match (a taken seat) stays until the match moves.
    const moved = Boolean(state) && changed;
    state = next;
    stateAt = performance.now();
    pending = false;
    setConn('match.connected');
    // A half-made choice belongs to the position it was made in.
    if (changed) {
      game()?.reset?.();
      disarm();
    }
    if (moved) showError(null);
    render();
    announceMoves();
    announceTurn();
  } else if (msg.type === 'chat') {
    chat.add(msg);
  } else if (msg.type === 'chat_backlog') {
    chat.backlog(msg);
  } else if (msg.type === 'error' && isChatError(msg.code)) {
    chat.error(errorText(msg));
  } else if (msg.type === 'error') {
    pending = false;
    if (msg.code !== 'action/stale') showError(errorText(msg), msg.code);
    game()?.onError?.(msg);
    render();
  } else if (msg.type === 'rematch') {
    onRematch(msg);
  }
}

/**
 * The match as known after `msg`: a whole state replaces what we had; a delta keeps the fields it
 * leaves out, patches the observation's top-level fields and puts its moves at `moves_from`
 * (docs/protocol.md section 4.1). `null` when a
 * delta does not follow on from what we have: the caller asks for a whole state.
 */
function merged(known, msg) {
  if (msg.snapshot) return msg;
  if (!known || known.moves.length < msg.moves_from) return null;
  const { observation_patch: patch, observation_removed: removed, ...rest } = msg;
  const next = { ...known, ...rest, moves: known.moves.slice(0, msg.moves_from).concat(msg.moves) };
  if (patch) {
    next.observation = { ...known.observation, ...patch };
    for (const key of removed || []) delete next.observation[key];
  }
  return next;
}

/**
 * The match's config with every field: a config given in part (`{"gains": {"pass": 10}}`) keeps
 * the game's defaults for the rest, field by field inside objects too.
 */
function withDefaults(defaults, given) {
  const isObject = (x) => x !== null && typeof x === 'object' && !Array.isArray(x);
  if (!isObject(defaults) || !isObject(given)) return given ?? defaults ?? null;
  const out = { ...defaults };
  for (const [k, v] of Object.entries(given)) out[k] = withDefaults(defaults[k], v);
  return out;
}

/** Errors that answer a chat or mute message: shown under the chat, not as the match's error. */
function isChatError(code) {
  return code?.startsWith('chat/') || code === 'player/not_found' || (code === 'auth/required' && state?.seat === null);
}

// The rematch exists once every human seat offered it: the seats that did go to it; a page that
// was not part of it (a spectator) gets a link.
function onRematch(msg) {
  if (msg.token) setToken(msg.id, msg.token);
  const url = `/m/${msg.id}`;
  if (msg.token && (askedRematch || state?.seat !== null)) {
    location.href = url;
    return;
  }
  const info = $('rematch-info');
  info.replaceChildren(el('a', { class: 'button', id: 'rematch-go', href: url }, `${t('match.rematch')} →`));
}

// ---- Your turn --------------------------------------------------------------------------------

/**
 * A sound when another seat has moved (not for this page's own moves, nor chance draws): once
 * its turn is over, so that a Bataille Navale fleet's six orders make one sound; and one when
 * the game ends. Nothing for the state the page starts with.
 */
function announceMoves() {
  const now = { moves: state.moves.length, status: state.status, toAct: state.to_act.join() };
  const before = heard;
  heard = now;
  if (!before || past) return;
  if (now.status === 'finished' && before.status !== 'finished') {
    endSound();
    return;
  }
  const others = state.moves.slice(before.moves).some((m) => seatOf(m.by) !== null && seatOf(m.by) !== state.seat);
  if (others && now.toAct !== before.toAct) moveSound();
}

/** Marks the tab, notifies and chimes when the turn passes to this page (once per turn). */
function announceTurn() {
  const now = Boolean(myTurn());
  markTitle(now);
  if (now && !wasMyTurn && state.version > 0) {
    notifyTurn(gameTitle || state.game, `/m/${id}`);
    // The sound is for live games; correspondence games have the title and the notification.
    if (state.clocks && state.clocks.kind !== 'none') chime();
  }
  wasMyTurn = now;
}

function renderTurnTools() {
  // A seat still to play: not a spectator, nor a seat out of a game that goes on (resigned or
  // eliminated at Bataille Navale: its observation has no viewer).
  const seated = state?.seat !== null && state?.status !== 'finished' && state?.observation?.viewer !== null;
  $('notify-ask').classList.toggle('hidden', !seated || !canAskNotifications());
  // The sound (the others' moves, the end, your turn) can be muted by anyone at the table.
  const on = soundOn();
  $('sound-toggle').replaceChildren(speaker(on));
  $('sound-toggle').title = t(on ? 'table.sound.on' : 'table.sound.off');
  $('sound-toggle').setAttribute('aria-label', t(on ? 'table.sound.on' : 'table.sound.off'));
  $('sound-toggle').setAttribute('aria-pressed', String(on));
  $('confirm-option').checked = confirmMoves();
  $('notation-option').checked = notation();
}

/** A small drawn loudspeaker, with waves when the sound is on and a cross when it is off. */
function speaker(on) {
  const line = { fill: 'none', stroke: 'currentColor', 'stroke-width': 2, 'stroke-linecap': 'round' };
  return svgEl('svg', { viewBox: '0 0 24 24', width: 18, height: 18, 'aria-hidden': 'true' }, [
    svgEl('path', { d: 'M4 9h4l5-4v14l-5-4H4z', fill: 'currentColor' }),
    ...(on ? ['M16 9a4 4 0 0 1 0 6', 'M18.5 6.5a8 8 0 0 1 0 11'] : ['M16 9l5 6M21 9l-5 6']).map((d) => svgEl('path', { d, ...line })),
  ]);
}

// ---- Names ------------------------------------------------------------------------------------

/** The seat's player ({name, kind}) or null. */
function playerAt(seat) {
  return state?.seats.find((x) => x.seat === seat)?.player ?? null;
}

/** A seat as people read it: "Alice (Red)". */
function seatName(seat) {
  return seatWithName(state.game, seat, playerAt(seat));
}

/** The names of the seats in `seats`, joined: "Alice (Red), Bob (Blue)". */
function seatNames(seats) {
  return seats.map(seatName).join(', ');
}

/** The chat's room and the people at the table, from the state and the session's player. */
function syncChat() {
  const room = state.seat === null ? 'spectators' : 'players';
  const people = state.seats.filter((x) => x.player && x.kind !== 'bot').map((x) => ({ name: x.player.name, seat: x.seat }));
  chat.setRoom(room, player?.name ?? playerAt(state.seat)?.name ?? null, room === 'players' ? people : []);
}

// ---- Offers: rematch and agreed stop ----------------------------------------------------------

function offersOf(kind) {
  return state?.offers?.[kind] || [];
}

/** The human seats, the only ones that offer (bots never agree, and accept rematches by rule). */
function humanSeats() {
  return state.seats.filter((x) => x.kind === 'human').map((x) => x.seat);
}

function renderRematch() {
  const offered = offersOf('rematch');
  const seated = state.seat !== null;
  const mine = seated && offered.includes(state.seat);
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

// ---- Reading the state -------------------------------------------------------------------

/**
 * The game's page module (games.js), or null for a game without one: the page then shows the
 * observation and the legal actions as text.
 */
function game() {
  return state ? gameModule(state.game) : null;
}

function myTurn() {
  return state && state.status === 'live' && state.seat !== null && state.to_act.includes(state.seat);
}

function canAct() {
  return myTurn() && !pending;
}

/** Who sits at seat `s`: the player's name ("Alice, you" for this page), a bot's, or "free". */
function seatWho(s) {
  const info = state.seats.find((x) => x.seat === s);
  if (!info) return '';
  const name = info.player?.name;
  if (state.seat === s) return name ? t('seat.you.named', { name }) : t('seat.you');
  if (info.kind === 'bot') return botName(info.bot);
  if (name) return info.connected === false && state.status !== 'finished' ? t('seat.away', { name }) : name;
  return info.taken ? t('seat.human') : t('lobby.free');
}

// ---- Actions -------------------------------------------------------------------------------

/**
 * Sends one action, or a list of this seat's actions played as one whole turn (all or nothing).
 * With the confirm-move setting on, a single listed action waits in the turn panel, in words,
 * for "Play it" (`confirmed` skips that: a forced move, or the confirmation itself).
 */
function play(action, { confirmed = false } = {}) {
  if (!canAct()) return;
  const index = typeof action === 'string' ? state.legal.indexOf(action) : -1;
  if (!confirmed && confirmMoves() && index >= 0) {
    const entry = { by: { seat: state.seat }, text: action, info: state.legal_info?.[index] };
    toConfirm = { action, words: game()?.describe?.(entry) || action };
    render();
    return;
  }
  toConfirm = null;
  const msg = Array.isArray(action)
    ? { type: 'act', version: state.version, actions: action }
    : { type: 'act', version: state.version, action };
  if (send(msg)) {
    pending = true;
    game()?.reset?.();
    render();
  }
}

let resignArmed = null;
function onResign() {
  const btn = $('resign');
  if (resignArmed) {
    clearTimeout(resignArmed);
    resignArmed = null;
    btn.textContent = t('match.resign');
    send({ type: 'resign' });
    return;
  }
  btn.textContent = t('match.resign.confirm');
  resignArmed = setTimeout(() => {
    resignArmed = null;
    btn.textContent = t('match.resign');
  }, 4000);
}

// ---- Rendering -----------------------------------------------------------------------------

function render() {
  if (!state) return;
  document.body.dataset.status = state.status;
  document.body.dataset.version = String(state.version);
  document.body.dataset.myTurn = String(Boolean(canAct()));
  document.body.dataset.seat = state.seat === null ? 'spectator' : String(state.seat);
  $('title').replaceChildren(gameTitle || state.game, el('span', { class: 'match-id' }, ` · ${t('match.title', { id: id.slice(0, 8) })}`));
  setBaseTitle(`${gameTitle || state.game} · ${t('app.title')}`);
  markTitle(Boolean(myTurn()));
  renderTurnTools();
  syncChat();
  // A game with a module is drawn on a board; the others show their observation and legal actions
  // as text, in one column.
  const mod = game();
  document.querySelector('.board-column').classList.toggle('hidden', !mod);
  applyLayout($('layout'), mod, 'generic');
  renderStatus();
  renderInvites();
  // The board and the game's panel show the position being looked at: while in the past they
  // draw a copy of the state holding that position (`shown`), the live state is put back after.
  // Everything else (status, clocks, result, offers, the whole move list) is the present.
  const live = state;
  state = shown();
  try {
    renderGame();
  } finally {
    state = live;
  }
  renderMoves(past ? (earlier[past.index]?.moves ?? 0) - 1 : state.moves.length - 1);
  renderPast();
  renderResult();
  $('seed-hash').textContent = state.seed_hash || '';
  $('seed').textContent = state.seed || t('table.fair.pending');
  renderConfirm();
  renderHint();
  tickClocks();
  fitBoard();
}

/** In a first game, the hint of the game's module for the decision at hand (`hint(ctx)`, a text). */
function renderHint() {
  const mod = game();
  const text = learning && state.status === 'live' && !past && state.seat !== null ? mod?.hint?.(gameContext(mod)) || '' : '';
  $('learn-hint').textContent = text;
  $('learn-hint').classList.toggle('hidden', !text);
}

/** The move waiting for a confirmation, if any, in words with Play and Cancel. */
function renderConfirm() {
  if (toConfirm && !(canAct() && state.legal.includes(toConfirm.action))) toConfirm = null;
  $('confirm-box').classList.toggle('hidden', !toConfirm);
  $('confirm-text').textContent = toConfirm ? t('table.confirm.ask', { move: toConfirm.words }) : '';
}

/** A phone or a narrow window: one column, the board above the turn panel. */
const NARROW = window.matchMedia('(max-width: 900px)');

/**
 * On a narrow screen, makes the board small enough that the board, its bars and the turn panel
 * (whose turn, the clocks, the controls of the decision) fit the screen together without
 * scrolling; the game's details, the chat and the moves come below. On a wide screen the board
 * keeps its own size.
 */
function fitBoard() {
  const board = $('board');
  if (!NARROW.matches || !game()) {
    board.style.maxHeight = '';
    return;
  }
  const top = (node) => node.getBoundingClientRect().top + window.scrollY;
  const shown = (node) => node && !node.classList.contains('hidden') && node.offsetParent !== null;
  const height = (node) => (shown(node) ? node.getBoundingClientRect().height : 0);
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
  const mod = game();
  const panelId = mod ? mod.panel ?? null : 'generic-panel';
  for (const panel of document.querySelectorAll('[data-game-panel]')) panel.hidden = panel.id !== panelId;
  if (!mod) {
    renderGeneric();
  } else {
    $('controls-panel').classList.toggle('hidden', !(state.seat !== null && state.status === 'live'));
    for (const part of document.querySelectorAll('[data-game-part]')) part.classList.add('hidden');
    $('resign').disabled = pending;
    for (const bar of ['bar-top', 'bar-bottom']) {
      $(bar).replaceChildren();
      $(bar).classList.add('hidden');
    }
    mod.render(gameContext(mod));
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
 */
function gameContext(mod, drawn = state) {
  return {
    state: drawn,
    stateAt,
    canAct: Boolean(canAct()),
    pending,
    past: Boolean(past),
    config: gameConfig,
    play,
    redraw: render,
    tickClocks,
    seatWho,
    live: () => gameContext(mod, state),
    board: $('board'),
    barTop: $('bar-top'),
    barBottom: $('bar-bottom'),
    panel: mod.panel ? $(mod.panel) : null,
    decision: $('game-decision'),
    legend: $('board-legend'),
  };
}

// ---- Stepping back ---------------------------------------------------------------------------

/**
 * The state to draw: the live one, or while in the past a copy holding the position of that
 * version (its observation, the moves played by then, nobody to act, nothing legal).
 */
function shown() {
  const step = past && earlier?.[past.index];
  if (!step) return state;
  return { ...state, observation: step.observation, moves: state.moves.slice(0, step.moves), legal: [], to_act: [] };
}

/** The `/history` request in flight, or null. */
let historyLoad = null;

/**
 * Fetches this viewer's positions (`/history`, one request at a time) unless those known reach
 * version `v`; true once they do. A failure is shown in the error box.
 */
async function loadHistory(v) {
  if (earlier && earlier.length > v) return true;
  if (!historyLoad) {
    const token = getToken(id);
    historyLoad = api('GET', `/api/matches/${encodeURIComponent(id)}/history`, undefined,
      token ? { Authorization: `Bearer ${token}` } : {})
      .then((answer) => {
        earlier = answer.steps;
      })
      .catch((err) => showError(t('past.error', { msg: errorText(err) }), err.code))
      .finally(() => {
        historyLoad = null;
      });
  }
  await historyLoad;
  return Boolean(earlier && earlier.length > v);
}

/** Shows the position of version `i` (clamped); at the current version, the present. */
async function goTo(i) {
  if (!state) return;
  const target = Math.max(0, Math.min(state.version, i));
  if (target >= state.version) {
    past = null;
    wanted = null;
    render();
    return;
  }
  wanted = target;
  if (!past) {
    $('past-text').textContent = t('past.loading');
    renderPast();
  }
  const ready = await loadHistory(target);
  // A later key press or click asked for another step meanwhile: it shows that one.
  if (wanted !== target) return;
  wanted = null;
  if (ready) past = { index: target, since: past?.since ?? state.version };
  render();
}

/** Shows the position right after move `i` of the move list (0-based). */
async function goToMove(i) {
  if (!(await loadHistory(0))) return;
  let v = earlier.findIndex((step) => step.by !== null && step.moves === i + 1);
  // A move played since the positions were fetched: fetch them again.
  if (v < 0 && (await loadHistory(earlier.length))) v = earlier.findIndex((step) => step.by !== null && step.moves === i + 1);
  if (v >= 0) goTo(v);
}

/** Steps by `delta` versions from the one shown. */
function stepBy(delta) {
  const at = wanted ?? past?.index ?? state.version;
  goTo(at + delta);
}

/** The banner and the step buttons. */
function renderPast() {
  const started = state.version > 0;
  $('step-controls').classList.toggle('hidden', !started);
  const at = past ? past.index : state.version;
  $('step-first').disabled = $('step-prev').disabled = at === 0;
  $('step-next').disabled = $('step-last').disabled = !past;
  document.body.toggleAttribute('data-past', Boolean(past));
  document.body.dataset.step = String(at);
  $('past-banner').classList.toggle('hidden', !past && wanted === null);
  if (!past) return;
  // Counted in the move list's entries, as the list shows them (a version may add several).
  const k = earlier?.[past.index]?.moves ?? past.index;
  $('past-text').replaceChildren(t('past.banner', { k, n: state.moves.length }),
    ...(state.version > past.since ? [' ', el('span', { class: 'moved-on', id: 'past-moved-on' }, t('past.moved_on'))] : []));
}

function renderStatus() {
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
    const waits = state.clocks?.first_move_ms?.[state.seat] ?? null;
    status.textContent = waits === null ? t('match.turn.you') : `${t('match.turn.you')} · ${t('clock.first_move.you')}`;
    status.classList.add('you');
  } else if (state.to_act.length) {
    status.textContent = t('match.turn.other', { side: seatNames(state.to_act) });
  } else status.textContent = '';
  $('who').textContent = state.seat === null ? t('match.spectator') : t('match.you_play', { side: seatLabel(state.game, state.seat) });
  renderManners({ state, game: gameEntry, send, names: seatNames });
  const counters = game()?.counters?.(state.observation);
  if (counters) $('counters').textContent = counters;
}

function renderInvites() {
  const panel = $('invite-panel');
  const free = state.status === 'open' ? state.seats.filter((s) => s.kind === 'human' && !s.taken) : [];
  panel.classList.toggle('hidden', free.length === 0);
  $('invites').replaceChildren(...free.map((s) => {
    const link = absolute(`/m/${id}?join=${s.seat}`);
    const input = el('input', { type: 'text', readonly: true, value: link, class: 'invite-link', 'data-seat': s.seat,
      'aria-label': t('lobby.invite', { n: seatLabel(state.game, s.seat) }) });
    return el('div', { class: 'invite' },
      el('span', { class: 'small' }, seatLabel(state.game, s.seat)), input,
      copyButton(input, t('lobby.copy'), t('lobby.copied')));
  }));
}

/** A game without a module: its observation as text and its legal actions as buttons. */
function renderGeneric() {
  $('controls-panel').classList.add('hidden');
  $('generic-obs').textContent = JSON.stringify(state.observation, null, 2);
  const acting = canAct();
  $('generic-actions').replaceChildren(...(acting ? state.legal : []).map((a) =>
    el('button', { type: 'button', class: 'chip', 'data-action': a, onclick: () => play(a) }, a)));
}

/**
 * The move list, every move played; `current` (an index) is the move of the position shown, and
 * the moves after it (while in the past) are greyed. A click on a move shows the position after it.
 */
function renderMoves(current) {
  const list = $('moves');
  const mod = game();
  // Words where the game has them (the replay page's words), or the notation when the player
  // asked for it (a table setting); the notation always in `data-text` and the tooltip. A chance
  // draw is marked by its style (a die before it), not by a word.
  const cell = (m, i, extra = '') => {
    const words = notation() ? null : mod?.describe?.(m) || null;
    const label = words || m.text;
    return el('span', {
      class: `mv${extra}${m.by === 'chance' ? ' chance' : ''}${i === current ? ' current' : ''}${i > current ? ' future' : ''}`,
      'data-index': i, 'data-text': m.text, title: m.text,
      role: 'button', tabindex: '0', onclick: () => goToMove(i),
      onkeydown: (ev) => {
        if (ev.key === 'Enter') goToMove(i);
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
  // without a number, as on the replay page.
  const rows = [];
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

/** Scrolls the move list to its end at the present, to the move shown while in the past. */
function scrollToCurrent(list) {
  if (!past) list.scrollTop = list.scrollHeight;
  else list.querySelector('.current')?.scrollIntoView({ block: 'nearest' });
}

function renderResult() {
  const finished = state.status === 'finished';
  $('result-panel').classList.toggle('hidden', !finished);
  if (!finished) return;
  $('result-text').textContent = resultSentence(state.game, state.outcome, state.observation?.since ?? '', seatName);
  renderRatings();
  $('result-panel').dataset.kind = state.outcome?.kind || '';
  renderRematch();
  $('replay-link').href = `/replay/${id}`;
  const mod = game();
  mod?.renderFinal?.(gameContext(mod));
}

/** The rating changes of a finished rated match, under the result; this seat's first. */
function renderRatings() {
  const box = $('result-ratings');
  const changes = ratingChanges(state.ratings, seatName)
    .sort((a, b) => (b.seat === state.seat) - (a.seat === state.seat));
  box.hidden = changes.length === 0;
  box.replaceChildren(...changes.map((c) => el('div', {
    class: `rating-change${c.delta > 0 ? ' up' : c.delta < 0 ? ' down' : ''}`,
    'data-seat': c.seat, 'data-delta': c.delta,
  }, c.text)));
}

function tickClocks() {
  if (!state) return;
  const clocks = state.clocks;
  for (const s of state.seats.map((x) => x.seat)) {
    const node = $(`clock-${s}`);
    if (!node) continue;
    if (!clocks || clocks.kind === 'none' || !clocks.remaining_ms) {
      node.textContent = '∞';
      node.title = t('match.clock.none');
      node.classList.remove('running', 'low');
      continue;
    }
    // A seat's clock starts with its first move, or once its first-move time is over.
    const elapsed = performance.now() - stateAt;
    const firstMove = clocks.first_move_ms?.[s] ?? null;
    const waiting = firstMove !== null && elapsed < firstMove;
    const runs = runningSeats(state).includes(s) || (firstMove !== null && !waiting);
    let ms = clocks.remaining_ms[s];
    if (runs) ms -= firstMove === null ? elapsed : elapsed - firstMove;
    node.classList.toggle('first-move', waiting);
    if (waiting) node.title = t('clock.first_move', { s: Math.ceil((firstMove - elapsed) / 1000) });
    else node.removeAttribute('title');
    // The game's own clocks (Bataille Navale) run only in their phase: a stopped one shows no time.
    node.textContent = clocks.kind === 'game' && !runs ? '—' : formatClock(ms);
    node.dataset.ms = String(Math.max(0, Math.round(ms)));
    node.classList.toggle('running', runs);
    node.classList.toggle('low', runs && ms < 10000);
  }
  const mod = game();
  if (mod?.tick) mod.tick(gameContext(mod, shown()));
}

// ---- Start ---------------------------------------------------------------------------------

async function start() {
  setupLanguageSwitch();
  setupIdentity();
  onLangChange(() => {
    chat.draw();
    render();
  });
  chat = createChat($('chat-panel'), {
    game: () => state?.game,
    send,
    needName: () => !player && state?.seat === null,
    chooseName: async (name) => {
      try {
        await chooseName(name);
      } catch (err) {
        throw Object.assign(err, { text: errorText(err) });
      }
    },
  });
  onPlayerChange((p) => {
    player = p;
    // The socket was opened without a session: open it again so the server knows the name.
    socket?.close();
  });
  player = await currentPlayer();
  $('notify-ask').addEventListener('click', async () => {
    await askNotifications();
    renderTurnTools();
  });
  $('sound-toggle').addEventListener('click', () => {
    setSound(!soundOn());
    if (soundOn()) chime();
    renderTurnTools();
  });
  $('confirm-option').addEventListener('change', (ev) => {
    localStorage.setItem(CONFIRM_KEY, ev.target.checked ? 'on' : 'off');
    render();
  });
  $('notation-option').addEventListener('change', (ev) => {
    localStorage.setItem(NOTATION_KEY, ev.target.checked ? 'on' : 'off');
    render();
  });
  $('confirm-play').addEventListener('click', () => {
    const waiting = toConfirm;
    toConfirm = null;
    if (waiting) play(waiting.action, { confirmed: true });
  });
  $('confirm-cancel').addEventListener('click', () => {
    toConfirm = null;
    game()?.reset?.();
    render();
  });
  // The board, its bars and the turn panel change size with the decision: fit them again.
  new ResizeObserver(() => fitBoard()).observe($('turn-panel'));
  NARROW.addEventListener('change', () => fitBoard());
  window.addEventListener('resize', () => fitBoard());
  $('rematch-decline').addEventListener('click', () => {
    askedRematch = false;
    send({ type: 'decline', kind: 'rematch' });
  });
  $('resign').addEventListener('click', onResign);
  $('rematch').addEventListener('click', () => {
    askedRematch = true;
    send({ type: 'rematch' });
  });
  document.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape') {
      const waiting = Boolean(toConfirm);
      toConfirm = null;
      if (game()?.reset?.() || waiting) render();
    }
    // The arrows step through the game, unless the player is typing (the chat) or a control
    // of the board has the keys.
    if (['INPUT', 'SELECT', 'TEXTAREA'].includes(ev.target?.tagName) || ev.target?.closest?.('svg')) return;
    const steps = { ArrowLeft: -1, ArrowRight: 1 };
    if (ev.key in steps) stepBy(steps[ev.key]);
    else if (ev.key === 'Home' && state?.version) goTo(0);
    else if (ev.key === 'End' && past) goTo(state.version);
    else return;
    ev.preventDefault();
  });
  $('step-first').addEventListener('click', () => goTo(0));
  $('step-prev').addEventListener('click', () => stepBy(-1));
  $('step-next').addEventListener('click', () => stepBy(1));
  $('step-last').addEventListener('click', () => goTo(state.version));
  $('past-return').addEventListener('click', () => goTo(state.version));
  if (!id) {
    showError(t('match.notfound'));
    return;
  }
  let summary;
  try {
    summary = await api('GET', `/api/matches/${encodeURIComponent(id)}`);
    gameTitle = summary.title;
    $('howto-link').href = `/howto/${encodeURIComponent(summary.game)}`;
    $('howto-link').classList.remove('hidden');
    const games = await api('GET', '/api/games').catch(() => ({ games: [] }));
    const entry = games.games.find((g) => g.name === summary.game);
    gameEntry = entry ?? null;
    gameConfig = withDefaults(entry?.default_config, summary.config);
  } catch (err) {
    showError(err.code === 'match/not_found' ? t('match.notfound') : errorText(err), err.code);
    $('layout').classList.add('hidden');
    return;
  }
  // An invite link: take the offered seat unless this browser already holds one of this match.
  const params = new URLSearchParams(location.search);
  // A first game keeps its hints over reloads of the tab.
  if (params.has('learn')) {
    sessionStorage.setItem(`plateau.learn.${id}`, '1');
    history.replaceState(null, '', `/m/${id}`);
  }
  learning = sessionStorage.getItem(`plateau.learn.${id}`) === '1';
  if (params.has('join')) {
    if (!getToken(id)) {
      try {
        // A new visitor says who they are before sitting down: the seat holds their player, the
        // others see that name at the table and in the chat.
        if (!player) player = await askName({ purpose: 'join' });
        const res = await api('POST', `/api/matches/${encodeURIComponent(id)}/join`, { seat: Number(params.get('join')) });
        setToken(id, res.token);
      } catch (err) {
        showError(errorText(err), err.code);
      }
    }
    history.replaceState(null, '', `/m/${id}`);
  } else if (!player && !getToken(id) && summary.status !== 'finished') {
    // A new visitor come to watch is offered a name too (one tap takes the suggestion), so they
    // have one when they chat; "Just watch" needs none. A finished game is only looked at.
    player = await askName({ purpose: 'watch' });
  }
  connect();
  setInterval(tickClocks, 100);
}

start();
