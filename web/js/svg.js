// @ts-check
// The one helper every board drawing shares: SVG elements made with their attributes.

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An SVG element `name` with `attrs` (those null or undefined left out) and `children`. */
export function svgEl(name, attrs = {}, children = []) {
  const el = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) el.setAttribute(k, v);
  for (const c of children) el.append(c);
  return el;
}
