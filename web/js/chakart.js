// @ts-check
// Chakart on the match page (rules/chakart.md): an 8x8 SVG board from the seat's side, pieces
// drawn (chakart-pieces.js), items on squares, immobilized pieces ringed, the captured pools, and the
// legal actions of the server, composed from their parts (`legal_info`) and sent back as their
// canonical texts (ruling 11), played by clicking a piece then a target square. When several actions share a from/to (promotion, stealth, shell) an explicit
// choice is offered; promotions, drops and swaps of multi-step turns are offered the same way.
// The squares of the last move are tinted, the pieces the seat can move now (from the legal list)
// are marked, and a king the opponent could take next (the observation's `kings_in_danger`) is
// ringed in red with a warning. New moves in the log are narrated one by one (redirects, egg
// effects) with their squares lit; the text stays until the next move. The move lists put every
// entry in words from its parts (`describeEntry`).

import { el } from './api.js';
import { t } from './i18n.js';
import { drawPiece, pieceIcon } from './chakart-pieces.js';
import { showLegend } from './legend.js';

const SVG = 'http://www.w3.org/2000/svg';
const CELL = 60;
const FILES = 'abcdefgh';

/** Pool order of the panel (section 2), as piece letters. */
const POOL_KINDS = ['p', 'r', 'n', 'b', 'q', 'k'];

/**
 * A legal action as the page composes it (`legalChoices`).
 * @typedef {{ text: string, from: string | null, to: string | null, kind: string, piece: string | null }} Choice
 */

/**
 * A square of the board (`boardCells`): a piece (its side, `w` or `b`, and glyph key), or an item.
 * @typedef {{ side: string, kind: string, frozen?: boolean, hidden?: boolean, item?: undefined }
 *   | { item: string, side?: undefined, kind?: undefined, frozen?: undefined, hidden?: undefined }} Cell
 */

/**
 * What `renderChakart` draws from (game-chakart.js builds it from the match page's context).
 * @typedef {{ svg: SVGSVGElement, panel: HTMLElement | null, decision: HTMLElement, legend: HTMLElement,
 *   state: import('./match-state.js').MatchState, canAct: boolean, play: (text: string) => void,
 *   render: () => void, past: boolean }} ChakartCtx
 */

/**
 * The marks of `drawBoard` (all optional): the board seen from Black (`flip`), the square picked,
 * the movable pieces, the targets, an effect's squares, the last move's, the kings in danger (Sets
 * of square names), and what a click on a square of `froms` or `targets` does.
 * @typedef {{ flip?: boolean, selected?: string | null, froms?: Set<string>, targets?: Set<string>,
 *   lit?: Set<string>, last?: Set<string>, danger?: Set<string>,
 *   onSquare?: ((sq: string) => void) | null }} Marks
 */

/** UI state of this page, reset when the legal list changes. */
const ui = {
  /** @type {string | null} A square name, or '@r' for a drop of that kind. */
  selected: null,
  /** @type {{ from: string, to: string, actions: Choice[] } | null} */
  choice: null,
  legalKey: '',
  /** @type {string[] | null} The move list as last narrated, an entry's key per ply (null before the first state). */
  told: null,
  /** @type {Flash} The effect being told (its ply, lit squares and words), or none (ply -1). */
  flash: { ply: -1, squares: new Set(), text: '' },
  /** @type {{ ply: number, fx: Effect | null }[]} The entries still to narrate, in order. */
  queue: [],
  /** @type {ReturnType<typeof setTimeout> | null} Ends the effect being told (900 ms). */
  timer: null,
};

/** @typedef {{ text: string, squares: string[], kind: string }} Effect */
/** @typedef {{ ply: number, squares: Set<string>, text: string }} Flash */

/** @type {Flash} No effect told. */
const SILENT = { ply: -1, squares: new Set(), text: '' };

/**
 * @param {string} name
 * @param {Record<string, string | number>} [attrs]
 * @param {string | undefined} [text]
 */
function svgEl(name, attrs = {}, text) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The crate's kind names (the observation's `pieces` and `pools`) to the page's glyph keys. @type {Record<string, string>} */
const KIND_KEY = { pawn: 'p', rook: 'r', knight: 'n', bishop: 'b', queen: 'q', king: 'k' };
/** Pool order of the panel (section 2). */
const POOL_NAMES = ['pawn', 'rook', 'knight', 'bishop', 'queen', 'king'];

/**
 * The board of the observation as a map square name -> cell: `{ side: 'w'|'b', kind, frozen,
 * hidden }` for pieces, `{ item }` for items, from its `pieces` and `items` (built by the server
 * from the board this viewer may see: a hidden queen not its own is not there).
 * @param {any} obs the observation
 * @returns {Map<string, Cell>}
 */
export function boardCells(obs) {
  /** @type {Map<string, Cell>} */
  const cells = new Map();
  for (const p of obs?.pieces || []) {
    const kind = KIND_KEY[p.kind];
    if (kind) cells.set(p.square, { side: p.side === 'white' ? 'w' : 'b', kind, frozen: p.frozen, hidden: p.hidden });
  }
  for (const i of obs?.items || []) cells.set(i.square, { item: i.item });
  return cells;
}

/**
 * The captured pools of the observation: `{ w: {p: n, ...}, b: {...} }` from its `pools`.
 * @param {any} obs the observation
 */
export function poolCounts(obs) {
  /** @type {Record<string, Record<string, number>>} */
  const pools = { w: {}, b: {} };
  for (const [side, name] of [['w', 'white'], ['b', 'black']]) {
    for (const kind of POOL_NAMES) pools[side][KIND_KEY[kind]] = obs?.pools?.[name]?.[kind] || 0;
  }
  return pools;
}

/**
 * The legal actions as the page composes them, from the server's parts of each (`legal` with
 * `legal_info`, docs/protocol.md section 4.1), never from their notation: `{ text, from, to, kind,
 * piece }` where kind is move, promote-move, stealth, shell, swap, drop or promote. `from` of a
 * drop is `@<kind>`; a bare promotion has neither from nor to. An action without its parts is not
 * offered.
 * @param {string[]} legal
 * @param {any[]} info the parts of each (`legal_info`)
 * @returns {Choice[]}
 */
export function legalChoices(legal, info) {
  return legal.flatMap((text, i) => {
    const part = info[i];
    if (!part) return [];
    const piece = part.choice || null;
    switch (part.kind) {
      case 'move': return [{ text, from: part.from, to: part.to, kind: piece ? 'promote-move' : 'move', piece }];
      case 'stealth':
      case 'shell':
      case 'swap': return [{ text, from: part.from, to: part.to, kind: part.kind, piece: null }];
      case 'drop': return [{ text, from: `@${piece}`, to: part.to, kind: 'drop', piece }];
      case 'promote': return [{ text, from: null, to: null, kind: 'promote', piece }];
      default: return [];
    }
  });
}

/** Whether the player has yet to pick a piece (nothing selected, no choice open). */
export function picking() {
  return !ui.selected && !ui.choice;
}

/**
 * What a logged entry tells about random effects, or null: `{ text, squares, kind }`, from the
 * entry's parts (`info`, docs/protocol.md section 4.1: the chance outcomes `redirect`, `banana`,
 * `bomb` with the square `to`, `egg` with the effect letter `choice` and the square a forced
 * Luigi or Waluigi flipped), never from its SAN.
 * @param {import('./games.js').LogEntry | undefined} entry
 * @returns {Effect | null}
 */
export function describeEffect(entry) {
  const info = entry?.info;
  const squares = info?.to ? [info.to] : [];
  switch (info?.kind) {
    case 'redirect': return { text: t('ck.fx.redirect', { sq: info.to }), squares, kind: 'redirect' };
    case 'banana':
    case 'bomb': return { text: t('ck.fx.drop', { item: t(`ck.item.${info.kind}`), sq: info.to }), squares, kind: 'drop' };
    case 'egg': return info.choice ? { text: t('ck.fx.egg', { name: t(`ck.egg.${info.choice}`) }), squares, kind: 'egg' } : null;
    default: return null;
  }
}

/** An entry as the narration tells it apart: its seat and text (an egg's outcome is in its text). */
const entryKey = (/** @type {import('./games.js').LogEntry} */ m) => JSON.stringify([m.by, m.text]);

/**
 * Follows the move list `moves` (the whole list, at each drawing): the entries after the part it
 * shares with the list last seen are queued, an effect to narrate (900 ms each, its squares lit)
 * or `null` for a move without one, which ends the last effect's words (a new move is played:
 * what the last one did is over). Keyed by ply, not by a count: a list cut by a takeback drops
 * what was queued or told past the cut, and moves that came after the cut (in the same state or
 * later) are told, whether the list ends longer, shorter or as long as before. The list found at
 * the first state is history: nothing of it is told. Never draws: the caller is drawing.
 * @param {import('./games.js').LogEntry[]} moves
 * @param {() => void} render
 */
function narrate(moves, render) {
  const keys = moves.map(entryKey);
  const told = ui.told;
  ui.told = keys;
  if (!told) return;
  let same = 0;
  while (same < told.length && same < keys.length && told[same] === keys[same]) same += 1;
  if (same < told.length) {
    ui.queue = ui.queue.filter((q) => q.ply < same);
    if (ui.flash.ply >= same) {
      if (ui.timer) clearTimeout(ui.timer);
      ui.timer = null;
      ui.flash = SILENT;
    }
  }
  for (let ply = same; ply < keys.length; ply += 1) ui.queue.push({ ply, fx: describeEffect(moves[ply]) });
  if (!ui.timer) advance(render);
}

/**
 * Moves the narration on: the moves without an effect at the head of the queue end the words
 * shown, then the next effect is told for 900 ms (and `render` called after them, to draw the next
 * one); with none left the lit squares go dark and the words stay. Draws nothing itself.
 * @param {() => void} render
 */
function advance(render) {
  while (ui.queue.length && !ui.queue[0].fx) {
    ui.queue.shift();
    ui.flash = SILENT;
  }
  const next = ui.queue.shift();
  if (!next?.fx) {
    ui.timer = null;
    if (ui.flash.squares.size) ui.flash = { ...ui.flash, squares: new Set() };
    return;
  }
  ui.flash = { ply: next.ply, squares: new Set(next.fx.squares), text: next.fx.text };
  ui.timer = setTimeout(() => {
    advance(render);
    render();
  }, 900);
}

/**
 * The squares the observation `obs` asks to mark: `last` (the last move's from and to, a Set of
 * square names; an opponent's stealth move shows its start only) and `danger` (the kings the
 * opponent could take next).
 * @param {any} obs the observation
 * @returns {{ last: Set<string>, danger: Set<string> }}
 */
export function marks(obs) {
  /** @type {Set<string>} */
  const last = new Set([obs?.last_move?.from, obs?.last_move?.to].filter(Boolean));
  return { last, danger: new Set(obs?.kings_in_danger || []) };
}

/**
 * The warning about kings in danger for the viewer: `seat` its seat (null for a spectator), `cells`
 * from `boardCells`. Empty when no king is in danger.
 * @param {any} obs the observation
 * @param {number | null} seat
 * @param {Map<string, Cell>} cells
 */
export function kingWarning(obs, seat, cells) {
  const squares = obs?.kings_in_danger || [];
  if (!squares.length) return '';
  if (seat === 0 || seat === 1) return t('ck.danger.own', { sq: squares.join(', ') });
  return squares.map((/** @type {string} */ sq) => t(cells.get(sq)?.side === 'b' ? 'ck.danger.black' : 'ck.danger.white', { sq })).join(' ');
}

/**
 * Draws the board and the Chakart panel. `ctx`: `{ svg, panel, decision, legend, state, canAct,
 * play, render, past }` where `state` is the match state (observation, legal, moves, seat),
 * `play(text)` sends an action and `render()` redraws the page, `decision` is the turn panel's
 * node for the choices and `legend` the slot of the board's legend; `past` is true while the page
 * shows an earlier position: nothing is narrated, and the panel has no choices.
 * @param {ChakartCtx} ctx
 */
export function renderChakart(ctx) {
  const { svg, state } = ctx;
  const obs = state.observation || {};
  const actions = ctx.canAct ? legalChoices(state.legal || [], state.legal_info || []) : [];
  const key = actions.map((a) => a.text).join(' ');
  if (key !== ui.legalKey) {
    ui.legalKey = key;
    ui.selected = null;
    ui.choice = null;
  }
  if (!ctx.past) narrate(state.moves || [], ctx.render);
  const flip = state.seat === 1;
  const cells = boardCells(obs);
  const froms = new Set(actions.flatMap((a) => (a.from && !a.from.startsWith('@') ? [a.from] : [])));
  const targets = new Set(actions.flatMap((a) => (a.from === ui.selected && a.to ? [a.to] : [])));
  const { last, danger } = marks(obs);

  const onSquare = (/** @type {string} */ sq) => {
    const picked = ui.selected;
    if (picked && targets.has(sq)) {
      const same = actions.filter((a) => a.from === picked && a.to === sq);
      if (same.length === 1) {
        ctx.play(same[0].text);
        return;
      }
      ui.choice = { from: picked, to: sq, actions: same };
    } else {
      ui.choice = null;
      ui.selected = ui.selected !== sq && froms.has(sq) ? sq : null;
    }
    ctx.render();
  };

  const lit = ctx.past ? new Set([]) : ui.flash.squares;
  drawBoard(svg, cells, { flip, selected: ui.selected, froms, targets, lit, last, danger, onSquare });

  renderPanel(ctx, obs, cells, actions, (a) => ctx.play(a.text), (from) => {
    ui.selected = ui.selected === from ? null : from;
    ui.choice = null;
    ctx.render();
  });
}

/**
 * Draws the 8x8 board into `svg`: `cells` from `boardCells`; `opts` = `{ flip, selected, froms,
 * targets, lit, last, danger, onSquare }` (seen from Black when `flip`; `froms` (the movable
 * pieces), `targets`, `lit` (an effect's squares), `last` (the last move's) and `danger` (kings the
 * opponent could take) are Sets of square names; `onSquare(sq)` is called by a click on a square
 * of `froms` or `targets`, none without).
 * @param {SVGSVGElement} svg
 * @param {Map<string, Cell>} cells
 * @param {Marks} opts
 */
function drawBoard(svg, cells, opts) {
  const {
    flip, selected: picked = null, froms = new Set(), targets = new Set(), lit = new Set(), last = new Set(),
    danger = new Set(), onSquare = null,
  } = opts;
  svg.setAttribute('viewBox', `0 0 ${CELL * 8 + 20} ${CELL * 8 + 20}`);
  svg.classList.add('chakart');
  svg.replaceChildren();
  for (let row = 0; row < 8; row++) {
    for (let col = 0; col < 8; col++) {
      const f = flip ? 7 - col : col;
      const r = flip ? row : 7 - row;
      const sq = `${FILES[f]}${r + 1}`;
      const x = 20 + col * CELL;
      const y = row * CELL;
      const light = (f + r) % 2 === 1;
      const marked = [last.has(sq) && 'last', froms.has(sq) && 'movable', danger.has(sq) && 'danger'].filter(Boolean);
      const g = svgEl('g', { class: ['ck-square', ...marked].join(' '), 'data-sq': sq });
      let fill = light ? '#f0d9b5' : '#b58863';
      // The last move as lichess tints it: its squares in yellow-green.
      if (last.has(sq)) fill = light ? '#cdd26a' : '#aaa23a';
      if (lit.has(sq)) fill = '#f7a8a8';
      if (picked === sq) fill = '#9fd39f';
      g.append(svgEl('rect', { x, y, width: CELL, height: CELL, fill }));
      if (danger.has(sq)) {
        g.append(svgEl('circle', { class: 'ck-danger', cx: x + CELL / 2, cy: y + CELL / 2, r: CELL / 2 - 2, fill: 'rgba(220,30,30,0.35)', stroke: '#c00', 'stroke-width': 3 }));
      }
      // A piece that can move now: a green frame inside its square.
      if (froms.has(sq) && picked !== sq) {
        g.append(svgEl('rect', { class: 'ck-movable', x: x + 2.5, y: y + 2.5, width: CELL - 5, height: CELL - 5, fill: 'none', stroke: 'rgba(20,120,20,0.75)', 'stroke-width': 3 }));
      }
      const cell = cells.get(sq);
      if (cell?.item) drawItem(g, cell.item, x, y);
      else if (cell && cell.item === undefined) {
        if (cell.frozen) g.append(svgEl('circle', { class: 'ck-frozen', cx: x + CELL / 2, cy: y + CELL / 2, r: CELL / 2 - 3, fill: 'none', stroke: '#1e7fd6', 'stroke-width': 4, 'stroke-dasharray': '6 3' }));
        const piece = drawPiece(cell.kind, cell.side, x + 4, y + 4, CELL - 8, cell.frozen ? ' frozen' : '');
        if (cell.hidden) piece.setAttribute('opacity', '0.4');
        g.append(piece);
      }
      if (targets.has(sq)) g.append(svgEl('circle', { cx: x + CELL / 2, cy: y + CELL / 2, r: 9, fill: 'rgba(20,120,20,0.6)' }));
      if (onSquare && (froms.has(sq) || targets.has(sq))) {
        const hit = svgEl('rect', {
          x, y, width: CELL, height: CELL, fill: 'transparent', 'data-sq': sq, style: 'cursor:pointer',
          class: `ck-hit${froms.has(sq) ? ' from' : ''}${targets.has(sq) ? ' target' : ''}`,
        });
        hit.addEventListener('click', () => onSquare(sq));
        g.append(hit);
      }
      svg.append(g);
      if (col === 0) svg.append(svgEl('text', { x: 8, y: y + CELL / 2 + 5, 'text-anchor': 'middle', 'font-size': 13, class: 'coord' }, String(r + 1)));
      if (row === 7) svg.append(svgEl('text', { x: x + CELL / 2, y: CELL * 8 + 15, 'text-anchor': 'middle', 'font-size': 13, class: 'coord' }, FILES[f]));
    }
  }
}

/**
 * Draws a position read-only (the replay page, the how-to page): the board of the observation
 * `obs` (its `pieces` and `items`) seen from White, with its last move and kings in danger marked,
 * no click handlers; `extra` adds marks (`selected`, `targets`, `lit`: as `drawBoard` takes them).
 * @param {SVGSVGElement} svg
 * @param {any} obs the observation
 * @param {Marks} [extra]
 */
export function renderChakartBoard(svg, obs, extra = {}) {
  drawBoard(svg, boardCells(obs), { flip: false, ...marks(obs), ...extra });
}

/**
 * An item drawn alone (the legends, the how-to page): a small SVG `px` pixels wide.
 * @param {string} item
 */
export function itemIcon(item, px = 22) {
  const icon = svgEl('svg', { width: px, height: px, viewBox: `${CELL * 0.15} ${CELL * 0.15} ${CELL * 0.7} ${CELL * 0.7}`, 'aria-hidden': 'true' });
  drawItem(icon, item, 0, 0);
  return icon;
}

/**
 * @param {Element} g
 * @param {string} item
 * @param {number} x
 * @param {number} y
 */
function drawItem(g, item, x, y) {
  const cx = x + CELL / 2;
  const cy = y + CELL / 2;
  const mark = svgEl('g', { class: `ck-item ${item}`, 'data-item': item });
  if (item === 'banana') {
    mark.append(svgEl('path', { d: `M${cx - 16} ${cy - 8} Q${cx} ${cy + 22} ${cx + 16} ${cy - 8} Q${cx} ${cy + 8} ${cx - 16} ${cy - 8}Z`, fill: '#f5d000', stroke: '#7a6200', 'stroke-width': 1.5 }));
  } else if (item === 'bomb') {
    mark.append(svgEl('circle', { cx, cy: cy + 3, r: 13, fill: '#222' }));
    mark.append(svgEl('path', { d: `M${cx + 8} ${cy - 8} l6 -7`, stroke: '#e55', 'stroke-width': 3 }));
  } else if (item === 'mushroom') {
    mark.append(svgEl('rect', { x: cx - 5, y: cy, width: 10, height: 12, fill: '#f3e6c8', stroke: '#555' }));
    mark.append(svgEl('path', { d: `M${cx - 16} ${cy + 1} A16 14 0 0 1 ${cx + 16} ${cy + 1}Z`, fill: '#d62828', stroke: '#555' }));
    mark.append(svgEl('circle', { cx: cx - 6, cy: cy - 5, r: 3, fill: '#fff' }));
    mark.append(svgEl('circle', { cx: cx + 6, cy: cy - 5, r: 3, fill: '#fff' }));
  } else {
    mark.append(svgEl('ellipse', { cx, cy, rx: 11, ry: 15, fill: '#fff', stroke: '#2a9d2a', 'stroke-width': 2 }));
    mark.append(svgEl('circle', { cx: cx - 3, cy: cy - 4, r: 3, fill: '#2a9d2a' }));
    mark.append(svgEl('circle', { cx: cx + 4, cy: cy + 5, r: 3, fill: '#2a9d2a' }));
  }
  g.append(mark);
}

/** @param {Choice} a */
function actionLabel(a) {
  if (a.kind === 'stealth') return t('ck.stealth');
  if (a.kind === 'shell') return t('ck.shell');
  if (a.kind === 'promote-move' || a.kind === 'promote') return t('ck.promote', { piece: t(`ck.piece.${a.piece}`) });
  if (a.kind === 'swap') return t('ck.swap');
  return t('ck.move');
}

/**
 * The turn panel's part (`ctx.decision`: a king in danger, the effect being narrated, the hint
 * and the choices of the decision) and the Chakart panel (the captured pools, the powers) and the
 * legend of the pieces and items.
 * @param {ChakartCtx} ctx
 * @param {any} obs the observation
 * @param {Map<string, Cell>} cells
 * @param {Choice[]} actions
 * @param {(a: Choice) => void} onAction
 * @param {(from: string) => void} onDrop
 */
function renderPanel(ctx, obs, cells, actions, onAction, onDrop) {
  const { panel, state } = ctx;
  const warning = kingWarning(obs, state.seat, cells);
  const pools = poolCounts(obs);
  const poolLine = (/** @type {string} */ side) => {
    const icons = POOL_KINDS.flatMap((k) => Array.from({ length: pools[side][k] }, () => pieceIcon(k, side, 20)));
    return el('div', { class: 'ck-pool', 'data-side': side, 'data-count': icons.length },
      el('span', { class: 'muted small' }, t(side === 'w' ? 'ck.pool.white' : 'ck.pool.black')), ' ',
      el('span', { class: 'ck-glyphs' }, ...(icons.length ? icons : ['—'])));
  };
  const choices = [];
  if (ui.choice) {
    choices.push(...ui.choice.actions.map((a) => el('button', { type: 'button', class: `chip ck-choice ${a.kind}`, 'data-action': a.text, onclick: () => onAction(a) }, actionLabel(a))));
  }
  for (const a of actions.filter((x) => x.kind === 'promote')) {
    choices.push(el('button', { type: 'button', class: 'chip ck-choice promote', 'data-action': a.text, onclick: () => onAction(a) }, actionLabel(a)));
  }
  const dropKinds = [...new Set(actions.filter((a) => a.kind === 'drop').map((a) => a.piece))];
  for (const k of dropKinds) {
    choices.push(el('button', { type: 'button', class: `chip ck-drop${ui.selected === `@${k}` ? ' selected' : ''}`, 'data-drop': k, onclick: () => onDrop(`@${k}`) },
      t('ck.drop', { piece: t(`ck.piece.${k}`) })));
  }
  // The powers and the decision waiting, from the observation's parts (`powers`, `waiting`).
  const power = (/** @type {string} */ side, /** @type {string} */ name) => (obs.powers?.[side]?.[name] ? t('ck.power.ready') : t('ck.power.used'));
  const hint = ['swap', 'drop', 'daisy', 'promote'].includes(obs.waiting) ? t(`ck.hint.${obs.waiting}`) : '';
  const effect = ctx.past ? '' : ui.flash.text || '';
  ctx.decision.replaceChildren(
    el('div', { id: 'ck-king-warning', class: `ck-king-warning${warning ? '' : ' hidden'}`, role: 'alert' }, warning),
    el('div', { id: 'ck-effect', class: `ck-effect${effect ? '' : ' hidden'}`, 'aria-live': 'polite' }, effect),
    hint ? el('p', { class: 'small' }, hint) : '',
    el('div', { id: 'ck-choices', class: `chips${choices.length ? '' : ' hidden'}` }, ...choices));
  panel?.replaceChildren(
    poolLine(state.seat === 1 ? 'w' : 'b'), poolLine(state.seat === 1 ? 'b' : 'w'),
    el('p', { class: 'muted small' }, t('ck.powers', {
      ws: power('white', 'shell'), wq: power('white', 'stealth'), bs: power('black', 'shell'), bq: power('black', 'stealth'),
    })));
  showLegend(ctx.legend, t('ck.legend'), [
    ...POOL_KINDS.map((k) => [pieceIcon(k, 'w', 22), t('ck.legend.piece', { name: t(`ck.name.${k}`), piece: t(`ck.piece.${k}`) })]),
    ...['banana', 'bomb', 'mushroom', 'egg'].map((item) => [itemIcon(item), t(`ck.item.${item}`)]),
    [el('span', { style: 'color:#1e7fd6' }, '◌'), t('ck.frozen')],
  ]);
}

/**
 * The words of a piece or item letter met on a square (`pieces` of an entry's parts).
 * @param {string} letter
 */
function metWords(letter) {
  return 'mdew'.includes(letter) ? t(`ck.met.${letter}`) : t(`ck.name.${letter}`);
}

/**
 * A logged entry in words from its parts (`info`, crates/games/chakart `action_info`), for the
 * move lists: "Toad e2 → e4", "Mario d1 → d5, takes Wario", "a banana lands on c6", "the egg holds
 * Luigi (…)". Null without parts.
 * @param {import('./games.js').LogEntry} entry
 * @returns {string | null}
 */
export function describeEntry(entry) {
  const info = entry?.info;
  if (!info) return null;
  const name = (/** @type {string} */ letter) => t(`ck.name.${letter}`);
  const [mover, met] = info.pieces || [];
  const moved = () => {
    let words = t('ck.say.move', { piece: mover ? name(mover) : '?', from: info.from, to: info.to });
    if (met) words = t('mdew'.includes(met) ? 'ck.say.meets' : 'ck.say.takes', { move: words, what: metWords(met) });
    if (info.choice) words = t('ck.say.becomes', { move: words, piece: name(info.choice) });
    return words;
  };
  switch (info.kind) {
    case 'move': return info.from && info.to ? moved() : null;
    case 'stealth': return info.from && info.to ? t('ck.say.stealth', { move: moved() }) : t('ck.say.stealth.hidden');
    case 'shell': {
      const words = t('ck.say.shell', { to: info.to });
      return met ? t('ck.say.takes', { move: words, what: metWords(met) }) : words;
    }
    case 'swap': return t('ck.say.swap', { from: info.from ?? '?', to: info.to });
    case 'drop': return t('ck.say.drop', { piece: name(info.choice), to: info.to });
    case 'promote': return t('ck.say.promote', { piece: name(info.choice) });
    case 'redirect': return t('ck.say.redirect', { sq: info.to });
    case 'banana':
    case 'bomb': return t(`ck.say.${info.kind}`, { sq: info.to });
    case 'egg': {
      const egg = t(`ck.egg.${info.choice}`);
      return info.to ? t('ck.say.egg.flip', { name: egg, sq: info.to }) : t('ck.say.egg', { name: egg });
    }
    case 'luigi':
    case 'waluigi': return t('ck.say.flip', { sq: info.to });
    case 'setup': return t('ck.say.setup', { file: info.choice });
    default: return null;
  }
}
