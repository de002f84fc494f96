// @ts-check
// The match page (web/match.html, served at /m/{id}): play a seat or watch, over the WebSocket of
// protocol.md section 4. Everything shown comes from the server's `state` messages; the page only
// offers the texts of `legal` and sends one back. The board, the game's panel and its controls are
// drawn by the game's module (games.js): this page never asks which game it shows.
//
// Three modules make the page: its state (match-state.js), its view (match-view.js), and this
// one, the controller: the socket, the server's messages, the player's actions and stepping back.

import { api, el, byId, getToken, setToken, errorCode } from './api.js';
import { t, setupLanguageSwitch, onLangChange, errorText } from './i18n.js';
import { setupIdentity, currentPlayer, chooseName, onPlayerChange } from './identity.js';
import { createChat } from './chat.js';
import { chime, moveSound, endSound, soundOn, setSound, askNotifications, markTitle, notifyTurn } from './notify.js';
import { askName } from './nameprompt.js';
import { seatOf } from './seats.js';
import { disarm } from './touch.js';
import { openSocket } from './socket.js';
import { page, stateNow, merged, withDefaults, game, myTurn, canAct, confirmMoves, setSetting } from './match-state.js';
import {
  showError, setConn, render, renderPast, fitBoard, tickClocks, setControls, NARROW, renderTurnTools,
} from './match-view.js';

const $ = byId;
const id = page.id;

/** What the controller holds besides the page's state. */
const ctl = {
  /** @type {import('./socket.js').Socket | null} The match's socket (socket.js), opened by `connect`. */
  socket: null,
  /** @type {Promise<void> | null} The `/history` request in flight, or null. */
  history: null,
  /** @type {ReturnType<typeof setTimeout> | null} Set while the resign button waits for its second press. */
  resignArmed: null,
};

// ---- Connection ----------------------------------------------------------------------------

function connect() {
  setConn('match.connecting', false);
  ctl.socket = openSocket(`/api/matches/${encodeURIComponent(id)}/ws`, {
    open: () => {
      // The seat token never goes in the URL (logs and histories keep URLs): it is sent in an
      // `auth` message once the socket is open (docs/protocol.md section 4).
      const token = getToken(id);
      page.awaitingAuth = Boolean(token);
      page.asideState = null;
      if (token) ctl.socket?.send({ type: 'auth', token });
      page.chat?.resend();
    },
    message: onMessage,
    status: (up) => {
      if (up) return;
      page.pending = false;
      setConn('match.reconnecting', true);
    },
  });
}

/**
 * Sends one message on the match's socket; while it is down, says so in the error box.
 * @param {object} msg
 * @returns {boolean} whether it was sent
 */
function send(msg) {
  if (ctl.socket?.send(msg)) return true;
  showError(t('match.reconnecting'));
  return false;
}

/**
 * A message of the match's socket the page reads (docs/protocol.md section 4.1): a state (whole,
 * or a delta `merged` patches in), an error, a chat line or backlog, the rematch.
 * @typedef {({ type: 'state', snapshot?: boolean, version: number, status: string, seat?: number | null }
 *     & Record<string, any>)
 *   | { type: 'error', code: string, message: string }
 *   | ({ type: 'chat' } & import('./chat.js').ChatLine)
 *   | { type: 'chat_backlog', room?: string, lines: import('./chat.js').ChatLine[] }
 *   | RematchMessage | { type: 'pong' }} ServerMessage
 */

/**
 * The rematch exists (section 4.1): its id, and the seat token of this page's seat in it.
 * @typedef {{ type: 'rematch', id: string, token?: string }} RematchMessage
 */

/** @param {ServerMessage} msg */
function onMessage(msg) {
  if (msg.type === 'state' && page.awaitingAuth && msg.seat === null) {
    page.asideState = msg;
  } else if (msg.type === 'error' && msg.code === 'auth/seat' && page.awaitingAuth) {
    // The stored token is not a seat of this match (or of this player): forget it and watch.
    page.awaitingAuth = false;
    localStorage.removeItem(`plateau.token.${id}`);
    if (page.asideState) onMessage(page.asideState);
    showError(errorText(msg), msg.code);
  } else if (msg.type === 'state') {
    const next = merged(page.state, msg);
    if (!next) {
      send({ type: 'sync' });
      return;
    }
    page.awaitingAuth = false;
    // A whole state may follow a takeback: the positions fetched for stepping back are of
    // another past, and a step past the present is no step.
    if (msg.snapshot) {
      page.earlier = null;
      if (page.past && page.past.index >= msg.version) page.past = null;
    }
    const changed = !page.state || page.state.version !== msg.version || page.state.status !== msg.status;
    // A refusal from before the page knew the match (a taken seat) stays until the match moves.
    const moved = Boolean(page.state) && changed;
    page.state = next;
    page.stateAt = performance.now();
    page.pending = false;
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
    page.chat?.add(msg);
  } else if (msg.type === 'chat_backlog') {
    page.chat?.backlog(msg);
  } else if (msg.type === 'error' && isChatError(msg.code)) {
    page.chat?.error(errorText(msg));
  } else if (msg.type === 'error') {
    page.pending = false;
    if (msg.code !== 'action/stale') showError(errorText(msg), msg.code);
    game()?.onError?.(msg);
    render();
  } else if (msg.type === 'rematch') {
    onRematch(msg);
  }
}

/**
 * Errors that answer a chat or mute message: shown under the chat, not as the match's error.
 * @param {string} code
 */
function isChatError(code) {
  return code?.startsWith('chat/') || code === 'player/not_found' || (code === 'auth/required' && page.state?.seat === null);
}

// The rematch exists once every human seat offered it: the seats that did go to it; a page that
// was not part of it (a spectator) gets a link.
/** @param {RematchMessage} msg */
function onRematch(msg) {
  if (msg.token) setToken(msg.id, msg.token);
  const url = `/m/${msg.id}`;
  if (msg.token && (page.askedRematch || page.state?.seat !== null)) {
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
  const state = stateNow();
  const now = { moves: state.moves.length, status: state.status, toAct: state.to_act.join() };
  const before = page.heard;
  page.heard = now;
  if (!before || page.past) return;
  if (now.status === 'finished' && before.status !== 'finished') {
    endSound();
    return;
  }
  const others = state.moves.slice(before.moves).some((m) => seatOf(m.by) !== null && seatOf(m.by) !== state.seat);
  if (others && now.toAct !== before.toAct) moveSound();
}

/** Marks the tab, notifies and chimes when the turn passes to this page (once per turn). */
function announceTurn() {
  const state = stateNow();
  const now = Boolean(myTurn());
  markTitle(now);
  if (now && !page.wasMyTurn && state.version > 0) {
    notifyTurn(page.gameTitle || state.game, `/m/${id}`);
    // The sound is for live games; correspondence games have the title and the notification.
    if (state.clocks && state.clocks.kind !== 'none') chime();
  }
  page.wasMyTurn = now;
}

// ---- Actions -------------------------------------------------------------------------------

/**
 * Sends one action, or a list of this seat's actions played as one whole turn (all or nothing).
 * With the confirm-move setting on, a single listed action waits in the turn panel, in words,
 * for "Play it" (`confirmed` skips that: a forced move, or the confirmation itself).
 * @param {import('./games.js').Action} action
 * @param {{ confirmed?: boolean }} [opts]
 */
function play(action, { confirmed = false } = {}) {
  if (!canAct()) return;
  const state = stateNow();
  const index = typeof action === 'string' ? state.legal.indexOf(action) : -1;
  if (!confirmed && confirmMoves() && typeof action === 'string' && index >= 0) {
    const entry = { by: state.seat === null ? null : { seat: state.seat }, text: action, info: state.legal_info?.[index] };
    page.toConfirm = { action, words: game()?.describe?.(entry) || action };
    render();
    return;
  }
  page.toConfirm = null;
  const msg = Array.isArray(action)
    ? { type: 'act', version: state.version, actions: action }
    : { type: 'act', version: state.version, action };
  if (send(msg)) {
    page.pending = true;
    game()?.reset?.();
    render();
  }
}

function onResign() {
  const btn = $('resign');
  if (ctl.resignArmed) {
    clearTimeout(ctl.resignArmed);
    ctl.resignArmed = null;
    btn.textContent = t('match.resign');
    send({ type: 'resign' });
    return;
  }
  btn.textContent = t('match.resign.confirm');
  ctl.resignArmed = setTimeout(() => {
    ctl.resignArmed = null;
    btn.textContent = t('match.resign');
  }, 4000);
}

// ---- Stepping back ---------------------------------------------------------------------------

/**
 * Fetches this viewer's positions (`/history`, one request at a time) unless those known reach
 * version `v`; true once they do. A failure is shown in the error box.
 * @param {number} v
 */
async function loadHistory(v) {
  if (page.earlier && page.earlier.length > v) return true;
  if (!ctl.history) {
    const token = getToken(id);
    ctl.history = api('GET', `/api/matches/${encodeURIComponent(id)}/history`, undefined,
      token ? { Authorization: `Bearer ${token}` } : {})
      .then((answer) => {
        page.earlier = answer.steps;
      })
      .catch((err) => showError(t('past.error', { msg: errorText(err) }), errorCode(err)))
      .finally(() => {
        ctl.history = null;
      });
  }
  await ctl.history;
  return Boolean(page.earlier && page.earlier.length > v);
}

/**
 * Shows the position of version `i` (clamped); at the current version, the present.
 * @param {number} i
 */
async function goTo(i) {
  if (!page.state) return;
  const target = Math.max(0, Math.min(page.state.version, i));
  if (target >= page.state.version) {
    page.past = null;
    page.wanted = null;
    render();
    return;
  }
  page.wanted = target;
  if (!page.past) {
    $('past-text').textContent = t('past.loading');
    renderPast();
  }
  const ready = await loadHistory(target);
  // A later key press or click asked for another step meanwhile: it shows that one.
  if (page.wanted !== target) return;
  page.wanted = null;
  if (ready) page.past = { index: target, since: page.past?.since ?? page.state.version };
  render();
}

/**
 * Shows the position right after move `i` of the move list (0-based).
 * @param {number} i
 */
async function goToMove(i) {
  if (!(await loadHistory(0))) return;
  const find = () => (page.earlier ?? []).findIndex((step) => step.by !== null && step.moves === i + 1);
  let v = find();
  // A move played since the positions were fetched: fetch them again.
  if (v < 0 && (await loadHistory(page.earlier?.length ?? 0))) v = find();
  if (v >= 0) goTo(v);
}

/**
 * Steps by `delta` versions from the one shown.
 * @param {number} delta
 */
function stepBy(delta) {
  const state = stateNow();
  const at = page.wanted ?? page.past?.index ?? state.version;
  goTo(at + delta);
}

// ---- Start ---------------------------------------------------------------------------------

async function start() {
  setupLanguageSwitch();
  setupIdentity();
  setControls({ play, send, goToMove });
  const chat = createChat($('chat-panel'), {
    game: () => page.state?.game,
    send,
    needName: () => !page.player && page.state?.seat === null,
    chooseName,
    match: () => id,
  });
  page.chat = chat;
  onLangChange(() => {
    chat.draw();
    render();
  });
  onPlayerChange((p) => {
    page.player = p;
    // The socket was opened without a session: open it again so the server knows the name.
    if (!ctl.socket) return;
    page.pending = false;
    setConn('match.reconnecting', true);
    ctl.socket.reconnect();
  });
  page.player = await currentPlayer();
  $('notify-ask').addEventListener('click', async () => {
    await askNotifications();
    renderTurnTools();
  });
  $('sound-toggle').addEventListener('click', () => {
    setSound(!soundOn());
    if (soundOn()) chime();
    renderTurnTools();
  });
  $('confirm-option').addEventListener('change', () => {
    setSetting('confirm', $('confirm-option', HTMLInputElement).checked);
    render();
  });
  $('notation-option').addEventListener('change', () => {
    setSetting('notation', $('notation-option', HTMLInputElement).checked);
    render();
  });
  $('confirm-play').addEventListener('click', () => {
    const waiting = page.toConfirm;
    page.toConfirm = null;
    if (waiting) play(waiting.action, { confirmed: true });
  });
  $('confirm-cancel').addEventListener('click', () => {
    page.toConfirm = null;
    game()?.reset?.();
    render();
  });
  // The board, its bars and the turn panel change size with the decision: fit them again.
  new ResizeObserver(() => fitBoard()).observe($('turn-panel'));
  NARROW.addEventListener('change', () => fitBoard());
  window.addEventListener('resize', () => fitBoard());
  $('rematch-decline').addEventListener('click', () => {
    page.askedRematch = false;
    send({ type: 'decline', kind: 'rematch' });
  });
  $('resign').addEventListener('click', onResign);
  $('rematch').addEventListener('click', () => {
    page.askedRematch = true;
    send({ type: 'rematch' });
  });
  document.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape') {
      const waiting = Boolean(page.toConfirm);
      page.toConfirm = null;
      if (game()?.reset?.() || waiting) render();
    }
    // The arrows step through the game, unless the player is typing (the chat) or a control
    // of the board has the keys.
    const target = ev.target instanceof Element ? ev.target : null;
    if (target && (['INPUT', 'SELECT', 'TEXTAREA'].includes(target.tagName) || target.closest('svg'))) return;
    if (ev.key === 'ArrowLeft' || ev.key === 'ArrowRight') stepBy(ev.key === 'ArrowLeft' ? -1 : 1);
    else if (ev.key === 'Home' && page.state?.version) goTo(0);
    else if (ev.key === 'End' && page.past) goTo(stateNow().version);
    else return;
    ev.preventDefault();
  });
  $('step-first').addEventListener('click', () => goTo(0));
  $('step-prev').addEventListener('click', () => stepBy(-1));
  $('step-next').addEventListener('click', () => stepBy(1));
  $('step-last').addEventListener('click', () => goTo(stateNow().version));
  $('past-return').addEventListener('click', () => goTo(stateNow().version));
  if (!id) {
    showError(t('match.notfound'));
    return;
  }
  /** @type {import('./api.js').MatchSummary} */
  let summary;
  try {
    summary = await api('GET', `/api/matches/${encodeURIComponent(id)}`);
    page.gameTitle = summary.title ?? null;
    $('howto-link', HTMLAnchorElement).href = `/howto/${encodeURIComponent(summary.game)}`;
    $('howto-link').classList.remove('hidden');
    const games = await api('GET', '/api/games').catch(() => ({ games: [] }));
    const entry = games.games.find((/** @type {import('./api.js').GameInfo} */ g) => g.name === summary.game);
    page.gameEntry = entry ?? null;
    page.gameConfig = withDefaults(entry?.default_config, summary.config);
  } catch (err) {
    showError(errorCode(err) === 'match/not_found' ? t('match.notfound') : errorText(err), errorCode(err));
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
  page.learning = sessionStorage.getItem(`plateau.learn.${id}`) === '1';
  if (params.has('join')) {
    if (!getToken(id)) {
      try {
        // A new visitor says who they are before sitting down: the seat holds their player, the
        // others see that name at the table and in the chat.
        if (!page.player) page.player = await askName({ purpose: 'join', choose: chooseName });
        const res = await api('POST', `/api/matches/${encodeURIComponent(id)}/join`, { seat: Number(params.get('join')) });
        setToken(id, res.token);
      } catch (err) {
        showError(errorText(err), errorCode(err));
      }
    }
    history.replaceState(null, '', `/m/${id}`);
  } else if (!page.player && !getToken(id) && summary.status !== 'finished') {
    // A new visitor come to watch is offered a name too (one tap takes the suggestion), so they
    // have one when they chat; "Just watch" needs none. A finished game is only looked at.
    page.player = await askName({ purpose: 'watch', choose: chooseName });
  }
  connect();
  setInterval(tickClocks, 100);
}

start();
