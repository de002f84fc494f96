// @ts-check
// Chakart's page module (the contract is in games.js): the two name bars around the board (White
// below unless this page plays Black); the board, the choices, the Chakart panel and the move
// list's words are chakart.js's.

import { el } from './api.js';
import { seatLabel } from './seats.js';
import { t } from './i18n.js';
import { renderChakart, renderChakartBoard, describeEntry, picking } from './chakart.js';

/**
 * A bar with the side's name, who plays it and its clock.
 * @param {import('./games.js').GameCtx} ctx
 * @param {HTMLElement} container
 * @param {number} seat
 */
function nameBar(ctx, container, seat) {
  const { state } = ctx;
  container.classList.remove('hidden');
  container.classList.toggle('to-act', state.status === 'live' && state.to_act.includes(seat));
  container.replaceChildren(
    el('span', { class: 'player-name', 'data-seat': seat }, seatLabel(state.game, seat),
      el('span', { class: 'muted small seat-who' }, `(${ctx.seatWho(seat)})`)),
    el('span', { class: 'clock', id: `clock-${seat}`, role: 'timer', 'aria-label': seatLabel(state.game, seat) }, ''));
}

/** @type {import('./games.js').GameModule} */
export default {
  panel: 'ck-panel',
  moveList: 'pairs',

  /** A move or a draw in words, from its parts: "Toad e2 → e4", "a banana lands on c6". */
  describe: describeEntry,

  render(ctx) {
    const bottom = ctx.state.seat === 1 ? 1 : 0;
    nameBar(ctx, ctx.barTop, 1 - bottom);
    nameBar(ctx, ctx.barBottom, bottom);
    renderChakart({
      svg: ctx.board, panel: ctx.panel, decision: ctx.decision, legend: ctx.legend, state: ctx.state,
      canAct: ctx.canAct, play: ctx.play, render: ctx.redraw, past: ctx.past,
    });
  },

  hint(ctx) {
    if (!ctx.canAct) return t('learn.wait');
    return t(picking() ? 'learn.ck.pick' : 'learn.ck.target');
  },

  /** Seen from White, the last move and kings in danger marked, nothing to click. */
  renderPosition(view) {
    renderChakartBoard(view.board, view.observation);
  },
};
