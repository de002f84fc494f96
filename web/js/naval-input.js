// @ts-check
// Bataille Navale's pointer and keys: the placement's drag and drop (drop, rotate, pick and place
// with taps), and the battle's aiming (hover or a first tap shows, a click or a second tap gives
// the order; R turns a special, Escape forgets).

import { t } from './i18n.js';
import { lastTouch } from './touch.js';
import { SIDE, bbox, cellName, sameCells } from './naval-geometry.js';
import { ctx, footprint, isVertical, legalDrop, me, myBattleTurn, myBoard, myShips, placementOf, placementParts, placing, redraw, specialOptions, ui, wayOf } from './naval-state.js';
import { candidate, hasOrientation } from './naval-plan.js';
import { PHONE, drawAll, locate, redrawOverlay, svgPoint, zoomTo } from './naval-draw.js';

/**
 * The own piece covering (r, c), or null.
 * @param {number} r
 * @param {number} c
 */
function pieceAt(r, c) {
  const b = myBoard();
  const name = cellName(r, c);
  return (b?.fleet || []).find((p) => p.cells.includes(name)) || null;
}

/** @param {PointerEvent} ev */
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
  redraw.panel();
}

/** @param {PointerEvent} ev */
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

/** @param {PointerEvent} e */
function onPointerUp(e) {
  const d = ui.drag;
  if (!d) return;
  ui.drag = null;
  const inBoard = d.r >= 0 && d.c >= 0 && d.r < SIDE && d.c < SIDE;
  const parts = inBoard ? placementParts(d) : null;
  const still = sameCells(footprint(d), d.from);
  // A double-click turns the piece. It is recognised here rather than by the browser's dblclick,
  // which the redraw between the two clicks can swallow. Timed by when each release happened
  // (the event's time stamp), not when the page got round to it: on a busy page the second
  // release can wait behind the first one's redraw.
  const now = e.timeStamp;
  const second = still && ui.lastPress?.piece === d.piece && now - ui.lastPress.at < 450;
  ui.lastPress = still && !second ? { piece: d.piece, at: now } : null;
  drawAll();
  if (!parts) ui.message = t('nv.offboard');
  else if (second) rotatePiece(d.piece);
  else if (!still) sendPlacement(parts, d);
  redraw.panel();
}

/**
 * Why the anchors refuse the drop `d`, in words: past the edge, on another piece, or no move left.
 * @param {import('./naval-state.js').Drop} d
 */
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
 * @param {import('./games.js').ActionParts} parts
 * @param {import('./naval-state.js').Drop} d
 */
function sendPlacement(parts, d) {
  if (!ctx().canAct) return;
  if (!legalDrop(d)) {
    ui.message = refusal(d);
    ui.moving = null;
    drawAll();
    redraw.panel();
    return;
  }
  ui.moving = { piece: d.piece, cells: footprint(d), moves: myBoard()?.moves };
  ui.sentPlacement = parts;
  ctx().play?.(parts);
}

/**
 * Moves the picked piece so that its top-left cell is (r, c), keeping its orientation.
 * @param {number} r
 * @param {number} c
 */
function placeSelectedAt(r, c) {
  const p = (myBoard()?.fleet || []).find((x) => x.piece === ui.selectedPiece);
  if (!p || !placing() || !ctx().canAct) return;
  const d = { piece: p.piece, vertical: isVertical(p), r, c };
  sendPlacement(placementParts(d), d);
}

/**
 * Rotates a placed piece a quarter turn about its top-left cell.
 * @param {string} name
 */
export function rotatePiece(name) {
  const p = (myBoard()?.fleet || []).find((x) => x.piece === name);
  // A piece with one way (a buoy) has nothing to turn.
  if (!p || (placementOf(p.piece)?.ways || []).length < 2 || !placing() || !ctx().canAct) return;
  const box = bbox(p.cells);
  const d = { piece: p.piece, vertical: !isVertical(p), r: box.r0, c: box.c0 };
  ui.pickedUp = true;
  ui.selectedPiece = p.piece;
  sendPlacement(placementParts(d), d);
}

/** @param {MouseEvent} ev */
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
/** @param {MouseEvent} ev */
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
    redraw.panel();
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
  redraw.panel();
}

/**
 * Picks `ship` to give its order (from the row of ships, or a tap on it on the own board).
 * @param {string | null} ship
 */
export function pickShip(ship) {
  ui.ship = ship;
  ui.mode = 'fire';
  ui.aim = null;
  ui.message = '';
  drawAll();
  redraw.panel();
}

/** @param {KeyboardEvent} ev */
function onKey(ev) {
  if (!ui.ctx || (ev.target instanceof Element && ['INPUT', 'SELECT', 'TEXTAREA'].includes(ev.target.tagName))) return;
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
    else if (myBattleTurn() && ui.ship && hasOrientation(specialOptions(ui.ship, ui.mode))) {
      ui.vertical = !ui.vertical;
      redrawOverlay();
      redraw.panel();
    }
  } else if (ev.key === 'Escape' && ui.drag) {
    ui.drag = null;
    drawAll();
  }
}

/**
 * @param {SVGSVGElement} svg
 */
export function attach(svg) {
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
