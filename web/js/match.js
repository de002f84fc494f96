// The match page (web/match.html, served at /m/{id}): play a seat or watch, over the WebSocket of
// protocol.md section 4. Everything shown comes from the server's `state` messages; the page only
// offers the texts of `legal` and sends one back.

import { api, el, getToken, setToken, idFromPath, absolute, formatClock, copyButton } from './api.js';
import { t, setupLanguageSwitch, onLangChange } from './i18n.js';
import { seatLabel, seatWithName, botName } from './seats.js';
import { setupIdentity, currentPlayer, chooseName, errorText, onPlayerChange } from './identity.js';
import { createChat } from './chat.js';
import {
  setBaseTitle, markTitle, chime, soundOn, setSound, canAskNotifications, askNotifications, notifyTurn,
} from './notify.js';
import { resultSentence } from './result.js';
import {
  legalChoices, parseAction, renderBoard, renderExile, describeShift, describeShiftLong, cellsOfShips, seatColour,
  sideName,
} from './mad.js';
import * as ml from './moonleap.js';
import { renderChakart } from './chakart.js';
import * as nv from './naval.js';

const $ = (id) => document.getElementById(id);
const id = idFromPath();

/** The latest `state` message, or null before the first. */
let state = null;
/** Local time (performance.now) at which `state` arrived, for the clocks. */
let stateAt = 0;
/** An action was sent and its answer (a new state or an error) has not come yet. */
let pending = false;
/** The selected ship's cell, or null. */
let selected = null;
/** The bonus choice on screen: {from, to, plain, options} or null. */
let bonus = null;
/** Ships to ring while a permutation or rotation is hovered: {side, codes} or null. */
let involved = null;
/** The rematch this page offered or accepted, to follow it when it arrives. */
let askedRematch = false;
/** The session's player ({name, kind}) or null. */
let player = null;
/** The chat panel (chat.js). */
let chat = null;
/** Whether the last state rendered was this page's turn (to tell only when the turn arrives). */
let wasMyTurn = false;
/** The game has an agreed stop (`agreement` in /api/games: MAD). */
let hasAgreement = false;
/** The version at which a forced Moon Leap move (the only legal one) was scheduled, if any. */
let forcedAt = null;
/** How long a forced move waits before the page plays it, in ms: long enough to see the roll. */
const FORCED_PAUSE_MS = 1200;
/** The game's title from the match summary. */
let gameTitle = null;
/** The game's config: the summary's when it gives one, else the game's default (Bataille Navale's costs). */
let gameConfig = null;

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
    const changed = !state || state.version !== msg.version || state.status !== msg.status;
    // A refusal from before the page knew the match (a taken seat) stays until the match moves.
    const moved = Boolean(state) && changed;
    state = next;
    stateAt = performance.now();
    pending = false;
    setConn('match.connected');
    if (changed) {
      selected = null;
      bonus = null;
      involved = null;
    }
    if (moved) showError(null);
    render();
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
    if (isNaval()) nv.onServerError(msg);
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
  const seated = state?.seat !== null && state?.status !== 'finished';
  $('notify-ask').classList.toggle('hidden', !seated || !canAskNotifications());
  const clocked = state?.clocks && state.clocks.kind !== 'none';
  $('sound-toggle').classList.toggle('hidden', !seated || !clocked);
  $('sound-toggle').textContent = t(soundOn() ? 'notify.sound.on' : 'notify.sound.off');
  $('sound-toggle').setAttribute('aria-pressed', String(soundOn()));
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

function renderAgreement() {
  const offered = offersOf('agreement');
  const live = state.status === 'live' && state.seat !== null;
  const botAtTable = state.seats.some((x) => x.kind === 'bot');
  const possible = live && hasAgreement && !botAtTable;
  const mine = offered.includes(state.seat);
  const others = offered.filter((s) => s !== state.seat);
  $('offer-stop').classList.toggle('hidden', !possible || mine || others.length > 0);
  $('offer-panel').classList.toggle('hidden', !possible || offered.length === 0);
  $('offer-panel').dataset.offered = offered.join(',');
  if (!possible || offered.length === 0) return;
  $('offer-text').textContent = mine ? t('offer.stop.sent') : t('offer.stop.by', { names: seatNames(others) });
  $('agree-accept').classList.toggle('hidden', mine);
  $('agree-decline').textContent = t(mine ? 'offer.withdraw' : 'offer.decline');
}

// ---- Reading the state -------------------------------------------------------------------

function isMad() {
  return state?.game === 'mad';
}

function isMoonLeap() {
  return state?.game === 'moonleap';
}

function isChakart() {
  return state?.game === 'chakart';
}

function isNaval() {
  return state?.game === 'naval';
}

/** Games drawn on a board (the others show their observation as text). */
function hasBoard() {
  return isMad() || isMoonLeap() || isChakart() || isNaval();
}

function myTurn() {
  return state && state.status === 'live' && state.seat !== null && state.to_act.includes(state.seat);
}

function canAct() {
  return myTurn() && !pending;
}

function legalParsed() {
  return legalChoices(state?.legal || [], state?.legal_info || []);
}

function mySide() {
  return state?.seat === null || state?.seat === undefined ? null : seatColour(state.seat);
}

/** Who sits at seat `s`: the player's name ("Alice, you" for this page), a bot's, or "free". */
function seatWho(s) {
  const info = state.seats.find((x) => x.seat === s);
  if (!info) return '';
  const name = info.player?.name;
  if (state.seat === s) return name ? t('seat.you.named', { name }) : t('seat.you');
  if (info.kind === 'bot') return name || `${t('seat.bot')} ${botName(info.bot)}`;
  if (name) return info.connected === false && state.status !== 'finished' ? t('seat.away', { name }) : name;
  return info.taken ? t('seat.human') : t('lobby.free');
}

// ---- Actions -------------------------------------------------------------------------------

/** Sends one action, or a list of this seat's actions played as one whole turn (all or nothing). */
function play(action) {
  if (!canAct()) return;
  const msg = Array.isArray(action)
    ? { type: 'act', version: state.version, actions: action }
    : { type: 'act', version: state.version, action };
  if (send(msg)) {
    pending = true;
    selected = null;
    bonus = null;
    involved = null;
    render();
  }
}

function onCell(name) {
  if (!canAct()) return;
  const moves = legalParsed().filter((a) => a.kind === 'move');
  if (selected && moves.some((a) => a.from === selected && a.to === name)) {
    chooseTarget(selected, name, moves);
    return;
  }
  bonus = null;
  selected = selected !== name && moves.some((a) => a.from === name) ? name : null;
  render();
}

function chooseTarget(from, to, moves) {
  const candidates = moves.filter((a) => a.from === from && a.to === to);
  const plain = candidates.find((a) => !a.shift) || null;
  const options = candidates.filter((a) => a.shift);
  if (options.length === 0 && plain) {
    play(plain.text);
    return;
  }
  bonus = { from, to, plain, options };
  render();
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
  $('title').textContent = `${gameTitle || state.game} · ${t('match.title', { id: id.slice(0, 8) })}`;
  setBaseTitle(`${gameTitle || state.game} · ${t('app.title')}`);
  markTitle(Boolean(myTurn()));
  renderTurnTools();
  syncChat();
  // MAD and Moon Leap have a board drawing; other games show their observation and legal
  // actions as text.
  document.querySelector('.board-column').classList.toggle('hidden', !hasBoard());
  $('layout').classList.toggle('generic', !hasBoard());
  $('layout').classList.toggle('moonleap', isMoonLeap());
  $('ml-panel').hidden = !isMoonLeap();
  $('ck-panel').hidden = !isChakart();
  $('layout').classList.toggle('naval', isNaval());
  $('nv-panel').hidden = !isNaval();
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
  $('seed').textContent = state.seed || '—';
  tickClocks();
}

/** The board and the game's panel of `state`. */
function renderGame() {
  if (isMad()) {
    $('generic-panel').hidden = true;
    for (const bar of ['bar-top', 'bar-bottom']) $(bar).classList.remove('hidden');
    renderMad();
  } else if (isMoonLeap()) {
    $('generic-panel').hidden = true;
    renderMoonLeap();
  } else if (isChakart()) {
    $('generic-panel').hidden = true;
    renderChakartPage();
  } else if (isNaval()) {
    $('generic-panel').hidden = true;
    renderNavalPage();
  } else {
    renderGeneric();
  }
  // A seat out of a game that goes on (a Bataille Navale seat eliminated or resigned) is sent the
  // spectators' view: it has nothing left to play or resign.
  if (state.seat !== null && state.observation && state.observation.viewer === null) {
    $('controls-panel').classList.add('hidden');
  }
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
  $('past-text').replaceChildren(t('past.banner', { k: past.index, n: state.version }),
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
    status.textContent = t('match.turn.you');
    status.classList.add('you');
  } else if (state.to_act.length) {
    status.textContent = t('match.turn.other', { side: seatNames(state.to_act) });
  } else status.textContent = '';
  $('who').textContent = state.seat === null ? t('match.spectator') : t('match.you_play', { side: seatLabel(state.game, state.seat) });
  renderAgreement();
  const obs = state.observation;
  if (isMad() && obs && typeof obs.ply === 'number') {
    $('counters').textContent = `${t('match.ply', { n: obs.ply })} · ${t('match.since', { n: obs.since })}`;
  }
  if (isMoonLeap() && obs && Array.isArray(obs.values)) {
    $('counters').textContent = t(obs.milestone_passed ? 'ml.milestone.open' : 'ml.milestone.closed', { n: obs.milestone_after });
  }
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

/** A player's bar: colour and name, the exile zone of that fleet, the clock. */
function playerBar(container, seat, exiled, ringed) {
  const side = seatColour(seat);
  const toAct = state.status === 'live' && state.to_act.includes(seat);
  container.classList.toggle('to-act', toAct);
  const exile = el('div', { class: 'exile', id: `exile-${side}` });
  renderExile(exile, side, exiled, ringed);
  container.replaceChildren(
    el('span', { class: 'player-name', 'data-seat': seat }, el('span', { class: `swatch ${side}` }), sideName(side),
      el('span', { class: 'muted small seat-who' }, `(${seatWho(seat)})`)),
    exile,
    el('span', { class: 'clock', id: `clock-${seat}`, role: 'timer', 'aria-label': `${sideName(side)}` }, ''));
}

function renderMad() {
  renderMadBoard();
  renderMadControls();
}

/** The board, the exile zones and the player bars (redrawn alone while a chip is hovered). */
function renderMadBoard() {
  const obs = state.observation;
  const orientation = mySide() || 'r';
  const bottomSeat = orientation === 'b' ? 1 : 0;
  const topSeat = 1 - bottomSeat;
  const exInv = (side) => (involved && involved.side === side ? new Set(involved.codes) : new Set());
  for (const [bar, seat] of [['bar-top', topSeat], ['bar-bottom', bottomSeat]]) {
    const side = seatColour(seat);
    playerBar($(bar), seat, obs.exile?.[side] || [], exInv(side));
  }

  const acting = canAct();
  const moves = acting ? legalParsed().filter((a) => a.kind === 'move') : [];
  const movable = new Set(bonus ? [] : moves.map((a) => a.from));
  const targets = new Map();
  const from = bonus ? bonus.from : selected;
  if (from) {
    for (const a of moves) {
      if (a.from !== from) continue;
      if (bonus && a.to !== bonus.to) continue;
      targets.set(a.to, a.capture ? 'capture' : 'move');
    }
  }
  const ringed = involved ? cellsOfShips(obs.cells, involved.side, involved.codes) : new Set();
  const lastMove = [...state.moves].reverse().map((m) => parseAction(m.text)).find(Boolean);
  renderBoard($('board'), {
    cells: obs.cells,
    orientation,
    movable,
    selected: from,
    targets,
    involved: ringed,
    lastFrom: lastMove?.kind === 'move' ? lastMove.from : null,
    lastTo: lastMove?.kind === 'move' ? lastMove.to : null,
    onCell: acting ? onCell : null,
  });
  tickClocks();
}

/** The bonus choice, the permutation/rotation chips, pass and resign. */
function renderMadControls() {
  const me = mySide();
  const playing = state.seat !== null && state.status === 'live';
  $('controls-panel').classList.toggle('hidden', !playing);
  if (!playing) return;
  const acting = canAct();
  const legal = acting ? legalParsed() : [];
  $('select-help').classList.toggle('hidden', !acting || Boolean(bonus));
  renderBonus(me);
  $('shifts-box').classList.toggle('hidden', Boolean(bonus));
  const shifts = legal.filter((a) => a.kind === 'shift');
  const box = $('shifts');
  if (!acting) box.replaceChildren(el('span', { class: 'muted small' }, '—'));
  else if (shifts.length === 0) box.replaceChildren(el('span', { class: 'muted small' }, t('match.shifts.none')));
  else box.replaceChildren(...shifts.map((a) => shiftChip(a, me)));
  const pass = legal.find((a) => a.kind === 'pass');
  $('pass').classList.toggle('hidden', !pass);
  $('pass').disabled = !acting;
  $('resign').disabled = pending;
}

/** A button for a permutation or rotation: hovering or focusing it rings the ships it moves. */
function shiftChip(action, side) {
  const shift = action.shift;
  // Words only; the notation is in the tooltip.
  const chip = el('button', {
    type: 'button', class: 'chip', 'data-action': action.text, title: `${describeShiftLong(shift)} (${action.text})`,
    'aria-label': describeShiftLong(shift),
    onclick: () => play(action.text),
  }, describeShift(shift));
  const on = () => {
    involved = { side, codes: shift.codes };
    renderMadBoard();
  };
  const off = () => {
    involved = null;
    renderMadBoard();
  };
  chip.addEventListener('mouseenter', on);
  chip.addEventListener('focus', on);
  chip.addEventListener('mouseleave', off);
  chip.addEventListener('blur', off);
  return chip;
}

function renderBonus(side) {
  const box = $('bonus');
  if (!bonus) {
    box.classList.add('hidden');
    box.replaceChildren();
    return;
  }
  const moveText = bonus.plain ? bonus.plain.text : `${bonus.from}-${bonus.to}`;
  const chips = [];
  if (bonus.plain) {
    const plainText = bonus.plain.text;
    chips.push(el('button', { type: 'button', class: 'chip plain', id: 'bonus-none', 'data-action': plainText,
      onclick: () => play(plainText) }, t('match.bonus.none', { move: moveText })));
  }
  for (const a of bonus.options) chips.push(shiftChip(a, side));
  box.replaceChildren(
    el('h3', {}, t('match.bonus.title', { move: moveText })),
    el('p', { class: 'small' }, t('match.bonus.help')),
    el('div', { class: 'chips' }, chips),
    el('p', {}, el('button', { type: 'button', class: 'secondary', id: 'bonus-cancel', onclick: () => {
      bonus = null;
      selected = null;
      render();
    } }, t('match.cancel'))));
  box.classList.remove('hidden');
}

// ---- Chakart --------------------------------------------------------------------------------

/** A bar with the side's name, who plays it and its clock (Chakart: White below unless I play Black). */
function nameBar(container, seat) {
  container.classList.remove('hidden');
  container.classList.toggle('to-act', state.status === 'live' && state.to_act.includes(seat));
  container.replaceChildren(
    el('span', { class: 'player-name', 'data-seat': seat }, seatLabel(state.game, seat),
      el('span', { class: 'muted small seat-who' }, `(${seatWho(seat)})`)),
    el('span', { class: 'clock', id: `clock-${seat}`, role: 'timer', 'aria-label': seatLabel(state.game, seat) }, ''));
}

function renderChakartPage() {
  const bottom = state.seat === 1 ? 1 : 0;
  nameBar($('bar-top'), 1 - bottom);
  nameBar($('bar-bottom'), bottom);
  // Resign stays available; the actions are played on the board and in the Chakart panel.
  $('controls-panel').classList.toggle('hidden', !(state.seat !== null && state.status === 'live'));
  for (const hide of ['select-help', 'shifts-box', 'bonus', 'pass']) $(hide).classList.add('hidden');
  renderChakart({ svg: $('board'), panel: $('ck-panel'), state, canAct: canAct(), play, render, past: Boolean(past) });
}

// ---- Bataille Navale -------------------------------------------------------------------------

function renderNavalPage() {
  for (const bar of ['bar-top', 'bar-bottom']) {
    $(bar).replaceChildren();
    $(bar).classList.add('hidden');
  }
  // Resign stays in the controls panel; everything else is on the boards and in the naval panel.
  $('controls-panel').classList.toggle('hidden', !(state.seat !== null && state.status === 'live'));
  for (const hide of ['select-help', 'shifts-box', 'bonus', 'pass']) $(hide).classList.add('hidden');
  $('resign').disabled = pending;
  if (past) {
    // An earlier position: the boards alone, read-only; the panel (the plan of this turn) waits.
    $('nv-panel').hidden = true;
    nv.renderNavalBoards($('board'), navalPast(state));
    return;
  }
  nv.renderNaval({ svg: $('board'), panel: $('nv-panel'), state, stateAt, canAct: canAct(), config: gameConfig, play, render });
}

/**
 * An earlier position of Bataille Navale as the boards draw it read-only (as the replay page
 * does): no turn to plan or piece to place in it, whatever the present holds.
 */
function navalPast(shownState) {
  return { ...shownState, status: 'finished', to_act: [] };
}

// ---- Moon Leap -------------------------------------------------------------------------------

/** The legal decisions of this seat, taken apart (empty when it is not this page's turn). */
function moonLeapChoices() {
  return canAct() ? ml.legalChoices(state.legal, state.legal_info || []) : [];
}

/** The last die face: the one awaiting a decision, else the last roll in the log. */
function lastRoll() {
  const obs = state.observation;
  let index = -1;
  for (let i = state.moves.length - 1; i >= 0; i--) {
    if (ml.rollFace(state.moves[i].text)) {
      index = i;
      break;
    }
  }
  const face = obs.roll ?? (index >= 0 ? ml.rollFace(state.moves[index].text) : null);
  return { face, key: `${index}:${face}` };
}

function renderMoonLeap() {
  const obs = state.observation;
  for (const bar of ['bar-top', 'bar-bottom']) {
    $(bar).replaceChildren();
    $(bar).classList.add('hidden');
  }
  const choices = moonLeapChoices();
  const me = state.seat === null ? null : ml.seatLetter(state.seat);
  // Single moves are played by clicking the astronaut, on the track or off board.
  const clickable = new Map();
  for (const a of choices) {
    if (a.kind !== 'move') continue;
    const id = a.parts[0];
    clickable.set(id.startsWith('m') ? id : `${me}${id}`, a.text);
  }
  ml.renderTrack($('board'), { obs, clickable, onAction: canAct() ? play : null });

  const { face, key } = lastRoll();
  ml.showDie($('ml-die'), face, key);
  $('ml-roll-text').textContent = face ? t('ml.roll', { face: face === '*' ? '★' : face }) : t('ml.roll.none');

  $('ml-seats').replaceChildren(...state.seats.map(({ seat }) => {
    const letter = ml.seatLetter(seat);
    const off = ml.offBoard(obs.track, letter).map((n) => {
      const token = `${letter}${n}`;
      const icon = ml.astronautIcon(token, 28);
      const action = clickable.get(token);
      if (!action) return icon;
      return el('button', { type: 'button', class: 'ml-enter', 'data-action': action, 'data-astro': token,
        'aria-label': t('ml.move', { a: n }), onclick: () => play(action) }, icon);
    });
    const toAct = state.status === 'live' && state.to_act.includes(seat);
    return el('div', { class: `ml-seat${toAct ? ' to-act' : ''}`, 'data-seat': seat },
      el('span', { class: `ml-swatch ml-${letter}` }),
      el('span', { class: 'player-name', 'data-seat': seat }, seatLabel(state.game, seat), ' ',
        el('span', { class: 'muted small seat-who' }, `(${seatWho(seat)})`)),
      el('span', { class: 'ml-score', 'data-score': obs.scores[seat] }, t('ml.score', { n: obs.scores[seat] })),
      el('span', { class: 'clock', id: `clock-${seat}`, role: 'timer' }, ''),
      el('span', { class: 'ml-off' }, el('span', { class: 'muted small' }, t('ml.off')),
        ...(off.length ? off : [el('span', { class: 'muted small' }, '—')])));
  }));

  const box = $('ml-choices');
  if (!canAct()) box.replaceChildren(el('span', { class: 'muted small' }, '—'));
  else {
    box.replaceChildren(...choices.map((a) => el('button', {
      type: 'button', class: `chip ml-choice ${a.kind}`, 'data-action': a.text, 'data-kind': a.kind,
      onclick: () => play(a.text),
    }, ml.describeChoice(a))));
    if (choices.length === 1) {
      box.append(el('p', { class: 'muted small', id: 'ml-forced' }, t('ml.forced')));
      playForced(choices[0].text);
    }
  }
  $('controls-panel').classList.toggle('hidden', !(state.seat !== null && state.status === 'live'));
  for (const hide of ['select-help', 'shifts-box', 'bonus', 'pass']) $(hide).classList.add('hidden');
  $('resign').disabled = pending;
}

/** Plays `action`, the only legal one, after a short pause, unless the match moved on meanwhile. */
function playForced(action) {
  if (forcedAt === state.version) return;
  forcedAt = state.version;
  const version = state.version;
  setTimeout(() => {
    if (state.version === version && canAct() && !pending && state.legal.length === 1) play(action);
  }, FORCED_PAUSE_MS);
}

/** The final score table: one row per seat, best rank first (the outcome's ranks and scores). */
function renderMoonLeapFinal() {
  const table = $('ml-final');
  const outcome = state.outcome;
  table.hidden = !(isMoonLeap() && state.status === 'finished' && outcome);
  if (table.hidden) return;
  const order = outcome.ranks.map((r, s) => [r, s]).sort((x, y) => x[0] - y[0] || x[1] - y[1]).map(([, s]) => s);
  const track = state.observation.track;
  table.replaceChildren(
    el('thead', {}, el('tr', {}, el('th', {}, t('ml.rank')), el('th', {}, t('ml.player')), el('th', {}, t('ml.final')),
      el('th', {}, t('ml.off')))),
    el('tbody', {}, ...order.map((s) => el('tr', { 'data-seat': s, 'data-rank': outcome.ranks[s], 'data-score': outcome.scores[s] },
      el('td', {}, String(outcome.ranks[s])),
      el('td', {}, el('span', { class: `ml-swatch ml-${ml.seatLetter(s)}` }), ' ', seatLabel(state.game, s)),
      el('td', { class: 'num' }, String(outcome.scores[s])),
      el('td', {}, ml.offBoard(track, ml.seatLetter(s)).join(' ') || '—')))));
}

function renderGeneric() {
  $('generic-panel').hidden = false;
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
  const cell = (m, i, extra = '') => el('span', {
    class: `mv${extra}${i === current ? ' current' : ''}${i > current ? ' future' : ''}`, 'data-index': i,
    role: 'button', tabindex: '0', onclick: () => goToMove(i),
    onkeydown: (ev) => {
      if (ev.key === 'Enter') goToMove(i);
    },
  }, m.text);
  if (isMoonLeap() || isNaval()) {
    // Three or four seats and chance entries: one line per logged action, in the seat's colour.
    list.replaceChildren(...state.moves.map((m, i) => {
      const seat = typeof m.by === 'object' && m.by !== null ? m.by.seat : null;
      const face = ml.rollFace(m.text);
      return el('li', {},
        el('span', { class: 'num' }, `${i + 1}.`),
        seat === null ? el('span', { class: 'muted small' }, face ? t('ml.die', { face: face === '*' ? '★' : face }) : '')
          : el('span', { class: `ml-swatch ml-${ml.seatLetter(seat)}` }),
        cell(m, i));
    }));
    scrollToCurrent(list);
    return;
  }
  const rows = [];
  let row = null;
  let n = 0;
  state.moves.forEach((m, i) => {
    const seat = typeof m.by === 'object' && m.by !== null ? m.by.seat : null;
    const side = seat === null ? '' : seatColour(seat);
    const node = cell(m, i, isMad() ? ` ${side}` : ' ');
    if (seat === 0 || row === null || row.filled || seat === null) {
      n += 1;
      row = { num: n, cells: [null, null], filled: false };
      rows.push(row);
    }
    if (seat === 1) {
      row.cells[1] = node;
      row.filled = true;
    } else {
      row.cells[0] = node;
      if (seat === null) row.filled = true;
    }
  });
  list.replaceChildren(...rows.map((r) => el('li', {},
    el('span', { class: 'num' }, `${r.num}.`),
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
  $('result-panel').dataset.kind = state.outcome?.kind || '';
  renderRematch();
  $('replay-link').href = `/replay/${id}`;
  renderMoonLeapFinal();
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
    const runs = nv.runningSeats(state).includes(s);
    let ms = clocks.remaining_ms[s];
    if (runs) ms -= performance.now() - stateAt;
    // The game's own clocks (Bataille Navale) run only in their phase: a stopped one shows no time.
    node.textContent = clocks.kind === 'game' && !runs ? '—' : formatClock(ms);
    node.dataset.ms = String(Math.max(0, Math.round(ms)));
    node.classList.toggle('running', runs);
    node.classList.toggle('low', runs && ms < 10000);
  }
  // While in the past the boards show an earlier position: nothing is played from them.
  if (isNaval()) nv.tick({ state: past ? navalPast(shown()) : state, stateAt, canAct: canAct() && !past });
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
  $('offer-stop').addEventListener('click', () => send({ type: 'offer', kind: 'agreement' }));
  $('agree-accept').addEventListener('click', () => send({ type: 'offer', kind: 'agreement' }));
  $('agree-decline').addEventListener('click', () => send({ type: 'decline', kind: 'agreement' }));
  $('rematch-decline').addEventListener('click', () => {
    askedRematch = false;
    send({ type: 'decline', kind: 'rematch' });
  });
  $('pass').addEventListener('click', () => {
    const pass = legalParsed().find((a) => a.kind === 'pass');
    if (pass) play(pass.text);
  });
  $('resign').addEventListener('click', onResign);
  $('rematch').addEventListener('click', () => {
    askedRematch = true;
    send({ type: 'rematch' });
  });
  document.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape' && (selected || bonus)) {
      selected = null;
      bonus = null;
      render();
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
  try {
    const summary = await api('GET', `/api/matches/${encodeURIComponent(id)}`);
    gameTitle = summary.title;
    $('howto-link').href = `/howto/${encodeURIComponent(summary.game)}`;
    $('howto-link').classList.remove('hidden');
    const games = await api('GET', '/api/games').catch(() => ({ games: [] }));
    const entry = games.games.find((g) => g.name === summary.game);
    hasAgreement = Boolean(entry?.agreement);
    gameConfig = summary.config ?? null;
    if (!gameConfig && summary.game === 'naval') gameConfig = entry?.default_config ?? null;
  } catch (err) {
    showError(err.code === 'match/not_found' ? t('match.notfound') : errorText(err), err.code);
    $('layout').classList.add('hidden');
    return;
  }
  // An invite link: take the offered seat unless this browser already holds one of this match.
  const params = new URLSearchParams(location.search);
  if (params.has('join')) {
    if (!getToken(id)) {
      try {
        const res = await api('POST', `/api/matches/${encodeURIComponent(id)}/join`, { seat: Number(params.get('join')) });
        setToken(id, res.token);
      } catch (err) {
        showError(errorText(err), err.code);
      }
    }
    history.replaceState(null, '', `/m/${id}`);
  }
  connect();
  setInterval(tickClocks, 100);
}

start();
