// @ts-check
// The games the pages know how to draw, behind one small contract, so the match page (live play,
// a spectator's view, stepping back) and the replay page never ask which game they show: they ask
// the game's module. A game missing here is still playable: the match page shows its observation
// and legal actions as text, the replay page its move list.
//
// A game module is a plain object; every member is optional:
//
//   layout    A class for the page's `#layout` grid ('moonleap', 'naval'), when the game needs
//             another shape than the board-and-side-column one.
//   panel     The id of the match page's side panel the module fills (a `data-game-panel`
//             section of match.html); the page shows that one and hides the others.
//   moveList  'pairs' (numbered rows, seat 0 then seat 1: two seats in turn) or 'lines' (one
//             action a line, with the seat's swatch: three or more seats, chance draws).
//   swatch(seat)       The class of a seat's colour dot in a 'lines' move list.
//   moveClass(seat)    An extra class for a seat's entries in the move list (MAD: its side colour).
//   describe(entry)    A logged entry in words for the move lists ("rolled 3", "frigate 121 c2 →
//             c3"), from its
//             parts: `entry` is `{by, text, info}` as in the state's moves and the replay's steps
//             (`by` `{seat}` or 'chance', `info` the entry's parts, docs/protocol.md section 4.1);
//             null when the notation reads best. It never reads `text`, the notation.
//   counters(obs)      A short line under the status (MAD's ply counters), or null.
//
//   render(ctx)        Draws the match page's board, player bars, panel and the game's own
//             controls from `ctx` (below). Called on every change, also for a spectator and while
//             stepping back (then `ctx.state` holds the earlier position, nobody acts in it and
//             `ctx.past` is true).
//   renderFinal(ctx)   The game's part of the result panel of a finished match (Moon Leap's table).
//   reset()            Forgets the page's half-made choice (a selected piece): called when the match
//             moves on, after an action is sent and on Escape. True when there was one to forget.
//   tick(ctx)          Called with the clocks, ten times a second (Bataille Navale's countdown).
//   onError(msg)       The server refused this page's last action (an `error` message).
//   hint(ctx)          In a first game (the how-to page's, `?learn`): what to do now, in words
//             ("Tap one of your ships with a dashed ring"), or '' when nothing needs saying.
//
//   renderPosition(view) Draws one position read-only (the replay page). `view`: `{game, seats,
//             observation, text, info, by}` (the step that led to it: its notation, its parts and
//             who played it, or null at the start; the module marks it on the board), and the
//             page's nodes `board`, `barTop`, `barBottom` (hidden unless the module shows them)
//             and `info` (a side panel, hidden unless the module calls `view.showInfo()`).
//
// The match page's `ctx`: `state` (the match state as sent: observation, legal, legal_info, seat,
// to_act, moves, seats, status, clocks...), `stateAt` (when it arrived, performance.now), `canAct`
// (this page may act now), `pending` (an action is on its way), `past`, `config` (the match's
// config or the game's default), `play(action | actions)` (one action, or a list played as one
// whole turn; `play(action, {confirmed: true})` skips the confirm-move setting, for a forced
// move), `redraw()` (renders the page again after a local choice), `tickClocks()`,
// `seatWho(seat)` ("Alice, you"), `live()` (the context of the present, for a decision taken
// later), and the nodes `board` (the SVG), `barTop`, `barBottom` (hidden and empty unless the
// module fills them), `panel` (the module's panel), `decision` (in the turn panel, beside whose
// turn it is: the controls of the decision to take now, which on a phone must fit the screen
// with the board; the module owns its content) and `legend` (a slot for the board's legend,
// legend.js). Texts come from i18n.js's `t`; touch.js says whether the player uses a finger.
//
// A fifth game adds its module file, its import and its entry in MODULES below, and its words
// (docs/adding-a-game.md section 5); nothing else in the pages changes.

import mad from './game-mad.js';
import moonleap from './game-moonleap.js';
import chakart from './game-chakart.js';
import naval from './game-naval.js';

/**
 * A logged entry of a state's moves or a replay's steps (docs/protocol.md section 4.1): who
 * (`{seat}`, or 'chance'), the notation, and its parts.
 * @typedef {{ by: { seat: number } | string | null, text?: string | null, info?: any }} LogEntry
 */

/**
 * What a page plays: a text of the legal list, or the parts of an action (Bataille Navale's
 * placement and orders, docs/protocol.md section 4.2), or a list of them played as one whole turn.
 * @typedef {{ kind: string } & Record<string, unknown>} ActionParts
 * @typedef {string | ActionParts | (string | ActionParts)[]} Action
 */

/**
 * The match page's context of a game module (above).
 * @typedef {object} GameCtx
 * @property {import('./match-state.js').MatchState} state
 * @property {number} stateAt
 * @property {boolean} canAct
 * @property {boolean} pending
 * @property {boolean} past
 * @property {any} config the match's config, or the game's default
 * @property {(action: Action, opts?: { confirmed?: boolean }) => void} play
 * @property {() => void} redraw
 * @property {() => void} tickClocks
 * @property {(seat: number) => string} seatWho
 * @property {() => GameCtx} live
 * @property {SVGSVGElement} board
 * @property {HTMLElement} barTop
 * @property {HTMLElement} barBottom
 * @property {HTMLElement | null} panel
 * @property {HTMLElement} decision
 * @property {HTMLElement} legend
 */

/**
 * The replay page's position for `renderPosition` (above).
 * @typedef {object} PositionView
 * @property {string} game
 * @property {import('./match-state.js').MatchState['seats']} seats
 * @property {any} observation
 * @property {string | Record<string, number> | null | undefined} text the step's text: an action's
 *   notation, or an early ending as the record writes it (`{"resign": 0}`)
 * @property {any} info
 * @property {LogEntry['by']} by
 * @property {SVGSVGElement} board
 * @property {HTMLElement} barTop
 * @property {HTMLElement} barBottom
 * @property {(...nodes: (Node | string)[]) => void} showInfo
 */

/**
 * A game's module (above): every member optional.
 * @typedef {object} GameModule
 * @property {string} [layout]
 * @property {string} [panel]
 * @property {'pairs' | 'lines'} [moveList]
 * @property {(seat: number) => string} [swatch]
 * @property {(seat: number) => string} [moveClass]
 * @property {(entry: LogEntry) => string | null} [describe]
 * @property {(obs: any) => string | null} [counters]
 * @property {(ctx: GameCtx) => void} [render]
 * @property {(ctx: GameCtx) => void} [renderFinal]
 * @property {() => boolean} [reset]
 * @property {(ctx: GameCtx) => void} [tick]
 * @property {(msg: { code: string, message?: string }) => void} [onError] the `error` message
 * @property {(ctx: GameCtx) => string} [hint]
 * @property {(view: PositionView) => void} [renderPosition]
 */

/** @type {Record<string, GameModule>} */
const MODULES = { mad, moonleap, chakart, naval };

/**
 * The module of game `name` (its engine name, as in `state.game`), or null when there is none.
 * @param {string} name
 * @returns {GameModule | null}
 */
export function gameModule(name) {
  return Object.hasOwn(MODULES, name) ? MODULES[name] : null;
}

/**
 * Puts the module's layout class on `node` (the pages' `#layout`), or `fallback` without a
 * module, replacing the one put before.
 * @param {HTMLElement} node
 * @param {GameModule | null} mod
 */
export function applyLayout(node, mod, fallback = '') {
  const wanted = mod ? mod.layout || '' : fallback;
  if (node.dataset.layout) node.classList.remove(node.dataset.layout);
  if (wanted) node.classList.add(wanted);
  node.dataset.layout = wanted;
}
