// @ts-check
// Bataille Navale on the match page (rules/naval.md): the four 14x14 boards in the fixed 2x2
// layout of section 3, the secret placement (drag and rotate your pieces under the placement
// clock), and the battle turn (an order per ship, planned in any order, fired together).
//
// Everything drawn comes from the seat's observation (crates/games/naval/src/observe.rs), and the
// rules stay in the crate: on the seat's battle turn the observation carries `options`
// (crates/games/naval/src/options.rs), every order each ship still to act may be given, with the
// specials' costs, the open boards, aims and lanes and the area shapes. The page highlights from
// them alone and sends each order as its parts (ship, kind, board, aim, `choice`; docs/protocol.md
// section 4.2); it plans all the ship orders of the turn at once (the engine takes them one at a
// time, section 5.3a), and `distinct_fire_cells` tells it to keep two planned shots off one cell
// (section 5.5). During the placement the seat's observation carries `placement`: each piece's
// shape and its legal top-left cells per orientation. A drop is drawn from the shape, judged by
// the anchors, and sent as its parts (piece, top-left cell, the orientation's `choice`): a drop
// the anchors do not hold is sent too, so that the server names the rule it breaks. The page
// writes no notation.

import { el, byId } from './api.js';
import { t, tn, lang } from './i18n.js';
import { svgEl } from './svg.js';
import { seatLabel, seatWithName, botName } from './seats.js';
import { lastTouch } from './touch.js';
import { showLegend } from './legend.js';
import { runningSeats } from './clocks.js';

// ---- Cells and the board's drawing geometry --------------------------------------------------

const SIDE = 14;
const COLS = 'abcdefghijklmn';
/** Cell name of (row, col), both 0-based: (4, 12) is `m5`. */
export function cellName(r, c) {
  return `${COLS[c]}${r + 1}`;
}

/** `{r, c}` of a cell name, or null. */
export function parseCell(name) {
  const m = /^([a-n])(\d{1,2})$/.exec(name || '');
  if (!m) return null;
  const r = Number(m[2]) - 1;
  return r >= 0 && r < SIDE ? { r, c: COLS.indexOf(m[1]) } : null;
}

const clamp = (x, lo, hi) => Math.max(lo, Math.min(hi, x));

function rectCells(r0, c0, h, w) {
  const out = [];
  for (let r = r0; r < r0 + h; r++) for (let c = c0; c < c0 + w; c++) out.push(cellName(r, c));
  return out;
}

/** The bounding box `{r0, c0, h, w}` of a list of cell names. */
function bbox(cells) {
  const ps = cells.map(parseCell).filter(Boolean);
  const rs = ps.map((p) => p.r);
  const cs = ps.map((p) => p.c);
  const r0 = Math.min(...rs);
  const c0 = Math.min(...cs);
  return { r0, c0, h: Math.max(...rs) - r0 + 1, w: Math.max(...cs) - c0 + 1 };
}

/** The fleet's ships in importance order, as the observation gives them (`ships`). */
const fleetShips = () => ui.ctx?.state?.observation?.ships || [];
/** A piece that is not one of the fleet's ships is a buoy (the observation's `ships`). */
const isBuoy = (piece) => fleetShips().length > 0 && !fleetShips().includes(piece);

/** The placement choices of `piece` (`observation.placement`: its ways, each a shape and anchors), or null. */
const placementOf = (piece) => (ui.ctx?.state?.observation?.placement || []).find((p) => p.piece === piece) || null;

/** The way of `piece` along a column (`vertical`) or a row; a buoy's only way either way. */
function wayOf(piece, vertical) {
  const ways = placementOf(piece)?.ways || [];
  return ways.find((w) => (w.choice === 'v') === vertical) || ways[0] || null;
}

/** The cells on the board of a drop `{piece, vertical, r, c}`: the way's shape from (r, c). */
function footprint({ piece, vertical, r, c }) {
  const out = [];
  for (const [dr, dc] of wayOf(piece, vertical)?.shape || []) {
    const i = r + dr;
    const j = c + dc;
    if (i >= 0 && j >= 0 && i < SIDE && j < SIDE) out.push(cellName(i, j));
  }
  return out;
}

/** Whether two lists hold the same cell names. */
const sameCells = (a, b) => a.length === b.length && [...a].sort().join(' ') === [...b].sort().join(' ');

/** Whether the drop `d` is legal: its top-left cell is one of the way's anchors. */
function legalDrop(d) {
  const inBoard = d.r >= 0 && d.c >= 0 && d.r < SIDE && d.c < SIDE;
  return inBoard && (wayOf(d.piece, d.vertical)?.anchors || []).includes(cellName(d.r, d.c));
}

/** The parts of the placement action for the drop `d` (docs/protocol.md section 4.2). */
function placementParts(d) {
  const choice = wayOf(d.piece, d.vertical)?.choice;
  return { kind: 'place', piece: d.piece, to: cellName(d.r, d.c), ...(choice ? { choice } : {}) };
}

/** Whether a placement move is left: some piece has a legal top-left cell. */
const movesLeft = () => (ui.ctx?.state?.observation?.placement || []).some((p) => p.ways.some((w) => w.anchors.length));

/** Whether the placed piece `p` (`{piece, cells}`) lies along a column: the way whose shape covers its cells. */
function isVertical(p) {
  const box = bbox(p.cells);
  const way = (placementOf(p.piece)?.ways || []).find((w) => sameCells(footprint({ piece: p.piece, vertical: w.choice === 'v', r: box.r0, c: box.c0 }), p.cells));
  return way?.choice === 'v';
}

// ---- Page state -------------------------------------------------------------------------------

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
 *   from: string[] | null }} Drag
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
const ui = {
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

// ---- Reading the state ------------------------------------------------------------------------

/** The context of the last render: every handler runs after one. */
function ctx() {
  if (!ui.ctx) throw new Error('Bataille Navale used before its first render');
  return ui.ctx;
}

const obsOf = () => ctx().state.observation;
const me = () => obsOf().viewer;

function myBoard() {
  const v = me();
  return v === null || v === undefined ? null : obsOf().boards[v];
}

function phase() {
  return obsOf()?.phase || '';
}

/** It is this page's battle turn and the server waits for one of its ships. */
function myBattleTurn() {
  const obs = obsOf();
  return obs.phase === 'battle' && obs.viewer !== null && obs.current === obs.viewer && Boolean(obs.next_ship)
    && ctx().state.status === 'live';
}

function placing() {
  const b = myBoard();
  return phase() === 'placement' && b && !b.ready && ctx().state.status === 'live';
}


/** Milliseconds left on the running clock of `seat`, or null when it does not run. */
function remaining(seat) {
  const { state, stateAt = 0 } = ctx();
  if (seat === null || seat === undefined || !runningSeats(state).includes(seat)) return null;
  return state.clocks.remaining_ms[seat] - (performance.now() - stateAt);
}

/** Milliseconds left on this seat's running clock, or null when it does not run. */
const myRemaining = () => remaining(me());

const shipIndex = (ship) => fleetShips().indexOf(ship);
const sunkNames = (b) => new Set((b?.sunk || []).map((p) => p.piece));

/** The options of this seat's battle turn (`observation.options`), or null. */
const turnOptions = () => obsOf()?.options || null;

/** What `ship` may be given this turn (`options.ships[i]`), or null when it does not act. */
function shipOptions(ship) {
  return turnOptions()?.ships.find((o) => o.ship === ship) || null;
}

/** The options of `ship`'s special `ability`, or null when it has no such special. */
function specialOptions(ship, ability) {
  return shipOptions(ship)?.specials.find((x) => x.ability === ability) || null;
}

/** This seat's ships with what the panel shows about them. */
function myShips() {
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

const distance = (a, b) => Math.abs(a.r - b.r) + Math.abs(a.c - b.c);

/** The cells of an area `[rows, cols, aim_row, aim_col]` aimed at `aim`, kept on the board. */
function areaCells(area, aim) {
  const [h, w, oh, ow] = area;
  return rectCells(clamp(aim.r - oh, 0, SIDE - h), clamp(aim.c - ow, 0, SIDE - w), h, w);
}

/** The cells from `from` to `to` along a row or a column. */
function lineCells(from, to) {
  const out = [];
  const n = Math.max(Math.abs(to.r - from.r), Math.abs(to.c - from.c));
  for (let i = 0; i <= n; i++) {
    out.push(cellName(from.r + Math.sign(to.r - from.r) * i, from.c + Math.sign(to.c - from.c) * i));
  }
  return out;
}

/** The aimed group of a special in the orientation chosen (the only one when it has one). */
function aimedGroup(sp) {
  const groups = sp?.aimed || [];
  return groups.find((g) => g.vertical === ui.vertical) || groups[0] || null;
}

/** Whether a special may be aimed either way (the options list both orientations). */
const hasOrientation = (sp) => new Set((sp?.aimed || []).map((g) => g.vertical)).size > 1;

/**
 * An order's parts as the server takes them (`act` in parts, docs/protocol.md section 4.2), from
 * its description as `legal_info` gives it (`{kind, pieces, target, to, choice}`): always the same
 * keys in the same order, so that two descriptions of one order give the same JSON.
 */
export function orderParts(info) {
  const parts = { kind: info.kind, piece: info.pieces?.[0] };
  for (const key of ['target', 'to', 'choice']) if (info[key] != null) parts[key] = info[key];
  return parts;
}

const sameOrder = (a, b) => JSON.stringify(orderParts(a)) === JSON.stringify(orderParts(b));
const passInfo = (ship) => ({ kind: 'pass', pieces: [ship] });

/**
 * The order `ship` would get in mode `mode` aimed at (seat, r, c): `{info, cells, ok, seat, kind}`
 * (`info` the order's description, as `legal_info` gives it, when `ok`), or null when the mode
 * aims at nothing (pass). Everything comes from the turn's options: the open boards and cells for
 * a shot, the aims and the area of an aimed special (the aim whose area covers the pointer,
 * nearest to it), the lanes of a torpedo (of those through the pointer, the one entering nearest
 * to it), the targets of the EMP.
 */
function candidate(ship, mode, seat, r, c) {
  if (mode === 'pass') return null;
  const cell = cellName(r, c);
  const here = { r, c };
  const refused = (cells = [cell]) => ({ info: null, cells, ok: false, seat, kind: mode });
  const aimed = (cells, parts) => ({ cells, ok: true, seat, kind: mode, info: { kind: mode, pieces: [ship], target: seat, ...parts } });
  const options = turnOptions();
  const o = shipOptions(ship);
  if (!options || !o) return refused();
  if (mode === 'fire') {
    const open = options.fire.find((x) => x.target === seat)?.cells || [];
    const taken = options.distinct_fire_cells
      && [...ui.plan].some(([s, p]) => s !== ship && p.kind === 'fire' && p.seat === seat && p.cells[0] === cell);
    return o.fire.includes(seat) && open.includes(cell) && !taken ? aimed([cell], { to: cell }) : refused();
  }
  const sp = specialOptions(ship, mode);
  if (!sp) return refused();
  if (sp.emp) {
    const board = rectCells(0, 0, SIDE, SIDE);
    return sp.emp.includes(seat) ? aimed(board, {}) : refused(board);
  }
  if (sp.torpedo) {
    const tp = sp.torpedo.find((x) => x.target === seat);
    const through = (tp?.lanes || []).map((l) => ({ ...l, a: parseCell(l.from), b: parseCell(l.to) }))
      .filter(({ a, b }) => (a.r === b.r && a.r === r) || (a.c === b.c && a.c === c));
    if (!through.length) return refused();
    const lane = through.reduce((x, y) => (distance(y.a, here) < distance(x.a, here) ? y : x));
    const cells = lineCells(lane.a, lane.b);
    return aimed(cells, { to: lane.from, choice: lane.dir, cells });
  }
  const group = aimedGroup(sp);
  if (!group) return refused();
  let best = null;
  for (const name of group.aims) {
    const aim = parseCell(name);
    if (!aim || !areaCells(group.area, aim).includes(cell)) continue;
    if (!best || distance(aim, here) < distance(best.aim, here)) best = { name, aim };
  }
  if (!group.targets.includes(seat) || !best) return refused(areaCells(group.area, best?.aim || here));
  return aimed(areaCells(group.area, best.aim), { to: best.name, choice: group.choice });
}

// ---- Drawing ----------------------------------------------------------------------------------

const CELL = 24;
const LABEL = 16;
const HEAD = 24;
const PAD = 14;
const BW = LABEL + SIDE * CELL + PAD;
const BH = HEAD + LABEL + SIDE * CELL + PAD;
/** Cells a side of the window a phone shows while aiming: 9 of 14, so a cell is over 28 px wide. */
const ZOOM = 9;
/** Grid slot [column, row] of each seat: 0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left. */
const SLOT = [[0, 0], [1, 0], [1, 1], [0, 1]];

function origin(seat) {
  const [sx, sy] = SLOT[seat];
  return [sx * BW + LABEL, sy * BH + HEAD + LABEL];
}

/** The board and cell under SVG point (x, y): `{seat, r, c, inside}` or null (off every board). */
function locate(x, y, seat = null) {
  const seats = seat === null ? [0, 1, 2, 3] : [seat];
  for (const s of seats) {
    const [ox, oy] = origin(s);
    const c = Math.floor((x - ox) / CELL);
    const r = Math.floor((y - oy) / CELL);
    const inside = r >= 0 && r < SIDE && c >= 0 && c < SIDE;
    if (inside || seat !== null) return { seat: s, r, c, inside };
  }
  return null;
}

function svgPoint(svg, ev) {
  const pt = svg.createSVGPoint();
  pt.x = ev.clientX;
  pt.y = ev.clientY;
  const m = svg.getScreenCTM();
  return m ? pt.matrixTransform(m.inverse()) : { x: 0, y: 0 };
}

function cellRect(seat, name, cls, extra = {}) {
  const p = parseCell(name);
  if (!p) return null;
  const [ox, oy] = origin(seat);
  return svgEl('rect', { x: ox + p.c * CELL, y: oy + p.r * CELL, width: CELL, height: CELL, class: cls, ...extra });
}

function cellCentre(seat, name) {
  const p = parseCell(name);
  if (!p) throw new Error(`no cell ${name} on a Bataille Navale board`);
  const [ox, oy] = origin(seat);
  return [ox + p.c * CELL + CELL / 2, oy + p.r * CELL + CELL / 2];
}

/** A piece as a rounded bar over its cells, with its short name. */
function drawPiece(seat, piece, cells, cls, attrs = {}) {
  const [ox, oy] = origin(seat);
  const box = bbox(cells);
  const g = svgEl('g', { class: `nv-piece ${cls}`, 'data-piece': piece, 'data-cells': cells.join(' '), ...attrs });
  const x = ox + box.c0 * CELL + 2;
  const y = oy + box.r0 * CELL + 2;
  const w = box.w * CELL - 4;
  const h = box.h * CELL - 4;
  if (isBuoy(piece)) {
    g.append(svgEl('circle', { class: 'nv-body', cx: x + w / 2, cy: y + h / 2, r: CELL / 2 - 5 }));
  } else {
    g.append(svgEl('rect', { class: 'nv-body', x, y, width: w, height: h, rx: 7 }));
    const label = svgEl('text', { class: 'nv-label', x: x + w / 2, y: y + h / 2 });
    label.textContent = t(`nv.short.${piece}`);
    g.append(label);
  }
  const title = svgEl('title');
  title.textContent = t(`nv.ship.${isBuoy(piece) ? 'buoy' : piece}`);
  g.append(title);
  return g;
}

function drawMarks(seat, names, kind) {
  const g = svgEl('g', { class: `nv-marks ${kind}` });
  for (const name of names || []) {
    if (!parseCell(name)) continue;
    const [cx, cy] = cellCentre(seat, name);
    const attrs = { 'data-seat': seat, 'data-cell': name };
    if (kind === 'hit') {
      g.append(svgEl('path', { class: 'nv-hit', d: `M${cx - 6} ${cy - 6}L${cx + 6} ${cy + 6}M${cx + 6} ${cy - 6}L${cx - 6} ${cy + 6}`, ...attrs }));
    } else if (kind === 'miss') {
      g.append(svgEl('circle', { class: 'nv-miss', cx, cy, r: 3.5, ...attrs }));
    } else if (kind === 'deflected') {
      g.append(svgEl('path', { class: 'nv-deflected', d: `M${cx} ${cy - 7}L${cx + 7} ${cy}L${cx} ${cy + 7}L${cx - 7} ${cy}Z`, ...attrs }));
    } else if (kind === 'contact') {
      g.append(svgEl('circle', { class: 'nv-contact', cx, cy, r: 7, ...attrs }));
    } else if (kind === 'clear') {
      g.append(svgEl('circle', { class: 'nv-clear', cx, cy, r: 1.8, ...attrs }));
    } else if (kind === 'sunk-buoy') {
      g.append(svgEl('circle', { class: 'nv-sunk-buoy', cx, cy, r: 7, ...attrs }));
    }
  }
  return g;
}

/** The whole drawing of one seat's board as this viewer knows it. */
function drawBoard(seat) {
  const { state } = ctx();
  const obs = state.observation;
  const b = obs.boards[seat];
  const [ox, oy] = origin(seat);
  const own = obs.viewer === seat;
  const g = svgEl('g', { class: `nv-board nv-seat-${seat}${own ? ' own' : ''}${b.eliminated ? ' out' : ''}`, 'data-seat': seat });

  // Title: seat, player, statuses.
  const bits = [seatLabel(state.game, seat)];
  const info = state.seats.find((x) => x.seat === seat);
  if (info?.kind === 'bot') bits.push(botName(info.bot));
  else if (info?.player?.name) bits.push(own ? t('seat.you.named', { name: info.player.name }) : info.player.name);
  else if (own) bits.push(t('seat.you'));
  if (b.eliminated) bits.push(t('nv.out'));
  if (obs.phase === 'placement' || obs.phase === 'layout') bits.push(t(b.ready ? 'nv.ready.badge' : 'nv.placing'));
  if (b.emp_turns_left > 0) bits.push(tn('nv.emp.badge', b.emp_turns_left));
  else if (b.emp_immune) bits.push(t('nv.immune'));
  if (b.shield_up) bits.push(b.shield ? t('nv.shield.charges', { n: b.shield.charges }) : t('nv.shield.up'));
  const title = svgEl('text', { class: 'nv-title', x: ox, y: oy - LABEL - 8 });
  title.textContent = bits.join(' · ');
  g.append(title);
  for (let i = 0; i < SIDE; i++) {
    const col = svgEl('text', { class: 'coord', x: ox + i * CELL + CELL / 2, y: oy - 8 });
    col.textContent = COLS[i];
    const row = svgEl('text', { class: 'coord', x: ox - 9, y: oy + i * CELL + CELL / 2 });
    row.textContent = String(i + 1);
    g.append(col, row);
  }

  const cells = svgEl('g', { class: 'nv-cells' });
  for (let r = 0; r < SIDE; r++) {
    for (let c = 0; c < SIDE; c++) {
      cells.append(svgEl('rect', { class: 'nv-cell', x: ox + c * CELL, y: oy + r * CELL, width: CELL, height: CELL, 'data-seat': seat, 'data-cell': cellName(r, c) }));
    }
  }
  g.append(cells);

  const intel = b.intel;
  for (const name of intel?.scanned || []) g.append(cellRect(seat, name, 'nv-scanned'));
  for (const blk of b.blocks || []) {
    for (const name of blk.cells) g.append(cellRect(seat, name, `nv-block nv-owner-${blk.owner}`, { 'data-owner': blk.owner }));
  }
  if (b.shield) {
    const box = bbox(b.shield.cells);
    g.append(svgEl('rect', { class: 'nv-shield', x: ox + box.c0 * CELL + 1, y: oy + box.r0 * CELL + 1, width: box.w * CELL - 2, height: box.h * CELL - 2, rx: 6 }));
  }

  // Pieces: the whole fleet when the viewer may see it (own board, an eliminated board, the end),
  // else what is public (sunk ships, a revealed frigate) and the viewer's satellite finds.
  const sunk = sunkNames(b);
  if (b.fleet) {
    for (const p of b.fleet) {
      const moving = own && ui.moving?.piece === p.piece;
      if ((own && ui.drag?.piece === p.piece) || moving) continue;
      // While placing, the piece picked for tap to place is outlined.
      const picked = own && placing() && ui.selectedPiece === p.piece ? ' picked' : '';
      g.append(drawPiece(seat, p.piece, p.cells, `${own ? 'mine' : 'revealed'}${sunk.has(p.piece) ? ' sunk' : ''}${picked}`, { 'data-at': p.at }));
    }
    if (own && ui.moving) g.append(drawPiece(seat, ui.moving.piece, ui.moving.cells, 'mine moving'));
  } else {
    for (const p of b.sunk || []) g.append(drawPiece(seat, p.piece, p.cells, 'sunk', { 'data-at': p.at }));
    if (b.revealed_frigate && !sunk.has('frigate')) g.append(drawPiece(seat, 'frigate', b.revealed_frigate.cells, 'found'));
    for (const p of intel?.found || []) if (!sunk.has(p.piece)) g.append(drawPiece(seat, p.piece, p.cells, 'found'));
  }
  g.append(drawMarks(seat, [...(intel?.sonar || []), ...(intel?.radar || [])], 'contact'));
  g.append(drawMarks(seat, [...(b.torpedo_clear || []), ...(b.charges_clear || [])], 'clear'));
  g.append(drawMarks(seat, b.misses, 'miss'));
  g.append(drawMarks(seat, b.deflected, 'deflected'));
  // A sunk ship is drawn whole and dark, its name on it: crosses on its cells would hide the name.
  const sunkCells = new Set((b.sunk || []).flatMap((p) => p.cells));
  g.append(drawMarks(seat, (b.hits || []).filter((name) => !sunkCells.has(name)), 'hit'));
  g.append(drawMarks(seat, b.sunk_buoys, 'sunk-buoy'));
  // What the other fleets' turns since this seat's last did on this board stays framed, in the
  // shooter's colour, until the seat's next turn (the account below says it in words).
  for (const cell of recentCells(seat)) g.append(cellRect(seat, cell.name, `nv-recent nv-owner-stroke-${cell.by}`, { 'data-cell': cell.name, 'data-by': cell.by }));
  // The highlight fades out with a CSS animation; a redraw resumes it where it was, not from the start.
  const delay = `animation-delay:-${Math.round(performance.now() - ui.flashAt)}ms`;
  for (const f of ui.flash.values()) {
    if (f.seat === seat) g.append(cellRect(seat, f.cell, `nv-flash ${f.kind}`, { style: delay }));
  }
  for (const area of ui.areas.filter((a) => a.seat === seat)) {
    const box = bbox(area.cells);
    g.append(svgEl('rect', { class: 'nv-fx', x: ox + box.c0 * CELL, y: oy + box.r0 * CELL, width: box.w * CELL, height: box.h * CELL, rx: 4, style: delay }));
  }

  if (b.eliminated) {
    g.append(svgEl('rect', { class: 'nv-out', x: ox, y: oy, width: SIDE * CELL, height: SIDE * CELL }));
    const word = svgEl('text', { class: 'nv-out-text', x: ox + (SIDE * CELL) / 2, y: oy + (SIDE * CELL) / 2 });
    word.textContent = t('nv.out');
    g.append(word);
  }
  const acting = state.status === 'live' && state.to_act.includes(seat);
  g.append(svgEl('rect', { class: `nv-frame${acting ? ' to-act' : ''}${own ? ' own' : ''}`, x: ox, y: oy, width: SIDE * CELL, height: SIDE * CELL }));
  return g;
}

/** What follows the pointer: the dragged piece, the aimed area, the planned orders. */
function drawOverlay() {
  const g = svgEl('g', { class: 'nv-overlay', id: 'nv-overlay' });
  const svg = ctx().svg;
  delete svg.dataset.aim;
  delete svg.dataset.aimParts;
  const v = me();
  if (ui.drag && v !== null) {
    const d = ui.drag;
    const cells = footprint(d);
    const ok = legalDrop(d);
    if (cells.length) {
      g.append(drawPiece(v, d.piece, cells, `ghost ${ok ? 'ok' : 'bad'}`));
      for (const name of cells) g.append(cellRect(v, name, `nv-aim ${ok ? 'ok' : 'bad'}`));
    }
    svg.dataset.aim = ok ? 'ok' : 'bad';
  }
  if (myBattleTurn()) {
    for (const [ship, o] of ui.plan) {
      if (o.kind === 'fire') {
        const [cx, cy] = cellCentre(o.seat, o.cells[0]);
        g.append(svgEl('circle', { class: 'nv-planned fire', cx, cy, r: 9, 'data-ship': ship }));
      } else {
        const box = bbox(o.cells);
        const [ox, oy] = origin(o.seat);
        g.append(svgEl('rect', { class: 'nv-planned area', x: ox + box.c0 * CELL + 2, y: oy + box.r0 * CELL + 2, width: box.w * CELL - 4, height: box.h * CELL - 4, 'data-ship': ship }));
      }
    }
    // A finger's aim waits for its second tap; a mouse aims where it points.
    const hv = ui.aim || ui.hover;
    if (hv && ui.ship && !ui.firing) {
      const cand = candidate(ui.ship, ui.mode, hv.seat, hv.r, hv.c);
      if (cand) {
        for (const name of cand.cells) g.append(cellRect(hv.seat, name, `nv-aim ${cand.ok ? 'ok' : 'bad'}`));
        svg.dataset.aim = cand.ok ? 'ok' : 'bad';
        if (cand.info) svg.dataset.aimParts = JSON.stringify(orderParts(cand.info));
      }
    }
  }
  if (ui.zoom) g.append(zoomLabels(ui.zoom));
  return g;
}

/** The coordinates of the aiming window, along its top and left edges (the board's own are out of view). */
function zoomLabels({ seat, r0, c0, rows, cols }) {
  const [ox, oy] = origin(seat);
  const x0 = ox + c0 * CELL;
  const y0 = oy + r0 * CELL;
  const g = svgEl('g', { class: 'nv-zoom-labels' });
  g.append(svgEl('rect', { class: 'nv-zoom-strip', x: x0 - LABEL, y: y0 - LABEL, width: cols * CELL + LABEL + 2, height: LABEL }));
  g.append(svgEl('rect', { class: 'nv-zoom-strip', x: x0 - LABEL, y: y0 - LABEL, width: LABEL, height: rows * CELL + LABEL + 2 }));
  for (let i = 0; i < cols; i++) {
    const col = svgEl('text', { class: 'coord', x: x0 + i * CELL + CELL / 2, y: y0 - 7 });
    col.textContent = COLS[c0 + i];
    g.append(col);
  }
  for (let i = 0; i < rows; i++) {
    const row = svgEl('text', { class: 'coord', x: x0 - 8, y: y0 + i * CELL + CELL / 2 });
    row.textContent = String(r0 + i + 1);
    g.append(row);
  }
  return g;
}

/**
 * Shows a window of board `seat` around (r, c), kept inside the board: `ZOOM` rows, and as many
 * columns as the drawing's shape holds (so no other board shows in its margins).
 */
function zoomTo(seat, r, c) {
  const box = ctx().svg.getBoundingClientRect();
  const aspect = box.height > 0 ? box.width / box.height : 1;
  const rows = ZOOM;
  const cols = clamp(Math.round(((ZOOM * CELL + LABEL) * aspect - LABEL) / CELL), ZOOM, SIDE);
  ui.zoom = {
    seat, rows, cols,
    r0: clamp(r - Math.floor(rows / 2), 0, SIDE - rows),
    c0: clamp(c - Math.floor(cols / 2), 0, SIDE - cols),
  };
}

function redrawOverlay() {
  const svg = ctx().svg;
  const old = svg.querySelector('#nv-overlay');
  const fresh = drawOverlay();
  if (old) old.replaceWith(fresh);
  else svg.append(fresh);
}

/** A phone's screen: one board at a time, large enough to tap, chosen with tabs above it. */
const PHONE = window.matchMedia('(max-width: 600px)');
/** A touch screen (no right-click, no R key): the placement help says so. */
const COARSE = window.matchMedia('(pointer: coarse)');

/** The board a phone shows: the one picked, else the own board while placing, else the next fleet
 * afloat after the own one (the one most likely to be aimed at). */
function focusSeat() {
  const obs = obsOf();
  if (ui.focus !== null && ui.focus !== undefined) return ui.focus;
  const mine = me() ?? 0;
  if (phase() === 'placement') return mine;
  for (let k = 1; k < 4; k += 1) {
    const s = (mine + k) % 4;
    if (!obs.boards[s]?.eliminated) return s;
  }
  return mine;
}

/** The tabs that choose a phone's board, just above the boards (hidden on wider screens). */
function drawTabs(svg) {
  let tabs = document.getElementById('nv-tabs');
  if (!tabs) {
    tabs = el('div', { id: 'nv-tabs', class: 'nv-tabs', role: 'tablist' });
    svg.before(tabs);
  }
  const shown = focusSeat();
  const obs = obsOf();
  tabs.replaceChildren(...[0, 1, 2, 3].map((s) => el('button', {
    type: 'button', role: 'tab', class: `secondary nv-tab${obs.boards[s]?.eliminated ? ' out' : ''}`,
    'data-seat': s, 'aria-selected': String(s === shown),
    onclick: () => {
      ui.focus = s;
      drawAll();
    },
  }, s === me() ? t('nv.tab.own', { side: seatLabel('naval', s) }) : seatLabel('naval', s))));
  tabs.classList.toggle('hidden', !PHONE.matches);
}

function drawAll() {
  const svg = ctx().svg;
  if (ui.zoom && !(PHONE.matches && myBattleTurn() && ui.zoom.seat === focusSeat())) ui.zoom = null;
  if (ui.zoom) {
    // The aiming window: its cells and a strip for their coordinates (drawn by the overlay).
    const [ox, oy] = origin(ui.zoom.seat);
    const { r0, c0, rows, cols } = ui.zoom;
    svg.setAttribute('viewBox', `${ox + c0 * CELL - LABEL} ${oy + r0 * CELL - LABEL} ${cols * CELL + LABEL + 2} ${rows * CELL + LABEL + 2}`);
  } else if (PHONE.matches) {
    const [sx, sy] = SLOT[focusSeat()];
    svg.setAttribute('viewBox', `${sx * BW} ${sy * BH} ${BW} ${BH}`);
  } else {
    svg.setAttribute('viewBox', `0 0 ${2 * BW} ${2 * BH}`);
  }
  svg.dataset.zoom = ui.zoom ? `${ui.zoom.seat}:${cellName(ui.zoom.r0, ui.zoom.c0)}` : '';
  // The window fills the drawing (a sliver may be cut): no neighbouring cell shows beside it.
  svg.setAttribute('preserveAspectRatio', ui.zoom ? 'xMidYMid slice' : 'xMidYMid meet');
  drawTabs(svg);
  // While placing, a finger on the board drags a piece rather than scrolling the page.
  svg.setAttribute('class', `board naval${placing() ? ' placing' : ''}`);
  svg.setAttribute('role', 'group');
  svg.setAttribute('aria-label', t('nv.boards'));
  // A phone shows one board: only that one is drawn (the others would show in its margins).
  svg.replaceChildren(...(PHONE.matches ? [focusSeat()] : [0, 1, 2, 3]).map(drawBoard), drawOverlay());
}

/**
 * Draws the four boards read-only (the replay page): `state` = `{game, seats, status, to_act,
 * observation}` shaped like the match state, the observation a spectator's (`viewer: null`). No
 * pointer or key handlers are attached and no highlight of changed cells is drawn.
 */
export function renderNavalBoards(svg, state) {
  ui.ctx = { svg, state };
  ui.flash = new Map();
  ui.areas = [];
  drawAll();
}

/**
 * One board drawn alone as an example (the how-to page): `board` holds the markers of a board's
 * view (`hits`, `misses`, `deflected`, `sunk`, `blocks`, `shield`, as the observation's boards);
 * `areas` are rectangles to outline, `[{from, to, cls}]` (corner cells). Draws with the page's own
 * board drawing, seen by a spectator.
 */
export function renderNavalExample(svg, board, areas = []) {
  const empty = { hits: [], misses: [], deflected: [], sunk: [], sunk_buoys: [], blocks: [], shield: null, fleet: null };
  const boards = [0, 1, 2, 3].map((seat) => ({ ...empty, seat, ...(seat === 0 ? board : {}) }));
  ui.ctx = {
    svg,
    state: {
      game: 'naval', status: 'finished', to_act: [], seats: [],
      // The pieces drawn are ships (no buoy in an example).
      observation: { viewer: null, phase: 'battle', ships: (board.sunk || []).map((p) => p.piece), boards },
    },
  };
  ui.flash = new Map();
  ui.areas = [];
  const [ox, oy] = origin(0);
  svg.setAttribute('viewBox', `${ox - LABEL} ${oy - LABEL} ${SIDE * CELL + LABEL + 2} ${SIDE * CELL + LABEL + 2}`);
  svg.setAttribute('class', 'naval nv-example');
  svg.replaceChildren(drawBoard(0), ...areas.map((a) => {
    const box = bbox([a.from, a.to]);
    return svgEl('rect', { class: `nv-planned area ${a.cls || ''}`, x: ox + box.c0 * CELL + 1, y: oy + box.r0 * CELL + 1, width: box.w * CELL - 2, height: box.h * CELL - 2 });
  }));
}

// ---- Pointer and keys -------------------------------------------------------------------------

/** The own piece covering (r, c), or null. */
function pieceAt(r, c) {
  const b = myBoard();
  const name = cellName(r, c);
  return (b?.fleet || []).find((p) => p.cells.includes(name)) || null;
}

function onPointerDown(ev) {
  if (ev.button !== 0 || !placing() || !ctx().canAct) return;
  const pt = svgPoint(ctx().svg, ev);
  const at = locate(pt.x, pt.y);
  if (!at || at.seat !== me()) return;
  // The pieces' shapes and anchors come with the seat's observation while it places.
  if (!(ctx().state.observation?.placement || []).length) return;
  const p = pieceAt(at.r, at.c);
  if (!p) {
    // Tap to place: with a piece picked, a tap on free water puts its top-left cell there.
    if (at.inside && ui.selectedPiece) placeSelectedAt(at.r, at.c);
    return;
  }
  ev.preventDefault();
  const box = bbox(p.cells);
  ui.drag = {
    piece: p.piece, vertical: isVertical(p), offR: at.r - box.r0, offC: at.c - box.c0, r: box.r0, c: box.c0, from: p.cells,
  };
  ui.pickedUp = true;
  ui.selectedPiece = p.piece;
  ui.message = '';
  ctx().svg.setPointerCapture?.(ev.pointerId);
  drawAll();
  renderPanel();
}

function onPointerMove(ev) {
  const pt = svgPoint(ctx().svg, ev);
  if (ui.drag) {
    // Given a seat, `locate` always answers (a cell off the board too).
    const at = /** @type {NonNullable<ReturnType<typeof locate>>} */ (locate(pt.x, pt.y, me()));
    const r = at.r - ui.drag.offR;
    const c = at.c - ui.drag.offC;
    if (r !== ui.drag.r || c !== ui.drag.c) {
      ui.drag.r = r;
      ui.drag.c = c;
      redrawOverlay();
    }
    return;
  }
  const at = locate(pt.x, pt.y);
  const hv = at ? { seat: at.seat, r: at.r, c: at.c } : null;
  if (JSON.stringify(hv) !== JSON.stringify(ui.hover)) {
    ui.hover = hv;
    if (myBattleTurn()) redrawOverlay();
  }
}

function onPointerUp() {
  const d = ui.drag;
  if (!d) return;
  ui.drag = null;
  const inBoard = d.r >= 0 && d.c >= 0 && d.r < SIDE && d.c < SIDE;
  const parts = inBoard ? placementParts(d) : null;
  const still = sameCells(footprint(d), d.from);
  // A double-click turns the piece. It is recognised here rather than by the browser's dblclick,
  // which the redraw between the two clicks can swallow.
  const now = performance.now();
  const second = still && ui.lastPress?.piece === d.piece && now - ui.lastPress.at < 450;
  ui.lastPress = still && !second ? { piece: d.piece, at: now } : null;
  drawAll();
  if (!parts) ui.message = t('nv.offboard');
  else if (second) rotatePiece(d.piece);
  else if (!still) sendPlacement(parts, d);
  renderPanel();
}

/** Why the anchors refuse the drop `d`, in words: past the edge, on another piece, or no move left. */
function refusal(d) {
  if (footprint(d).length < (wayOf(d.piece, d.vertical)?.shape || []).length) return t('nv.refused.edge');
  const taken = new Set((myBoard()?.fleet || []).filter((p) => p.piece !== d.piece).flatMap((p) => p.cells));
  if (footprint(d).some((cell) => taken.has(cell))) return t('nv.refused.overlap');
  return t('nv.refused.moves');
}

/**
 * Sends a placement in parts (`placementParts`). A drop the anchors refuse is not sent: the piece
 * stays where it was and the reason is shown in words. Until the server answers a sent one, the
 * piece is drawn where it was dropped.
 */
function sendPlacement(parts, d) {
  if (!ctx().canAct) return;
  if (!legalDrop(d)) {
    ui.message = refusal(d);
    ui.moving = null;
    drawAll();
    renderPanel();
    return;
  }
  ui.moving = { piece: d.piece, cells: footprint(d), moves: myBoard()?.moves };
  ui.sentPlacement = parts;
  ctx().play?.(parts);
}

/** Moves the picked piece so that its top-left cell is (r, c), keeping its orientation. */
function placeSelectedAt(r, c) {
  const p = (myBoard()?.fleet || []).find((x) => x.piece === ui.selectedPiece);
  if (!p || !placing() || !ctx().canAct) return;
  const d = { piece: p.piece, vertical: isVertical(p), r, c };
  sendPlacement(placementParts(d), d);
}

/** Rotates a placed piece a quarter turn about its top-left cell. */
function rotatePiece(name) {
  const p = (myBoard()?.fleet || []).find((x) => x.piece === name);
  // A piece with one way (a buoy) has nothing to turn.
  if (!p || (placementOf(p.piece)?.ways || []).length < 2 || !placing() || !ctx().canAct) return;
  const box = bbox(p.cells);
  const d = { piece: p.piece, vertical: !isVertical(p), r: box.r0, c: box.c0 };
  ui.pickedUp = true;
  ui.selectedPiece = p.piece;
  sendPlacement(placementParts(d), d);
}

function pieceUnderPointer(ev) {
  const pt = svgPoint(ctx().svg, ev);
  const at = locate(pt.x, pt.y);
  return at && at.seat === me() ? pieceAt(at.r, at.c) : null;
}

/**
 * A click or a tap on the boards during this seat's battle turn. A tap on one of its own ships
 * (not while aiming a shield) picks that ship. Otherwise it aims the picked ship's order: a mouse
 * plans it at once (its hover showed it); a finger's first tap shows the aim (on a phone, in a
 * window of the board large enough to tap), the second tap on the same cell plans it.
 */
function onClick(ev) {
  if (!myBattleTurn() || ui.firing || !ctx().canAct || !ui.ship) return;
  const pt = svgPoint(ctx().svg, ev);
  const at = locate(pt.x, pt.y);
  if (!at?.inside) return;
  const own = at.seat === me() ? pieceAt(at.r, at.c) : null;
  if (own && ui.mode !== 'shield' && myShips().some((s) => s.name === own.piece && s.open)) {
    pickShip(own.piece);
    return;
  }
  const touch = lastTouch();
  if (touch && !(ui.aim && ui.aim.seat === at.seat && ui.aim.r === at.r && ui.aim.c === at.c)) {
    if (PHONE.matches && !ui.zoom) zoomTo(at.seat, at.r, at.c);
    ui.aim = { seat: at.seat, r: at.r, c: at.c };
    const cand = candidate(ui.ship, ui.mode, at.seat, at.r, at.c);
    ui.message = cand?.ok ? t('nv.aim.confirm') : '';
    drawAll();
    renderPanel();
    return;
  }
  const cand = candidate(ui.ship, ui.mode, at.seat, at.r, at.c);
  if (!cand || !cand.ok) return;
  ui.aim = null;
  ui.plan.set(ui.ship, cand);
  ui.message = '';
  // On to the next ship without an order, so a plan is a few clicks.
  const open = myShips().filter((s) => s.open && !ui.plan.has(s.name));
  if (open.length) {
    ui.ship = open[0].name;
    ui.mode = 'fire';
  }
  drawAll();
  renderPanel();
}

/** Picks `ship` to give its order (from the row of ships, or a tap on it on the own board). */
function pickShip(ship) {
  ui.ship = ship;
  ui.mode = 'fire';
  ui.aim = null;
  ui.message = '';
  drawAll();
  renderPanel();
}

function onKey(ev) {
  if (!ui.ctx || ['INPUT', 'SELECT', 'TEXTAREA'].includes(ev.target?.tagName)) return;
  if (ev.key === 'r' || ev.key === 'R') {
    if (ui.drag && (placementOf(ui.drag.piece)?.ways || []).length > 1) {
      ui.drag.vertical = !ui.drag.vertical;
      // Keep the grabbed cell inside the turned shape.
      const shape = wayOf(ui.drag.piece, ui.drag.vertical)?.shape || [[0, 0]];
      ui.drag.offR = Math.min(ui.drag.offR, Math.max(...shape.map(([dr]) => dr)));
      ui.drag.offC = Math.min(ui.drag.offC, Math.max(...shape.map(([, dc]) => dc)));
      ui.pickedUp = true;
      redrawOverlay();
    } else if (placing() && ui.selectedPiece) rotatePiece(ui.selectedPiece);
    else if (myBattleTurn() && hasOrientation(specialOptions(ui.ship, ui.mode))) {
      ui.vertical = !ui.vertical;
      redrawOverlay();
      renderPanel();
    }
  } else if (ev.key === 'Escape' && ui.drag) {
    ui.drag = null;
    drawAll();
  }
}

function attach(svg) {
  if (ui.attached === svg) return;
  ui.attached = svg;
  PHONE.addEventListener('change', () => drawAll());
  svg.addEventListener('pointerdown', onPointerDown);
  svg.addEventListener('pointermove', onPointerMove);
  svg.addEventListener('pointerup', onPointerUp);
  svg.addEventListener('pointercancel', () => {
    ui.drag = null;
    drawAll();
  });
  svg.addEventListener('pointerleave', () => {
    if (ui.hover && !ui.drag) {
      ui.hover = null;
      redrawOverlay();
    }
  });
  svg.addEventListener('click', onClick);
  svg.addEventListener('contextmenu', (ev) => {
    // Right click rotates, as in the original game (section 4.4).
    const p = placing() ? pieceUnderPointer(ev) : null;
    if (!p) return;
    ev.preventDefault();
    rotatePiece(p.piece);
  });
  document.addEventListener('keydown', onKey);
}

// ---- Following the game: announcements, highlights, the plan -----------------------------------

/**
 * A torpedo lane in words ("rightwards along 5"), from its cells in travel order (an order's
 * `cells`): the row or column it runs along and the way it goes.
 */
function laneWords(cells) {
  const a = parseCell(cells?.[0]);
  const b = parseCell(cells?.[cells.length - 1]);
  if (!a || !b) return '';
  const dir = a.r === b.r ? (b.c >= a.c ? 'right' : 'left') : (b.r >= a.r ? 'down' : 'up');
  const n = a.r === b.r ? String(a.r + 1) : COLS[a.c].toUpperCase();
  return t('nv.lane', { dir: t(`nv.dir.${dir}`), n });
}

/**
 * Words for an order from its parts (docs/protocol.md section 4.1: `kind`, the ship in `pieces`,
 * `target`, `to`, `cells`), as an announcement (`info`), a logged order, a given one (`plan_info`)
 * or a planned one carry them, e.g. "cruiser: heavy artillery on Seat 2 (f7)". Null for parts
 * that are no order (a placement, `ready`).
 */
export function describeOrder(info, game = 'naval') {
  const ship = info?.pieces?.[0];
  if (!ship || ['place', 'layout', 'ready'].includes(info.kind)) return null;
  const words = { ship: t(`nv.ship.${ship}`), seat: info.target == null ? '' : seatLabel(game, info.target) };
  switch (info.kind) {
    case 'pass': return t('nv.say.pass', words);
    case 'fire': return t('nv.say.fire', { ...words, cell: info.to });
    case 'emp': return t('nv.say.emp', words);
    case 'shield': return info.to ? t('nv.say.shield.at', { ...words, cell: info.to }) : t('nv.say.shield', words);
    case 'torpedo': return t('nv.say.torpedo', { ...words, lane: laneWords(info.cells) });
    default: return t('nv.say.special', { ...words, ability: t(`nv.ab.${info.kind}`), cell: info.to });
  }
}

/**
 * Words for any step of a Bataille Navale move list from its parts: a layout draw or a placement
 * move ("aircraft carrier → i7 (horizontal)"), `ready`, the first player, a rocket's draw, else
 * the order (`describeOrder`). Null without parts.
 */
export function describeStep(info, game = 'naval') {
  const piece = info?.pieces?.[0];
  const way = info?.choice === 'h' || info?.choice === 'v' ? t(`nv.way.${info.choice}`) : '';
  switch (info?.kind) {
    case 'layout':
    case 'place':
      // A ship's placement has an orientation, a buoy's none.
      return piece ? t('nv.say.placed', { ship: t(`nv.ship.${way ? piece : 'buoy'}`), cell: info.to, way }) : null;
    case 'ready': return t('nv.ready');
    case 'first': return t('nv.say.first', { seat: seatLabel(game, info.target) });
    case 'rocket': return t(`nv.say.rocket.${info.choice === 'shot' ? 'shot' : 'spared'}`, { cell: info.to });
    default: return describeOrder(info, game);
  }
}

/** An announcement's result in words (empty when the order was simply done). */
function describeResult(a) {
  if (!a.result || a.result === 'done') return '';
  if (a.exploded_at) return t('nv.res.exploded', { cell: a.exploded_at });
  return t(`nv.res.${a.result}`);
}

/** New announcements (section 13: every resolved order is public) and changed cells. */
function follow(state) {
  const obs = state.observation;
  const list = obs.last_turn || [];
  const prev = ui.lastTurn;
  const same = (a, b) => a.seat === b.seat && a.order === b.order && a.result === b.result;
  // While a turn resolves (rocket draws) its list grows: only the tail is new.
  const continues = prev && prev.length <= list.length && prev.every((a, i) => same(a, list[i]));
  const fresh = continues ? list.slice(prev.length) : list;
  if (prev === null) {
    // The first state: the log starts with the turns the observation keeps.
    if (!ui.log.length) for (const turn of [...(obs.earlier_turns || []), list]) ui.log.push(...turn);
  } else {
    // A salvo adds markers to its announcement as its rockets fall: the logged copy follows.
    if (continues && prev.length) ui.log.splice(ui.log.length - prev.length, prev.length, ...list.slice(0, prev.length));
    ui.log.push(...fresh);
  }
  if (ui.log.length > 300) ui.log.splice(0, ui.log.length - 300);
  ui.lastTurn = list;

  const boards = obs.boards.map((b) => ({
    hits: new Set(b.hits), misses: new Set(b.misses), deflected: new Set(b.deflected),
    sunk: new Set((b.sunk || []).flatMap((p) => p.cells)),
  }));
  const prevBoards = ui.prevBoards;
  if (prevBoards) {
    const changed = new Map();
    boards.forEach((now, seat) => {
      const was = prevBoards[seat];
      for (const kind of ['sunk', 'hits', 'misses', 'deflected']) {
        for (const cell of now[kind]) if (!was[kind].has(cell) && !changed.has(`${seat} ${cell}`)) changed.set(`${seat} ${cell}`, { seat, cell, kind });
      }
    });
    const areas = fresh.map(specialArea).filter(Boolean);
    if (changed.size || areas.length) {
      ui.flash = changed;
      ui.areas = areas;
      ui.flashAt = performance.now();
      clearTimeout(ui.flashTimer);
      ui.flashTimer = setTimeout(() => {
        ui.flash = new Map();
        ui.areas = [];
        if (ui.ctx) drawAll();
      }, 2400);
    }
  }
  ui.prevBoards = boards;
}

/**
 * Where an announced special struck, to outline it for a moment: `{seat, cells}` from the
 * announcement's `area` (its rectangle's corners), or null for an order without one (a shot, a
 * pass, a shield, whose outline the board shows to whom may see it).
 */
function specialArea(a) {
  const from = parseCell(a.area?.from);
  const to = parseCell(a.area?.to);
  return from && to ? { seat: a.area.target, cells: [a.area.from, a.area.to] } : null;
}

/** Where the plan of this turn is kept in the tab, so a reload does not lose it. */
const planKey = () => `plateau.naval.plan.${ctx().state.id}`;

function storedPlan(turn) {
  try {
    const saved = JSON.parse(sessionStorage.getItem(planKey()) || 'null');
    // Only entries with their parts: a plan kept by an older page is dropped.
    return saved?.turn === turn && Array.isArray(saved.plan) ? saved.plan.filter(([, p]) => p?.info) : [];
  } catch {
    return [];
  }
}

function savePlan() {
  if (ui.turnKey) sessionStorage.setItem(planKey(), JSON.stringify({ turn: ui.turnKey, plan: [...ui.plan] }));
}

/** Starts a fresh plan when a new turn of this seat begins (or the one kept before a reload). */
function syncTurn() {
  const obs = obsOf();
  const key = myBattleTurn() ? `${obs.rounds}:${obs.current}` : null;
  if (key === ui.turnKey) return;
  ui.turnKey = key;
  ui.plan = new Map(key ? storedPlan(key) : []);
  ui.firing = false;
  ui.whole = false;
  ui.autoFired = false;
  // A new turn of mine starts clean: the last turn's note (e.g. the clock fired it) is history.
  if (key) ui.message = '';
  ui.mode = 'fire';
  ui.vertical = false;
  ui.aim = null;
  ui.zoom = null;
  // A plan kept over a reload may already give orders: the first ship still without one is picked.
  const open = key ? myShips().filter((s) => s.open && !ui.plan.has(s.name)) : [];
  ui.ship = key ? (open[0]?.name ?? obs.next_ship) : null;
}

/** Fire, one order per state in ship order (ships without an order pass): what the page falls
 * back to when the server refused the whole turn, so that it names the order it refuses. */
function fireStep() {
  if (!ui.firing || ui.whole || !ui.ctx) return;
  if (!myBattleTurn()) {
    ui.firing = false;
    return;
  }
  if (!ctx().canAct) return;
  const ship = obsOf().next_ship;
  const info = ui.plan.get(ship)?.info || passInfo(ship);
  if (!(ctx().state.legal_info || []).some((x) => sameOrder(x, info))) {
    // Only when the plan was made on an older state (one kept over a reload): stop and let the
    // player choose.
    ui.firing = false;
    ui.plan.delete(ship);
    ui.ship = ship;
    ui.message = t('nv.refused', { order: describeOrder(info, ctx().state.game) });
    ctx().render?.();
    return;
  }
  ctx().play?.(orderParts(info));
}

function startFiring() {
  if (!myBattleTurn() || ui.firing) return;
  ui.firing = true;
  // A function, so the note follows a change of language.
  ui.message = ui.autoFired ? () => t('nv.autofire') : '';
  renderPanel();
  // The whole turn leaves as one message, played all or nothing (docs/protocol.md section 4.2):
  // every ship still to act, in the order the server asks for them, its planned order or a pass.
  ui.whole = true;
  const turn = myShips().filter((s) => s.open).map((s) => orderParts(ui.plan.get(s.name)?.info || passInfo(s.name)));
  ctx().play?.(turn);
}

/** In a first game: what to do now (place, aim, or wait for the others), in words. */
export function hint() {
  if (!ui.ctx?.state?.observation) return '';
  if (placing()) return t('learn.nv.place');
  return t(myBattleTurn() ? 'learn.nv.aim' : 'learn.nv.wait');
}

/**
 * The server refused the last action: a refused drop snaps back, a plan being fired stops. The
 * reason stays in the naval panel until the next action (the page's error box is cleared by the
 * next state, which the other seats' simultaneous placement brings at once).
 */
export function onServerError(msg) {
  const sent = ui.sentPlacement;
  ui.sentPlacement = null;
  if (msg?.code === 'action/stale' && sent && placing()) {
    // Another seat's move got in first: the drop still stands, send it again once.
    ui.resending = true;
    setTimeout(() => {
      ui.resending = false;
      if (ctx().canAct && placing()) ctx().play?.(sent);
      else {
        ui.moving = null;
        drawAll();
      }
    }, 0);
    return;
  }
  ui.moving = null;
  if (ui.firing && ui.whole) {
    // The whole turn was refused, so nothing of it was played: send it order by order, and the
    // order the server refuses is named to the player.
    ui.whole = false;
    setTimeout(fireStep, 0);
    return;
  }
  ui.firing = false;
  if (msg?.code !== 'action/stale') ui.message = msg?.message || '';
}

/**
 * Called about ten times a second (the page's clock tick): counts the own clock down and, when it
 * is about to run out during a battle turn, fires the plan as it stands (section 5.10), so the
 * planned orders are not lost to the server's timeout, which would pass every remaining ship.
 */
export function tick(ctx) {
  if (ctx.state?.game !== 'naval' || !ui.ctx) return;
  ui.ctx = { ...ui.ctx, ...ctx };
  const ms = myRemaining();
  // The own clock while it runs, else the clock of the seat playing (whose turn it is, in time).
  const shown = ms ?? remaining(runningSeats(ctx().state)[0]);
  const box = document.getElementById('nv-countdown');
  if (box) {
    box.textContent = shown === null ? '' : t('nv.countdown', { s: (Math.max(0, shown) / 1000).toFixed(1) });
    box.classList.toggle('low', ms !== null && ms < 10000);
  }
  if (ms !== null && ms <= 1500 && myBattleTurn() && !ui.firing && ctx().canAct) {
    ui.autoFired = true;
    startFiring();
  }
}

// ---- The side panel ---------------------------------------------------------------------------

function button(id, text, onclick, attrs = {}) {
  return el('button', { type: 'button', id, onclick, ...attrs }, text);
}

function placementControls() {
  const b = myBoard();
  const max = ctx().config?.placement_moves;
  const left = movesLeft();
  return el('div', { class: 'nv-controls' },
    el('p', { class: 'small' }, t(COARSE.matches ? 'nv.help.placement.touch' : 'nv.help.placement')),
    b?.moves !== null && b?.moves !== undefined
      ? el('p', { class: 'muted small', id: 'nv-moves' }, max ? t('nv.moves.max', { n: b.moves, max }) : t('nv.moves', { n: b.moves }))
      : '',
    left ? '' : el('p', { class: 'small' }, t('nv.moves.done')),
    el('div', { class: 'chips' },
      button('nv-rotate', t('nv.rotate'), () => ui.selectedPiece && rotatePiece(ui.selectedPiece), {
        class: 'secondary', disabled: !ui.selectedPiece || !ctx().canAct || !left,
      }),
      // Rule 4.5: Ready only once a piece was picked up (a move made counts, after a reload).
      button('nv-ready', t('nv.ready'), () => {
        ui.sentPlacement = 'ready';
        ctx().play?.({ kind: 'ready' });
      }, {
        disabled: !ctx().canAct || !(ui.pickedUp || (b?.moves || 0) > 0),
      })));
}

/**
 * One ship of the fleet in the row of ships: its name (short on a phone: the legend says what
 * CV, CR... stand for), its energy and its order this turn. A press picks it to give its order.
 */
function shipRow(s) {
  const planned = ui.plan.get(s.name);
  let what;
  if (s.sunk) what = t('nv.sunk');
  else if (s.given) what = t('nv.sent', { order: describeOrder(s.given) });
  else if (!myBattleTurn()) what = '';
  else if (planned) what = describeOrder(planned.info);
  else what = t('nv.pass.default');
  const b = myBoard();
  const disabled = b?.emp_turns_left > 0 && !s.sunk;
  const pct = Math.round((s.energy / 1000) * 100);
  const state = s.sunk ? 'sunk' : planned && planned.kind !== 'pass' ? 'planned' : planned ? 'passes' : '';
  return el('button', {
    type: 'button', class: `nv-ship${ui.ship === s.name && s.open ? ' selected' : ''}${s.sunk ? ' sunk' : ''}`,
    'data-ship': s.name, 'data-energy': s.energy, 'data-state': state,
    'data-order': planned || s.given ? JSON.stringify(orderParts(planned?.info || s.given)) : '',
    'aria-label': `${t(`nv.ship.${s.name}`)}: ${what}`,
    disabled: !s.open || Boolean(s.given) || ui.firing,
    onclick: () => pickShip(s.name),
  },
  el('span', { class: 'nv-ship-name' }, el('span', { class: 'nv-long' }, t(`nv.ship.${s.name}`)),
    el('span', { class: 'nv-short' }, t(`nv.short.${s.name}`)), disabled ? ` · ${t('nv.disabled')}` : ''),
  el('span', { class: 'nv-energy', title: t('nv.energy', { n: s.energy }) },
    el('span', { class: 'nv-energy-bar', style: `width:${s.sunk ? 0 : pct}%` }), el('span', { class: 'nv-energy-num' }, s.sunk ? '—' : String(s.energy))),
  el('span', { class: 'nv-ship-order small' }, what));
}

/** The pass chip's words, with the energy a pass brings when the match's config is known (section 8). */
function passLabel() {
  const gain = ctx().config?.gains?.pass;
  return gain === undefined ? t('nv.mode.pass.plain') : t('nv.mode.pass', { n: gain });
}

function modeChips() {
  const ship = ui.ship;
  if (!ship || !myBattleTurn() || ui.firing) return '';
  const energy = myBoard()?.energy?.[shipIndex(ship)] ?? 0;
  const chip = (mode, label, disabled, title) => el('button', {
    type: 'button', class: `chip nv-mode${ui.mode === mode ? ' selected' : ''}`, 'data-mode': mode, disabled, title,
    onclick: () => {
      ui.aim = null;
      if (mode === 'pass') {
        ui.plan.set(ship, { cells: [], seat: null, kind: 'pass', info: passInfo(ship) });
        const open = myShips().filter((s) => s.open && !ui.plan.has(s.name));
        if (open.length) ui.ship = open[0].name;
        ui.mode = 'fire';
      } else ui.mode = mode;
      renderPanel();
      drawAll();
    },
  }, label);
  // The ship's specials, their costs and whether they are open: all from the turn's options.
  const specials = (shipOptions(ship)?.specials || []).map((sp) => chip(sp.ability,
    `${t(`nv.ab.${sp.ability}`)} (${sp.cost})`, !sp.open, t('nv.cost', { cost: sp.cost, energy })));
  return el('div', { class: 'nv-modes' },
    el('h3', {}, t('nv.orders.for', { ship: t(`nv.ship.${ship}`) }), ' ', el('span', { class: 'muted small' }, t('nv.energy', { n: energy }))),
    el('div', { class: 'chips' }, chip('fire', t('nv.mode.fire'), false), ...specials, chip('pass', passLabel(), false)),
    hasOrientation(specialOptions(ship, ui.mode))
      ? el('p', { class: 'small' }, button('nv-orient', t(ui.vertical ? 'nv.orient.v' : 'nv.orient.h'), () => {
        ui.vertical = !ui.vertical;
        renderPanel();
        redrawOverlay();
      }, { class: 'secondary' }), ' ', t('nv.orient.help'))
      : '',
    el('p', { class: 'muted small nv-help' }, lastTouch() ? t('nv.aim.tap') : t(`nv.help.${helpKey(ship, ui.mode)}`, { n: ctx().config?.emp_turns ?? 2 })));
}

/** Which hint fits the chosen mode: the aimed area specials share one. */
function helpKey(ship, mode) {
  if (!specialOptions(ship, mode)) return 'fire';
  return ['emp', 'shield', 'torpedo'].includes(mode) ? mode : 'area';
}

function battleControls() {
  const mine = myBattleTurn();
  const ships = myShips();
  return el('div', { class: 'nv-controls' },
    el('h3', {}, t('nv.fleet')),
    el('div', { class: 'nv-ships', id: 'nv-ships', role: 'group', 'aria-label': t('nv.ships.row') }, ...ships.map(shipRow)),
    mine ? modeChips() : '',
    mine ? el('div', { class: 'chips nv-fire-row' },
      ui.zoom ? button('nv-zoom-out', t('nv.zoom.out'), () => {
        ui.zoom = null;
        ui.aim = null;
        drawAll();
        renderPanel();
      }, { class: 'secondary' }) : '',
      button('nv-clear', t('nv.clear'), () => {
        ui.plan = new Map();
        ui.ship = obsOf().next_ship;
        ui.mode = 'fire';
        drawAll();
        renderPanel();
      }, { class: 'secondary', disabled: ui.firing || ui.plan.size === 0 }),
      button('nv-fire', t('nv.fire'), startFiring, { disabled: ui.firing || !ctx().canAct })) : '');
}

function seatList() {
  const { state } = ctx();
  const obs = state.observation;
  return el('div', { class: 'nv-seats' }, ...state.seats.map(({ seat }) => {
    const b = obs.boards[seat];
    const toAct = state.status === 'live' && state.to_act.includes(seat);
    return el('div', { class: `nv-seat-row${toAct ? ' to-act' : ''}${b.eliminated ? ' out' : ''}`, 'data-seat': seat },
      el('span', { class: `swatch nv-swatch-${seat}` }),
      el('span', { class: 'player-name', 'data-seat': seat },
        seatWithName(state.game, seat, state.seats.find((x) => x.seat === seat)?.player)),
      b.eliminated ? el('span', { class: 'nv-badge out' }, t('nv.out')) : '',
      b.emp_turns_left > 0 ? el('span', { class: 'nv-badge emp' }, tn('nv.emp.badge', b.emp_turns_left)) : '',
      b.shield_up ? el('span', { class: 'nv-badge shield' }, b.shield ? t('nv.shield.charges', { n: b.shield.charges }) : t('nv.shield.up')) : '',
      el('span', { class: 'clock', id: `clock-${seat}`, role: 'timer' }, ''));
  }));
}

function logList() {
  const game = ctx().state.game;
  return el('ol', { class: 'nv-log small', id: 'nv-log' }, ...ui.log.map((a) => el('li', { 'data-seat': a.seat, 'data-order': a.order },
    el('span', { class: `swatch nv-swatch-${a.seat}` }), ' ',
    el('span', {}, t('nv.log.line', { fleet: seatLabel(game, a.seat), order: orderWords(a) || a.order })),
    resultWords(a) ? el('span', { class: 'muted' }, `: ${resultWords(a)}`) : '')));
}

// ---- The account of the turns since this seat's last ----------------------------------------------

/** The own piece on cell `name` of the viewer's board (its fleet is in its observation), or null. */
function ownPieceOn(name) {
  return (myBoard()?.fleet || []).find((p) => p.cells.includes(name))?.piece ?? null;
}

/** A piece as the account names it: a ship by its name, any buoy as "buoy". */
const pieceWords = (piece) => t(`nv.ship.${isBuoy(piece) ? 'buoy' : piece}`);

/**
 * An announced order in words, "your" when it was aimed at the viewer's own board: "cruiser:
 * shot at Fleet 2 f7", "carrier: shot at your h9".
 */
function orderWords(a) {
  const info = a.info;
  const ship = info?.pieces?.[0];
  if (!ship || info.target == null || info.target !== me() || a.seat === me()) return describeOrder(info);
  const words = { ship: t(`nv.ship.${ship}`), cell: info.to };
  switch (info.kind) {
    case 'fire': return t('nv.say.fire.you', words);
    case 'emp': return t('nv.say.emp.you', words);
    case 'torpedo': return t('nv.say.torpedo.you', { ...words, lane: laneWords(info.cells) });
    case 'shield':
    case 'pass': return describeOrder(info);
    default: return t('nv.say.special.you', { ...words, ability: t(`nv.ab.${info.kind}`) });
  }
}

/**
 * What an announced order did, in words, from its result and the markers it left (the
 * announcement's `hits`, `misses`, `deflected`, `sunk`: public, docs/protocol.md section 4.1):
 * "hit", "2 hits, 3 misses, submarine sunk"; on the viewer's own board the ships it struck are
 * named ("your cruiser is hit", "your submarine is sunk"), which only the owner knows. Empty for
 * an order that shoots nothing (a pass, a detection, a shield, an EMP).
 */
function resultWords(a) {
  const parts = [];
  if (a.result && a.result !== 'done') parts.push(describeResult(a));
  const hits = a.hits || [];
  const sunk = a.sunk || [];
  if (a.info?.target != null && a.info.target === me() && a.seat !== me()) {
    const struck = [...new Set(hits.map(ownPieceOn).filter(Boolean))];
    for (const piece of struck) {
      if (!sunk.includes(piece)) parts.push(t('nv.res.your.hit', { ship: pieceWords(piece) }));
    }
    for (const ship of sunk) parts.push(t('nv.res.your.sunk', { ship: t(`nv.ship.${ship}`) }));
  } else {
    if (hits.length) parts.push(tn('nv.res.hits', hits.length));
    for (const ship of sunk) parts.push(t('nv.res.sunk', { ship: t(`nv.ship.${ship}`) }));
  }
  const misses = a.misses || [];
  if (misses.length) parts.push(tn('nv.res.misses', misses.length));
  if ((a.deflected || []).length) parts.push(t('nv.res.deflected'));
  const shoots = ['fire', 'artillery', 'heavy', 'bombing', 'rockets', 'missile', 'charges', 'torpedo'].includes(a.info?.kind);
  if (!parts.length && shoots && a.result === 'done') parts.push(t('nv.res.nothing'));
  return parts.join(', ');
}

/**
 * The turns to tell this viewer about: from its own last turn on (the turns the observation keeps,
 * `earlier_turns` then `last_turn`: up to one round), every turn for a spectator. Each is
 * `{seat, orders}`.
 */
function accountTurns() {
  const obs = obsOf();
  const turns = [...(obs.earlier_turns || []), obs.last_turn || []].filter((turn) => turn.length)
    .map((orders) => ({ seat: orders[0].seat, orders }));
  const mine = me();
  const own = mine === null || mine === undefined ? -1 : turns.map((x) => x.seat).lastIndexOf(mine);
  return own >= 0 ? turns.slice(own) : turns;
}

/** The account: one block per turn, "Fleet 2's turn", then each order with what it did. */
function renderAccount(box) {
  const game = ctx().state.game;
  const turns = accountTurns();
  const key = JSON.stringify([lang(), turns, me()]);
  if (key === ui.bannerKey) return;
  const fresh = ui.bannerKey !== '';
  ui.bannerKey = key;
  const seated = me() !== null && me() !== undefined;
  box.replaceChildren(
    el('div', { class: 'nv-banner-head' }, t(seated ? 'nv.account' : 'nv.account.all')),
    ...(turns.length ? turns.map(({ seat, orders }) => {
      const acted = orders.filter((a) => a.info?.kind !== 'pass');
      return el('div', { class: 'nv-turn', 'data-seat': seat },
        el('div', { class: 'nv-turn-head' }, el('span', { class: `swatch nv-swatch-${seat}` }), ' ',
          seat === me() ? t('nv.account.yours') : t('nv.account.turn', { fleet: seatLabel(game, seat) })),
        ...acted.map((a) => {
          const special = !['fire', 'pass'].includes(a.info?.kind);
          const result = resultWords(a);
          return el('div', { class: `nv-said${special ? ' nv-special' : ''}`, 'data-order': a.order }, orderWords(a) || a.order,
            result ? el('span', { class: 'nv-result' }, `: ${result}`) : '');
        }),
        acted.length < orders.length ? el('div', { class: 'muted small' }, tn('nv.passes', orders.length - acted.length)) : '');
    }) : [el('div', { class: 'muted small' }, t('nv.account.none'))]));
  box.classList.remove('fresh');
  void box.offsetWidth;
  if (fresh && turns.length) box.classList.add('fresh');
}

/**
 * The cells of board `seat` that the other fleets' shots marked since this viewer's last turn
 * (hits, misses, deflections of the turns of its account): `[{name, by}]`, `by` the shooter.
 */
function recentCells(seat) {
  const obs = ui.ctx?.state?.observation;
  if (!obs || obs.phase !== 'battle' || !obs.last_turn) return [];
  const out = [];
  for (const { seat: by, orders } of accountTurns()) {
    if (by === me()) continue;
    for (const a of orders) {
      if (a.info?.target !== seat) continue;
      for (const name of [...(a.hits || []), ...(a.misses || []), ...(a.deflected || [])]) out.push({ name, by });
    }
  }
  return out;
}

/**
 * What the other fleets did to this seat's ships since its last turn, for the turn panel: "Your
 * submarine has been sunk. Your cruiser was hit." Empty when nothing of its was hit.
 */
function hurtWords() {
  const mine = me();
  if (mine === null || mine === undefined) return '';
  const hit = new Set();
  const sunk = new Set();
  for (const { seat, orders } of accountTurns()) {
    if (seat === mine) continue;
    for (const a of orders) {
      if (a.info?.target !== mine) continue;
      for (const cell of a.hits || []) {
        const piece = ownPieceOn(cell);
        if (piece) hit.add(piece);
      }
      for (const ship of a.sunk || []) sunk.add(ship);
    }
  }
  return [
    ...[...sunk].map((ship) => t('nv.sunk.yours', { ship: t(`nv.ship.${ship}`) })),
    ...[...hit].filter((p) => !sunk.has(p)).map((piece) => t('nv.hit.yours', { ship: pieceWords(piece) })),
  ].join(' ');
}

/** What the marks on the boards mean, each with a small drawing of it. */
function legend() {
  const icon = (draw) => {
    const svg = svgEl('svg', { class: 'naval nv-icon', width: 20, height: 20, viewBox: `${origin(0)[0]} ${origin(0)[1]} ${CELL} ${CELL}` });
    svg.append(svgEl('rect', { class: 'nv-cell', x: origin(0)[0], y: origin(0)[1], width: CELL, height: CELL }), ...draw());
    return svg;
  };
  const a1 = ['a1'];
  const items = [
    ['hit', () => [drawMarks(0, a1, 'hit')]],
    ['miss', () => [drawMarks(0, a1, 'miss')]],
    ['deflected', () => [drawMarks(0, a1, 'deflected')]],
    ['contact', () => [drawMarks(0, a1, 'contact')]],
    ['clear', () => [drawMarks(0, a1, 'clear')]],
    ['sunk', () => [drawPiece(0, 'corvette', a1, 'sunk')]],
    ['found', () => [drawPiece(0, 'corvette', a1, 'found')]],
    ['sunkbuoy', () => [drawMarks(0, a1, 'sunk-buoy')]],
    ['block', () => [cellRect(0, 'a1', 'nv-block nv-owner-1')]],
    ['shield', () => [svgEl('rect', { class: 'nv-shield', x: origin(0)[0] + 1, y: origin(0)[1] + 1, width: CELL - 2, height: CELL - 2, rx: 6 })]],
  ];
  return [
    ...items.map(([key, draw]) => [icon(draw), t(`nv.legend.${key}`)]),
    ...fleetShips().map((ship) => `${t(`nv.short.${ship}`)}: ${t(`nv.ship.${ship}`)}`),
  ];
}

/**
 * The turn panel's part (`ctx.decision`: the phase and the countdown, what hit this seat, the
 * placement controls or the ships, their orders and Fire) and the Bataille Navale panel (the
 * account of the turns since this seat's last, the fleets with their clocks, the battle log), and
 * the legend of the marks.
 */
function renderPanel() {
  const { state, panel, decision: box } = ctx();
  // Only the match page has the panel and the decision's slot.
  if (!panel || !box) return;
  if ((box.dataset.lang !== lang() || !box.querySelector('#nv-controls'))) {
    // The frames are built once per language; their parts are refreshed below.
    box.dataset.lang = lang();
    box.replaceChildren(
      el('div', { class: 'nv-phase' }, el('span', { id: 'nv-phase-text' }), ' ', el('span', { id: 'nv-countdown', class: 'nv-countdown', role: 'timer' })),
      el('div', { id: 'nv-hurt', class: 'nv-hurt', role: 'alert' }),
      el('div', { id: 'nv-message', class: 'nv-message small', role: 'status' }),
      el('div', { id: 'nv-controls' }));
  }
  if (panel.dataset.lang !== lang()) {
    panel.dataset.lang = lang();
    ui.bannerKey = '';
    panel.replaceChildren(
      el('div', { id: 'nv-banner', class: 'nv-banner', 'aria-live': 'polite' }),
      el('div', { id: 'nv-seats' }),
      el('h3', {}, t('nv.log')),
      el('div', { id: 'nv-log-box' }));
  }
  const obs = state.observation;
  if (obs.phase === 'battle' || obs.phase === 'over') renderAccount(byId('nv-banner'));
  else byId('nv-banner').replaceChildren();
  savePlan();
  let phaseText = '';
  if (state.status === 'finished') phaseText = t('nv.phase.over');
  else if (obs.phase === 'placement') phaseText = t(placing() ? 'nv.phase.placement' : 'nv.phase.placed');
  else if (myBattleTurn()) phaseText = t(ui.firing ? 'nv.phase.firing' : 'nv.phase.you');
  else if (obs.phase === 'battle' && obs.current !== null) phaseText = t('nv.phase.other', { seat: seatLabel(state.game, obs.current) });
  byId('nv-phase-text').textContent = phaseText;
  byId('nv-hurt').textContent = state.status === 'live' ? hurtWords() : '';
  byId('nv-message').textContent = typeof ui.message === 'function' ? ui.message() : ui.message;
  const controls = byId('nv-controls');
  if (placing()) controls.replaceChildren(placementControls());
  else if (me() !== null && me() !== undefined && obs.phase !== 'placement' && state.status === 'live') controls.replaceChildren(battleControls());
  else controls.replaceChildren();
  byId('nv-seats').replaceChildren(seatList());
  const list = logList();
  byId('nv-log-box').replaceChildren(list);
  list.scrollTop = list.scrollHeight;
  showLegend(ctx().legend, t('nv.legend'), legend());
  document.body.dataset.nvPhase = obs.phase;
  document.body.dataset.nvFiring = String(ui.firing);
  document.body.dataset.nvTurn = myBattleTurn() ? 'mine' : 'other';
}

/**
 * Draws the boards and the Bataille Navale panel. `ctx`: `{svg, panel, decision, legend, state,
 * stateAt, canAct, config, play, render}`: the match state, when it arrived (performance.now),
 * whether this page may act now, the game's config if known, `play(text)` to send an action,
 * `render()` to redraw; `decision` is the turn panel's node for the controls of the decision and
 * `legend` the slot of the board's legend.
 */
export function renderNaval(ctx) {
  ui.ctx = ctx;
  attach(ctx.svg);
  if (ctx.state.version !== ui.version) {
    ui.version = ctx.state.version;
    // A drop stays drawn where it was dropped until the server has applied it (the own move count
    // grew) or refused it; other seats' moves come in between.
    if (ui.moving && (!placing() || myBoard()?.moves !== ui.moving.moves)) ui.moving = null;
    follow(ctx.state);
  }
  // Nothing on its way (a lost connection drops the request): the piece is where the state says.
  if (ctx.canAct && !ui.resending) ui.moving = null;
  syncTurn();
  if (!placing()) ui.drag = null;
  drawAll();
  renderPanel();
  // Sending the next order of a plan waits for this render to finish.
  if (ui.firing) setTimeout(fireStep, 0);
}
