// @ts-check
// The time controls the lobby offers in its quick forms, and how a time control reads
// (docs/protocol.md section 3.2). Few presets on purpose: quick pairing pairs only seekers of the
// same pool, and a pool is one game, table size, time control and rated flag.

import { t } from './i18n.js';

const FREE_CLOCKS = [
  { key: 'tc.blitz', tc: { kind: 'fischer', base_seconds: 180, increment_seconds: 2 } },
  { key: 'tc.rapid', tc: { kind: 'fischer', base_seconds: 600, increment_seconds: 5 }, preferred: true },
  { key: 'tc.move', tc: { kind: 'per_move', seconds: 60 } },
  { key: 'tc.corr', tc: { kind: 'none' } },
];

// A game whose rules set clocks (Bataille Navale) takes those or none (protocol.md section 3.2).
const RULE_CLOCKS = [
  { key: 'tc.game', tc: { kind: 'game' }, preferred: true },
  { key: 'tc.corr', tc: { kind: 'none' } },
];

/**
 * @typedef {{ kind: string, base_seconds?: number, increment_seconds?: number, seconds?: number }} TimeControl
 * A time control as the protocol writes it (docs/protocol.md section 3.2).
 */

/**
 * The time controls offered for `game` (a /api/games entry).
 * @param {{ rule_clock?: boolean } | null | undefined} game
 * @returns {{ key: string, tc: TimeControl, preferred?: boolean }[]}
 */
export function clockPresets(game) {
  return game?.rule_clock ? RULE_CLOCKS : FREE_CLOCKS;
}

/**
 * A time control in words: "10′ + 5″", "60 s per move", "no clock".
 * @param {TimeControl | null | undefined} tc
 * @returns {string}
 */
export function timeControlText(tc) {
  if (!tc || tc.kind === 'none') return t('match.clock.none');
  if (tc.kind === 'per_move') return t('tc.per_move', { s: tc.seconds });
  if (tc.kind === 'fischer') return `${Math.round((tc.base_seconds ?? 0) / 60 * 10) / 10}′ + ${tc.increment_seconds}″`;
  if (tc.kind === 'game') return t('lobby.clock.game');
  return tc.kind;
}

/**
 * Whether two time controls are the same, field by field.
 * @param {Record<string, unknown> | null | undefined} a
 * @param {Record<string, unknown> | null | undefined} b
 */
function sameClock(a, b) {
  if (!a || !b || a.kind !== b.kind) return false;
  return Object.keys({ ...a, ...b }).every((k) => a[k] === b[k]);
}

/**
 * @typedef {{ game: string, seats: number, rated?: boolean, time_control: TimeControl }} PoolKey
 * What makes a pool of quick pairing: a game, a table size, a time control and the rated flag.
 */

/**
 * Whether the lobby's pool `pool` is the one of seek request `seek`.
 * @param {PoolKey} pool
 * @param {PoolKey} seek
 */
export function samePool(pool, seek) {
  return pool.game === seek.game && pool.seats === seek.seats && Boolean(pool.rated) === Boolean(seek.rated)
    && sameClock(pool.time_control, seek.time_control);
}

/**
 * The seats whose clocks run now, by the clock contract of a match state (docs/protocol.md
 * section 4.1): its `running_seats`, else its `running` seat; a state that gives neither runs
 * the clocks of the seats to act of a live match when several act at once. None without a clock.
 * @param {{ clocks?: any, status: string, to_act: number[] }} state
 * @returns {number[]}
 */
export function runningSeats(state) {
  const c = state.clocks;
  if (!c || c.kind === 'none' || !c.remaining_ms) return [];
  if (Array.isArray(c.running_seats)) return c.running_seats;
  if (c.running !== null && c.running !== undefined) return [c.running];
  return state.status === 'live' && state.to_act.length > 1 ? state.to_act : [];
}
