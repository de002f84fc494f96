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

/** The time controls offered for `game` (a /api/games entry): [{key, tc, preferred?}]. */
export function clockPresets(game) {
  return game?.rule_clock ? RULE_CLOCKS : FREE_CLOCKS;
}

/** A time control in words: "10′ + 5″", "60 s per move", "no clock". */
export function timeControlText(tc) {
  if (!tc || tc.kind === 'none') return t('match.clock.none');
  if (tc.kind === 'per_move') return t('tc.per_move', { s: tc.seconds });
  if (tc.kind === 'fischer') return `${Math.round(tc.base_seconds / 60 * 10) / 10}′ + ${tc.increment_seconds}″`;
  if (tc.kind === 'game') return t('lobby.clock.game');
  return tc.kind;
}

function sameClock(a, b) {
  if (!a || !b || a.kind !== b.kind) return false;
  return Object.keys({ ...a, ...b }).every((k) => a[k] === b[k]);
}

/** Whether the lobby's pool `pool` is the one of seek request `seek`. */
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
