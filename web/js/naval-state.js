// @ts-check
// Bataille Navale on the match page, its state: one object (`ui`) kept between renders, and the
// readings of the seat's observation (crates/games/naval/src/observe.rs) that every part of the
// page shares: the board, the phase, whose turn, the turn's options and the placement's shapes.

import { runningSeats } from './clocks.js';
import { SIDE, bbox, cellName, sameCells } from './naval-geometry.js';

// The observation's shapes (crates/games/naval/src/observe.rs and options.rs), as the page reads
// them; fields the server leaves out when empty are optional.

/** A piece where it lies: its name, its top-left and orientation (`at`), its cells. @typedef {{ piece: string, at: string, cells: string[] }} PieceView */

/**
 * One seat's board as this viewer may see it.
 * @typedef {{ seat: number, ready?: boolean, eliminated?: boolean, emp_turns_left?: number,
 *   emp_immune?: boolean, hits: string[], misses: string[], deflected: string[], sunk: PieceView[],
 *   sunk_buoys?: string[], revealed_frigate?: PieceView | null,
 *   blocks: { owner: number, cells: string[] }[], shield_up?: boolean,
 *   shield?: { cells: string[], charges: number } | null, torpedo_clear?: string[],
 *   torpedo_triggers?: string[], charges_hit?: string[], charges_clear?: string[],
 *   first_hits?: string[], fleet?: PieceView[] | null, energy?: number[] | null,
 *   moves?: number | null, intel?: { found: PieceView[], sonar: string[], radar: string[],
 *   scanned: string[] } | null }} BoardView
 */

/** An order's parts (docs/protocol.md section 4.1). @typedef {{ kind: string, to?: string | null, cells?: string[], pieces?: string[], choice?: string | null, target?: number | null }} OrderParts */

/**
 * An order announced to every seat: who, the order and its result in the server's words, the
 * area it covered, its parts, and the cells it hit, missed, deflected or sank.
 * @typedef {{ seat: number, order: string, result: string,
 *   area?: { target: number, from: string, to: string } | null, info: OrderParts,
 *   exploded_at?: string | null, hits?: string[], misses?: string[], deflected?: string[],
 *   sunk?: string[] }} Announcement
 */

/** A piece's placement choices: each way's orientation, shape (cell offsets) and legal top-left cells. @typedef {{ piece: string, ways: { choice?: string | null, shape: number[][], anchors: string[] }[] }} Placement */

/**
 * A special of a ship this turn: its cost, whether it may be used (else why not), and where:
 * aimed areas, torpedo lanes, EMP targets.
 * @typedef {{ ability: string, cost: number, open: boolean, reason?: string,
 *   aimed?: AimedOptions[], torpedo?: { target: number, lanes: { dir: string, from: string, to: string }[] }[],
 *   emp?: number[] }} SpecialOptions
 */

/**
 * A special aimed at a cell in one orientation: its area (rows and columns around the aim), the
 * cells it may be aimed at, and the boards.
 * @typedef {{ vertical: boolean, choice?: string | null, area: [number, number, number, number], aims: string[], targets: number[] }} AimedOptions
 */

/**
 * The options of this seat's battle turn: the cells each target may be fired at, and each ship's.
 * @typedef {{ distinct_fire_cells: boolean, fire: { target: number, cells: string[] }[],
 *   ships: { ship: string, fire: number[], specials: SpecialOptions[] }[] }} TurnOptions
 */

/**
 * The observation of a seat or a spectator.
 * @typedef {{ viewer: number | null, phase: string, current?: number | null, first?: number | null,
 *   rounds: number, ships: string[], boards: BoardView[], last_turn: Announcement[],
 *   earlier_turns?: Announcement[][], plan?: string[], plan_info?: OrderParts[],
 *   next_ship?: string | null, options?: TurnOptions | null, placement?: Placement[] | null,
 *   rocket?: [number, string] | null, eliminated?: number[] }} NavalObs
 */

/**
 * A match state with Bataille Navale's observation; read-only drawings (the replay's, an earlier
 * position) give only its observation, status and seats to act.
 * @typedef {{ observation: NavalObs, game: string, seats: import('./api.js').Seat[], status: string,
 *   to_act: number[] } & Partial<Omit<import('./match-state.js').MatchState,
 *   'observation' | 'game' | 'seats' | 'status' | 'to_act'>>} NavalState
 */

/** A drop of the placement: the piece, its orientation, its top-left cell. @typedef {{ piece: string, vertical: boolean, r: number, c: number }} Drop */

/** The fleet's ships in importance order, as the observation gives them (`ships`). */
export const fleetShips = () => ui.ctx?.state?.observation?.ships || [];

/** A piece that is not one of the fleet's ships is a buoy (the observation's `ships`). */
export const isBuoy = (/** @type {string} */ piece) => fleetShips().length > 0 && !fleetShips().includes(piece);

/** The placement choices of `piece` (`observation.placement`: its ways, each a shape and anchors), or null. */
export const placementOf = (/** @type {string} */ piece) => (ui.ctx?.state?.observation?.placement || []).find((p) => p.piece === piece) || null;

/**
 * The way of `piece` along a column (`vertical`) or a row; a buoy's only way either way.
 * @param {string} piece
 * @param {boolean} vertical
 */
export function wayOf(piece, vertical) {
  const ways = placementOf(piece)?.ways || [];
  return ways.find((w) => (w.choice === 'v') === vertical) || ways[0] || null;
}

/**
 * The cells on the board of a drop `{piece, vertical, r, c}`: the way's shape from (r, c).
 * @param {Drop} drop
 */
export function footprint({ piece, vertical, r, c }) {
  const out = [];
  for (const [dr, dc] of wayOf(piece, vertical)?.shape || []) {
    const i = r + dr;
    const j = c + dc;
    if (i >= 0 && j >= 0 && i < SIDE && j < SIDE) out.push(cellName(i, j));
  }
  return out;
}

/**
 * Whether the drop `d` is legal: its top-left cell is one of the way's anchors.
 * @param {Drop} d
 */
export function legalDrop(d) {
  const inBoard = d.r >= 0 && d.c >= 0 && d.r < SIDE && d.c < SIDE;
  return inBoard && (wayOf(d.piece, d.vertical)?.anchors || []).includes(cellName(d.r, d.c));
}

/**
 * The parts of the placement action for the drop `d` (docs/protocol.md section 4.2).
 * @param {Drop} d
 */
export function placementParts(d) {
  const choice = wayOf(d.piece, d.vertical)?.choice;
  return { kind: 'place', piece: d.piece, to: cellName(d.r, d.c), ...(choice ? { choice } : {}) };
}

/** Whether a placement move is left: some piece has a legal top-left cell. */
export const movesLeft = () => (ui.ctx?.state?.observation?.placement || []).some((p) => p.ways.some((w) => w.anchors.length));

/**
 * Whether the placed piece `p` (`{piece, cells}`) lies along a column: the way whose shape covers its cells.
 * @param {{ piece: string, cells: string[] }} p
 */
export function isVertical(p) {
  const box = bbox(p.cells);
  const way = (placementOf(p.piece)?.ways || []).find((w) => sameCells(footprint({ piece: p.piece, vertical: w.choice === 'v', r: box.r0, c: box.c0 }), p.cells));
  return way?.choice === 'v';
}

/**
 * @typedef {object} NavalCtx What the drawing works from: the match page's context (games.js),
 *   or on the replay and how-to pages only the board and a state shaped like the match's.
 * @property {SVGSVGElement} svg the boards' SVG
 * @property {NavalState} state the match state as sent (docs/protocol.md section 4.1)
 * @property {number} [stateAt] when `state` arrived (performance.now)
 * @property {boolean} [canAct] this page may act now
 * @property {any} [config] the match's config, or the game's default
 * @property {(action: import('./games.js').Action, opts?: { confirmed?: boolean }) => void} [play]
 *   sends an action: a text, a whole turn, or a placement's parts
 * @property {() => void} [render] draws the page again
 * @property {HTMLElement | null} [panel] the side panel
 * @property {HTMLElement} [decision] the turn panel's slot for the decision's controls
 * @property {HTMLElement} [legend] the slot of the board's legend
 */

/** @typedef {{ seat: number, r: number, c: number }} SeatCell A cell of one seat's board. */
/** @typedef {{ seat: number, r0: number, c0: number, rows: number, cols: number }} Zoom */
/**
 * @typedef {{ piece: string, vertical: boolean, offR: number, offC: number, r: number, c: number,
 *   from: string[] }} Drag
 */
/** @typedef {{ info: OrderParts | null, seat: number | null, cells: string[], kind: string }} Planned */

/**
 * The page's state of Bataille Navale: one object, kept between renders of the match page.
 * @type {{
 *   ctx: NavalCtx | null, version: number | null, drag: Drag | null,
 *   moving: { piece: string, cells: string[], moves: number | null | undefined } | null,
 *   sentPlacement: import('./games.js').ActionParts | null, resending: boolean, pickedUp: boolean,
 *   lastPress: { piece: string, at: number } | null, selectedPiece: string | null,
 *   turnKey: string | null, plan: Map<string, Planned>, ship: string | null, mode: string,
 *   vertical: boolean, hover: SeatCell | null, aim: SeatCell | null, zoom: Zoom | null,
 *   focus: number | null, firing: boolean, whole: boolean, autoFired: boolean,
 *   lastTurn: Announcement[] | null, log: Announcement[], bannerKey: string,
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

/**
 * Milliseconds left on the running clock of `seat`, or null when it does not run.
 * @param {number | null | undefined} seat
 */
export function remaining(seat) {
  const { state, stateAt = 0 } = ctx();
  if (seat === null || seat === undefined || !runningSeats(state).includes(seat)) return null;
  return state.clocks.remaining_ms[seat] - (performance.now() - stateAt);
}

/** Milliseconds left on this seat's running clock, or null when it does not run. */
export const myRemaining = () => remaining(me());

export const shipIndex = (/** @type {string} */ ship) => fleetShips().indexOf(ship);

export const sunkNames = (/** @type {BoardView | null | undefined} */ b) => new Set((b?.sunk || []).map((p) => p.piece));

/** The options of this seat's battle turn (`observation.options`), or null. */
export const turnOptions = () => obsOf()?.options || null;

/**
 * What `ship` may be given this turn (`options.ships[i]`), or null when it does not act.
 * @param {string} ship
 */
export function shipOptions(ship) {
  return turnOptions()?.ships.find((o) => o.ship === ship) || null;
}

/**
 * The options of `ship`'s special `ability`, or null when it has no such special.
 * @param {string} ship
 * @param {string} ability
 */
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
