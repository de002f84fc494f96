// Quick play that never strands anyone (docs/protocol.md section 7.6): while a seek waits, how
// long it has waited and how long seekers of its pool waited lately; after `OFFER_AFTER_MS`, an
// offer to play the computer instead (a table of two) or to start now with bots (a bigger table);
// and every pool's seekers as open challenges a player can accept, whatever the ratings.
//
// The lobby gives the mount points `#seek-wait` (inside the seeking panel) and `#challenges`;
// it keeps the seek and the lobby message, and passes what to do on a click.

import { el } from './api.js';
import { t } from './i18n.js';
import { botName } from './seats.js';
import { timeControlText, samePool } from './clocks.js';

/** How long a seek waits before the page offers the computer or bots. */
export const OFFER_AFTER_MS = 30000;

const $ = (id) => document.getElementById(id);

/** A duration in ms as people read a wait: "0:42", "3:05". */
function clock(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * The waiting panel of `seeking` (`{request, since}`, `since` the local time the server took the
 * seek, or null before): the time waited, the pool's estimate, and once `OFFER_AFTER_MS` have
 * passed the offer. `pools` are the lobby message's; `game` the seek's game entry; `actions` has
 * `computer(level)` (a table of two: play the computer instead) and `fill()` (start with bots).
 */
export function renderSeekWait({ seeking, pools, game, actions }) {
  const box = $('seek-wait');
  if (!box) return;
  if (!seeking || seeking.since === null) {
    box.replaceChildren();
    return;
  }
  const waited = Date.now() - seeking.since;
  const pool = (pools || []).find((p) => samePool(p, seeking.request));
  const estimate = pool?.estimate_seconds ?? seeking.estimate ?? null;
  const words = [t('seek.elapsed', { t: clock(waited) })];
  words.push(estimate === null ? t('seek.estimate.none') : t('seek.estimate', { t: clock(estimate * 1000) }));
  const parts = [el('span', { id: 'seek-elapsed', 'data-ms': String(waited) }, words.join(' · '))];
  // The offer stays once shown, so a choice being made is not taken away by a tick.
  if (waited >= OFFER_AFTER_MS || box.querySelector('#seek-offer')) {
    const levels = game?.levels || [];
    const kept = box.querySelector('#seek-level')?.value;
    const level = el('select', { id: 'seek-level', 'aria-label': t('play.level') },
      ...levels.map((l) => el('option', { value: l, selected: l === (kept || levels[Math.min(1, levels.length - 1)]) }, botName(l))));
    const two = seeking.request.seats === 2;
    parts.push(el('div', { id: 'seek-offer', class: 'seek-offer' },
      el('span', {}, t(two ? 'seek.offer.computer.why' : 'seek.offer.fill.why')),
      two ? level : null,
      el('button', {
        type: 'button', id: two ? 'seek-computer' : 'seek-fill',
        onclick: () => (two ? actions.computer(level.value) : actions.fill()),
      }, t(two ? 'seek.offer.computer' : 'seek.offer.fill'))));
  }
  box.replaceChildren(...parts);
}

/**
 * The open challenges: every seeker of every pool but this player's own seeks, the longest
 * waiting first, each with an Accept button (`accept(seek, pool)`). `games` names the games.
 */
export function renderChallenges({ pools, player, games, accept }) {
  const box = $('challenges');
  if (!box) return;
  const rows = [];
  for (const pool of pools || []) {
    for (const s of pool.seekers || []) {
      if (player && s.name === player.name) continue;
      rows.push({ pool, s });
    }
  }
  rows.sort((a, b) => a.s.since - b.s.since);
  $('challenges-panel')?.classList.toggle('hidden', rows.length === 0);
  box.replaceChildren(...rows.map(({ pool, s }) => {
    const title = games.find((g) => g.name === pool.game)?.title || pool.game;
    const facts = [title, timeControlText(pool.time_control), t(pool.rated ? 'play.rated' : 'play.casual')];
    if (pool.seats > 2) facts.push(t('play.table', { n: pool.seats }));
    return el('li', { class: 'challenge', 'data-seek': s.seek, 'data-game': pool.game },
      el('span', { class: 'challenge-who' }, el('strong', {}, s.name), ` (${s.rating})`),
      el('span', { class: 'muted small' }, facts.join(' · ')),
      el('span', { class: 'muted small challenge-since', 'data-since': s.since }, t('seek.elapsed', { t: clock(Date.now() - s.since) })),
      el('button', { type: 'button', class: 'challenge-accept', onclick: () => accept(s.seek, pool) }, t('challenges.accept')));
  }));
}
