// @ts-check
// The HTTP side of docs/protocol.md, the seat tokens kept in localStorage, and small page helpers.

// The protocol's shapes the pages read (docs/protocol.md section 3), as far as they read them.

/**
 * A seat of a match summary or state (section 3.3).
 * @typedef {{ seat: number, kind: string, bot?: string | null, level?: string | null,
 *   taken?: boolean, player?: import('./seats.js').Player | null, connected?: boolean }} Seat
 */

/**
 * A finished match's outcome (section 3.3): each seat's rank (1 the best) and score, and how it
 * ended.
 * @typedef {{ ranks: number[], scores: number[], kind: string }} Outcome
 */

/**
 * A match's SUMMARY (section 3.3).
 * @typedef {object} MatchSummary
 * @property {string} id
 * @property {string} game
 * @property {string} [title]
 * @property {'open' | 'live' | 'finished'} status
 * @property {Seat[]} seats
 * @property {any} config the game's config as JSON, or null
 * @property {import('./clocks.js').TimeControl} time_control
 * @property {number} created_at milliseconds since 1970
 * @property {number | null} ended_at
 * @property {boolean} rated
 * @property {string | null} [unrated]
 * @property {number} version
 * @property {Outcome | null} outcome
 * @property {string | null} [seed_hash]
 * @property {string | null} [seed]
 * @property {string | null} [rematch]
 */

/**
 * The body of `POST /api/matches` (section 3.2): the game, each seat (a person, or a bot by
 * name), the config (the game's default when left out), the clock, and the creator's seat.
 * @typedef {{ game: string, seats: { kind: string, bot?: string }[], config?: any,
 *   time_control: import('./clocks.js').TimeControl, rated: boolean, creator_seat?: number }} NewMatch
 */

/**
 * A game of `GET /api/games` (section 3.1).
 * @typedef {object} GameInfo
 * @property {string} name
 * @property {string} title
 * @property {number} min_seats
 * @property {number} max_seats
 * @property {number} default_seats
 * @property {boolean} chance
 * @property {boolean} hidden_information
 * @property {boolean} simultaneous
 * @property {boolean} rule_clock
 * @property {any} default_config
 * @property {string[]} bots
 * @property {string[]} levels
 * @property {boolean} agreement
 * @property {boolean} agreement_draw
 */

/** An error answered by the server: `code` is the protocol's error code (section 5). */
export class ApiError extends Error {
  /**
   * @param {string} code the protocol's error code, `network` when no answer came
   * @param {string} [message] the server's words (the code when it gave none)
   * @param {number} [status] the HTTP status, 0 when no answer came
   */
  constructor(code, message, status) {
    super(message || code);
    this.code = code;
    this.status = status;
  }
}

/**
 * Sends one API request and returns the decoded JSON body, or throws an ApiError. `headers` are
 * added to the request (a seat token goes in `Authorization`, never in the URL).
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body] sent as JSON when given
 * @param {Record<string, string>} [headers]
 * @returns {Promise<any>} the answer's JSON, as the protocol describes it
 */
export async function api(method, path, body, headers = {}) {
  /** @type {RequestInit & { headers: Record<string, string> }} */
  const init = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new ApiError('network', e instanceof Error ? e.message : String(e), 0);
  }
  let data;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    throw new ApiError(data?.code || `http/${res.status}`, data?.message || res.statusText, res.status);
  }
  return data;
}

/**
 * An error's protocol code (an ApiError's, or one a page gave its own error), else ''.
 * @param {unknown} err
 * @returns {string}
 */
export function errorCode(err) {
  const code = err !== null && typeof err === 'object' && 'code' in err ? err.code : undefined;
  return typeof code === 'string' ? code : '';
}

/**
 * An error's words for a page that has no translation of it.
 * @param {unknown} err
 * @returns {string}
 */
export function errorMessage(err) {
  return err instanceof Error ? err.message : String(err);
}

/**
 * The seat token kept for match `id`, or null (protocol.md section 1: `plateau.token.<id>`).
 * @param {string} id
 * @returns {string | null}
 */
export function getToken(id) {
  return localStorage.getItem(`plateau.token.${id}`);
}

/**
 * Keeps the seat token of match `id` so a reload resumes the seat.
 * @param {string} id
 * @param {string | null | undefined} token nothing is kept without one
 */
export function setToken(id, token) {
  if (token) localStorage.setItem(`plateau.token.${id}`, token);
}

/**
 * The match id in the page's path (`/m/{id}` or `/replay/{id}`), or null.
 * @returns {string | null}
 */
export function idFromPath() {
  const parts = location.pathname.split('/').filter(Boolean);
  return parts.length >= 2 ? decodeURIComponent(parts[1]) : null;
}

/**
 * An absolute link from a server-relative one.
 * @param {string} url
 * @returns {string}
 */
export function absolute(url) {
  return new URL(url, location.origin).href;
}

/**
 * The page's element with id `id`: a page names only elements its HTML has, so a missing one is
 * a mistake of the page and throws at once, naming it. `kind` (a DOM class such as
 * `HTMLInputElement`) is checked too and gives the result its type; without it the element is
 * taken as an HTML element.
 * @template {Element} [T=HTMLElement]
 * @param {string} id
 * @param {new (...args: any[]) => T} [kind]
 * @returns {T}
 */
export function byId(id, kind) {
  const node = findId(id, kind);
  if (!node) throw new Error(`this page has no #${id}${kind ? ` (${kind.name})` : ''}`);
  return node;
}

/**
 * Sets `node`'s text only when it differs: a rewrite of the same text still makes the browser lay
 * the page out and paint it again, which the match page's clock tick (ten times a second, for as
 * long as the page is open) would do for nothing.
 * @param {Element} node
 * @param {string} text
 */
export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

/**
 * Sets `node`'s attribute `name` to `value` (null removes it) only when it differs, as `setText`.
 * @param {Element} node
 * @param {string} name
 * @param {string | null} value
 */
export function setAttr(node, name, value) {
  if (value === null) node.removeAttribute(name);
  else if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}

/**
 * The element with id `id` if the page has it now (one drawn later, or only on some pages), else
 * null; an element of another kind than `kind` is a mistake of the page and throws.
 * @template {Element} [T=HTMLElement]
 * @param {string} id
 * @param {new (...args: any[]) => T} [kind]
 * @returns {T | null}
 */
export function findId(id, kind) {
  const node = document.getElementById(id);
  if (node && kind && !(node instanceof kind)) throw new Error(`#${id} is no ${kind.name}`);
  return /** @type {T | null} */ (node);
}

/**
 * @typedef {string | number | boolean | null | undefined | ((ev: any) => unknown) | Record<string, string>} Attr
 * An attribute's value for `el`: a listener for an `on…` name, the entries of `dataset`, else
 * written as text (`true` as an empty attribute; `false`, null and undefined leave it out).
 */

/**
 * @typedef {Node | string | number | boolean | null | undefined} Child
 * What `el` puts in an element: a node, or a text (false, null and undefined are skipped); lists
 * of them are flattened.
 */

/**
 * Makes an element: el('button', {class: 'x', onclick: fn}, 'text', child...).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, Attr>} [attrs]
 * @param {...(Child | Child[] | Child[][])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') node.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

/**
 * A "Copy" button that copies the value of `input` (an invite link) to the clipboard.
 * @param {HTMLInputElement} input
 * @param {string} label
 * @param {string} doneLabel the button's words once copied
 * @returns {HTMLButtonElement}
 */
export function copyButton(input, label, doneLabel) {
  const btn = el('button', { type: 'button', class: 'secondary' }, label);
  btn.addEventListener('click', async () => {
    input.select();
    try {
      await navigator.clipboard.writeText(input.value);
    } catch {
      document.execCommand?.('copy');
    }
    btn.textContent = doneLabel;
  });
  return btn;
}

/**
 * Formats milliseconds as m:ss, h:mm:ss, or s.t under ten seconds.
 * @param {number} ms
 * @returns {string}
 */
export function formatClock(ms) {
  const clamped = Math.max(0, ms);
  if (clamped < 10000) return (Math.floor(clamped / 100) / 10).toFixed(1);
  const total = Math.floor(clamped / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

// SHA-256 (FIPS 180-4) in plain JavaScript, used to check a revealed seed against its published
// hash in any browser (crypto.subtle exists only on secure origins).
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/**
 * SHA-256 of `bytes` as 64 lowercase hex digits.
 * @param {Uint8Array} bytes
 * @returns {string}
 */
export function sha256Hex(bytes) {
  const bitLen = bytes.length * 8;
  const padded = new Uint8Array(((bytes.length + 9 + 63) >> 6) << 6);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bitLen / 2 ** 32));
  view.setUint32(padded.length - 4, bitLen >>> 0);
  const h = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const w = new Uint32Array(64);
  /** @type {(x: number, n: number) => number} */
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));
  for (let off = 0; off < padded.length; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(off + i * 4);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      hh = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
    }
    const add = [a, b, c, d, e, f, g, hh];
    for (let i = 0; i < 8; i++) h[i] = (h[i] + add[i]) >>> 0;
  }
  return [...h].map((x) => x.toString(16).padStart(8, '0')).join('');
}

/**
 * Bytes of a hex string, or null if it is not hex of even length.
 * @param {unknown} hex
 * @returns {Uint8Array | null}
 */
export function hexToBytes(hex) {
  if (typeof hex !== 'string' || !/^([0-9a-fA-F]{2})*$/.test(hex)) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}
