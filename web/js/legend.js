// @ts-check
// The legend of a game's board: what its digits, labels and marks mean, as a fold under the turn
// panel that a tap opens (touch has no hover, so nothing is explained by a tooltip alone).

import { el } from './api.js';
import { lang } from './i18n.js';

/**
 * Fills `node` (the match page's legend slot, or any container) with a fold titled `title` and
 * one line per item: a string, or `[icon, string]` with a small drawing (an SVG element) first.
 * Redrawn only when the language changes, so an open fold stays open.
 * @param {HTMLElement | null | undefined} node
 * @param {string} title
 * @param {(string | (Node | string)[])[]} items a line's text, or `[drawing, text]`
 */
export function showLegend(node, title, items) {
  if (!node || node.dataset.lang === lang()) return;
  const open = node.querySelector('details')?.open ?? false;
  node.dataset.lang = lang();
  node.replaceChildren(el('details', { class: 'legend-fold small', open: open || undefined },
    el('summary', {}, title),
    el('ul', {}, ...items.map((/** @type {string | (Node | string)[]} */ item) => (Array.isArray(item)
      ? el('li', {}, item[0], ' ', item[1])
      : el('li', {}, item))))));
}
