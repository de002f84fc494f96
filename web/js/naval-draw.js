// @ts-check
// Bataille Navale's drawing: the four 14x14 boards in the fixed 2x2 layout of rules/naval.md
// section 3 (or, on a phone, one board at a time with tabs and a zoomed window while aiming), the
// pieces and markers of each, and the overlay of what is being aimed or dragged. Also draws the
// replay's boards and the how-to page's examples.

import { el } from './api.js';
import { lang, t, tn } from './i18n.js';
import { svgEl } from './svg.js';
import { seatLabel, botName } from './seats.js';
import { COLS, SIDE, bbox, cellName, clamp, parseCell } from './naval-geometry.js';
import { ctx, fleetShips, footprint, isBuoy, legalDrop, me, myBattleTurn, obsOf, phase, placing, sunkNames, ui } from './naval-state.js';
import { recentCells } from './naval-words.js';
import { candidate, orderParts } from './naval-plan.js';

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

/**
 * The top-left corner of the board of `seat`, in SVG units.
 * @param {number} seat
 */
function origin(seat) {
  const [sx, sy] = SLOT[seat];
  return [sx * BW + LABEL, sy * BH + HEAD + LABEL];
}

/**
 * The board and cell under SVG point (x, y): `{seat, r, c, inside}` or null (off every board).
 * @param {number} x
 * @param {number} y
 * @param {number | null} [seat] the board to answer for (a cell off it too), or any board
 */
export function locate(x, y, seat = null) {
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

/**
 * @param {SVGSVGElement} svg
 * @param {{ clientX: number, clientY: number }} ev
 */
export function svgPoint(svg, ev) {
  const pt = svg.createSVGPoint();
  pt.x = ev.clientX;
  pt.y = ev.clientY;
  const m = svg.getScreenCTM();
  return m ? pt.matrixTransform(m.inverse()) : { x: 0, y: 0 };
}

/**
 * The rectangle of cell `name` of `seat`'s board, in a list: empty for a name that is no cell, so
 * that nothing is drawn for it (appending null would write "null" into the drawing).
 * @param {number} seat
 * @param {string} name
 * @param {string} cls
 * @param {Record<string, string | number>} [extra] more attributes
 * @returns {SVGElement[]}
 */
function cellRect(seat, name, cls, extra = {}) {
  const p = parseCell(name);
  if (!p) return [];
  const [ox, oy] = origin(seat);
  return [svgEl('rect', { x: ox + p.c * CELL, y: oy + p.r * CELL, width: CELL, height: CELL, class: cls, ...extra })];
}

/**
 * @param {number} seat
 * @param {string | null | undefined} name
 */
function cellCentre(seat, name) {
  const p = parseCell(name);
  if (!p) throw new Error(`no cell ${name} on a Bataille Navale board`);
  const [ox, oy] = origin(seat);
  return [ox + p.c * CELL + CELL / 2, oy + p.r * CELL + CELL / 2];
}

/**
 * A piece as a rounded bar over its cells, with its short name.
 * @param {number} seat
 * @param {string} piece
 * @param {string[]} cells
 * @param {string} cls
 * @param {Record<string, string | number>} [attrs]
 */
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

/**
 * @param {number} seat
 * @param {string[] | null | undefined} names
 * @param {string} kind
 */
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

/**
 * The whole drawing of one seat's board as this viewer knows it.
 * @param {number} seat
 */
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
  if (info?.kind === 'bot') bits.push(botName(info.bot ?? ''));
  else if (info?.player?.name) bits.push(own ? t('seat.you.named', { name: info.player.name }) : info.player.name);
  else if (own) bits.push(t('seat.you'));
  if (b.eliminated) bits.push(t('nv.out'));
  if (obs.phase === 'placement' || obs.phase === 'layout') bits.push(t(b.ready ? 'nv.ready.badge' : 'nv.placing'));
  if (b.emp_turns_left) bits.push(tn('nv.emp.badge', b.emp_turns_left));
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
  for (const name of intel?.scanned || []) g.append(...cellRect(seat, name, 'nv-scanned'));
  for (const blk of b.blocks || []) {
    for (const name of blk.cells) g.append(...cellRect(seat, name, `nv-block nv-owner-${blk.owner}`, { 'data-owner': blk.owner }));
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
  for (const cell of recentCells(seat)) g.append(...cellRect(seat, cell.name, `nv-recent nv-owner-stroke-${cell.by}`, { 'data-cell': cell.name, 'data-by': cell.by }));
  // The highlight fades out with a CSS animation; a redraw resumes it where it was, not from the start.
  const delay = `animation-delay:-${Math.round(performance.now() - ui.flashAt)}ms`;
  for (const f of ui.flash.values()) {
    if (f.seat === seat) g.append(...cellRect(seat, f.cell, `nv-flash ${f.kind}`, { style: delay }));
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
  delete svg.dataset.aimAt;
  const v = me();
  if (ui.drag && v !== null) {
    const d = ui.drag;
    const cells = footprint(d);
    const ok = legalDrop(d);
    if (cells.length) {
      g.append(drawPiece(v, d.piece, cells, `ghost ${ok ? 'ok' : 'bad'}`));
      for (const name of cells) g.append(...cellRect(v, name, `nv-aim ${ok ? 'ok' : 'bad'}`));
    }
    svg.dataset.aim = ok ? 'ok' : 'bad';
  }
  if (myBattleTurn()) {
    for (const [ship, o] of ui.plan) {
      // A pass aims at no board.
      if (o.seat === null) continue;
      if (o.kind === 'fire') {
        const [cx, cy] = cellCentre(o.seat, o.cells[0]);
        g.append(svgEl('circle', { class: 'nv-planned fire', cx, cy, r: 9, 'data-ship': ship }));
      } else {
        const box = bbox(o.cells);
        const [ox, oy] = origin(o.seat);
        g.append(svgEl('rect', { class: 'nv-planned area', x: ox + box.c0 * CELL + 2, y: oy + box.r0 * CELL + 2, width: box.w * CELL - 4, height: box.h * CELL - 4, 'data-ship': ship }));
      }
    }
    // A finger's aim waits for its second tap; a mouse aims where it points. The cell a first
    // tap aimed at is on the board's element too, so that a test can wait for the tap's effect.
    if (ui.aim) svg.dataset.aimAt = `${ui.aim.seat}:${cellName(ui.aim.r, ui.aim.c)}`;
    const hv = ui.aim || ui.hover;
    if (hv && ui.ship && !ui.firing) {
      const cand = candidate(ui.ship, ui.mode, hv.seat, hv.r, hv.c);
      if (cand) {
        for (const name of cand.cells) g.append(...cellRect(hv.seat, name, `nv-aim ${cand.ok ? 'ok' : 'bad'}`));
        svg.dataset.aim = cand.ok ? 'ok' : 'bad';
        if (cand.info) svg.dataset.aimParts = JSON.stringify(orderParts(cand.info));
      }
    }
  }
  if (ui.zoom) g.append(zoomLabels(ui.zoom));
  return g;
}

/**
 * The coordinates of the aiming window, along its top and left edges (the board's own are out of view).
 * @param {import('./naval-state.js').Zoom} zoom
 */
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
 * @param {number} seat
 * @param {number} r
 * @param {number} c
 */
export function zoomTo(seat, r, c) {
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

export function redrawOverlay() {
  const svg = ctx().svg;
  const old = svg.querySelector('#nv-overlay');
  const fresh = drawOverlay();
  if (old) old.replaceWith(fresh);
  else svg.append(fresh);
  drawn.overlay = overlayKey();
}

/**
 * What the boards were last drawn from (`boardsKey`, `overlayKey`) and into which SVG, so that
 * a state that changes nothing this seat sees draws nothing again (`drawChanged`).
 */
const drawn = { svg: /** @type {SVGSVGElement | null} */ (null), boards: '', overlay: '' };

/**
 * Everything the boards (not the overlay) are drawn from, as one text: the state's parts they
 * show (the observation, the seats' names, who is to act), the language and the screen's width,
 * and the page's own marks on them (a piece dragged or on its way, the piece picked, the
 * flashes, the phone's board and window).
 */
function boardsKey() {
  const { state } = ctx();
  const names = state.seats.map((s) => [s.seat, s.kind, s.bot ?? null, s.player?.name ?? null]);
  return JSON.stringify([lang(), PHONE.matches, state.game, state.status, state.to_act, names, state.observation,
    ui.drag?.piece ?? null, ui.moving, ui.selectedPiece, ui.flashAt, ui.flash.size, ui.areas, ui.focus, ui.zoom]);
}

/** Everything the overlay is drawn from, as one text: the drag, the plan and the aim. */
function overlayKey() {
  return JSON.stringify([ui.drag, [...ui.plan], ui.aim, ui.hover, ui.ship, ui.mode, ui.firing]);
}

/**
 * Draws again only what changed since the last drawing: the boards (`drawAll`) when what they
 * show changed, else the overlay when it did, else nothing. The match page draws at every state
 * and on other occasions (a chat line's error, a setting): a state that changes nothing this seat
 * sees (another seat's connection, a message about others) leaves the boards as they are, with no
 * flicker, and a piece being dragged is not drawn afresh under the pointer.
 */
export function drawChanged() {
  if (drawn.svg !== ctx().svg || drawn.boards !== boardsKey()) drawAll();
  else if (drawn.overlay !== overlayKey()) redrawOverlay();
}

/** A phone's screen: one board at a time, large enough to tap, chosen with tabs above it. */
export const PHONE = window.matchMedia('(max-width: 600px)');

/** A touch screen (no right-click, no R key): the placement help says so. */
export const COARSE = window.matchMedia('(pointer: coarse)');

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

/**
 * The tabs that choose a phone's board, just above the boards (hidden on wider screens).
 * @param {SVGSVGElement} svg
 */
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

export function drawAll() {
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
  drawn.svg = svg;
  drawn.boards = boardsKey();
  drawn.overlay = overlayKey();
}

/**
 * Draws the four boards read-only (the replay page): `state` = `{game, seats, status, to_act,
 * observation}` shaped like the match state, the observation a spectator's (`viewer: null`). No
 * pointer or key handlers are attached and no highlight of changed cells is drawn.
 * @param {SVGSVGElement} svg
 * @param {import('./naval-state.js').NavalState} state
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
 * @param {SVGSVGElement} svg
 * @param {Partial<import('./naval-state.js').BoardView>} board
 * @param {{ from: string, to: string, cls?: string }[]} [areas]
 */
export function renderNavalExample(svg, board, areas = []) {
  const empty = { hits: [], misses: [], deflected: [], sunk: [], sunk_buoys: [], blocks: [], shield: null, fleet: null };
  const boards = [0, 1, 2, 3].map((seat) => ({ ...empty, seat, ...(seat === 0 ? board : {}) }));
  ui.ctx = {
    svg,
    state: {
      game: 'naval', status: 'finished', to_act: [], seats: [],
      // The pieces drawn are ships (no buoy in an example).
      observation: { viewer: null, phase: 'battle', rounds: 0, last_turn: [], ships: (board.sunk || []).map((p) => p.piece), boards },
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

/** What the marks on the boards mean, each with a small drawing of it. */
export function legend() {
  const icon = (/** @type {() => SVGElement[]} */ draw) => {
    const svg = svgEl('svg', { class: 'naval nv-icon', width: 20, height: 20, viewBox: `${origin(0)[0]} ${origin(0)[1]} ${CELL} ${CELL}` });
    svg.append(svgEl('rect', { class: 'nv-cell', x: origin(0)[0], y: origin(0)[1], width: CELL, height: CELL }), ...draw());
    return svg;
  };
  const a1 = ['a1'];
  /** @type {[string, () => SVGElement[]][]} */
  const items = [
    ['hit', () => [drawMarks(0, a1, 'hit')]],
    ['miss', () => [drawMarks(0, a1, 'miss')]],
    ['deflected', () => [drawMarks(0, a1, 'deflected')]],
    ['contact', () => [drawMarks(0, a1, 'contact')]],
    ['clear', () => [drawMarks(0, a1, 'clear')]],
    ['sunk', () => [drawPiece(0, 'corvette', a1, 'sunk')]],
    ['found', () => [drawPiece(0, 'corvette', a1, 'found')]],
    ['sunkbuoy', () => [drawMarks(0, a1, 'sunk-buoy')]],
    ['block', () => cellRect(0, 'a1', 'nv-block nv-owner-1')],
    ['shield', () => [svgEl('rect', { class: 'nv-shield', x: origin(0)[0] + 1, y: origin(0)[1] + 1, width: CELL - 2, height: CELL - 2, rx: 6 })]],
  ];
  return [
    ...items.map(([key, draw]) => [icon(draw), t(`nv.legend.${key}`)]),
    ...fleetShips().map((ship) => `${t(`nv.short.${ship}`)}: ${t(`nv.ship.${ship}`)}`),
  ];
}
