// @ts-check
// MAD's page module (the contract is in games.js): the board with its two player bars and exile
// zones, the half-made move (a selected ship, then the bonus permutation or rotation a move may
// carry), the permutation/rotation chips and the pass button of the match page's controls.
// Drawing and the composing of legal actions from their parts live in mad.js.

import { el, byId } from './api.js';
import { t, tn } from './i18n.js';
import {
  legalChoices, renderBoard, renderExile, describeShift, describeShiftLong, cellsOfShips, seatColour,
  sideName, shipKind, shiftOf, lastMoveCells, shipIcon, describeShiftShort, hasShift,
} from './mad.js';
import { seatOf } from './seats.js';
import { lastTouch, tapTwice, armedKey } from './touch.js';
import { showLegend } from './legend.js';

/** @typedef {import('./games.js').GameCtx} GameCtx */
/** @typedef {import('./mad.js').Choice} Choice */

/** The page's state of MAD between renders. */
const ui = {
  /** @type {string | null} The selected ship's cell, or null. */
  selected: null,
  /** @type {{ from: string, to: string, plain: Choice | null, options: import('./mad.js').ShiftChoice[] } | null} The bonus choice on screen, or null. */
  bonus: null,
  /** @type {{ side: string, codes: string[] } | null} Ships to ring while a permutation or rotation is hovered, or null. */
  involved: null,
  /** @type {GameCtx | null} The context of the last render: the chips' hover redraws the board with it. */
  last: null,
};

const $ = byId;

/** @param {GameCtx} ctx */
function legalParsed(ctx) {
  return legalChoices(ctx.state.legal || [], ctx.state.legal_info || []);
}

/**
 * The side this page plays ('r' or 'b'), or null for a spectator.
 * @param {import('./match-state.js').MatchState} state
 */
function mySide(state) {
  return state.seat === null || state.seat === undefined ? null : seatColour(state.seat);
}

/**
 * A click on a cell: selects a ship, moves the selected one, or opens the bonus choice.
 * @param {string} name
 */
function onCell(name) {
  const ctx = ui.last;
  if (!ctx?.canAct) return;
  const moves = legalParsed(ctx).filter((a) => a.kind === 'move');
  if (ui.selected && moves.some((a) => a.from === ui.selected && a.to === name)) {
    chooseTarget(ctx, ui.selected, name, moves);
    return;
  }
  ui.bonus = null;
  ui.selected = ui.selected !== name && moves.some((a) => a.from === name) ? name : null;
  ctx.redraw();
}

/**
 * The move from `from` to `to`: played at once when it carries no bonus, else the choice opens.
 * @param {GameCtx} ctx
 * @param {string} from
 * @param {string} to
 * @param {Choice[]} moves
 */
function chooseTarget(ctx, from, to, moves) {
  const candidates = moves.filter((a) => a.from === from && a.to === to);
  const plain = candidates.find((a) => !a.shift) || null;
  const options = candidates.filter(hasShift);
  if (options.length === 0 && plain) {
    ctx.play(plain.text);
    return;
  }
  ui.bonus = { from, to, plain, options };
  ctx.redraw();
}

/**
 * A player's bar: colour and name, the exile zone of that fleet, the clock.
 * @param {GameCtx} ctx
 * @param {HTMLElement} container
 * @param {number} seat
 * @param {string[]} exiled
 * @param {Set<string>} ringed
 */
function playerBar(ctx, container, seat, exiled, ringed) {
  const { state } = ctx;
  const side = seatColour(seat);
  const toAct = state.status === 'live' && state.to_act.includes(seat);
  container.classList.remove('hidden');
  container.classList.toggle('to-act', toAct);
  const exile = el('div', { class: 'exile', id: `exile-${side}` });
  renderExile(exile, side, exiled, ringed);
  container.replaceChildren(
    el('span', { class: 'player-name', 'data-seat': seat }, el('span', { class: `swatch ${side}` }), sideName(side),
      el('span', { class: 'muted small seat-who' }, `(${ctx.seatWho(seat)})`)),
    exile,
    el('span', { class: 'clock', id: `clock-${seat}`, role: 'timer', 'aria-label': `${sideName(side)}` }, ''));
}

/**
 * The board, the exile zones and the player bars (redrawn alone while a chip is hovered).
 * @param {GameCtx} ctx
 */
function renderMadBoard(ctx) {
  const { state } = ctx;
  const obs = state.observation;
  const orientation = mySide(state) || 'r';
  const bottomSeat = orientation === 'b' ? 1 : 0;
  const topSeat = 1 - bottomSeat;
  const exInv = (/** @type {string} */ side) => (ui.involved && ui.involved.side === side ? new Set(ui.involved.codes) : new Set());
  for (const [bar, seat] of /** @type {[HTMLElement, number][]} */ ([[ctx.barTop, topSeat], [ctx.barBottom, bottomSeat]])) {
    const side = seatColour(seat);
    playerBar(ctx, bar, seat, obs.exile?.[side] || [], exInv(side));
  }

  const acting = ctx.canAct;
  const moves = acting ? legalParsed(ctx).filter((a) => a.kind === 'move') : [];
  const movable = new Set(ui.bonus ? [] : moves.flatMap((a) => (a.from ? [a.from] : [])));
  /** @type {Map<string, string>} */
  const targets = new Map();
  const from = ui.bonus ? ui.bonus.from : ui.selected;
  if (from) {
    for (const a of moves) {
      if (a.from !== from) continue;
      if (ui.bonus && a.to !== ui.bonus.to) continue;
      if (a.to) targets.set(a.to, a.capture ? 'capture' : 'move');
    }
  }
  const ringed = ui.involved ? cellsOfShips(obs.cells, ui.involved.side, ui.involved.codes) : new Set([]);
  renderBoard(ctx.board, {
    cells: obs.cells,
    orientation,
    movable,
    selected: from,
    targets,
    involved: ringed,
    last: lastMoveCells(state.moves),
    onCell: acting ? onCell : null,
  });
  ctx.tickClocks();
}

/**
 * The bonus choice, the permutation/rotation chips and pass (the controls panel's MAD parts).
 * @param {GameCtx} ctx
 */
function renderMadControls(ctx) {
  const { state } = ctx;
  const me = mySide(state);
  if (me === null || state.status !== 'live') return;
  const acting = ctx.canAct;
  const legal = acting ? legalParsed(ctx) : [];
  $('select-help').classList.toggle('hidden', !acting || Boolean(ui.bonus));
  renderBonus(ctx, me);
  $('shifts-box').classList.toggle('hidden', Boolean(ui.bonus));
  const shifts = legal.filter((a) => a.kind === 'shift').filter(hasShift);
  const box = $('shifts');
  if (!acting) box.replaceChildren(el('span', { class: 'muted small' }, '—'));
  else if (shifts.length === 0) box.replaceChildren(el('span', { class: 'muted small' }, t('match.shifts.none')));
  else box.replaceChildren(...shifts.map((a) => shiftChip(ctx, a, me)));
  const pass = legal.find((a) => a.kind === 'pass');
  $('pass').classList.toggle('hidden', !pass);
  $('pass', HTMLButtonElement).disabled = !acting;
  $('pass').onclick = pass ? () => ctx.play(pass.text) : null;
}

/**
 * A button for a permutation or rotation: hovering or focusing it rings the ships it moves; on a
 * touch screen the first tap rings them (the chip then says "tap again") and the second plays it.
 * @param {GameCtx} ctx
 * @param {import('./mad.js').ShiftChoice} action
 * @param {string} side
 */
function shiftChip(ctx, action, side) {
  const shift = action.shift;
  const key = `mad:${action.text}`;
  const armed = armedKey() === key;
  // Words only; the notation is in the tooltip.
  const chip = el('button', {
    type: 'button', class: `chip${armed ? ' armed' : ''}`, 'data-action': action.text,
    title: `${describeShiftLong(shift)} (${action.text})`, 'aria-label': describeShiftLong(shift),
    'data-again': t('table.tap.again'), 'aria-pressed': armed ? 'true' : undefined,
    onclick: () => tapTwice(key, () => {
      ui.involved = { side, codes: shift.codes };
      ctx.redraw();
    }, () => ctx.play(action.text)),
  }, el('span', { class: 'long' }, describeShift(shift)), el('span', { class: 'short' }, describeShiftShort(shift)));
  // The hover redraws the board of the latest render, which may be newer than this chip's. A
  // finger's tap also hovers and focuses: there the tap itself shows the ships.
  const on = () => {
    if (lastTouch()) return;
    ui.involved = { side, codes: shift.codes };
    if (ui.last) renderMadBoard(ui.last);
  };
  const off = () => {
    if (lastTouch()) return;
    ui.involved = null;
    if (ui.last) renderMadBoard(ui.last);
  };
  chip.addEventListener('mouseenter', on);
  chip.addEventListener('focus', on);
  chip.addEventListener('mouseleave', off);
  chip.addEventListener('blur', off);
  return chip;
}

/**
 * The choice of a move's bonus (or none), when the move to the chosen cell may carry one.
 * @param {GameCtx} ctx
 * @param {string} side
 */
function renderBonus(ctx, side) {
  const box = $('bonus');
  if (!ui.bonus) {
    box.classList.add('hidden');
    box.replaceChildren();
    return;
  }
  const moveText = ui.bonus.plain ? ui.bonus.plain.text : `${ui.bonus.from}-${ui.bonus.to}`;
  const chips = [];
  if (ui.bonus.plain) {
    const plainText = ui.bonus.plain.text;
    chips.push(el('button', { type: 'button', class: 'chip plain', id: 'bonus-none', 'data-action': plainText,
      onclick: () => ctx.play(plainText) }, t('match.bonus.none', { move: moveText })));
  }
  for (const a of ui.bonus.options) chips.push(shiftChip(ctx, a, side));
  box.replaceChildren(
    el('h3', {}, t('match.bonus.title', { move: moveText })),
    el('p', { class: 'small' }, t('match.bonus.help')),
    el('div', { class: 'chips' }, chips),
    el('p', {}, el('button', { type: 'button', class: 'secondary', id: 'bonus-cancel', onclick: () => {
      ui.bonus = null;
      ui.selected = null;
      ctx.redraw();
    } }, t('match.cancel'))));
  box.classList.remove('hidden');
}

/** The legend's lines: the digits (on a drawn frigate), the crown, the rings, the last move. */
function legendItems() {
  return [
    [shipIcon('121', 'r', 28), t('mad.legend.digits')],
    [shipIcon('111', 'r', 28), t('mad.legend.crown')],
    t('mad.legend.rings'),
    t('mad.legend.last'),
  ];
}

/** A ship as the move list names it: "frigate 121". */
const shipWords = (/** @type {string} */ code) => t('mad.say.ship', { kind: shipKind(code), code });

/**
 * A logged entry in words from its parts (`info`, crates/games/mad `action_info`): "frigate 121
 * c2 → c3, expels 212, then Swap 112 ⇄ 221", "Rotate 112 → 121 → 211 → 112", "Pass".
 * @param {import('./games.js').LogEntry} entry
 * @returns {string | null}
 */
function describe(entry) {
  const info = entry?.info;
  if (!info || seatOf(entry.by) === null) return null;
  switch (info.kind) {
    case 'move': {
      const [mover, expelled] = info.pieces || [];
      let words = t('mad.say.move', { ship: shipWords(mover), from: info.from, to: info.to });
      if (expelled) words = t('mad.say.expel', { move: words, ship: shipWords(expelled) });
      if (info.then) words = t('mad.say.then', { move: words, shift: describeShift(shiftOf(info.then)) });
      return words;
    }
    case 'permute':
    case 'rotate': return describeShift(shiftOf(info));
    case 'pass': return t('match.pass');
    default: return null;
  }
}

/** @type {import('./games.js').GameModule} */
export default {
  moveList: 'pairs',

  moveClass: (seat) => seatColour(seat),

  describe,

  // Both counts in turns, as the tie-break counts them (rules/mad.md section 8).
  counters(obs) {
    return obs && typeof obs.ply === 'number'
      ? `${tn('mad.count.turns', obs.ply)} · ${tn('mad.count.since', obs.since)}`
      : null;
  },

  render(ctx) {
    ui.last = ctx;
    renderMadBoard(ctx);
    renderMadControls(ctx);
    // The legend of the digits, the crown and the marks, open to a tap (no hover-only tooltip).
    showLegend(ctx.legend, t('mad.legend'), legendItems());
  },

  hint(ctx) {
    if (!ctx.canAct) return t('learn.wait');
    if (ui.bonus) return t('learn.mad.bonus');
    return t(ui.selected ? 'learn.mad.target' : 'learn.mad.pick');
  },

  reset() {
    const had = Boolean(ui.selected || ui.bonus);
    ui.selected = null;
    ui.bonus = null;
    ui.involved = null;
    return had;
  },

  /** Red below, as the match page shows it to Red and to spectators; the step's move is marked. */
  renderPosition(view) {
    const { observation: obs } = view;
    renderBoard(view.board, {
      cells: obs.cells, orientation: 'r', onCell: null,
      last: lastMoveCells(view.info ? [{ by: { seat: 0 }, info: view.info }] : []),
    });
    for (const [bar, side] of /** @type {[HTMLElement, string][]} */ ([[view.barTop, 'b'], [view.barBottom, 'r']])) {
      const exile = el('div', { class: 'exile', id: `exile-${side}` });
      renderExile(exile, side, obs.exile?.[side] || []);
      bar.replaceChildren(el('span', { class: 'player-name' }, el('span', { class: `swatch ${side}` }), sideName(side)), exile);
      bar.classList.remove('hidden');
    }
  },
};
