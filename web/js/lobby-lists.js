// @ts-check
// The lobby's lists of matches (web/index.html): one row a match, with its seats, its state or
// result, and what the viewer can do there (resume, join a free seat, watch, replay).

import { el, getToken } from './api.js';
import { t } from './i18n.js';
import { seatLabel, seatWithName, botName } from './seats.js';
import { kindWord } from './result.js';
import { timeControlText } from './clocks.js';

/** @typedef {import('./api.js').MatchSummary} MatchSummary */

/**
 * Who looks at the lists and what a Join button does.
 * @typedef {{ me: { name: string } | null, onJoin: (id: string, seat: number) => void }} Viewer
 */

/**
 * @param {MatchSummary} m
 * @param {import('./api.js').Outcome} outcome its outcome
 */
function outcomeText(m, outcome) {
  const winners = outcome.ranks.map((r, s) => (r === 1 ? s : null)).filter((s) => s !== null);
  const kind = kindWord(outcome.kind);
  if (winners.length !== 1) return kind;
  const seat = m.seats.find((s) => s.seat === winners[0]);
  return t('lobby.won', { side: seatWithName(m.game, winners[0], seat?.player), kind });
}

/**
 * @param {MatchSummary} m
 * @param {import('./api.js').Seat} s
 */
function seatPill(m, s) {
  let who;
  if (s.kind === 'bot') who = botName(s.bot ?? '');
  else if (s.player?.name) who = s.player.name;
  else who = s.taken ? t('seat.human') : t('lobby.free');
  const free = s.kind === 'human' && !s.taken;
  const away = s.kind === 'human' && s.taken && s.connected === false;
  return el('span', { class: `seat-pill${free ? ' free' : ''}${away ? ' away' : ''}`, 'data-seat': s.seat },
    `${seatLabel(m.game, s.seat)}: ${who}`);
}

/**
 * @param {MatchSummary} m
 * @param {Viewer} viewer
 */
function matchRow(m, viewer) {
  const actions = [];
  const { me } = viewer;
  const mine = getToken(m.id) || (me && m.seats.some((s) => s.player?.name === me.name));
  if (mine && m.status !== 'finished') {
    actions.push(el('a', { class: 'button', href: `/m/${m.id}` }, t('lobby.resume')));
  } else if (m.status === 'open') {
    for (const s of m.seats) {
      if (s.kind === 'human' && !s.taken) {
        actions.push(el('button', { type: 'button', 'data-join': s.seat, onclick: () => viewer.onJoin(m.id, s.seat) },
          t('lobby.join', { n: seatLabel(m.game, s.seat) })));
      }
    }
  }
  if (m.status !== 'finished') actions.push(el('a', { class: 'button secondary', href: `/m/${m.id}` }, t('lobby.watch')));
  else actions.push(el('a', { class: 'button secondary', href: `/replay/${m.id}` }, t('lobby.replay')));
  const info = m.outcome ? outcomeText(m, m.outcome) : `${timeControlText(m.time_control)}${m.rated ? ` · ${t('play.rated')}` : ''}`;
  return el('tr', { 'data-match': m.id, 'data-status': m.status },
    el('td', {}, el('strong', {}, m.title), el('div', { class: 'muted small mono' }, m.id.slice(0, 8))),
    el('td', {}, m.seats.map((s) => seatPill(m, s))),
    el('td', {}, t(`status.${m.status}`), el('div', { class: 'muted small' }, info)),
    el('td', {}, el('div', { class: 'actions' }, actions)));
}

/**
 * Fills `container` with a table of `matches`, or a line saying there are none.
 * @param {HTMLElement} container
 * @param {MatchSummary[]} matches
 * @param {Viewer} viewer
 */
export function renderList(container, matches, viewer) {
  if (!matches.length) {
    container.replaceChildren(el('p', { class: 'muted' }, t('lobby.none')));
    return;
  }
  container.replaceChildren(el('table', { class: 'matches' },
    el('thead', {}, el('tr', {}, el('th', {}, t('lobby.game')), el('th', {}, t('lobby.players')), el('th', {}, t('lobby.status')), el('th', {}, ''))),
    el('tbody', {}, matches.map((m) => matchRow(m, viewer)))));
}
