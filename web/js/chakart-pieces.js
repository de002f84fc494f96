// @ts-check
// Chakart's pieces, drawn (no font glyph: White and Black differ by their fill in any font and on
// any screen). Each kind has its own outline, read like a chess set (rules/chakart.md section 3:
// the pawn is Toad, the rook Donkey Kong, the knight Yoshi, the bishop Wario, the queen Mario and
// the king Peach); the legend names them.

import { svgEl } from './svg.js';

/** Outlines of the six kinds in a 60-unit square, centred on (30, 30). */
const SHAPES = {
  // A round head on a bell-shaped body.
  p: ['M30 12a7.5 7.5 0 1 1 0 15a7.5 7.5 0 1 1 0-15z',
    'M22 29h16l4 15h-24z', 'M16 44h28v6h-28z'],
  // A tower with three merlons.
  r: ['M17 12h6v5h4.5v-5h6v5h4.5v-5h6v11h-27z', 'M20 23h20v19h-20z', 'M15 42h30v8h-30z'],
  // A horse's head looking left.
  n: ['M21 50v-10c0-6 5-9 7-14l-9 4c-3 1-5-1-4-4l9-11c2-3 6-5 9-5l2-4 3 5c7 3 10 11 10 20v19z'],
  // A mitre with its slit and a ball on top.
  b: ['M30 8a4 4 0 1 1 0 8a4 4 0 1 1 0-8z', 'M30 15c9 7 12 15 8 25h-16c-4-10-1-18 8-25z',
    'M27 24l6 6', 'M16 41h28v5h-28z', 'M20 46h20v4h-20z'],
  // A crown of five points, each with a ball.
  q: ['M14 20l6 18h20l6-18-9 9-7-15-7 15z', 'M18 38h24v5h-24z', 'M15 43h30v7h-30z',
    'M14 15a3 3 0 1 1 0 6a3 3 0 1 1 0-6z', 'M46 15a3 3 0 1 1 0 6a3 3 0 1 1 0-6z',
    'M30 9a3 3 0 1 1 0 6a3 3 0 1 1 0-6z'],
  // A crowned body under a cross.
  k: ['M28 6h4v5h5v4h-5v5h-4v-5h-5v-4h5z', 'M17 25c0-6 26-6 26 0l-4 15h-18z',
    'M16 40h28v5h-28z', 'M14 45h32v5h-32z'],
};

/**
 * A piece of kind `kind` (`p r n b q k`) of side `side` (`w` or `b`) drawn in the square whose
 * top-left corner is (x, y) and side `size`: a group with class `ck-piece <side>` and
 * `data-piece`, White light with a dark outline, Black dark with a light one.
 * @param {string} kind
 * @param {string} side
 * @param {number} x
 * @param {number} y
 */
export function drawPiece(kind, side, x, y, size = 60, extra = '') {
  const g = svgEl('g', {
    class: `ck-piece ${side}${extra}`, 'data-piece': kind,
    transform: `translate(${x} ${y}) scale(${size / 60})`,
  });
  for (const d of Object.hasOwn(SHAPES, kind) ? SHAPES[/** @type {keyof typeof SHAPES} */ (kind)] : []) {
    g.append(svgEl('path', {
      d, fill: side === 'w' ? '#fbfaf5' : '#23262e', stroke: side === 'w' ? '#23262e' : '#f2efe6',
      'stroke-width': 2.2, 'stroke-linejoin': 'round', 'stroke-linecap': 'round',
    }));
  }
  return g;
}

/**
 * A small standalone SVG of one piece (pools, legends), `px` pixels wide.
 * @param {string} kind
 * @param {string} side
 */
export function pieceIcon(kind, side, px = 22) {
  const svg = svgEl('svg', { viewBox: '0 0 60 60', width: px, height: px, class: 'ck-icon', 'aria-hidden': 'true' });
  svg.append(drawPiece(kind, side, 0, 0));
  return svg;
}
