// @ts-check
// Bataille Navale's cells (rules/naval.md section 3): a 14x14 board, cells named a1..n14, and the
// shapes drawn on it: rectangles, bounding boxes, areas and lanes.

/** @typedef {{ r: number, c: number }} Cell A cell by its row and column, both 0-based. */

export const SIDE = 14;

export const COLS = 'abcdefghijklmn';

/**
 * Cell name of (row, col), both 0-based: (4, 12) is `m5`.
 * @param {number} r
 * @param {number} c
 * @returns {string}
 */
export function cellName(r, c) {
  return `${COLS[c]}${r + 1}`;
}

/**
 * `{r, c}` of a cell name, or null.
 * @param {string | null | undefined} name
 * @returns {Cell | null}
 */
export function parseCell(name) {
  const m = /^([a-n])(\d{1,2})$/.exec(name || '');
  if (!m) return null;
  const r = Number(m[2]) - 1;
  return r >= 0 && r < SIDE ? { r, c: COLS.indexOf(m[1]) } : null;
}

/** @type {(x: number, lo: number, hi: number) => number} */
export const clamp = (x, lo, hi) => Math.max(lo, Math.min(hi, x));

/**
 * The names of the cells of the `h` x `w` rectangle whose top-left cell is (r0, c0), row by row.
 * @param {number} r0
 * @param {number} c0
 * @param {number} h
 * @param {number} w
 * @returns {string[]}
 */
export function rectCells(r0, c0, h, w) {
  const out = [];
  for (let r = r0; r < r0 + h; r++) for (let c = c0; c < c0 + w; c++) out.push(cellName(r, c));
  return out;
}

/**
 * The bounding box `{r0, c0, h, w}` of a list of cell names.
 * @param {string[]} cells
 */
export function bbox(cells) {
  const ps = cells.map(parseCell).filter((p) => p !== null);
  const rs = ps.map((p) => p.r);
  const cs = ps.map((p) => p.c);
  const r0 = Math.min(...rs);
  const c0 = Math.min(...cs);
  return { r0, c0, h: Math.max(...rs) - r0 + 1, w: Math.max(...cs) - c0 + 1 };
}

/** @type {(a: string[], b: string[]) => boolean} Whether two lists hold the same cell names. */
export const sameCells = (a, b) => a.length === b.length && [...a].sort().join(' ') === [...b].sort().join(' ');

/** @type {(a: Cell, b: Cell) => number} The steps from one cell to another along rows and columns. */
export const distance = (a, b) => Math.abs(a.r - b.r) + Math.abs(a.c - b.c);

/**
 * The cells of an area `[rows, cols, aim_row, aim_col]` aimed at `aim`, kept on the board.
 * @param {[number, number, number, number]} area
 * @param {Cell} aim
 */
export function areaCells(area, aim) {
  const [h, w, oh, ow] = area;
  return rectCells(clamp(aim.r - oh, 0, SIDE - h), clamp(aim.c - ow, 0, SIDE - w), h, w);
}

/**
 * The cells from `from` to `to` along a row or a column.
 * @param {Cell} from
 * @param {Cell} to
 * @returns {string[]}
 */
export function lineCells(from, to) {
  const out = [];
  const n = Math.max(Math.abs(to.r - from.r), Math.abs(to.c - from.c));
  for (let i = 0; i <= n; i++) {
    out.push(cellName(from.r + Math.sign(to.r - from.r) * i, from.c + Math.sign(to.c - from.c) * i));
  }
  return out;
}
