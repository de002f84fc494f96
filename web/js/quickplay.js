// @ts-check
// Quick play that never strands anyone (docs/protocol.md section 7.6): while a seek waits, how
// long it has waited and how long seekers of its pool waited lately; after `OFFER_AFTER_MS`, an
// offer to play the computer instead (a table of two) or to start now with bots (a bigger table);
// and every pool's seekers as open challenges a player can accept, whatever the ratings.
//
// The lobby gives the mount points `#seek-wait` (inside the seeking panel) and `#challenges`;
// it keeps the seek and the lobby message, and passes what to do on a click.

import { el, byId, findId } from './api.js';
import { t, lang } from './i18n.js';
import { botName } from './seats.js';
import { timeControlText, samePool } from './clocks.js';

/**
 * A seeker shown as an open challenge (docs/protocol.md section 7.6).
 * @typedef {{ seek: number, name: string, kind: string, rating: number, since: number,
 *   bots_after_seconds: number | null }} Seeker
 */

/**
 * A pool of the lobby message: its key, how many wait, its seekers, the recent wait.
 * @typedef {import('./clocks.js').PoolKey & { waiting: number, seekers?: Seeker[],
 *   estimate_seconds: number | null }} Pool
 */

/**
 * The lobby socket's `seek` message (section 7.6).
 * @typedef {import('./clocks.js').PoolKey & { type: 'seek', bots_after_seconds?: number | null,
 *   bot?: string | null }} SeekRequest
 */

/**
 * The seek in progress: its request, the local time the server took it (null before), and the
 * server's estimate.
 * @typedef {{ request: SeekRequest, since: number | null, estimate?: number | null }} Seeking
 */

/**
 * What to do on the offer: play the computer at `level` (a table of two), or start with bots.
 * @typedef {{ computer: (level: string) => void, fill: () => void }} OfferActions
 */

/** How long a seek waits before the page offers the computer or bots. */
export const OFFER_AFTER_MS = 30000;

const $ = byId;

/**
 * A duration in ms as people read a wait: "0:42", "3:05".
 * @param {number} ms
 */
function clock(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * The waiting panel of `seeking` (`{request, since}`, `since` the local time the server took the
 * seek, or null before): the time waited, the pool's estimate, and once `OFFER_AFTER_MS` have
 * passed the offer. `pools` are the lobby message's; `game` the seek's game entry; `actions` has
 * `computer(level)` (a table of two: play the computer instead) and `fill()` (start with bots).
 * Called every second: the words change in place, and the offer, once shown, stays as it is, so
 * a tap or an open list of levels is never taken from under the finger.
 * @param {{ seeking: Seeking | null, pools: Pool[] | undefined,
 *   game: import('./api.js').GameInfo | undefined, actions: OfferActions }} what
 */
export function renderSeekWait({ seeking, pools, game, actions }) {
  const box = $('seek-wait');
  if (!box) return;
  if (!seeking || seeking.since === null) {
    box.replaceChildren();
    return;
  }
  // Another language: the panel is drawn anew in it.
  if (box.dataset.lang !== lang()) {
    box.replaceChildren();
    box.dataset.lang = lang();
  }
  const waited = Date.now() - seeking.since;
  const pool = (pools || []).find((p) => samePool(p, seeking.request));
  const estimate = pool?.estimate_seconds ?? seeking.estimate ?? null;
  const words = [t('seek.elapsed', { t: clock(waited) })];
  words.push(estimate === null ? t('seek.estimate.none') : t('seek.estimate', { t: clock(estimate * 1000) }));
  let elapsed = findId('seek-elapsed');
  if (!elapsed) {
    elapsed = el('span', { id: 'seek-elapsed' });
    box.replaceChildren(elapsed);
  }
  elapsed.textContent = words.join(' · ');
  elapsed.dataset.ms = String(waited);
  if (waited >= OFFER_AFTER_MS && !findId('seek-offer')) box.append(offer(seeking.request, game, actions));
}

/**
 * The offer after a long wait: the computer at a chosen level (a table of two), or bots now.
 * @param {SeekRequest} request
 * @param {import('./api.js').GameInfo | undefined} game
 * @param {OfferActions} actions
 */
function offer(request, game, actions) {
  const levels = game?.levels || [];
  const level = el('select', { id: 'seek-level', 'aria-label': t('play.level') },
    ...levels.map((l) => el('option', { value: l, selected: l === levels[Math.min(1, levels.length - 1)] }, botName(l))));
  const two = request.seats === 2;
  return el('div', { id: 'seek-offer', class: 'seek-offer' },
    el('span', {}, t(two ? 'seek.offer.computer.why' : 'seek.offer.fill.why')),
    two ? level : null,
    el('button', {
      type: 'button', id: two ? 'seek-computer' : 'seek-fill',
      onclick: () => (two ? actions.computer(level.value) : actions.fill()),
    }, t(two ? 'seek.offer.computer' : 'seek.offer.fill')));
}

/**
 * The open challenges: every seeker of every pool but this player's own seeks, the longest
 * waiting first, each with an Accept button (`accept(seek, pool)`). `games` names the games.
 * Called on every lobby message and every second: the list is drawn again only when its
 * challenges (or the language) change, else only the times waited move on, so that an Accept
 * being pressed stays the button it was.
 * @param {{ pools: Pool[] | undefined, player: import('./seats.js').Player | null,
 *   games: import('./api.js').GameInfo[], accept: (seek: number, pool: Pool) => void }} what
 */
export function renderChallenges({ pools, player, games, accept }) {
  const box = $('challenges');
  if (!box) return;
  /** @type {{ pool: Pool, s: Seeker }[]} */
  const rows = [];
  for (const pool of pools || []) {
    for (const s of pool.seekers || []) {
      if (player && s.name === player.name) continue;
      rows.push({ pool, s });
    }
  }
  rows.sort((a, b) => a.s.since - b.s.since);
  findId('challenges-panel')?.classList.toggle('hidden', rows.length === 0);
  const drawn = [lang(), ...rows.map(({ s }) => `${s.seek}:${s.name}:${s.rating}`)].join(' ');
  if (box.dataset.drawn !== drawn) {
    box.dataset.drawn = drawn;
    box.replaceChildren(...rows.map(({ pool, s }) => {
      const title = games.find((g) => g.name === pool.game)?.title || pool.game;
      const facts = [title, timeControlText(pool.time_control), t(pool.rated ? 'play.rated' : 'play.casual')];
      if (pool.seats > 2) facts.push(t('play.table', { n: pool.seats }));
      return el('li', { class: 'challenge', 'data-seek': s.seek, 'data-game': pool.game },
        el('span', { class: 'challenge-who' }, el('strong', {}, s.name), ` (${s.rating})`),
        el('span', { class: 'muted small' }, facts.join(' · ')),
        el('span', { class: 'muted small challenge-since', 'data-since': s.since }),
        el('button', { type: 'button', class: 'challenge-accept', onclick: () => accept(s.seek, pool) }, t('challenges.accept')));
    }));
  }
  for (const since of box.querySelectorAll('.challenge-since')) {
    since.textContent = t('seek.elapsed', { t: clock(Date.now() - Number(since.getAttribute('data-since'))) });
  }
}
