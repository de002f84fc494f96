// @ts-check
// Bataille Navale on the match page, its state: one object (`ui`) kept between renders, and the
// readings of the seat's observation (crates/games/naval/src/observe.rs) that every part of the
// page shares: the board, the phase, whose turn, the turn's options and the placement's shapes.

import { runningSeats } from './clocks.js';
import { SIDE, bbox, cellName, sameCells } from './naval-geometry.js';

/** The fleet's ships in importance order, as the observation gives them (`ships`). */
export const fleetShips = () => ui.ctx?.state?.observation?.ships || [];

/** A piece that is not one of the fleet's ships is a buoy (the observation's `ships`). */
export const isBuoy = (piece) => fleetShips().length > 0 && !fleetShips().includes(piece);

/** The placement choices of `piece` (`observation.placement`: its ways, each a shape and anchors), or null. */
export const placementOf = (piece) => (ui.ctx?.state?.observation?.placement || []).find((p) => p.piece === piece) || null;

/** The way of `piece` along a column (`vertical`) or a row; a buoy's only way either way. */
export function wayOf(piece, vertical) {
  const ways = placementOf(piece)?.ways || [];
  return ways.find((w) => (w.choice === 'v') === vertical) || ways[0] || null;
}

/** The cells on the board of a drop `{piece, vertical, r, c}`: the way's shape from (r, c). */
export function footprint({ piece, vertical, r, c }) {
  const out = [];
  for (const [dr, dc] of wayOf(piece, vertical)?.shape || []) {
    const i = r + dr;
    const j = c + dc;
    if (i >= 0 && j >= 0 && i < SIDE && j < SIDE) out.push(cellName(i, j));
  }
  return out;
}

/** Whether the drop `d` is legal: its top-left cell is one of the way's anchors. */
export function legalDrop(d) {
  const inBoard = d.r >= 0 && d.c >= 0 && d.r < SIDE && d.c < SIDE;
  return inBoard && (wayOf(d.piece, d.vertical)?.anchors || []).includes(cellName(d.r, d.c));
}

/** The parts of the placement action for the drop `d` (docs/protocol.md section 4.2). */
export function placementParts(d) {
  const choice = wayOf(d.piece, d.vertical)?.choice;
  return { kind: 'place', piece: d.piece, to: cellName(d.r, d.c), ...(choice ? { choice } : {}) };
}

/** Whether a placement move is left: some piece has a legal top-left cell. */
export const movesLeft = () => (ui.ctx?.state?.observation?.placement || []).some((p) => p.ways.some((w) => w.anchors.length));

/** Whether the placed piece `p` (`{piece, cells}`) lies along a column: the way whose shape covers its cells. */
export function isVertical(p) {
  const box = bbox(p.cells);
  const way = (placementOf(p.piece)?.ways || []).find((w) => sameCells(footprint({ piece: p.piece, vertical: w.choice === 'v', r: box.r0, c: box.c0 }), p.cells));
  return way?.choice === 'v';
}

/**
 * @typedef {object} NavalCtx What the drawing works from: the match page's context (games.js),
 *   or on the replay and how-to pages only the board and a state shaped like the match's.
 * @property {SVGSVGElement} svg the boards' SVG
 * @property {any} state the match state as sent (docs/protocol.md section 4.1)
 * @property {number} [stateAt] when `state` arrived (performance.now)
 * @property {boolean} [canAct] this page may act now
 * @property {any} [config] the match's config, or the game's default
 * @property {(action: string | string[] | object, opts?: { confirmed?: boolean }) => void} [play]
 *   sends an action: a text, a whole turn, or a placement's parts
 * @property {() => void} [render] draws the page again
 * @property {HTMLElement} [panel] the side panel
 * @property {HTMLElement} [decision] the turn panel's slot for the decision's controls
 * @property {HTMLElement} [legend] the slot of the board's legend
 */

/** @typedef {{ seat: number, r: number, c: number }} SeatCell A cell of one seat's board. */
/** @typedef {{ seat: number, r0: number, c0: number, rows: number, cols: number }} Zoom */
/**
 * @typedef {{ piece: string, vertical: boolean, offR: number, offC: number, r: number, c: number,
 *   from: string[] }} Drag
 */
/** @typedef {{ info: any, seat: number | null, cells: string[], kind: string }} Planned */

/**
 * The page's state of Bataille Navale: one object, kept between renders of the match page.
 * @type {{
 *   ctx: NavalCtx | null, version: number | null, drag: Drag | null,
 *   moving: { piece: string, cells: string[], moves: number } | null,
 *   sentPlacement: any, resending: boolean, pickedUp: boolean,
 *   lastPress: { piece: string, at: number } | null, selectedPiece: string | null,
 *   turnKey: string | null, plan: Map<string, Planned>, ship: string | null, mode: string,
 *   vertical: boolean, hover: SeatCell | null, aim: SeatCell | null, zoom: Zoom | null,
 *   focus: number | null, firing: boolean, whole: boolean, autoFired: boolean,
 *   lastTurn: any[] | null, log: any[], bannerKey: string,
 *   flash: Map<string, { seat: number, cell: string, kind: string }>,
 *   flashTimer: ReturnType<typeof setTimeout> | undefined, flashAt: number,
 *   areas: { seat: number, cells: string[] }[],
 *   prevBoards: { hits: Set<string>, misses: Set<string>, deflected: Set<string>, sunk: Set<string> }[] | null,
 *   message: string | (() => string), attached: SVGSVGElement | null,
 * }}
 */
export const ui = {
  ctx: null,
  version: null,
  /**
   * Placement: the piece being dragged: `{piece, vertical, offR, offC, r, c, from}` (its
   * orientation, the grabbed cell inside it, the top-left under the pointer, its spot).
   */
  drag: null,
  /** Placement: a drop sent and not yet applied, drawn where it was dropped: `{piece, cells, moves}`. */
  moving: null,
  /** The placement action last sent (a move's parts or `ready`), sent again once if another seat's move made it stale. */
  sentPlacement: null,
  resending: false,
  /** Rule 4.5: Ready is enabled once a piece has been picked up (dropping it back is enough). */
  pickedUp: false,
  /** The last click on a piece without moving it (`{piece, at}`), to recognise a double-click. */
  lastPress: null,
  /** The piece the Rotate button and the R key act on. */
  selectedPiece: null,
  /** Battle: the turn the plan belongs to, the plan (ship -> {info, seat, cells, kind}), choices. */
  turnKey: null,
  plan: new Map(),
  ship: null,
  mode: 'fire',
  vertical: false,
  /** The cell under the pointer: `{seat, r, c}` or null. */
  hover: null,
  /** A finger's aim waiting for its second tap on the same cell: `{seat, r, c}` or null. */
  aim: null,
  /** On a phone, the part of a board shown large while aiming: `{seat, r0, c0, rows, cols}` (a
   * window of `ZOOM` rows from its top-left cell, `zoomTo`), or null for the whole board. */
  zoom: null,
  /** The board a phone shows when the player picked one (`focusSeat`), else null. */
  focus: null,
  /** The plan is being sent: as one whole turn (`whole`), or one order per state after the
   * server refused the whole turn. */
  firing: false,
  whole: false,
  autoFired: false,
  /** Announcements: the last turn as last seen, the log (announcements as the observation gives
   * them), and what the account last drew. */
  lastTurn: null,
  log: [],
  bannerKey: '',
  /** Cells that changed with the last states, to highlight: key `seat:cell` -> kind. */
  flash: new Map(),
  flashTimer: undefined,
  flashAt: 0,
  /** Areas of the specials just announced, outlined for a moment: `[{seat, cells}]`. */
  areas: [],
  prevBoards: null,
  message: '',
  attached: null,
};

/**
 * The redraws of the modules above the state's users: the pointer's handlers and the plan change
 * the state and then ask for the panel again, which naval.js gives here (the panel imports them,
 * so they cannot import it).
 */
export const redraw = {
  panel: () => {},
};

/** The context of the last render: every handler runs after one. */
export function ctx() {
  if (!ui.ctx) throw new Error('Bataille Navale used before its first render');
  return ui.ctx;
}

export const obsOf = () => ctx().state.observation;

export const me = () => obsOf().viewer;

export function myBoard() {
  const v = me();
  return v === null || v === undefined ? null : obsOf().boards[v];
}

export function phase() {
  return obsOf()?.phase || '';
}

/** It is this page's battle turn and the server waits for one of its ships. */
export function myBattleTurn() {
  const obs = obsOf();
  return obs.phase === 'battle' && obs.viewer !== null && obs.current === obs.viewer && Boolean(obs.next_ship)
    && ctx().state.status === 'live';
}

export function placing() {
  const b = myBoard();
  return phase() === 'placement' && b && !b.ready && ctx().state.status === 'live';
}

/** Milliseconds left on the running clock of `seat`, or null when it does not run. */
export function remaining(seat) {
  const { state, stateAt = 0 } = ctx();
  if (seat === null || seat === undefined || !runningSeats(state).includes(seat)) return null;
  return state.clocks.remaining_ms[seat] - (performance.now() - stateAt);
}

/** Milliseconds left on this seat's running clock, or null when it does not run. */
export const myRemaining = () => remaining(me());

export const shipIndex = (ship) => fleetShips().indexOf(ship);

export const sunkNames = (b) => new Set((b?.sunk || []).map((p) => p.piece));

/** The options of this seat's battle turn (`observation.options`), or null. */
export const turnOptions = () => obsOf()?.options || null;

/** What `ship` may be given this turn (`options.ships[i]`), or null when it does not act. */
export function shipOptions(ship) {
  return turnOptions()?.ships.find((o) => o.ship === ship) || null;
}

/** The options of `ship`'s special `ability`, or null when it has no such special. */
export function specialOptions(ship, ability) {
  return shipOptions(ship)?.specials.find((x) => x.ability === ability) || null;
}

/** This seat's ships with what the panel shows about them. */
export function myShips() {
  const obs = obsOf();
  const b = myBoard();
  const sunk = sunkNames(b);
  // The orders given so far, from their parts (`plan_info`).
  const given = new Map((obs.plan_info || []).map((info) => [info.pieces?.[0], info]));
  return fleetShips().map((name, i) => ({
    name,
    energy: b?.energy?.[i] ?? 0,
    sunk: sunk.has(name),
    given: given.get(name) || null,
    // The ships still to act are those the options list.
    open: myBattleTurn() && Boolean(shipOptions(name)),
  }));
}
