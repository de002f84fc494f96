// @ts-check
// Moon Leap drawing, and its decisions and die rolls composed from their parts (never from their
// notation, rules/moonleap.md "Canonical notation").
//
// Nothing here decides legality: the server sends the observation (crates/games/moonleap
// `Observation`: values, end_cells, milestone_after, track, roll, scores) and the legal action
// texts (`4`, `2+3`, `m4`, `m2+m3`, `pass`) with their parts; this module draws the track and turns
// the legal actions into clickable astronauts and split buttons. The track is a winding path of
// craters, eight to a row (six on a phone), the direction turning at each row end; leaps (the
// others' last ones, a choice previewed) are drawn over it as arrows.

import { t } from './i18n.js';
import { svgEl } from './svg.js';

/** Colour letters of seats 0..3 (rules: `a b c d` in turn order); `m` is a mercenary. */
const LETTERS = 'abcd';
/** Astronauts per colour, numbered 1..5 (rules/moonleap.md "Components"). */
export const ASTRONAUTS = 5;
/** Craters per row of the drawing: 8 on a wide screen, 6 on a phone (larger craters). */
const PER_ROW = 8;
export const PER_ROW_NARROW = 6;
/** Distance between crater centres and the margin, in SVG units. */
const STEP = 62;
const MARGIN = 40;

/**
 * An action's parts (docs/protocol.md section 4.1): the astronauts it moves (`pieces`), the
 * craters as text, a die's face (`choice`), and a split's second leap (`then`).
 * @typedef {{ kind: string, pieces?: string[], from?: string | null, to?: string | null,
 *   choice?: string, then?: Part | null }} Part
 */

/** A decision as the page offers it (`choiceOf`). @typedef {{ text: string, kind: string, parts: string[] }} Choice */

/** A leap over the track: craters (1-based; `from` null for an entry) and its colour class. @typedef {{ from: number | null, to: number, cls?: string }} Leap */

/**
 * The colour letter of a seat (0-based).
 * @param {number} seat
 */
export function seatLetter(seat) {
  return LETTERS[seat] || '?';
}

/**
 * A Moon Leap decision from its parts (`legal_info`, or a logged entry's `info`; docs/protocol.md
 * section 4.1): `{text, kind: "pass"|"move"|"split", parts}` where `parts` are astronaut ids
 * (`"4"`, `"m4"`) in playing order; null for parts of another kind (a roll).
 * @param {string} text
 * @param {Part | null | undefined} info
 * @returns {Choice | null}
 */
export function choiceOf(text, info) {
  if (!info || !['pass', 'move', 'split'].includes(info.kind)) return null;
  const parts = info.kind === 'pass' ? [] : [...(info.pieces ?? []).slice(0, 1), ...(info.then?.pieces ?? [])];
  return { text, kind: info.kind, parts };
}

/**
 * The legal decisions as the match page offers them, from the server's parts of each one
 * (`legal` with `legal_info`): `{text, kind, parts}` as `choiceOf` gives them.
 * @param {string[]} legal
 * @param {(Part | null | undefined)[]} info
 * @returns {Choice[]}
 */
export function legalChoices(legal, info) {
  // An action without its parts is not offered: the page composes from the parts alone.
  return legal.flatMap((text, i) => {
    const choice = choiceOf(text, info[i]);
    return choice ? [choice] : [];
  });
}

/**
 * The face of a logged entry that is a die roll (its parts `{kind: "roll", choice}`), or null.
 * @param {import('./games.js').LogEntry | undefined} entry
 * @returns {string | null}
 */
export function rollFace(entry) {
  return entry?.info?.kind === 'roll' ? entry.info.choice ?? null : null;
}

/**
 * How a person reads an astronaut id: `"4"` -> "4", `"m4"` -> "mercenary 4".
 * @param {string} id
 */
export function astronautName(id) {
  return id.startsWith('m') ? t('ml.mercenary', { n: id.slice(1) }) : id;
}

/**
 * The button text of a choice: "Move 4", "2 then 3", "Pass".
 * @param {Choice} action
 */
export function describeChoice(action) {
  if (action.kind === 'pass') return t('ml.pass');
  if (action.kind === 'split') return t('ml.split', { a: astronautName(action.parts[0]), b: astronautName(action.parts[1]) });
  return t('ml.move', { a: astronautName(action.parts[0]) });
}

/**
 * Centre of cell `i` (0-based) on the winding path of `perRow` craters a row.
 * @param {number} i
 * @param {number} perRow
 */
function centreOf(i, perRow) {
  const row = Math.floor(i / perRow);
  const k = i % perRow;
  const col = row % 2 === 0 ? k : perRow - 1 - k;
  return [MARGIN + col * STEP, MARGIN + row * STEP];
}

/**
 * The leaps of a decision or a logged action, from its parts (`info`: `from` and `to` crater
 * numbers as text, a split's second leap in `then`): `[{from, to}]` as numbers, `from` null for an
 * astronaut entering the track.
 * @param {Part | null | undefined} info
 * @returns {Leap[]}
 */
export function leapsOf(info) {
  const out = [];
  for (let part = info; part; part = part.then) {
    if (part.to) out.push({ from: part.from ? Number(part.from) : null, to: Number(part.to) });
  }
  return out;
}

/**
 * The astronaut numbers of colour `letter` that are not on the track (off board).
 * @param {(string | null)[]} track the observation's track: a token per crater, or null
 * @param {string} letter
 */
export function offBoard(track, letter) {
  const on = new Set(track.flatMap((x) => (x && x[0] === letter ? [Number(x.slice(1))] : [])));
  const out = [];
  for (let n = 1; n <= ASTRONAUTS; n++) if (!on.has(n)) out.push(n);
  return out;
}

/**
 * An astronaut token: a disc in the colour of its letter with its number.
 * @param {string} token
 * @param {number} cx
 * @param {number} cy
 */
function drawAstronaut(token, cx, cy, r = 15) {
  const g = svgEl('g', { class: `ml-astro ml-${token[0]}`, 'data-astro': token });
  g.append(svgEl('circle', { class: 'ml-astro-body', cx, cy, r }));
  const num = svgEl('text', { class: 'ml-astro-num', x: cx, y: cy, 'font-size': r * 1.15 });
  num.textContent = token.slice(1);
  g.append(num);
  return g;
}

/**
 * A standalone SVG of one astronaut (off-board rows, score table).
 * @param {string} token
 */
export function astronautIcon(token, size = 30) {
  const svg = svgEl('svg', { viewBox: '0 0 40 40', width: size, height: size, class: 'ml-icon', role: 'img',
    'aria-label': t('ml.astronaut', { colour: token[0].toUpperCase(), n: token.slice(1) }) });
  svg.append(drawAstronaut(token, 20, 20, 17));
  return svg;
}

/**
 * Draws the track into `svg` (cleared first).
 *
 * `view` = { obs: the observation, clickable: Map astronaut token (`"a4"`, `"m2"`) -> action text
 * of a single move, onAction: function(text) or null, perRow: craters a row (8 by default),
 * arrows: leaps to draw, `[{from, to, cls}]` (crater numbers, `from` null for an entry; `cls` a
 * colour class such as `ml-b`, or `ml-preview`) }.
 * @param {Element} svg
 * @param {{ obs: any, clickable?: Map<string, string>, onAction?: ((text: string) => void) | null,
 *   perRow?: number, arrows?: Leap[] }} view
 */
export function renderTrack(svg, view) {
  const { obs } = view;
  const n = obs.values.length;
  const perRow = view.perRow || PER_ROW;
  const cellCentre = (/** @type {number} */ i) => centreOf(i, perRow);
  const rows = Math.ceil(n / perRow);
  const width = 2 * MARGIN + (perRow - 1) * STEP;
  const height = 2 * MARGIN + (rows - 1) * STEP + 10;
  svg.replaceChildren();
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('class', 'board ml-board');
  svg.setAttribute('role', 'group');
  svg.setAttribute('aria-label', t('ml.board', { n }));

  // The path joining the craters, drawn first so the craters sit on it.
  const pts = obs.values.map((/** @type {number} */ _, /** @type {number} */ i) => cellCentre(i).join(','));
  svg.append(svgEl('polyline', { class: 'ml-path', points: pts.join(' ') }));

  const ends = new Set(obs.end_cells);
  const hits = svgEl('g');
  obs.values.forEach((/** @type {number} */ value, /** @type {number} */ i) => {
    const [cx, cy] = cellCentre(i);
    const cell = i + 1;
    const kind = value < 0 ? 'neg' : value > 0 ? 'pos' : 'zero';
    svg.append(svgEl('circle', { class: `ml-crater ${kind}${ends.has(cell) ? ' end' : ''}`, cx, cy, r: 25, 'data-cell': cell, 'data-value': value }));
    const label = svgEl('text', { class: `ml-value ${kind}`, x: cx, y: cy - 15 });
    label.textContent = value > 0 ? `+${value}` : String(value);
    svg.append(label);
    const num = svgEl('text', { class: 'ml-cellnum', x: cx, y: cy + 32 });
    num.textContent = ends.has(cell) ? `★${cell}` : String(cell);
    svg.append(num);
    const token = obs.track[i];
    if (token) {
      const g = drawAstronaut(token, cx, cy + 5, 13);
      g.setAttribute('data-cell', String(cell));
      svg.append(g);
      const action = view.clickable?.get(token);
      if (action && view.onAction) hits.append(hitCircle(cx, cy + 5, action, token, view.onAction));
    }
  });

  // The milestone line: across the path between cell `milestone_after` and the next one.
  const k = obs.milestone_after;
  if (k >= 1 && k < n) {
    const [x1, y1] = cellCentre(k - 1);
    const [x2, y2] = cellCentre(k);
    const mx = (x1 + x2) / 2;
    const my = (y1 + y2) / 2;
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    const [px, py] = [-(y2 - y1) / len, (x2 - x1) / len];
    svg.append(svgEl('line', { class: `ml-milestone${obs.milestone_passed ? ' passed' : ''}`, 'data-after': k,
      x1: mx - px * 30, y1: my - py * 30, x2: mx + px * 30, y2: my + py * 30 }));
  }
  for (const arrow of view.arrows || []) svg.append(drawLeap(arrow, cellCentre));
  svg.append(hits);
}

/**
 * A leap drawn over the track: a bowed arrow from crater `from` to crater `to` (an entry, `from`
 * null: a ring around `to` with a short stroke coming in), in the colour class `cls`.
 * @param {Leap} leap
 * @param {(i: number) => number[]} centre the centre of crater `i` (0-based)
 */
function drawLeap({ from, to, cls }, centre) {
  const g = svgEl('g', { class: `ml-leap ${cls || ''}`, 'data-from': from ?? '', 'data-to': to });
  const [x2, y2] = centre(to - 1);
  if (!from) {
    g.append(svgEl('circle', { class: 'ml-leap-line', cx: x2, cy: y2, r: 27 }));
    g.append(svgEl('path', { class: 'ml-leap-line', d: `M${x2 - 30} ${y2 - 30} L${x2 - 19} ${y2 - 19}` }));
    return g;
  }
  const [x1, y1] = centre(from - 1);
  const len = Math.hypot(x2 - x1, y2 - y1) || 1;
  // The bend, to one side of the straight line, so the arrow does not lie on the path.
  const [nx, ny] = [-(y2 - y1) / len, (x2 - x1) / len];
  const bow = Math.min(40, len / 3);
  const [cx, cy] = [(x1 + x2) / 2 + nx * bow, (y1 + y2) / 2 + ny * bow];
  // Stop short of the craters' rims.
  const along = (/** @type {number} */ x, /** @type {number} */ y, /** @type {number} */ tx, /** @type {number} */ ty, /** @type {number} */ d) => {
    const l = Math.hypot(tx - x, ty - y) || 1;
    return [x + ((tx - x) / l) * d, y + ((ty - y) / l) * d];
  };
  const [sx, sy] = along(x1, y1, cx, cy, 22);
  const [ex, ey] = along(x2, y2, cx, cy, 24);
  g.append(svgEl('path', { class: 'ml-leap-line', d: `M${sx.toFixed(1)} ${sy.toFixed(1)} Q${cx.toFixed(1)} ${cy.toFixed(1)} ${ex.toFixed(1)} ${ey.toFixed(1)}` }));
  // The head, along the curve's last direction.
  const [dx, dy] = [ex - cx, ey - cy];
  const dl = Math.hypot(dx, dy) || 1;
  const [ux, uy] = [dx / dl, dy / dl];
  const head = [[ex, ey], [ex - ux * 11 - uy * 6, ey - uy * 11 + ux * 6], [ex - ux * 11 + uy * 6, ey - uy * 11 - ux * 6]];
  g.append(svgEl('polygon', { class: 'ml-leap-head', points: head.map((p) => p.map((v) => v.toFixed(1)).join(',')).join(' ') }));
  return g;
}

/**
 * An invisible, focusable circle over an astronaut that plays `action` when clicked.
 * @param {number} cx
 * @param {number} cy
 * @param {string} action
 * @param {string} token
 * @param {(text: string) => void} onAction
 */
function hitCircle(cx, cy, action, token, onAction) {
  const hit = svgEl('circle', { class: 'ml-hit clickable', cx, cy, r: 18, role: 'button', tabindex: '0',
    'data-action': action, 'data-astro': token, 'aria-label': t('ml.move', { a: astronautName(action) }) });
  hit.addEventListener('click', () => onAction(action));
  hit.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' || ev.key === ' ') {
      ev.preventDefault();
      onAction(action);
    }
  });
  return hit;
}

/** Pip positions of faces 1..5 on a 60-unit die. @type {Record<string, number[][]>} */
const PIPS = {
  1: [[30, 30]],
  2: [[18, 18], [42, 42]],
  3: [[16, 16], [30, 30], [44, 44]],
  4: [[18, 18], [42, 18], [18, 42], [42, 42]],
  5: [[16, 16], [44, 16], [30, 30], [16, 44], [44, 44]],
};

/**
 * Draws face `face` (`"1"`..`"5"`, `"*"` or null for none yet) into the die `svg`.
 * @param {SVGElement | HTMLElement} svg
 * @param {string | null} face
 */
export function drawDie(svg, face) {
  svg.replaceChildren();
  svg.setAttribute('viewBox', '0 0 60 60');
  svg.append(svgEl('rect', { class: 'ml-die-body', x: 3, y: 3, width: 54, height: 54, rx: 10 }));
  if (face === '*') {
    const star = [];
    for (let i = 0; i < 10; i++) {
      const r = i % 2 === 0 ? 20 : 8.5;
      const a = -Math.PI / 2 + (i * Math.PI) / 5;
      star.push(`${(30 + r * Math.cos(a)).toFixed(1)},${(31 + r * Math.sin(a)).toFixed(1)}`);
    }
    svg.append(svgEl('polygon', { class: 'ml-die-star', points: star.join(' ') }));
  } else if (face && PIPS[face]) {
    for (const [x, y] of PIPS[face]) svg.append(svgEl('circle', { class: 'ml-die-pip', cx: x, cy: y, r: 5 }));
  }
  svg.dataset.face = face || '';
}

const FACES = ['1', '2', '3', '4', '5', '*'];

/**
 * Shows `face` on the die `svg`; when it differs from the face shown, or `key` (which roll it is)
 * changed, the die tumbles for a moment through other faces first.
 * @param {SVGElement | HTMLElement} svg
 * @param {string | null} face
 * @param {string} key
 */
export function showDie(svg, face, key) {
  if (svg.dataset.key === key) return;
  const first = svg.dataset.key === undefined;
  svg.dataset.key = key;
  clearInterval(Number(svg.dataset.timer || 0));
  if (first || !face) {
    drawDie(svg, face);
    return;
  }
  svg.classList.remove('rolling');
  void svg.getBoundingClientRect();
  svg.classList.add('rolling');
  let ticks = 0;
  const timer = setInterval(() => {
    ticks += 1;
    if (ticks >= 6) {
      clearInterval(timer);
      svg.classList.remove('rolling');
      drawDie(svg, face);
      return;
    }
    drawDie(svg, FACES[(FACES.indexOf(face) + ticks) % 6]);
    svg.dataset.face = '';
  }, 70);
  svg.dataset.timer = String(timer);
  drawDie(svg, FACES[(FACES.indexOf(face) + 1) % 6]);
  svg.dataset.face = '';
}
