// @ts-check
// MAD drawing and the legal actions as the page composes them (rules/mad.md sections 3 and 9).
//
// Nothing here decides legality or reads notation: the server sends the legal actions with their
// parts (`legal_info`: which cell moves where, which ships a permutation or rotation involves) and
// each logged action with its parts (the last one's cells are marked), and this module draws them. The board is SVG, 4 columns (a..d) by 6 rows (1..6); Red sits at the
// bottom (row 1), and a Blue player sees the board turned half a turn (row 6 and column d nearest).

import { t } from './i18n.js';
import { svgEl } from './svg.js';

/**
 * An action's parts (docs/protocol.md section 4.1): a move's cells and the ships it moves, a
 * permutation's or rotation's ships, a bonus's cells, and the part after it (`then`).
 * @typedef {{ kind: string, from?: string, to?: string, pieces?: string[], cells?: string[],
 *   then?: Part | null }} Part
 */

/** A permutation (`P`) or rotation (`R`) of ships, by code. @typedef {{ kind: 'P' | 'R', codes: string[] }} Shift */

/**
 * A legal action as the page composes it (`legalChoices`).
 * @typedef {{ text: string, kind: 'move' | 'shift' | 'pass', from: string | null, to: string | null,
 *   capture: boolean, shift: Shift | null }} Choice
 */

/** A legal action that carries a permutation or rotation. @typedef {Choice & { shift: Shift }} ShiftChoice */

/**
 * Whether choice `a` carries a permutation or rotation (a shift, or a move's bonus).
 * @param {Choice} a
 * @returns {a is ShiftChoice}
 */
export const hasShift = (a) => a.shift !== null;

/** Cell size in SVG units. */
export const CELL = 80;
/** Margin for the coordinates. */
const MARGIN = 26;
const COLUMNS = 'abcd';

/**
 * "R" or "B" colour letter of a seat (seat 0 = Red, seat 1 = Blue).
 * @param {number} seat
 */
export function seatColour(seat) {
  return seat === 1 ? 'b' : 'r';
}

/**
 * The translated name of a side ("r" or "b").
 * @param {string} side
 */
export function sideName(side) {
  return t(side === 'b' ? 'seat.blue' : 'seat.red');
}

/**
 * Index in `cells` of a cell name like "c2" (index = (row-1)*4 + column).
 * @param {string} name
 */
export function cellIndex(name) {
  return (Number(name[1]) - 1) * 4 + COLUMNS.indexOf(name[0]);
}

/**
 * Cell name of an index of `cells`.
 * @param {number} index
 */
export function cellName(index) {
  return COLUMNS[index % 4] + String(Math.floor(index / 4) + 1);
}

/**
 * The family word of a ship code: corvette, cruiser, frigate (one 2) or destroyer (two 2s).
 * @param {string} code
 */
export function shipKind(code) {
  if (code === '111') return t('ship.111');
  if (code === '222') return t('ship.222');
  const twos = [...code].filter((d) => d === '2').length;
  return t(twos === 1 ? 'ship.frigate' : 'ship.destroyer');
}

/**
 * The legal actions as the match page composes them, from the server's parts of each one
 * (`legal` with `legal_info`, docs/protocol.md section 4.1), never from their notation:
 * `{text, kind: "move"|"shift"|"pass", from, to, capture, shift}` where `shift` is `null` or
 * `{kind: "P"|"R", codes}` (the ships as the notation lists them).
 * @param {string[]} legal
 * @param {(Part | null | undefined)[]} info
 * @returns {Choice[]}
 */
export function legalChoices(legal, info) {
  // An action without its parts is not offered: the page composes from the parts alone.
  return legal.flatMap((text, i) => (info[i] ? [choice(text, info[i])] : []));
}

/** A permutation or rotation from its parts (`{kind: "permute"|"rotate", pieces}`): `{kind: "P"|"R", codes}`. */
/**
 * @param {Part} part
 * @returns {Shift}
 */
export function shiftOf(part) {
  return { kind: part.kind === 'permute' ? 'P' : 'R', codes: part.pieces || [] };
}

/**
 * The cells to mark as the last move: those of the last logged action of a seat in `moves` (the
 * state's move list, each entry with its parts `info`): a move's from and to, the cells of the
 * ships a permutation or rotation moved (also a bonus's), as a Set of cell names.
 * @param {import('./games.js').LogEntry[] | undefined} moves
 */
export function lastMoveCells(moves) {
  const last = [...(moves || [])].reverse().find((m) => m.by && typeof m.by === 'object' && m.info);
  /** @type {Set<string>} */
  const out = new Set();
  for (let part = /** @type {Part | null | undefined} */ (last?.info); part; part = part.then) {
    for (const c of [part.from, part.to, ...(part.cells || [])]) if (c) out.add(c);
  }
  return out;
}

/** One legal action from its parts (see `legalChoices`). */
/**
 * @param {string} text
 * @param {Part} part
 * @returns {Choice}
 */
function choice(text, part) {
  const shift = shiftOf;
  const none = { from: null, to: null, capture: false, shift: null };
  if (part.kind === 'move') {
    return {
      text, kind: 'move', from: part.from ?? null, to: part.to ?? null, capture: (part.pieces?.length ?? 0) > 1,
      shift: part.then ? shift(part.then) : null,
    };
  }
  if (part.kind === 'pass') return { text, kind: 'pass', ...none };
  return { text, kind: 'shift', ...none, shift: shift(part) };
}

/** The sentence describing a permutation or rotation, e.g. "Swap 112 ⇄ 221". */
/** @param {Shift} shift */
export function describeShift(shift) {
  if (shift.kind === 'P') return t('move.perm', { a: shift.codes[0], b: shift.codes[1] });
  const [x, y, z] = shift.codes;
  return t('move.rot', { x, y, z });
}

/** The short form of a permutation or rotation, for a phone's buttons: "112 ⇄ 221", "↻ 112 121 211". */
/** @param {Shift} shift */
export function describeShiftShort(shift) {
  if (shift.kind === 'P') return t('move.perm.short', { a: shift.codes[0], b: shift.codes[1] });
  const [x, y, z] = shift.codes;
  return t('move.rot.short', { x, y, z });
}

/** The long description of a rotation (who takes whose place), for tooltips. */
/** @param {Shift} shift */
export function describeShiftLong(shift) {
  if (shift.kind === 'P') return describeShift(shift);
  const [x, y, z] = shift.codes;
  return t('move.rot.long', { x, y, z });
}

/**
 * An SVG group drawing ship `code` of side `side` ("r"/"b") centred on (cx, cy).
 * 
 * Shapes tell the families apart (rules/mad.md section 2): the corvette is small with a gold
 * ring and a crown, frigates are small discs, destroyers large discs, the cruiser a hexagon.
 * The three digits are sails, cannons, shields.
 * @param {string} code
 * @param {string} side
 * @param {number} cx
 * @param {number} cy
 */
export function drawShip(code, side, cx, cy) {
  const g = svgEl('g', { class: `ship ship-${side}`, 'data-ship': side.toUpperCase() + code });
  const twos = [...code].filter((d) => d === '2').length;
  const body = `ship-body ${side}`;
  let digitsY = cy;
  if (code === '222') {
    const r = 34;
    const pts = [];
    for (let i = 0; i < 6; i++) {
      const a = Math.PI / 6 + (i * Math.PI) / 3;
      pts.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
    }
    g.append(svgEl('polygon', { class: body, points: pts.join(' ') }));
  } else if (code === '111') {
    g.append(svgEl('circle', { class: body, cx, cy, r: 27 }));
    g.append(svgEl('circle', { class: 'ship-corvette-ring', cx, cy, r: 23 }));
    // A small crown above the digits marks the ship whose loss ends the game.
    const s = 7;
    g.append(svgEl('polygon', {
      class: 'ship-crown',
      points: [
        [cx - s * 1.3, cy - 7], [cx - s * 1.3, cy - 15], [cx - s * 0.6, cy - 11], [cx, cy - 18],
        [cx + s * 0.6, cy - 11], [cx + s * 1.3, cy - 15], [cx + s * 1.3, cy - 7],
      ].map((p) => p.join(',')).join(' '),
    }));
    digitsY = cy + 6;
  } else {
    g.append(svgEl('circle', { class: body, cx, cy, r: twos === 1 ? 26 : 33 }));
  }
  const digits = svgEl('text', {
    class: 'ship-digits', x: cx, y: digitsY, 'font-size': code === '111' ? 16 : 20,
    'letter-spacing': '1.5',
  });
  digits.textContent = code;
  g.append(digits);
  return g;
}

/**
 * A small standalone SVG of one ship (exile zones, chips).
 * @param {string} code
 * @param {string} side
 */
export function shipIcon(code, side, size = 40) {
  const svg = svgEl('svg', {
    viewBox: '0 0 80 80', width: size, height: size, role: 'img',
    'aria-label': `${sideName(side)} ${code} (${shipKind(code)})`,
  });
  svg.append(drawShip(code, side, 40, 40));
  return svg;
}

/**
 * Draws the board into `svg` (cleared first).
 * 
 * `view` = {
 *   cells: the observation's 24 cells, orientation: "r" | "b" (whose side is at the bottom),
 *   movable: Set of cell names with a ship that has a move, selected: cell name or null,
 *   targets: Map cell name -> "move" | "capture", involved: Set of cell names to ring,
 *   last: Set of the cells of the last move, onCell: function(cellName) or null
 * }
 * @param {Element} svg
 * @param {{ cells: (string | null)[], orientation: string, movable?: Set<string>, selected?: string | null,
 *   targets?: Map<string, string>, involved?: Set<string>, last?: Set<string>,
 *   onCell?: ((cell: string) => void) | null }} view
 */
export function renderBoard(svg, view) {
  const width = 4 * CELL + 2 * MARGIN;
  const height = 6 * CELL + 2 * MARGIN;
  svg.replaceChildren();
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('class', 'board');
  svg.setAttribute('role', 'group');
  svg.setAttribute('aria-label', t('board.label', { side: sideName(view.orientation) }));
  const flip = view.orientation === 'b';
  const xOf = (/** @type {number} */ col) => MARGIN + (flip ? 3 - col : col) * CELL;
  const yOf = (/** @type {number} */ row) => MARGIN + (flip ? row - 1 : 6 - row) * CELL;

  // Coordinates on all four sides.
  for (let col = 0; col < 4; col++) {
    for (const y of [MARGIN / 2, height - MARGIN / 2]) {
      const label = svgEl('text', { class: 'coord', x: xOf(col) + CELL / 2, y });
      label.textContent = COLUMNS[col];
      svg.append(label);
    }
  }
  for (let row = 1; row <= 6; row++) {
    for (const x of [MARGIN / 2, width - MARGIN / 2]) {
      const label = svgEl('text', { class: 'coord', x, y: yOf(row) + CELL / 2 });
      label.textContent = String(row);
      svg.append(label);
    }
  }

  const overlays = svgEl('g');
  const hits = svgEl('g');
  for (let i = 0; i < 24; i++) {
    const name = cellName(i);
    const col = i % 4;
    const row = Math.floor(i / 4) + 1;
    const x = xOf(col);
    const y = yOf(row);
    const cx = x + CELL / 2;
    const cy = y + CELL / 2;
    svg.append(svgEl('rect', {
      class: `cell ${(col + row) % 2 === 0 ? 'dark' : 'light'}`, x, y, width: CELL, height: CELL,
      'data-cell': name,
    }));
    if (view.last?.has(name)) {
      svg.append(svgEl('rect', { class: 'last-to', x, y, width: CELL, height: CELL, 'data-last': name }));
    }
    const token = view.cells[i];
    if (token) svg.append(drawShip(token.slice(1), token[0].toLowerCase(), cx, cy));

    if (view.movable?.has(name) && view.selected !== name) {
      overlays.append(svgEl('circle', { class: 'movable-ring', cx, cy, r: 37 }));
    }
    if (view.selected === name) {
      overlays.append(svgEl('rect', { class: 'selected-ring', x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 6 }));
    }
    const target = view.targets?.get(name);
    if (target === 'capture') {
      overlays.append(svgEl('circle', { class: 'capture-ring', cx, cy, r: 36 }));
    } else if (target === 'move') {
      overlays.append(svgEl('circle', { class: 'target-dot', cx, cy, r: 11 }));
    }
    if (view.involved?.has(name)) {
      overlays.append(svgEl('circle', { class: 'involved-ring', cx, cy, r: 38, 'data-cell': name }));
    }

    const clickable = Boolean(view.onCell) && (view.movable?.has(name) || view.targets?.has(name) || view.selected === name);
    let label = t('board.cell', { cell: name });
    if (token) {
      label = t('board.ship', { side: sideName(token[0].toLowerCase()), code: `${token.slice(1)} (${shipKind(token.slice(1))})`, cell: name });
    }
    if (target) label += target === 'capture' ? ' ×' : ' •';
    const hit = svgEl('rect', {
      class: `hit${clickable ? ' clickable' : ''}`, x, y, width: CELL, height: CELL,
      'data-cell': name, 'aria-label': label,
      role: clickable ? 'button' : 'img',
      tabindex: clickable ? '0' : undefined,
      'data-target': target || undefined,
      'data-movable': view.movable?.has(name) ? 'true' : undefined,
    });
    const onCell = view.onCell;
    if (clickable && onCell) {
      hit.addEventListener('click', () => onCell(name));
      hit.addEventListener('keydown', (ev) => {
        if (ev.key === 'Enter' || ev.key === ' ') {
          ev.preventDefault();
          onCell(name);
        }
      });
    }
    hits.append(hit);
  }
  svg.append(overlays, hits);
}

/**
 * Fills an exile zone element with the exiled ships of `side` (codes), ringing those in
 * `involved` (a Set of codes).
 * @param {HTMLElement} container
 * @param {string} side
 * @param {string[]} codes
 * @param {Set<string>} [involved]
 */
export function renderExile(container, side, codes, involved = new Set()) {
  container.replaceChildren();
  const label = document.createElement('span');
  label.className = 'exile-label';
  label.textContent = t('match.exile.short');
  container.setAttribute('aria-label', t('match.exile', { side: sideName(side) }));
  container.setAttribute('role', 'group');
  container.append(label);
  if (!codes || codes.length === 0) {
    const none = document.createElement('span');
    none.className = 'muted small';
    none.textContent = t('match.exile.empty');
    container.append(none);
    return;
  }
  for (const code of codes) {
    const icon = shipIcon(code, side);
    icon.dataset.exiled = side.toUpperCase() + code;
    if (involved.has(code)) icon.append(svgEl('circle', { class: 'involved-ring', cx: 40, cy: 40, r: 37 }));
    container.append(icon);
  }
}

/**
 * Cells holding ships of `side` whose codes are in `codes`.
 * @param {(string | null)[]} cells the observation's cells
 * @param {string} side
 * @param {string[]} codes
 */
export function cellsOfShips(cells, side, codes) {
  const wanted = new Set(codes.map((c) => side.toUpperCase() + c));
  /** @type {Set<string>} */
  const out = new Set();
  cells.forEach((tok, i) => {
    if (tok && wanted.has(tok)) out.add(cellName(i));
  });
  return out;
}
