// @ts-check
// Bataille Navale's turn planning: the seat plans an order for each of its ships, in any order,
// and fires them together (rules/naval.md section 5.3a). The orders come from the turn's options
// alone (`candidate`); the plan is kept in the tab's storage so a reload keeps it, and sent as one
// whole turn, or one order at a time once the server refused the whole.

import { t } from './i18n.js';
import { SIDE, areaCells, cellName, distance, lineCells, parseCell, rectCells } from './naval-geometry.js';
import { ctx, myBattleTurn, myShips, obsOf, redraw, shipOptions, specialOptions, turnOptions, ui } from './naval-state.js';
import { describeOrder } from './naval-words.js';

/** @typedef {import('./naval-state.js').SpecialOptions} SpecialOptions */
/** @typedef {import('./naval-state.js').OrderParts} OrderParts */

/**
 * The aimed group of a special in the orientation chosen (the only one when it has one).
 * @param {SpecialOptions} sp
 */
function aimedGroup(sp) {
  const groups = sp?.aimed || [];
  return groups.find((g) => g.vertical === ui.vertical) || groups[0] || null;
}

/** Whether a special may be aimed either way (the options list both orientations). */
export const hasOrientation = (/** @type {SpecialOptions | null} */ sp) => new Set((sp?.aimed || []).map((g) => g.vertical)).size > 1;

/**
 * An order's parts as the server takes them (`act` in parts, docs/protocol.md section 4.2), from
 * its description as `legal_info` gives it (`{kind, pieces, target, to, choice}`): always the same
 * keys in the same order, so that two descriptions of one order give the same JSON.
 * @param {OrderParts} info
 */
export function orderParts(info) {
  /** @type {{ kind: string, piece?: string } & Record<string, unknown>} */
  const parts = { kind: info.kind, piece: info.pieces?.[0] };
  for (const key of /** @type {const} */ (['target', 'to', 'choice'])) if (info[key] != null) parts[key] = info[key];
  return parts;
}

const sameOrder = (/** @type {OrderParts} */ a, /** @type {OrderParts} */ b) => JSON.stringify(orderParts(a)) === JSON.stringify(orderParts(b));

export const passInfo = (/** @type {string} */ ship) => /** @type {OrderParts} */ ({ kind: 'pass', pieces: [ship] });

/**
 * The order `ship` would get in mode `mode` aimed at (seat, r, c): `{info, cells, ok, seat, kind}`
 * (`info` the order's description, as `legal_info` gives it, when `ok`), or null when the mode
 * aims at nothing (pass). Everything comes from the turn's options: the open boards and cells for
 * a shot, the aims and the area of an aimed special (the aim whose area covers the pointer,
 * nearest to it), the lanes of a torpedo (of those through the pointer, the one entering nearest
 * to it), the targets of the EMP.
 * @param {string} ship
 * @param {string} mode
 * @param {number} seat
 * @param {number} r
 * @param {number} c
 * @returns {import('./naval-state.js').Planned & { ok: boolean } | null}
 */
export function candidate(ship, mode, seat, r, c) {
  if (mode === 'pass') return null;
  const cell = cellName(r, c);
  const here = { r, c };
  const refused = (cells = [cell]) => ({ info: null, cells, ok: false, seat, kind: mode });
  const aimed = (/** @type {string[]} */ cells, /** @type {Partial<OrderParts>} */ parts) => ({ cells, ok: true, seat, kind: mode, info: { kind: mode, pieces: [ship], target: seat, ...parts } });
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
    const through = (tp?.lanes || []).flatMap((l) => {
      const [a, b] = [parseCell(l.from), parseCell(l.to)];
      return a && b ? [{ ...l, a, b }] : [];
    }).filter(({ a, b }) => (a.r === b.r && a.r === r) || (a.c === b.c && a.c === c));
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

/** Where the plan of this turn is kept in the tab, so a reload does not lose it. */
const planKey = () => `plateau.naval.plan.${ctx().state.id}`;

/**
 * @param {string} turn
 */
function storedPlan(turn) {
  try {
    const saved = JSON.parse(sessionStorage.getItem(planKey()) || 'null');
    // Only entries with their parts: a plan kept by an older page is dropped.
    return saved?.turn === turn && Array.isArray(saved.plan) ? saved.plan.filter((/** @type {[string, any]} */ [, p]) => p?.info) : [];
  } catch {
    return [];
  }
}

export function savePlan() {
  if (ui.turnKey) sessionStorage.setItem(planKey(), JSON.stringify({ turn: ui.turnKey, plan: [...ui.plan] }));
}

/** Starts a fresh plan when a new turn of this seat begins (or the one kept before a reload). */
export function syncTurn() {
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
export function fireStep() {
  if (!ui.firing || ui.whole || !ui.ctx) return;
  if (!myBattleTurn()) {
    ui.firing = false;
    return;
  }
  if (!ctx().canAct) return;
  const ship = obsOf().next_ship;
  if (!ship) return;
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

export function startFiring() {
  if (!myBattleTurn() || ui.firing) return;
  ui.firing = true;
  // A function, so the note follows a change of language.
  ui.message = ui.autoFired ? () => t('nv.autofire') : '';
  redraw.panel();
  // The whole turn leaves as one message, played all or nothing (docs/protocol.md section 4.2):
  // every ship still to act, in the order the server asks for them, its planned order or a pass.
  ui.whole = true;
  const turn = myShips().filter((s) => s.open).map((s) => orderParts(ui.plan.get(s.name)?.info || passInfo(s.name)));
  ctx().play?.(turn);
}
