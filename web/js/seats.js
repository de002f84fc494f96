// @ts-check
// How seats are named to people: each game's own words for its sides ("Seat 2" only for a game
// that gives none).
// MAD's fleets are Red (seat 0) and Blue (seat 1); Chakart's camps White and Black; Moon Leap's
// seats are the colours of their astronauts (a blue, b orange, c green, d purple, as moonleap.js
// draws them); Bataille Navale's seats are Fleets 1 to 4, counted from 1 as everywhere a person reads.

import { t } from './i18n.js';

/** @typedef {{ name: string, kind: string }} Player The protocol's PLAYER (docs/protocol.md section 1). */

const SIDES = {
  mad: ['seat.red', 'seat.blue'],
  chakart: ['seat.white', 'seat.black'],
  moonleap: ['seat.ml.a', 'seat.ml.b', 'seat.ml.c', 'seat.ml.d'],
};

/**
 * The people-facing name of `seat` (0-based) in game `game`: "Red", "White", "Orange", "Fleet 2".
 * @param {string} game
 * @param {number} seat
 * @returns {string}
 */
export function seatLabel(game, seat) {
  const key = SIDES[/** @type {keyof typeof SIDES} */ (game)]?.[seat];
  if (key) return t(key);
  if (game === 'naval') return t('seat.fleet', { n: seat + 1 });
  return t('seat.n', { n: seat + 1 });
}

/**
 * A seat as a person reads it with who sits there: "Alice (Red)", or the side word alone when the
 * seat has no player yet. `player` is the protocol's PLAYER ({name, kind}) or null.
 * @param {string} game
 * @param {number} seat
 * @param {Player | null | undefined} player
 * @returns {string}
 */
export function seatWithName(game, seat, player) {
  const side = seatLabel(game, seat);
  return player?.name ? t('seat.named', { name: personName(player), side }) : side;
}

/**
 * A bot's name as people read it: the levels by their translated names ("Club player").
 * @param {string} bot the bot's level (`casual`, `club`...)
 * @returns {string}
 */
export function botName(bot) {
  const key = `bot.${bot}`;
  const text = t(key);
  return text === key ? bot : text;
}

/**
 * A player's name as people read it (`player` is the protocol's PLAYER, `{name, kind}`): a
 * person's own name, a bot's level in words ("Casual player" for `casual-bot`, docs/protocol.md
 * section 1: each bot's player is named after its level).
 * @param {Player | null | undefined} player
 * @returns {string}
 */
export function personName(player) {
  if (player?.kind !== 'bot') return player?.name ?? '';
  return botName(player.name.replace(/-bot$/, ''));
}

/**
 * The seat of a logged entry's `by` (`{seat}`), or null for chance and early endings.
 * @param {import('./games.js').LogEntry['by']} by
 * @returns {number | null}
 */
export function seatOf(by) {
  return by && typeof by === 'object' ? by.seat : null;
}
