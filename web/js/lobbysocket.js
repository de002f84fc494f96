// The lobby WebSocket (`GET /api/lobby/ws`, docs/protocol.md "Quick pairing"): live counts of
// players online and games in play, the seek pools, and the messages that pair this player into a
// match or tell it that a correspondence match waits for its move. Reconnects by itself.

/**
 * Opens the lobby socket. `handlers`: `lobby(msg)` on every count update, `seeking(msg)` when a
 * seek was taken, `paired(msg)` when a match was made, `turn(msg)` when a match waits for this
 * player, `error(msg)` for a refused message, `status(up)` when the connection opens or drops.
 * Returns `{ send(msg) -> bool, whenOpen() -> Promise, reconnect() }`.
 */
export function connectLobby(handlers) {
  let socket = null;
  let delay = 500;
  let timer = null;
  let waiters = [];
  let pingTimer = null;
  const open = () => {
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${proto}://${location.host}/api/lobby/ws`);
    socket = ws;
    ws.addEventListener('open', () => {
      delay = 500;
      // The server closes a silent socket (docs/protocol.md section 6): a ping every 20 seconds.
      clearInterval(pingTimer);
      pingTimer = setInterval(() => {
        if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: 'ping' }));
      }, 20000);
      handlers.status?.(true);
      for (const resolve of waiters) resolve();
      waiters = [];
    });
    ws.addEventListener('message', (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      handlers[msg.type]?.(msg);
    });
    ws.addEventListener('close', () => {
      if (socket !== ws) return;
      clearInterval(pingTimer);
      socket = null;
      handlers.status?.(false);
      timer = setTimeout(open, delay);
      delay = Math.min(delay * 2, 5000);
    });
  };
  open();
  return {
    send(msg) {
      if (!socket || socket.readyState !== WebSocket.OPEN) return false;
      socket.send(JSON.stringify(msg));
      return true;
    },
    /** Resolves once the socket is open (at once if it is). */
    whenOpen() {
      if (socket && socket.readyState === WebSocket.OPEN) return Promise.resolve();
      return new Promise((resolve) => waiters.push(resolve));
    },
    /** Closes and opens again (after signing in or naming oneself: the session cookie changed). */
    reconnect() {
      clearTimeout(timer);
      const old = socket;
      socket = null;
      old?.close();
      open();
    },
  };
}
