// @ts-check
// The one helper every board drawing shares: SVG elements made with their attributes.

const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * An SVG element `name` with `attrs` (those null or undefined left out) and `children`.
 * @param {string} name
 * @param {Record<string, string | number | boolean | null | undefined>} [attrs]
 * @param {(Node | string)[]} [children]
 * @returns {SVGElement}
 */
export function svgEl(name, attrs = {}, children = []) {
  const el = /** @type {SVGElement} */ (document.createElementNS(SVG_NS, name));
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) el.setAttribute(k, String(v));
  for (const c of children) el.append(c);
  return el;
}
