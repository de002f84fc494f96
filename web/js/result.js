// @ts-check
// The sentence that tells how a finished game ended, shared by the match and replay pages.
// MAD's outcome kinds (crates/games/mad): corvette (full victory), tiebreak and agreement
// (semi-victories), timeout, resign; Moon Leap's `score` (the best total wins, ties share);
// Chakart's king_captured, no_move, turn_limit (a draw); Bataille Navale's last_fleet, round_limit.

import { t, tn } from './i18n.js';
import { seatLabel } from './seats.js';

/**
 * The result sentence of `outcome` ({ranks, scores, kind}) in game `game`; `since` is the number
 * of turns without expulsion at the end (shown for a tie-break); `label(seat)` names a seat
 * (default: the game's side word; the pages pass "Alice (Red)" when the seat has a player).
 * @param {string} game
 * @param {import('./api.js').Outcome | null | undefined} outcome
 * @param {number | string | null} [since]
 * @param {(seat: number) => string} [label]
 */
export function resultSentence(game, outcome, since = '', label = (s) => seatLabel(game, s)) {
  if (!outcome) return '';
  const winners = outcome.ranks.flatMap((r, s) => (r === 1 ? [s] : []));
  if (winners.length !== 1) {
    // Moon Leap's shared wins (rules/moonleap.md "Scoring"): name the seats that share first place.
    if (outcome.kind === 'score' && winners.length > 1 && winners.length < outcome.ranks.length) {
      return t('match.result.score.shared', { sides: winners.map((s) => label(s)).join(', ') });
    }
    // A draw agreed at the table (Chakart): every seat first.
    if (outcome.kind === 'agreement' && winners.length === outcome.ranks.length) return t('match.result.draw.agreed');
    if (outcome.kind === 'round_limit' && winners.length > 1) {
      return t('match.result.round_limit.shared', { sides: winners.map((s) => label(s)).join(', ') });
    }
    return t('match.result.draw', { kind: kindWord(outcome.kind) });
  }
  const side = label(winners[0]);
  const loser = label(outcome.ranks.findIndex((r) => r !== 1));
  switch (outcome.kind) {
    case 'corvette': return t('match.result.corvette', { side });
    case 'tiebreak':
      return since === '' || since === null ? t('match.result.tiebreak.short', { side }) : tn('match.result.tiebreak', Number(since), { side });
    case 'timeout': return t('match.result.timeout', { side, loser });
    case 'resign': return t('match.result.resign', { side, loser });
    case 'agreement': return t('match.result.agreed', { side });
    case 'score': return t('match.result.score', { side });
    case 'last_fleet': return t('match.result.last_fleet', { side });
    case 'round_limit': return t('match.result.round_limit', { side });
    case 'king_captured': return t('match.result.king_captured', { side, loser });
    case 'no_move': return t('match.result.no_move', { side, loser });
    default: return t('match.result.other', { side, kind: kindWord(outcome.kind) });
  }
}

/**
 * An outcome kind in the reader's words (`kind.*`), or as the server names it if unknown.
 * @param {string} kind
 */
export function kindWord(kind) {
  const word = t(`kind.${kind}`);
  return word === `kind.${kind}` ? kind : word;
}

/**
 * How a finished rated match moved its players' ratings (the state's `ratings`: per seat `null`
 * or `{before, after}`), one entry per seat whose rating moved: `{seat, delta, text}`, the text
 * "Alice (Red): 1500 → 1524 (+24)" with `label(seat)` naming the seat.
 * @param {({ before: number, after: number } | null)[] | null | undefined} ratings
 * @param {(seat: number) => string} label names a seat
 */
export function ratingChanges(ratings, label) {
  return (ratings || []).flatMap((r, seat) => {
    if (!r) return [];
    const delta = r.after - r.before;
    const signed = delta > 0 ? `+${delta}` : delta < 0 ? `−${-delta}` : '±0';
    return [{ seat, delta, text: t('result.rating', { who: label(seat), before: r.before, after: r.after, delta: signed }) }];
  });
}
