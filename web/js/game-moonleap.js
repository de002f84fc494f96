// @ts-check
// Moon Leap's page module (the contract is in games.js): the track with the others' last leaps,
// the players above it (score and clock), the die and the choice buttons in the turn panel (a
// forced move plays itself after a pause; a choice shows its leap on hover, or on a first tap),
// the astronauts off the track in the side panel, the final table, and the move lists in words,
// all from the parts the server sends (never from the notation). Drawing lives in moonleap.js.

import { el, byId } from './api.js';
import { t } from './i18n.js';
import { seatLabel, seatOf, seatWithName } from './seats.js';
import { lastTouch, tapTwice, armedKey } from './touch.js';
import { showLegend } from './legend.js';
import * as ml from './moonleap.js';

/** @typedef {import('./games.js').GameCtx} GameCtx */
/** @typedef {import('./match-state.js').MatchState} MatchState */

/** How long a forced move waits before the page plays it, in ms: long enough to see the roll. */
const FORCED_PAUSE_MS = 1200;
/** The page's state of Moon Leap between renders. */
const ui = {
  /** @type {number | null} The version at which a forced move (the only legal one) was scheduled, if any. */
  forcedAt: null,
  /** @type {string | null} The text of the choice whose leaps are shown over the track (hovered, or tapped once), or null. */
  preview: null,
};

const $ = byId;
/** A phone: the track is drawn six craters a row, so that each is large enough to read and tap. */
const PHONE = window.matchMedia('(max-width: 600px)');

/** A die face as shown: `*` is the star. */
const faceText = (/** @type {string} */ face) => (face === '*' ? '★' : face);

/**
 * The legal decisions of this seat, taken apart (empty when it is not this page's turn).
 * @param {GameCtx} ctx
 */
function choicesOf(ctx) {
  return ctx.canAct ? ml.legalChoices(ctx.state.legal, ctx.state.legal_info || []) : [];
}

/**
 * The last die face: the one awaiting a decision, else the last roll in the log.
 * @param {MatchState} state
 */
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

/**
 * The last leap of every other seat, as arrows in its colour: each seat's latest decision since
 * this seat's own last one (for a spectator, since the last seat to move played before).
 * @param {MatchState} state
 * @returns {import('./moonleap.js').Leap[]}
 */
function othersLeaps(state) {
  const moves = state.moves || [];
  const mine = state.seat;
  const decisions = moves.filter((m) => seatOf(m.by) !== null);
  let since = 0;
  if (mine !== null && mine !== undefined) {
    const own = moves.map((m) => seatOf(m.by)).lastIndexOf(mine);
    since = own + 1;
  } else if (decisions.length) {
    // A spectator: one round back, i.e. after the previous decision of the seat that moved last.
    const lastSeat = seatOf(decisions[decisions.length - 1].by);
    const before = moves.slice(0, moves.lastIndexOf(decisions[decisions.length - 1]));
    since = before.map((m) => seatOf(m.by)).lastIndexOf(lastSeat) + 1;
  }
  /** @type {Map<number, import('./games.js').LogEntry>} */
  const latest = new Map();
  for (const m of moves.slice(since)) {
    const seat = seatOf(m.by);
    if (seat !== null && seat !== mine) latest.set(seat, m);
  }
  return [...latest].flatMap(([seat, m]) => ml.leapsOf(m.info).map((leap) => ({ ...leap, cls: `ml-${ml.seatLetter(seat)}` })));
}

/**
 * Plays `action`, the only legal one, after a short pause, unless the match moved on meanwhile.
 * @param {GameCtx} ctx
 * @param {string} action
 */
function playForced(ctx, action) {
  if (ui.forcedAt === ctx.state.version) return;
  ui.forcedAt = ctx.state.version;
  const version = ctx.state.version;
  setTimeout(() => {
    const now = ctx.live();
    if (now.state.version === version && now.canAct && now.state.legal.length === 1) now.play(action, { confirmed: true });
  }, FORCED_PAUSE_MS);
}

/**
 * The track, with the others' last leaps and the previewed choice's (redrawn alone on hover).
 * @param {GameCtx} ctx
 */
function drawTrack(ctx) {
  const { state } = ctx;
  const choices = choicesOf(ctx);
  const me = state.seat === null ? null : ml.seatLetter(state.seat);
  // Single moves are played by clicking the astronaut, on the track or off board.
  /** @type {Map<string, string>} */
  const clickable = new Map();
  for (const a of choices) {
    if (a.kind !== 'move') continue;
    const id = a.parts[0];
    clickable.set(id.startsWith('m') ? id : `${me}${id}`, a.text);
  }
  const shown = choices.find((a) => a.text === ui.preview);
  const index = shown ? state.legal.indexOf(shown.text) : -1;
  const arrows = [
    ...(ctx.past ? [] : othersLeaps(state)),
    ...(index >= 0 ? ml.leapsOf(state.legal_info?.[index]).map((leap) => ({ ...leap, cls: 'ml-preview' })) : []),
  ];
  ml.renderTrack(ctx.board, {
    obs: state.observation, clickable, arrows, perRow: PHONE.matches ? ml.PER_ROW_NARROW : undefined,
    // A finger's first tap on an astronaut shows its leap, the second plays it.
    onAction: ctx.canAct ? (action) => tapTwice(`ml:${action}`, () => {
      ui.preview = action;
      ctx.redraw();
    }, () => ctx.play(action)) : null,
  });
  return clickable;
}

/**
 * The players above the track: colour, name, score and clock of each seat.
 * @param {GameCtx} ctx
 */
function playersBar(ctx) {
  const { state } = ctx;
  const obs = state.observation;
  ctx.barTop.classList.remove('hidden');
  ctx.barTop.classList.add('ml-players');
  ctx.barTop.replaceChildren(...state.seats.map(({ seat }) => {
    const toAct = state.status === 'live' && state.to_act.includes(seat);
    return el('div', { class: `ml-seat${toAct ? ' to-act' : ''}`, 'data-seat': seat },
      el('span', { class: `swatch ml-${ml.seatLetter(seat)}` }),
      el('span', { class: 'player-name', 'data-seat': seat }, seatLabel(state.game, seat),
        el('span', { class: 'muted small seat-who' }, ` (${ctx.seatWho(seat)})`)),
      el('span', { class: 'ml-score', 'data-score': obs.scores[seat] }, t('ml.score', { n: obs.scores[seat] })),
      el('span', { class: 'clock', id: `clock-${seat}`, role: 'timer' }, ''));
  }));
}

/**
 * The die and this seat's choices, in the turn panel (built once, so the die can tumble).
 * @param {GameCtx} ctx
 * @param {import('./moonleap.js').Choice[]} choices
 */
function decision(ctx, choices) {
  const box = ctx.decision;
  if (!box.querySelector('#ml-die')) {
    box.replaceChildren(
      el('div', { class: 'ml-roll' },
        document.createElementNS('http://www.w3.org/2000/svg', 'svg'),
        el('span', { id: 'ml-roll-text', class: 'small' })),
      el('p', { id: 'ml-help', class: 'muted small' }),
      el('div', { id: 'ml-choices', class: 'chips' }));
    const die = box.querySelector('svg');
    for (const [k, v] of Object.entries({ id: 'ml-die', class: 'ml-die', width: 44, height: 44, role: 'img', 'aria-labelledby': 'ml-roll-text' })) die?.setAttribute(k, String(v));
  }
  const { state } = ctx;
  const { face, key } = lastRoll(state);
  ml.showDie($('ml-die'), face, key);
  $('ml-roll-text').textContent = face ? t('ml.roll', { face: faceText(face) }) : t('ml.roll.none');
  // A seat's own choices: nothing to say to a spectator, nor once the game is over.
  const chooser = state.seat !== null && state.status === 'live';
  $('ml-help').hidden = !chooser || !ctx.canAct;
  $('ml-help').textContent = t('ml.help');
  const list = $('ml-choices');
  list.hidden = !chooser;
  if (!ctx.canAct) {
    list.replaceChildren(el('span', { class: 'muted small' }, '—'));
    return;
  }
  list.replaceChildren(...choices.map((a) => {
    const tapKey = `ml:${a.text}`;
    const chip = el('button', {
      type: 'button', class: `chip ml-choice ${a.kind}${armedKey() === tapKey ? ' armed' : ''}`, 'data-action': a.text,
      'data-kind': a.kind, 'data-again': t('table.tap.again'),
      onclick: () => tapTwice(tapKey, () => {
        ui.preview = a.text;
        ctx.redraw();
      }, () => ctx.play(a.text)),
    }, ml.describeChoice(a));
    // A mouse shows the leap while it points at the choice (a finger taps once instead).
    const show = (/** @type {string | null} */ text) => () => {
      if (lastTouch()) return;
      ui.preview = text;
      drawTrack(ctx.live());
    };
    chip.addEventListener('mouseenter', show(a.text));
    chip.addEventListener('focus', show(a.text));
    chip.addEventListener('mouseleave', show(null));
    chip.addEventListener('blur', show(null));
    return chip;
  }));
  if (choices.length === 1) {
    list.append(el('p', { class: 'muted small', id: 'ml-forced' }, t('ml.forced')));
    playForced(ctx, choices[0].text);
  }
}

/**
 * The astronauts of each seat not on the track (they enter with a roll of their number).
 * @param {GameCtx} ctx
 * @param {Map<string, string>} clickable the action that moves each astronaut, by token
 */
function offTrack(ctx, clickable) {
  const { state } = ctx;
  const obs = state.observation;
  $('ml-seats').replaceChildren(...state.seats.map(({ seat }) => {
    const letter = ml.seatLetter(seat);
    const off = ml.offBoard(obs.track, letter).map((n) => {
      const token = `${letter}${n}`;
      const icon = ml.astronautIcon(token, 26);
      const action = clickable.get(token);
      if (!action) return icon;
      return el('button', { type: 'button', class: 'ml-enter', 'data-action': action, 'data-astro': token,
        'aria-label': t('ml.move', { a: n }), onclick: () => ctx.play(action) }, icon);
    });
    return el('div', { class: 'ml-off-row', 'data-seat': seat },
      el('span', { class: `swatch ml-${letter}` }), ' ',
      el('span', { class: 'small' }, seatLabel(state.game, seat)), ' ',
      el('span', { class: 'ml-off' }, el('span', { class: 'muted small' }, t('ml.off')),
        ...(off.length ? off : [el('span', { class: 'muted small' }, '—')])));
  }));
}

/** @param {GameCtx} ctx */
function render(ctx) {
  const choices = choicesOf(ctx);
  if (ui.preview && !choices.some((a) => a.text === ui.preview)) ui.preview = null;
  const clickable = drawTrack(ctx);
  playersBar(ctx);
  decision(ctx, choices);
  offTrack(ctx, clickable);
  showLegend(ctx.legend, t('ml.legend'), [t('ml.legend.values'), t('ml.legend.cells'), t('ml.legend.line'), t('ml.legend.last')]);
}

/**
 * The final score table: one row per seat, best rank first (the outcome's ranks and scores).
 * @param {GameCtx} ctx
 */
function renderFinal(ctx) {
  const { state } = ctx;
  const table = $('ml-final');
  const outcome = state.outcome;
  table.hidden = !outcome;
  if (!outcome) return;
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
 * The replay's position: the track (the step's leap marked), and in the side panel the die
 * waiting to be used and one line per seat (score, astronauts off the track), which the board
 * does not show.
 * @param {import('./games.js').PositionView} view
 */
function renderPosition(view) {
  const { observation: obs, seats, game } = view;
  const by = seatOf(view.by);
  ml.renderTrack(view.board, {
    obs, onAction: null, perRow: PHONE.matches ? ml.PER_ROW_NARROW : undefined,
    arrows: by === null ? [] : ml.leapsOf(view.info).map((leap) => ({ ...leap, cls: `ml-${ml.seatLetter(by)}` })),
  });
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

/** An astronaut as the move list names it: "astronaut 4", "mercenary 2". */
const astronaut = (/** @type {string} */ id) => (id.startsWith('m') ? ml.astronautName(id) : t('ml.astro', { n: id }));

/**
 * One leap in words: "astronaut 4 leaps from crater 3 to 12", "astronaut 2 enters at crater 5".
 * @param {import('./moonleap.js').Part} part
 */
function leapWords(part) {
  const a = astronaut(part.pieces?.[0] ?? '?');
  return part.from ? t('ml.say.move', { a, from: part.from, to: part.to }) : t('ml.say.enter', { a, to: part.to });
}

/**
 * A logged entry in words from its parts: "rolled 4", a leap, a split's two leaps, a lost roll.
 * Null without parts.
 * @param {import('./games.js').LogEntry} entry
 * @returns {string | null}
 */
function describe(entry) {
  const info = entry?.info;
  const face = ml.rollFace(entry);
  if (face) return t('ml.say.roll', { face: faceText(face) });
  if (!info || entry.by === 'chance') return null;
  switch (info.kind) {
    case 'pass': return t('ml.say.pass');
    case 'move': return info.to ? leapWords(info) : null;
    case 'split': return info.to && info.then?.to ? t('ml.say.split', { first: leapWords(info), second: leapWords(info.then) }) : null;
    default: return null;
  }
}

/** @type {import('./games.js').GameModule} */
export default {
  layout: 'moonleap',
  panel: 'ml-panel',
  moveList: 'lines',

  swatch: (seat) => `ml-${ml.seatLetter(seat)}`,

  describe,

  counters(obs) {
    return obs && Array.isArray(obs.values)
      ? t(obs.milestone_passed ? 'ml.milestone.open' : 'ml.milestone.closed', { n: obs.milestone_after })
      : null;
  },

  render,
  renderFinal,
  renderPosition,

  hint: (ctx) => t(ctx.canAct ? 'learn.ml.roll' : 'learn.wait'),

  reset() {
    const had = ui.preview !== null;
    ui.preview = null;
    return had;
  },
};
