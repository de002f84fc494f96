// Moon Leap's page module (the contract is in games.js): the track, the die, one line per seat
// with its score and its astronauts off the track, the choice buttons (a forced move plays
// itself after a pause), the final table, and the die's draws in the move lists, all from the
// parts the server sends (never from the notation). Drawing lives in moonleap.js.

import { el } from './api.js';
import { t } from './i18n.js';
import { seatLabel, seatWithName } from './seats.js';
import * as ml from './moonleap.js';

/** How long a forced move waits before the page plays it, in ms: long enough to see the roll. */
const FORCED_PAUSE_MS = 1200;
/** The version at which a forced move (the only legal one) was scheduled, if any. */
let forcedAt = null;

const $ = (id) => document.getElementById(id);

/** A die face as shown: `*` is the star. */
const faceText = (face) => (face === '*' ? '★' : face);

/** The legal decisions of this seat, taken apart (empty when it is not this page's turn). */
function choicesOf(ctx) {
  return ctx.canAct ? ml.legalChoices(ctx.state.legal, ctx.state.legal_info || []) : [];
}

/** The last die face: the one awaiting a decision, else the last roll in the log. */
function lastRoll(state) {
  const obs = state.observation;
  let index = -1;
  for (let i = state.moves.length - 1; i >= 0; i--) {
    if (ml.rollFace(state.moves[i])) {
      index = i;
      break;
    }
  }
  const face = obs.roll ?? (index >= 0 ? ml.rollFace(state.moves[index]) : null);
  return { face, key: `${index}:${face}` };
}

/** Plays `action`, the only legal one, after a short pause, unless the match moved on meanwhile. */
function playForced(ctx, action) {
  if (forcedAt === ctx.state.version) return;
  forcedAt = ctx.state.version;
  const version = ctx.state.version;
  setTimeout(() => {
    const now = ctx.live();
    if (now.state.version === version && now.canAct && now.state.legal.length === 1) now.play(action);
  }, FORCED_PAUSE_MS);
}

function render(ctx) {
  const { state } = ctx;
  const obs = state.observation;
  const choices = choicesOf(ctx);
  const me = state.seat === null ? null : ml.seatLetter(state.seat);
  // Single moves are played by clicking the astronaut, on the track or off board.
  const clickable = new Map();
  for (const a of choices) {
    if (a.kind !== 'move') continue;
    const id = a.parts[0];
    clickable.set(id.startsWith('m') ? id : `${me}${id}`, a.text);
  }
  ml.renderTrack(ctx.board, { obs, clickable, onAction: ctx.canAct ? ctx.play : null });

  const { face, key } = lastRoll(state);
  ml.showDie($('ml-die'), face, key);
  $('ml-roll-text').textContent = face ? t('ml.roll', { face: faceText(face) }) : t('ml.roll.none');

  $('ml-seats').replaceChildren(...state.seats.map(({ seat }) => {
    const letter = ml.seatLetter(seat);
    const off = ml.offBoard(obs.track, letter).map((n) => {
      const token = `${letter}${n}`;
      const icon = ml.astronautIcon(token, 28);
      const action = clickable.get(token);
      if (!action) return icon;
      return el('button', { type: 'button', class: 'ml-enter', 'data-action': action, 'data-astro': token,
        'aria-label': t('ml.move', { a: n }), onclick: () => ctx.play(action) }, icon);
    });
    const toAct = state.status === 'live' && state.to_act.includes(seat);
    return el('div', { class: `ml-seat${toAct ? ' to-act' : ''}`, 'data-seat': seat },
      el('span', { class: `swatch ml-${letter}` }),
      el('span', { class: 'player-name', 'data-seat': seat }, seatLabel(state.game, seat), ' ',
        el('span', { class: 'muted small seat-who' }, `(${ctx.seatWho(seat)})`)),
      el('span', { class: 'ml-score', 'data-score': obs.scores[seat] }, t('ml.score', { n: obs.scores[seat] })),
      el('span', { class: 'clock', id: `clock-${seat}`, role: 'timer' }, ''),
      el('span', { class: 'ml-off' }, el('span', { class: 'muted small' }, t('ml.off')),
        ...(off.length ? off : [el('span', { class: 'muted small' }, '—')])));
  }));

  const box = $('ml-choices');
  // A seat's own choices: nothing to say to a spectator, nor once the game is over.
  const chooser = state.seat !== null && state.status === 'live';
  for (const id of ['ml-choices-title', 'ml-help', 'ml-choices']) $(id).hidden = !chooser;
  if (!ctx.canAct) box.replaceChildren(el('span', { class: 'muted small' }, '—'));
  else {
    box.replaceChildren(...choices.map((a) => el('button', {
      type: 'button', class: `chip ml-choice ${a.kind}`, 'data-action': a.text, 'data-kind': a.kind,
      onclick: () => ctx.play(a.text),
    }, ml.describeChoice(a))));
    if (choices.length === 1) {
      box.append(el('p', { class: 'muted small', id: 'ml-forced' }, t('ml.forced')));
      playForced(ctx, choices[0].text);
    }
  }
}

/** The final score table: one row per seat, best rank first (the outcome's ranks and scores). */
function renderFinal(ctx) {
  const { state } = ctx;
  const table = $('ml-final');
  const outcome = state.outcome;
  table.hidden = !outcome;
  if (table.hidden) return;
  const order = outcome.ranks.map((r, s) => [r, s]).sort((x, y) => x[0] - y[0] || x[1] - y[1]).map(([, s]) => s);
  const track = state.observation.track;
  table.replaceChildren(
    el('thead', {}, el('tr', {}, el('th', {}, t('ml.rank')), el('th', {}, t('ml.player')), el('th', {}, t('ml.final')),
      el('th', {}, t('ml.off')))),
    el('tbody', {}, ...order.map((s) => el('tr', { 'data-seat': s, 'data-rank': outcome.ranks[s], 'data-score': outcome.scores[s] },
      el('td', {}, String(outcome.ranks[s])),
      el('td', {}, el('span', { class: `swatch ml-${ml.seatLetter(s)}` }), ' ', seatLabel(state.game, s)),
      el('td', { class: 'num' }, String(outcome.scores[s])),
      el('td', {}, ml.offBoard(track, ml.seatLetter(s)).join(' ') || '—')))));
}

/**
 * The replay's position: the track, and in the side panel the die waiting to be used and one line
 * per seat (score, astronauts off the track), which the board does not show.
 */
function renderPosition(view) {
  const { observation: obs, seats, game } = view;
  ml.renderTrack(view.board, { obs, clickable: null, onAction: null });
  const face = obs.roll;
  view.showInfo(
    el('p', { class: 'small', id: 'info-roll' }, face ? t('ml.roll', { face: faceText(face) }) : t('ml.roll.none')),
    ...seats.map(({ seat }) => {
      const letter = ml.seatLetter(seat);
      const off = ml.offBoard(obs.track, letter).map((n) => ml.astronautIcon(`${letter}${n}`, 22));
      const toMove = !obs.finished && obs.to_move === seat;
      return el('div', { class: `ml-seat${toMove ? ' to-act' : ''}`, 'data-seat': seat },
        el('span', { class: `swatch ml-${letter}` }),
        el('span', { class: 'player-name' }, seatWithName(game, seat, seats[seat]?.player)),
        el('span', { class: 'ml-score', 'data-score': obs.scores[seat] }, t('ml.score', { n: obs.scores[seat] })),
        el('span', { class: 'ml-off' }, el('span', { class: 'muted small' }, t('ml.off')),
          ...(off.length ? off : [el('span', { class: 'muted small' }, '—')])));
    }),
  );
}

export default {
  layout: 'moonleap',
  panel: 'ml-panel',
  moveList: 'lines',

  swatch: (seat) => `ml-${ml.seatLetter(seat)}`,

  describe(entry) {
    const face = ml.rollFace(entry);
    if (face) return t('ml.die', { face: faceText(face) });
    // "Move 4", "2 then 3": the words of the choice buttons, from the entry's parts.
    const action = entry?.by === 'chance' ? null : ml.choiceOf(entry?.text, entry?.info);
    return action ? ml.describeChoice(action) : null;
  },

  counters(obs) {
    return obs && Array.isArray(obs.values)
      ? t(obs.milestone_passed ? 'ml.milestone.open' : 'ml.milestone.closed', { n: obs.milestone_after })
      : null;
  },

  render,
  renderFinal,
  renderPosition,
};
