// @ts-check
// The rating-over-time chart of the player page: one SVG, one line per game, drawn from the
// profile's `history` (docs/protocol.md, PROFILE: per game, the rating after each rated game,
// oldest first, the first point being the start). The x axis counts rated games, so a burst of games
// in one evening reads as clearly as a game a month.

import { el } from './api.js';

const NS = 'http://www.w3.org/2000/svg';
const W = 640;
const H = 260;
const PAD = { left: 48, right: 16, top: 16, bottom: 44 };
/** Line colours by game, in the order of the games. */
const COLOURS = ['#22577a', '#c23b2e', '#2a9d5c', '#8e44ad', '#e08a1e'];

/**
 * A rating's history by game: the shown rating before the first rated game, then after each
 * (docs/protocol.md section 7.3, PROFILE).
 * @typedef {Record<string, { at: number, rating: number, match: string | null }[]>} History
 */

/**
 * An SVG element with attributes and children.
 * @param {string} tag
 * @param {Record<string, string | number>} [attrs]
 * @param {(Node | string | number)[]} children
 */
function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

/**
 * Round numbers for the y axis between `lo` and `hi` (four to six ticks).
 * @param {number} lo
 * @param {number} hi
 */
export function ticks(lo, hi) {
  const span = Math.max(hi - lo, 1);
  const raw = span / 5;
  const mag = 10 ** Math.floor(Math.log10(raw));
  // 10 * mag is at least raw, so a step is always found.
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(Math.round(v));
  return out;
}

/**
 * The chart as an <svg>: `history` is {game: [{at, rating, match}]}, `title(game)` names a game,
 * `label` is the chart's accessible name and `xCaption` the words under the x axis. Each point of a line is a circle with a <title> giving
 * the rating (and carries data-game, data-index, data-rating for tests and tooltips).
 * @param {History | null | undefined} history
 * @param {(game: string) => string} title
 * @param {string} label
 */
export function ratingChart(history, title, label, xCaption = '') {
  const series = Object.entries(history || {}).filter(([, points]) => points.length > 0);
  const all = series.flatMap(([, points]) => points.map((p) => p.rating));
  const longest = Math.max(1, ...series.map(([, points]) => points.length - 1));
  let lo = Math.min(...all);
  let hi = Math.max(...all);
  if (!Number.isFinite(lo)) {
    lo = 1400;
    hi = 1600;
  }
  const margin = Math.max(20, (hi - lo) * 0.1);
  lo -= margin;
  hi += margin;
  const x = (/** @type {number} */ i) => PAD.left + (i / longest) * (W - PAD.left - PAD.right);
  const y = (/** @type {number} */ r) => PAD.top + (1 - (r - lo) / (hi - lo)) * (H - PAD.top - PAD.bottom);
  const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'rating-chart', role: 'img', 'aria-label': label });
  for (const v of ticks(lo, hi)) {
    root.append(svg('line', { x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v), class: 'grid' }),
      svg('text', { x: PAD.left - 6, y: y(v), class: 'tick', 'text-anchor': 'end', 'dominant-baseline': 'middle' }, v));
  }
  root.append(svg('line', { x1: PAD.left, x2: W - PAD.right, y1: H - PAD.bottom, y2: H - PAD.bottom, class: 'axis' }));
  for (const i of ticks(0, longest).filter((v) => v >= 0 && v <= longest)) {
    root.append(svg('text', { x: x(i), y: H - PAD.bottom + 16, class: 'tick', 'text-anchor': 'middle' }, i));
  }
  if (xCaption) {
    root.append(svg('text', { x: W - PAD.right, y: H - 4, class: 'tick caption', 'text-anchor': 'end' }, xCaption));
  }
  series.forEach(([game, points], k) => {
    const colour = COLOURS[k % COLOURS.length];
    const line = svg('polyline', {
      points: points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(' '),
      fill: 'none', stroke: colour, 'stroke-width': 2.5, 'data-game': game, class: 'series',
    });
    root.append(line);
    points.forEach((p, i) => {
      root.append(svg('circle', {
        cx: x(i).toFixed(1), cy: y(p.rating).toFixed(1), r: 3.5, fill: colour,
        'data-game': game, 'data-index': i, 'data-rating': p.rating, class: 'point',
      }, svg('title', {}, `${title(game)}: ${p.rating}`)));
    });
  });
  return root;
}

/**
 * The chart's legend: one swatch per game, in the colours of the lines.
 * @param {History | null | undefined} history
 * @param {(game: string) => string} title
 */
export function chartLegend(history, title) {
  const games = Object.entries(history || {}).filter(([, points]) => points.length > 0).map(([g]) => g);
  return el('ul', { class: 'chart-legend' }, ...games.map((g, k) => el('li', {},
    el('span', { class: 'legend-swatch', style: `background:${COLOURS[k % COLOURS.length]}` }), ' ', title(g))));
}
