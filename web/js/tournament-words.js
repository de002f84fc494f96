// @ts-check
// What the tournament pages share (docs/protocol.md section 7.9): the shapes they read, a
// tournament's facts, time and points in words, its refusals in words, and the lobby socket that keeps
// a tournament (or the list) current.

import { errorCode } from './api.js';
import { t, tn, lang, errorText } from './i18n.js';
import { timeControlText } from './clocks.js';
import { openSocket } from './socket.js';

/**
 * A tournament's INFO (section 7.9). `kind`, `seats`, `rounds` and `round` are absent on a server
 * that runs arenas only (read as an arena).
 * @typedef {object} TourInfo
 * @property {string} id
 * @property {'arena' | 'swiss' | 'tables'} [kind]
 * @property {string} name
 * @property {string} game
 * @property {import('./clocks.js').TimeControl} time_control
 * @property {boolean} rated
 * @property {number | null} min_rating
 * @property {number} [seats] 2, or the tables' size
 * @property {number | null} minutes an arena's length
 * @property {number | null} [rounds] a Swiss's or tables' rounds
 * @property {number} [round] the rounds paired so far
 * @property {number} starts_at unix ms
 * @property {number | null} ends_at unix ms: when an arena stops pairing
 * @property {'waiting' | 'running' | 'finished'} phase
 * @property {string} creator
 * @property {number} players
 */

/**
 * A LINE of the standings.
 * @typedef {{ place: number, name: string, active: boolean, points: number, games: number,
 *   wins: number, on_fire: boolean }} TourLine
 */

/**
 * A GAME: its round (none in an arena), its match (null for the instant it is made), its players
 * by seat, each seat's rank from 1 once over.
 * @typedef {{ round?: number | null, match_id: string | null, players: string[],
 *   ranks: number[] | null }} TourGame
 */

/**
 * @typedef {{ tournament: TourInfo, standings: TourLine[], games: TourGame[],
 *   byes?: { round: number, name: string }[] }} TourDetail
 */

/**
 * A tournament's kind (an arena when the server does not say).
 * @param {TourInfo} info
 */
export const kindOf = (info) => info.kind ?? 'arena';

/**
 * Points as the standings show them: a Swiss's halved (a win is 1, a draw ½), others as they are.
 * @param {TourInfo} info
 * @param {number} points
 */
export function pointsText(info, points) {
  if (kindOf(info) !== 'swiss') return String(points);
  const whole = Math.floor(points / 2);
  return points % 2 ? `${whole || ''}½` : String(whole);
}

/**
 * A length of time in words: "2 d 3 h", "1 h 05 min", "4:07".
 * @param {number} ms
 */
export function durationText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const pad = (/** @type {number} */ n) => String(n).padStart(2, '0');
  if (s >= 86400) return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${pad(Math.floor((s % 3600) / 60))} min`;
  return `${Math.floor(s / 60)}:${pad(s % 60)}`;
}

/**
 * A date and time in the page's language.
 * @param {number} ms unix ms
 */
export function dateText(ms) {
  return new Date(ms).toLocaleString(lang() === 'fr' ? 'fr-FR' : 'en-GB', {
    weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit',
  });
}

/**
 * The facts of a tournament in one line: game, kind, clock, length, rated, minimum, creator.
 * @param {TourInfo} info
 * @param {(game: string) => string} title a game's title by its name
 */
export function factsText(info, title) {
  const kind = kindOf(info);
  return [
    title(info.game), t(`tours.kind.${kind}`),
    kind === 'tables' ? t('tours.seats', { n: info.seats ?? 0 }) : '',
    timeControlText(info.time_control),
    kind === 'arena' ? tn('tours.length', info.minutes ?? 0) : tn('tours.rounds', info.rounds ?? 0),
    t(info.rated ? 'tours.rated' : 'tours.casual'),
    info.min_rating === null ? '' : t('tours.min', { min: info.min_rating }),
    t('tours.by', { name: info.creator }),
  ].filter(Boolean).join(' · ');
}

/**
 * Where a tournament stands in time at `now`: the countdown to its start, the time left, or
 * when it ended.
 * @param {TourInfo} info
 * @param {number} now unix ms
 */
export function whenText(info, now) {
  if (info.phase === 'waiting') {
    return info.starts_at > now ? t('tours.starts_in', { time: durationText(info.starts_at - now) }) : t('tours.starting');
  }
  const end = info.ends_at;
  if (info.phase === 'running' && end === null) return t('tours.round', { round: info.round ?? 0, rounds: info.rounds ?? 0 });
  if (info.phase === 'running' && end !== null) {
    return end > now ? t('tours.ends_in', { time: durationText(end - now) }) : t('tours.ending');
  }
  return end === null ? t('tours.over') : t('tours.ended', { date: dateText(end) });
}

/**
 * A refusal about tournaments in words (`vars` fills the text's placeholders).
 * @param {unknown} err
 * @param {Record<string, unknown>} [vars]
 */
export function tourErrorText(err, vars = {}) {
  const key = `tour.err.${errorCode(err)}`;
  const text = t(key, vars);
  return text === key ? errorText(err) : text;
}

/**
 * Opens the lobby socket and follows what `follow` names (`{type: 'tournament_follow', id}` or
 * `{type: 'tournaments_follow'}`), again after each reconnection; `onMessage` gets every
 * message (the followed state comes at once and again at each change).
 * @param {object} follow
 * @param {(msg: any) => void} onMessage
 */
export function followLive(follow, onMessage) {
  const socket = openSocket('/api/lobby/ws', {
    open: () => socket.send(follow),
    message: onMessage,
  });
  return socket;
}
