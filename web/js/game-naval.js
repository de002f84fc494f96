// @ts-check
// Bataille Navale's page module (the contract is in games.js): a thin adapter over naval.js's
// entry points (renderNaval, renderNavalBoards, tick, onServerError, describeStep), which draw
// the four boards and the naval panel and plan the battle turns.

import { renderNaval, renderNavalBoards, tick, onServerError, describeStep, hint } from './naval.js';

/**
 * A position as the boards draw it read-only (an earlier one on the match page, the replay's):
 * no turn to plan or piece to place in it, whatever the present holds.
 */
/**
 * @param {import('./naval-state.js').NavalState} state
 * @returns {import('./naval-state.js').NavalState}
 */
function readOnly(state) {
  return { ...state, status: 'finished', to_act: [] };
}

/** @type {import('./games.js').GameModule} */
export default {
  layout: 'naval',
  panel: 'nv-panel',
  moveList: 'lines',

  swatch: (seat) => `nv-swatch-${seat}`,

  /** A step in words from its parts: an order as the match page announces it, a placement, a draw. */
  describe(entry) {
    return describeStep(entry?.info);
  },

  render(ctx) {
    if (ctx.past) {
      // An earlier position: the boards alone, read-only; the panel (the plan of this turn) waits.
      if (ctx.panel) ctx.panel.hidden = true;
      ctx.decision.replaceChildren();
      renderNavalBoards(ctx.board, readOnly(ctx.state));
      return;
    }
    renderNaval({
      svg: ctx.board, panel: ctx.panel, decision: ctx.decision, legend: ctx.legend, state: ctx.state,
      stateAt: ctx.stateAt, canAct: ctx.canAct, config: ctx.config, play: ctx.play, render: ctx.redraw,
    });
  },

  // While in the past the boards show an earlier position: nothing is played from them.
  tick(ctx) {
    tick({ state: ctx.past ? readOnly(ctx.state) : ctx.state, stateAt: ctx.stateAt, canAct: ctx.canAct && !ctx.past });
  },

  onError: onServerError,

  hint,

  /** The boards as the match page draws them for a spectator; no seat is shown as acting. */
  renderPosition(view) {
    renderNavalBoards(view.board, readOnly({ game: view.game, seats: view.seats, observation: view.observation, status: 'finished', to_act: [] }));
  },
};
