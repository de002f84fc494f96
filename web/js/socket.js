// @ts-check
// The pages' WebSocket (docs/protocol.md sections 4 and 6): one connection to a path of the server
// that opens again by itself when it drops, JSON messages both ways, and a watch on the line. The
// match page and the lobby each hold one.
//
// A connection can die without a close: a phone changes networks, a laptop sleeps, a proxy drops
// the line. The browser then says nothing for minutes. So the page sends a `ping` message every
// PING_EVERY_MS (the server also closes a socket silent for 60 s) and, when nothing at all comes
// back within PONG_WITHIN_MS (a `pong`, or any other message), gives the connection up and opens
// a new one: a dead line is noticed within PING_EVERY_MS + PONG_WITHIN_MS.

/** How often the page pings (milliseconds). Ten messages a second are allowed; this is one in four seconds. */
export const PING_EVERY_MS = 4000;
/** How long the page waits for an answer to a ping before it takes the line as dead (milliseconds). */
export const PONG_WITHIN_MS = 4000;
/**
 * The close code of a banned player's sockets (docs/protocol.md section 7.11): not opened again,
 * and the page is told (`plateau:banned` on `document`, which identity.js answers by showing the
 * ban).
 */
export const BANNED_CLOSE = 4003;
/** The first wait before opening again, doubled after each failure up to RETRY_MAX_MS. */
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 5000;

/**
 * @typedef {object} SocketHandlers
 * @property {(msg: any) => void} message every message from the server, decoded (a frame that is
 *   not JSON is dropped)
 * @property {() => void} [open] the connection is open: the place to send what a new connection
 *   needs first (a seat token)
 * @property {(up: boolean) => void} [status] the connection opened (true) or was lost (false)
 */

/**
 * @typedef {object} Socket
 * @property {(msg: object) => boolean} send sends one message as JSON; false when the connection
 *   is not open (nothing is sent then)
 * @property {() => Promise<void>} whenOpen resolves once the connection is open (at once if it is)
 * @property {() => void} reconnect closes the connection and opens a new one at once (the session
 *   cookie changed: the server should know the player); `status` is not called
 * @property {() => boolean} isOpen
 */

/**
 * Opens the WebSocket at `path` (on the page's host, `wss` on an https page) and keeps it open.
 * @param {string} path e.g. `/api/lobby/ws`
 * @param {SocketHandlers} handlers
 * @returns {Socket}
 */
export function openSocket(path, handlers) {
  /** The connection in use, or null between a loss and the next try. */
  let socket = /** @type {WebSocket | null} */ (null);
  let retryDelay = RETRY_FIRST_MS;
  let retryTimer = /** @type {ReturnType<typeof setTimeout> | undefined} */ (undefined);
  let pingTimer = /** @type {ReturnType<typeof setInterval> | undefined} */ (undefined);
  /** Set while a ping waits for its answer: fires when the line is taken as dead. */
  let deadTimer = /** @type {ReturnType<typeof setTimeout> | undefined} */ (undefined);
  /** @type {(() => void)[]} */
  let waiters = [];

  const isOpen = () => socket !== null && socket.readyState === WebSocket.OPEN;

  /**
   * Forgets `ws` (its later events are ignored), tells the page the connection was lost, and
   * when `retry` opens again after the delay.
   * @param {WebSocket} ws
   * @param {{ retry: boolean, tell: boolean }} how
   */
  const drop = (ws, { retry, tell }) => {
    if (socket !== ws) return;
    clearInterval(pingTimer);
    clearTimeout(deadTimer);
    deadTimer = undefined;
    socket = null;
    if (tell) handlers.status?.(false);
    if (retry) {
      retryTimer = setTimeout(open, retryDelay);
      retryDelay = Math.min(retryDelay * 2, RETRY_MAX_MS);
    }
  };

  const open = () => {
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${proto}://${location.host}${path}`);
    socket = ws;
    ws.addEventListener('open', () => {
      if (socket !== ws) return;
      retryDelay = RETRY_FIRST_MS;
      clearInterval(pingTimer);
      pingTimer = setInterval(() => {
        if (socket !== ws || ws.readyState !== WebSocket.OPEN) return;
        ws.send(JSON.stringify({ type: 'ping' }));
        // One wait at a time: an unanswered ping keeps its own deadline.
        deadTimer ??= setTimeout(() => {
          // No answer: the line is dead though the browser has not said so. Give it up now (its
          // close may take minutes to come) and open a new one at once.
          drop(ws, { retry: false, tell: true });
          ws.close();
          open();
        }, PONG_WITHIN_MS);
      }, PING_EVERY_MS);
      handlers.open?.();
      handlers.status?.(true);
      for (const resolve of waiters) resolve();
      waiters = [];
    });
    ws.addEventListener('message', (ev) => {
      if (socket !== ws) return;
      // Anything from the server shows the line is alive.
      clearTimeout(deadTimer);
      deadTimer = undefined;
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      handlers.message(msg);
    });
    ws.addEventListener('close', (ev) => {
      const banned = ev.code === BANNED_CLOSE;
      if (banned && socket === ws) document.dispatchEvent(new CustomEvent('plateau:banned'));
      drop(ws, { retry: !banned, tell: true });
    });
  };

  open();
  return {
    send(msg) {
      if (!socket || !isOpen()) return false;
      socket.send(JSON.stringify(msg));
      return true;
    },
    whenOpen() {
      if (isOpen()) return Promise.resolve();
      return new Promise((resolve) => waiters.push(resolve));
    },
    reconnect() {
      clearTimeout(retryTimer);
      const old = socket;
      // A new connection on purpose: the page was not cut off, so nothing is told.
      if (old) drop(old, { retry: false, tell: false });
      old?.close();
      open();
    },
    isOpen,
  };
}
