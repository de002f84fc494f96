// @ts-check
// The match page's state (web/match.html, served at /m/{id}): one object holding what the server
// last said of the match and what this page is doing with it, and the readings of it the view and
// the page's controller share. Nothing here draws or sends.

import { idFromPath } from './api.js';
import { t } from './i18n.js';
import { seatWithName, botName } from './seats.js';
import { gameModule } from './games.js';

/**
 * A match state as the server sends it (docs/protocol.md section 4.1), deltas merged in.
 * @typedef {object} MatchState
 * @property {string} [id]
 * @property {string} game
 * @property {'open' | 'live' | 'finished'} status
 * @property {boolean} [rated]
 * @property {number} version
 * @property {number | null} seat this page's seat, null for a spectator
 * @property {number[]} to_act
 * @property {string[]} legal
 * @property {any[]} [legal_info]
 * @property {import('./games.js').LogEntry[]} moves
 * @property {import('./api.js').Seat[]} seats
 * @property {any} observation
 * @property {any} [clocks]
 * @property {Record<string, number[]>} [offers]
 * @property {import('./api.js').Outcome | null} [outcome]
 * @property {({ before: number, after: number } | null)[] | null} [ratings]
 * @property {string | null} [seed_hash]
 * @property {string | null} [seed]
 * @property {boolean} [snapshot]
 */

/** A step of `/history` (docs/protocol.md section 3.9): a version's position. @typedef {{ observation: any, moves: number, by: any }} Step */

/**
 * The page's state: one object, so that every module of the page reads and changes the same.
 */
export const page = {
  /** The match id in the page's path ('' when the path has none). */
  id: idFromPath() ?? '',
  /** @type {MatchState | null} The latest state, or null before the first. */
  state: null,
  /** Local time (performance.now) at which `state` arrived, for the clocks. */
  stateAt: 0,
  /** An action was sent and its answer (a new state or an error) has not come yet. */
  pending: false,
  /** The rematch this page offered or accepted, to follow it when it arrives. */
  askedRematch: false,
  /** @type {{ name: string, kind: string } | null} The session's player, or null. */
  player: null,
  /** @type {ReturnType<typeof import('./chat.js').createChat> | null} The chat panel (chat.js). */
  chat: null,
  /** Whether the last state rendered was this page's turn (to tell only when the turn arrives). */
  wasMyTurn: false,
  /** @type {import('./api.js').GameInfo | null} The game's entry of /api/games (its agreed ending, for the manners), or null. */
  gameEntry: null,
  /** @type {string | null} The game's title from the match summary. */
  gameTitle: null,
  /** @type {any} The game's config: the summary's when it gives one, else the game's default. */
  gameConfig: null,
  /** @type {{ action: string, words: string } | null} A move waiting for the player's confirmation (the confirm-move setting). */
  toConfirm: null,
  /** @type {{ moves: number, status: string, toAct: string } | null} The moves and status last announced by a sound. */
  heard: null,
  /** A first game (the how-to page's, `?learn`): the turn panel says what to tap at each step. */
  learning: false,
  /**
   * @type {{ index: number, since: number } | null} Stepping back (docs/protocol.md section 3.9):
   * null at the present, else the version of this viewer whose position is shown and the version
   * the match was at when the player stepped back (later moves do not move the view; the banner
   * says the game went on).
   */
  past: null,
  /** @type {Step[] | null} The positions fetched from `/history` (one per version), or null before the first step back. */
  earlier: null,
  /** @type {number | null} The step asked for while `/history` is being fetched (the latest key press wins), or null. */
  wanted: null,
  /**
   * A seat token was sent in an `auth` message and its answer has not come: the spectator's state
   * the server sends first is kept aside (`asideState`) rather than shown, so the page does not
   * flicker from spectator to seat.
   */
  awaitingAuth: false,
  /** @type {import('./match.js').ServerMessage | null} */
  asideState: null,
};

/**
 * The latest state, for the code that runs only once one came (the view, the player's actions).
 * @returns {MatchState}
 */
export function stateNow() {
  if (!page.state) throw new Error('the match page has no state yet');
  return page.state;
}

const CONFIRM_KEY = 'plateau.confirm';
const NOTATION_KEY = 'plateau.notation';
/** Whether moves wait for a confirmation before they are sent (the table setting, off by default). */
export const confirmMoves = () => localStorage.getItem(CONFIRM_KEY) === 'on';
/** Whether the move list shows the notation rather than words (the table setting). */
export const notation = () => localStorage.getItem(NOTATION_KEY) === 'on';
/**
 * Sets the confirm-move or the notation setting.
 * @param {'confirm' | 'notation'} which
 * @param {boolean} on
 */
export function setSetting(which, on) {
  localStorage.setItem(which === 'confirm' ? CONFIRM_KEY : NOTATION_KEY, on ? 'on' : 'off');
}

/**
 * The match as known after `msg`: a whole state replaces what we had; a delta keeps the fields it
 * leaves out, patches the observation's top-level fields and puts its moves at `moves_from`
 * (docs/protocol.md section 4.1). `null` when a delta does not follow on from what we have:
 * the caller asks for a whole state.
 * @param {MatchState | null} known
 * @param {any} msg a `state` message, whole (`snapshot`) or a delta
 * @returns {MatchState | null}
 */
export function merged(known, msg) {
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
 * @param {any} defaults
 * @param {any} given
 * @returns {any}
 */
export function withDefaults(defaults, given) {
  const isObject = (/** @type {unknown} */ x) => x !== null && typeof x === 'object' && !Array.isArray(x);
  if (!isObject(defaults) || !isObject(given)) return given ?? defaults ?? null;
  const out = { ...defaults };
  for (const [k, v] of Object.entries(given)) out[k] = withDefaults(defaults[k], v);
  return out;
}

/**
 * The game's page module (games.js), or null for a game without one: the page then shows the
 * observation and the legal actions as text.
 */
export function game() {
  return page.state ? gameModule(page.state.game) : null;
}

/** Whether the match is live and waits for this page's seat. */
export function myTurn() {
  return page.state && page.state.status === 'live' && page.state.seat !== null && page.state.to_act.includes(page.state.seat);
}

/** Whether this page may act now: its turn, and no action on its way. */
export function canAct() {
  return myTurn() && !page.pending;
}

/**
 * Who sits at seat `s`: the player's name ("Alice, you" for this page), a bot's, or "free".
 * @param {number} s
 * @returns {string}
 */
export function seatWho(s) {
  const state = stateNow();
  const info = state.seats.find((x) => x.seat === s);
  if (!info) return '';
  const name = info.player?.name;
  if (state.seat === s) return name ? t('seat.you.named', { name }) : t('seat.you');
  if (info.kind === 'bot') return botName(info.bot ?? '');
  if (name) return info.connected === false && state.status !== 'finished' ? t('seat.away', { name }) : name;
  return info.taken ? t('seat.human') : t('lobby.free');
}

/**
 * The seat's player, or null.
 * @param {number | null} seat
 * @returns {{ name: string, kind: string } | null}
 */
export function playerAt(seat) {
  return page.state?.seats.find((x) => x.seat === seat)?.player ?? null;
}

/**
 * A seat as people read it: "Alice (Red)".
 * @param {number} seat
 * @returns {string}
 */
export function seatName(seat) {
  const state = stateNow();
  return seatWithName(state.game, seat, playerAt(seat));
}

/**
 * The names of the seats in `seats`, joined: "Alice (Red), Bob (Blue)".
 * @param {number[]} seats
 */
export function seatNames(seats) {
  return seats.map(seatName).join(', ');
}

/** The human seats, the only ones that offer (bots never agree, and accept rematches by rule). */
export function humanSeats() {
  const state = stateNow();
  return state.seats.filter((x) => x.kind === 'human').map((x) => x.seat);
}

/**
 * The seats that offer `kind` now (a rematch, an agreed stop), in the order they offered.
 * @param {string} kind
 * @returns {number[]}
 */
export function offersOf(kind) {
  return page.state?.offers?.[kind] || [];
}

/**
 * The state to draw: the live one, or while in the past a copy holding the position of that
 * version (its observation, the moves played by then, nobody to act, nothing legal).
 */
export function shown() {
  const state = stateNow();
  const step = page.past && page.earlier?.[page.past.index];
  if (!step) return state;
  return { ...state, observation: step.observation, moves: state.moves.slice(0, step.moves), legal: [], to_act: [] };
}
