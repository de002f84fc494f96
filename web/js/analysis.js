// @ts-check
// The post-game analysis on the replay page: asks the server for it (`POST
// /api/matches/{id}/analysis`), shows its progress while the server computes it, then draws each
// seat's chance to win after every action as a graph and marks the decisions that lost the most,
// both on the graph and in the move list (docs/protocol.md section 3.8). The browser computes
// nothing: every value is the server's.

import { api, el, errorMessage } from './api.js';
import { t, lang } from './i18n.js';
import { seatLabel } from './seats.js';

const SVG = 'http://www.w3.org/2000/svg';
/** The graph's drawing box, in SVG units; the CSS scales it to the panel's width. */
const W = 360;
const H = 150;
const PAD = { left: 34, right: 8, top: 8, bottom: 18 };
/** How often the page asks where a waiting or running analysis stands, in milliseconds. */
const POLL_MS = 400;

/**
 * An SVG element with attributes and children.
 * @param {string} tag
 * @param {Record<string, string | number>} [attrs]
 * @param {(Node | string)[]} children
 */
function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  node.append(...children);
  return node;
}

/**
 * A chance (0 to 1) as a whole percentage in the page's language ("62 %" in French).
 * @param {number} value
 */
export function percent(value) {
  return new Intl.NumberFormat(lang(), { style: 'percent', maximumFractionDigits: 0 }).format(value);
}

/**
 * A seat's decision judged (docs/protocol.md section 3.8).
 * @typedef {{ index: number, seat: number, action: string, values: number[],
 *   judgement?: { before: number, played: number, loss: number, best: string, best_info?: any } }} Ply
 */

/**
 * One of the biggest losses, with its mark ("?!", "?" or "??").
 * @typedef {{ index: number, seat: number, loss: number, mark?: string }} Loss
 */

/**
 * A finished analysis (section 3.8).
 * @typedef {{ game: string, seats: number, judge: string, start: number[], plies: Ply[],
 *   biggest_losses: Loss[] }} Analysis
 */

/**
 * Where the analysis stands (section 3.8), or the error that asking it met.
 * @typedef {{ status: 'none' | 'failed' } | { status: 'queued', waiting: number }
 *   | { status: 'running', done: number, total: number } | { status: 'done', analysis: Analysis }
 *   | { status: 'error', message: string }} Status
 */

/**
 * The analysis panel of one finished match. `steps` are the replay's steps (the start first),
 * `go(step)` shows a step, `describe(seat, text, info)` puts a seat's action in the move list's words
 * from its parts (`info`; the notation without them), `moveNumber(step)` is the number the move
 * list shows for a step.
 * Returns `{ draw(step) }`, which redraws the panel for the step shown (and for the language).
 * @param {HTMLElement} panel
 * @param {{ id: string, game: string, steps: { by: any, text?: string | Record<string, number> | null, info?: any }[],
 *   go: (step: number) => void,
 *   describe: (seat: number, text: string | Record<string, number>, info: any) => string,
 *   moveNumber: (step: number) => number }} what
 */
export function mountAnalysis(panel, { id, game, steps, go, describe, moveNumber }) {
  /** `actionStep[k]` is the replay step of the record's action k (1-based); endings are steps too. */
  const actionStep = [0];
  steps.forEach((s, v) => { if (v > 0 && s.by !== null) actionStep.push(v); });
  /** @type {Status} */
  let status = { status: 'none' };
  let shown = steps.length - 1;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let polling;
  panel.dataset.game = game;

  /**
   * @param {string} method
   */
  async function ask(method) {
    try {
      status = await api(method, `/api/matches/${encodeURIComponent(id)}/analysis`);
    } catch (err) {
      status = { status: 'error', message: errorMessage(err) };
    }
    clearTimeout(polling);
    if (status.status === 'queued' || status.status === 'running') {
      polling = setTimeout(() => ask('GET'), POLL_MS);
    }
    draw(shown);
  }

  /**
   * @param {number} step
   */
  function draw(step) {
    shown = step;
    panel.dataset.status = status.status;
    const parts = [];
    const s = status.status;
    if (s === 'none' || s === 'failed' || s === 'error') {
      if (s !== 'none') parts.push(el('p', { class: 'error-text', role: 'alert' }, status.status === 'error' ? status.message : t('analysis.failed')));
      parts.push(el('p', { class: 'muted small' }, t('analysis.about')));
      parts.push(el('button', { type: 'button', id: 'an-ask', onclick: () => ask('POST') }, t('analysis.ask')));
    } else if (s === 'queued' || s === 'running') {
      const running = status.status === 'running' && status.total > 0 ? status : null;
      parts.push(el('progress', running ? { id: 'an-progress', max: running.total, value: running.done } : { id: 'an-progress' }));
      parts.push(el('p', { class: 'muted small', id: 'an-progress-text', 'aria-live': 'polite' },
        running ? t('analysis.running', { done: running.done, total: running.total }) : t('analysis.queued')));
    } else if (status.status === 'done') {
      parts.push(graph(status.analysis, step));
      parts.push(legend(status.analysis));
      parts.push(losses(status.analysis));
    }
    panel.replaceChildren(...parts);
    markMoves();
  }

  /** The x of a replay step. */
  const x = (/** @type {number} */ step) => PAD.left + (W - PAD.left - PAD.right) * (steps.length > 1 ? step / (steps.length - 1) : 0);
  /** The y of a chance. */
  const y = (/** @type {number} */ value) => PAD.top + (H - PAD.top - PAD.bottom) * (1 - value);

  /**
   * The graph: one line per seat through its value after each action, losses circled.
   * @param {Analysis} a
   * @param {number} step
   */
  function graph(a, step) {
    const box = svg('svg', { id: 'an-graph', class: 'an-graph', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': t('analysis.graph') });
    for (const v of [0, 0.5, 1]) {
      box.append(svg('line', { class: 'an-grid', x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v) }));
      box.append(svg('text', { class: 'an-tick', x: PAD.left - 4, y: y(v) + 4, 'text-anchor': 'end' }, percent(v)));
    }
    box.append(svg('line', { class: 'an-now', x1: x(step), x2: x(step), y1: PAD.top, y2: H - PAD.bottom }));
    for (let seat = 0; seat < a.seats; seat++) {
      const points = [[x(0), y(a.start[seat])], ...a.plies.map((p) => [x(actionStep[p.index]), y(p.values[seat])])];
      box.append(svg('polyline', { class: `an-line an-s${seat}`, 'data-seat': seat, points: points.map((p) => p.map((n) => n.toFixed(1)).join(',')).join(' ') }));
    }
    for (const loss of a.biggest_losses) {
      const ply = a.plies[loss.index - 1];
      const at = actionStep[loss.index];
      const circle = svg('circle', { class: `an-loss an-s${loss.seat}`, cx: x(at), cy: y(ply.values[loss.seat]), r: 4.5, 'data-index': at },
        svg('title', {}, lossText(loss, ply)));
      circle.addEventListener('click', () => go(at));
      box.append(circle);
    }
    // A click anywhere picks the nearest step.
    box.addEventListener('click', (ev) => {
      if (ev.target instanceof Element && ev.target.classList.contains('an-loss')) return;
      const r = box.getBoundingClientRect();
      const at = ((ev.clientX - r.left) * (W / r.width) - PAD.left) / (W - PAD.left - PAD.right);
      go(Math.round(Math.max(0, Math.min(1, at)) * (steps.length - 1)));
    });
    return box;
  }

  /**
   * @param {Analysis} a
   */
  function legend(a) {
    return el('p', { class: 'an-legend small' }, ...Array.from({ length: a.seats }, (_, seat) =>
      el('span', { class: 'an-key', 'data-seat': seat }, el('span', { class: `an-swatch an-s${seat}` }), ' ', seatLabel(game, seat))));
  }

  /**
   * "Move 7 (Blue): frigate 121 a1 → a2 lowered the odds by 23 %; the expert preferred …".
   * @param {Loss} loss
   * @param {Ply} ply
   */
  function lossText(loss, ply) {
    const at = steps[actionStep[loss.index]];
    return t('analysis.loss', {
      n: moveNumber(actionStep[loss.index]), seat: seatLabel(game, loss.seat), points: Math.round(100 * loss.loss),
      played: describe(loss.seat, at.text ?? ply.action, at.text == null ? undefined : at.info),
      best: ply.judgement ? describe(loss.seat, ply.judgement.best, ply.judgement.best_info) : '?',
    });
  }

  /**
   * @param {Analysis} a
   */
  function losses(a) {
    if (!a.biggest_losses.length) return el('p', { class: 'muted small', id: 'an-losses' }, t('analysis.nolosses'));
    return el('ol', { class: 'an-losses small', id: 'an-losses' }, ...a.biggest_losses.map((loss) =>
      el('li', {}, el('button', { type: 'button', class: 'linklike', 'data-index': actionStep[loss.index], onclick: () => go(actionStep[loss.index]) },
        lossText(loss, a.plies[loss.index - 1])))));
  }

  /** The move list's entries of the biggest losses get their mark, "?!", "?" or "??" (the list is redrawn at each step). */
  function markMoves() {
    if (status.status !== 'done') return;
    for (const loss of status.analysis.biggest_losses) {
      const button = document.querySelector(`#moves .mv[data-index="${actionStep[loss.index]}"]`);
      if (!button || button.classList.contains('an-lost')) continue;
      button.classList.add('an-lost');
      button.append(el('span', { class: 'an-mark', title: t('analysis.marked') }, loss.mark ?? '??'));
    }
  }

  ask('GET');
  return { draw };
}
