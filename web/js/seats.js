// How seats are named to people: MAD's seats are the Red (seat 0) and Blue (seat 1) fleets,
// other games number their seats from 1.

import { t } from './i18n.js';

/** The people-facing name of `seat` (0-based) in game `game`. */
export function seatLabel(game, seat) {
  if (game === 'mad') return t(seat === 1 ? 'seat.blue' : 'seat.red');
  return t('seat.n', { n: seat + 1 });
}
