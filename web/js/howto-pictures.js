// @ts-check
// The pictures of the "how to play" pages: small positions drawn with each game's own board
// drawing (mad.js, chakart.js, moonleap.js, naval.js), so a picture looks exactly like the table:
// a legal move, a capture or a hit, each item or special weapon with its cost and effect. The
// positions are examples made for the page (docs/rules/<game>.md says why each is so); the words
// are in i18n-howto.js.

import { el } from './api.js';
import { t } from './i18n.js';
import { svgEl } from './svg.js';
import { renderBoard, cellIndex } from './mad.js';
import { renderChakartBoard, itemIcon } from './chakart.js';
import { pieceIcon } from './chakart-pieces.js';
import { renderTrack } from './moonleap.js';
import { renderNavalExample } from './naval.js';

/**
 * A figure: the drawing (an SVG filled by `draw`) above its caption.
 * @param {string} caption
 * @param {(svg: SVGSVGElement) => void} draw
 */
function figure(caption, draw, cls = '') {
  const svg = /** @type {SVGSVGElement} */ (svgEl('svg', { class: `howto-board ${cls}`, role: 'img', 'aria-label': caption }));
  draw(svg);
  return el('figure', { class: 'howto-figure' }, svg, el('figcaption', {}, caption));
}

/**
 * A list of `[icon, words]` lines (items, weapons).
 * @param {(Node | string)[][]} items
 */
function iconList(items) {
  return el('ul', { class: 'howto-icons' }, ...items.map(([icon, words]) => el('li', {}, icon, ' ', words)));
}

// ---- MAD (rules/mad.md sections 3 to 6) ----------------------------------------------------------

/**
 * The 24 cells of a MAD board with the ships of `at` (`{b2: 'R121'}`), the rest empty.
 * @param {Record<string, string>} at
 */
function madCells(at) {
  /** @type {(string | null)[]} */
  const cells = Array(24).fill(null);
  for (const [cell, ship] of Object.entries(at)) cells[cellIndex(cell)] = ship;
  return cells;
}

function madFigures() {
  const fleet = { a1: 'R221', b1: 'R111', c1: 'R222', d1: 'R212', a6: 'B221', b6: 'B111', c6: 'B222', d6: 'B212' };
  /**
   * @param {Record<string, string>} at
   * @param {{ selected?: string, targets?: Map<string, string>, involved?: Set<string> }} view
   */
  const draw = (at, view) => (/** @type {SVGSVGElement} */ svg) => renderBoard(svg, { cells: madCells({ ...fleet, ...at }), orientation: 'r', onCell: null, ...view });
  return [
    figure(t('howto.mad.move'), draw({ b2: 'R121' }, {
      selected: 'b2', targets: new Map([['b3', 'move'], ['a2', 'move'], ['c2', 'move']]),
    })),
    figure(t('howto.mad.expel'), draw({ c3: 'R122', c4: 'B121' }, {
      selected: 'c3', targets: new Map([['c4', 'capture'], ['b3', 'move'], ['d3', 'move']]),
    })),
    figure(t('howto.mad.permute'), draw({ a2: 'R112', d3: 'R221' }, { involved: new Set(['a2', 'd3']) })),
    figure(t('howto.mad.rotate'), draw({ a2: 'R211', b3: 'R121', c2: 'R112' }, { involved: new Set(['a2', 'b3', 'c2']) })),
  ];
}

// ---- Chakart (rules/chakart.md sections 5 to 8) ----------------------------------------------------

/**
 * A Chakart observation's `pieces` from `{e4: 'wp'}` (side letter, piece letter).
 * @param {Record<string, string>} at
 */
function ckPieces(at) {
  /** @type {Record<string, string>} */
  const kinds = { p: 'pawn', r: 'rook', n: 'knight', b: 'bishop', q: 'queen', k: 'king' };
  return Object.entries(at).map(([square, code]) => ({ square, side: code[0] === 'w' ? 'white' : 'black', kind: kinds[code[1]] }));
}

function chakartFigures() {
  const kings = { e1: 'wk', e8: 'bk' };
  const items = ['banana', 'bomb', 'mushroom', 'egg'];
  return [
    figure(t('howto.ck.move'), (/** @type {SVGSVGElement} */ svg) => renderChakartBoard(svg, {
      pieces: ckPieces({ ...kings, e4: 'wp', d7: 'bp' }), items: [{ square: 'e3', item: 'mushroom' }],
      last_move: { from: 'e2', to: 'e4' },
    })),
    figure(t('howto.ck.capture'), (/** @type {SVGSVGElement} */ svg) => renderChakartBoard(svg, {
      pieces: ckPieces({ ...kings, f4: 'wn', d5: 'bb', g6: 'bp' }), items: [],
    }, { selected: 'f4', targets: new Set(['d5', 'e6', 'g6', 'h5', 'h3', 'g2', 'e2', 'd3']) })),
    figure(t('howto.ck.items'), (/** @type {SVGSVGElement} */ svg) => renderChakartBoard(svg, {
      pieces: ckPieces(kings), items: [{ square: 'c3', item: 'banana' }, { square: 'f6', item: 'bomb' }, { square: 'd4', item: 'mushroom' }, { square: 'e5', item: 'egg' }],
    })),
    iconList([
      ...['p', 'r', 'n', 'b', 'q', 'k'].map((k) => [pieceIcon(k, 'w', 26), t('ck.legend.piece', { name: t(`ck.name.${k}`), piece: t(`ck.piece.${k}`) })]),
      ...items.map((item) => [itemIcon(item, 26), t(`howto.ck.item.${item}`)]),
    ]),
    el('p', { class: 'small' }, t('howto.ck.eggs')),
    el('ul', { class: 'small' }, ...['boo', 'koopa', 'toadette', 'chomp', 'daisy', 'bowser', 'luigi', 'waluigi'].map((e) => el('li', {}, t(`ck.egg.${e}`)))),
  ];
}

// ---- Moon Leap (rules/moonleap.md "Turn", "Splitting", "Runs") ------------------------------------

/**
 * A short track of 16 craters (values made for the example) with astronauts `at` (`{3: 'a4'}`).
 * @param {Record<number, string>} at
 */
function mlObs(at, passed = false) {
  const values = [-3, -2, 0, 2, -1, 0, 3, 0, 4, 0, -2, 5, 0, 6, 8, 10];
  const track = values.map((_, i) => at[i + 1] ?? null);
  return { values, end_cells: [14, 15, 16], milestone_after: 8, milestone_passed: passed, track };
}

function moonleapFigures() {
  /**
   * @param {Record<number, string>} at
   * @param {import('./moonleap.js').Leap[]} arrows
   * @param {boolean} [passed]
   */
  const draw = (at, arrows, passed) => (/** @type {SVGSVGElement} */ svg) => renderTrack(svg, { obs: mlObs(at, passed), onAction: null, arrows });
  return [
    figure(t('howto.ml.leap'), draw({ 3: 'a4', 4: 'b2', 5: 'a1', 7: 'c3' }, [{ from: 3, to: 6, cls: 'ml-preview' }])),
    figure(t('howto.ml.enter'), draw({ 1: 'b1', 2: 'a3' }, [{ from: null, to: 3, cls: 'ml-preview' }])),
    figure(t('howto.ml.split'), draw({ 9: 'a2', 10: 'b4', 11: 'a3' }, [{ from: 9, to: 12, cls: 'ml-preview' }, { from: 11, to: 13, cls: 'ml-preview' }], true)),
    figure(t('howto.ml.run'), draw({ 5: 'a1', 6: 'a2', 7: 'a5', 4: 'c1' }, [{ from: 2, to: 7, cls: 'ml-preview' }])),
  ];
}

// ---- Bataille Navale (rules/naval.md sections 6 to 11) ----------------------------------------------

const COLS = 'abcdefghijklmn';
/** The corner cells of a `rows` x `cols` area whose top-left cell is (r, c), 0-based. */
const area = (/** @type {number} */ r, /** @type {number} */ c, /** @type {number} */ rows, /** @type {number} */ cols) => ({ from: `${COLS[c]}${r + 1}`, to: `${COLS[c + cols - 1]}${r + rows}` });

/**
 * The special weapons as the how-to shows them: ship, the area drawn (rows, columns; rules/naval.md
 * section 9 table), the cost from the game's config (`costs`, read from /api/games).
 */
/** @type {[ship: string, ability: string, rows: number, cols: number][]} */
const WEAPONS = [
  ['carrier', 'bombing', 1, 8], ['carrier', 'emp', 14, 14],
  ['cruiser', 'artillery', 2, 2], ['cruiser', 'heavy', 3, 3],
  ['battleship', 'charges', 7, 7], ['battleship', 'radar', 7, 7],
  ['frigate', 'rockets', 5, 5], ['frigate', 'missile', 4, 4],
  ['submarine', 'torpedo', 1, 14], ['submarine', 'sonar', 5, 5],
  ['corvette', 'shield', 3, 3], ['corvette', 'satellite', 5, 5],
];

/**
 * @param {any} config the game's default config (its `costs`)
 */
function navalFigures(config) {
  const around = (/** @type {string} */ cell) => {
    const [c, r] = [COLS.indexOf(cell[0]), Number(cell.slice(1)) - 1];
    return [-1, 0, 1].flatMap((dr) => [-1, 0, 1].map((dc) => [r + dr, c + dc]))
      .filter(([i, j]) => (i !== r || j !== c) && i >= 0 && j >= 0 && i < 14 && j < 14)
      .map(([i, j]) => `${COLS[j]}${i + 1}`);
  };
  /**
   * @param {Parameters<typeof renderNavalExample>[1]} board
   * @param {Parameters<typeof renderNavalExample>[2]} [areas]
   */
  const draw = (board, areas) => (/** @type {SVGSVGElement} */ svg) => renderNavalExample(svg, board, areas);
  const weapons = WEAPONS.map(([ship, ability, rows, cols]) => {
    const r = Math.max(0, Math.min(14 - rows, 6 - Math.floor(rows / 2)));
    const c = Math.max(0, Math.min(14 - cols, 6 - Math.floor(cols / 2)));
    const cost = config?.costs?.[ability];
    const words = `${t(`nv.ship.${ship}`)} · ${t(`nv.ab.${ability}`)}${cost === undefined ? '' : ` · ${t('howto.nv.cost', { n: cost })}`}: ${t(`howto.nv.ab.${ability}`)}`;
    return figure(words, draw({}, [area(r, c, rows, cols)]), 'small-board');
  });
  return [
    figure(t('howto.nv.shot'), draw({ hits: ['f7'], misses: ['c3', 'j10', 'k4'] })),
    figure(t('howto.nv.block'), draw({ hits: ['f7'], blocks: [{ owner: 1, cells: around('f7') }] })),
    figure(t('howto.nv.sunk'), draw({ hits: ['h3', 'h4'], misses: ['g3', 'i4'], sunk: [{ piece: 'cruiser', at: 'c10h', cells: ['c10', 'd10', 'e10', 'f10', 'g10'] }] })),
    figure(t('howto.nv.shield'), draw({ deflected: ['h4', 'i5'], shield: { cells: ['g4', 'h4', 'i4', 'g5', 'h5', 'i5', 'g6', 'h6', 'i6'], charges: 3 } })),
    el('h3', {}, t('howto.nv.weapons')),
    el('div', { class: 'howto-weapons' }, ...weapons),
  ];
}

/**
 * The pictures of game `game` (null for a game without any): MAD, Chakart, Moon Leap, Bataille
 * Navale. `config` is the game's default config (Bataille Navale's costs).
 * @param {string} game
 * @param {any} config
 */
export function pictures(game, config) {
  /** @type {Record<string, (config: any) => HTMLElement[]>} */
  const makers = { mad: madFigures, chakart: chakartFigures, moonleap: moonleapFigures, naval: navalFigures };
  const make = Object.hasOwn(makers, game) ? makers[game] : null;
  if (!make) return null;
  return el('section', { class: 'howto-pictures', id: 'howto-pictures' }, el('h2', {}, t('howto.pictures')), ...make(config));
}
