// @ts-check
// The chat panel of a match (docs/protocol.md, WebSocket `chat`, `chat_backlog`, `mute`): the
// players' room for the seats, the spectators' room for everyone else, and read-only on the replay
// page (`GET /api/matches/{id}/chat`). Every name and line goes into the page as text, never HTML.

import { el } from './api.js';
import { t, errorText } from './i18n.js';
import { seatLabel } from './seats.js';
import { reportButton } from './report.js';

/** The longest line the server takes (characters, after trimming). */
export const CHAT_MAX = 300;

/**
 * @param {number} at unix ms
 */
function clock(at) {
  const d = new Date(at);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

/**
 * A chat line (docs/protocol.md section 7.5): who wrote it (their seat, null for a spectator),
 * when (unix ms), in which room, its number in the match's chat (what a report names).
 * @typedef {{ name: string, seat?: number | null, text: string, at: number, room?: string, seq?: number }} ChatLine
 */

/**
 * What the chat panel of a match asks its page: the game's name, to send a message over the
 * match socket (false when it is not open), whether this viewer must choose a name first, how
 * to choose one, and the match's id (a report of a line names it).
 * @typedef {{ game: () => string | undefined, send: (msg: object) => boolean,
 *   needName: () => boolean, chooseName: (name: string) => Promise<unknown>,
 *   match?: () => string | undefined }} ChatOptions
 */

/**
 * One chat line as a list item: time, name (with the seat's side word), text.
 * @param {string} game
 * @param {ChatLine} line
 */
export function chatLine(game, line) {
  const side = line.seat === null || line.seat === undefined ? null : seatLabel(game, line.seat);
  return el('li', { class: 'chat-line', 'data-name': line.name, 'data-room': line.room || '' },
    el('span', { class: 'chat-time muted small' }, clock(line.at)), ' ',
    el('strong', { class: `chat-name${side ? ` seat-${line.seat}` : ''}` }, line.name),
    side ? el('span', { class: 'muted small' }, ` (${side})`) : '',
    el('span', { class: 'chat-sep' }, ': '),
    el('span', { class: 'chat-text' }, line.text));
}

/**
 * A live chat panel inside `root` (an empty <section>). `opts`: `game`, `send(msg) -> bool` (the
 * match socket), `needName()` -> bool (true when the viewer has no player yet and must choose a
 * name to write), `chooseName(name)` (names the visitor, then the page reconnects).
 * Returns { setRoom(room, me, others), add(line), backlog(msg), error(text), muted }.
 * @param {HTMLElement} root
 * @param {ChatOptions} opts
 */
export function createChat(root, opts) {
  let room = 'players';
  /** @type {string | null} */
  let me = null;
  /**
   * Names that sit at the table or wrote here, other than this player: [{name, seat}].
   * @type {{ name: string, seat: number | null }[]}
   */
  let others = [];
  /** @type {Set<string>} */
  const muted = new Set();
  /** @type {ChatLine[]} */
  const lines = [];
  const title = el('h2', { id: 'chat-title' });
  const list = el('ol', { class: 'chat-lines', id: 'chat-lines', 'aria-live': 'polite', 'aria-labelledby': 'chat-title' });
  const input = el('input', { id: 'chat-input', type: 'text', maxlength: CHAT_MAX, autocomplete: 'off', 'aria-labelledby': 'chat-title' });
  const sendButton = el('button', { type: 'submit', id: 'chat-send' }, t('chat.send'));
  const form = el('form', { class: 'chat-form', id: 'chat-form' }, input, sendButton);
  const nameInput = el('input', { id: 'chat-name', type: 'text', maxlength: 20, 'aria-label': t('id.name') });
  const nameForm = el('form', { class: 'chat-form hidden', id: 'chat-name-form' },
    nameInput, el('button', { type: 'submit' }, t('chat.join')));
  const errorBox = el('p', { class: 'chat-error small', id: 'chat-error', role: 'alert' });
  const mutes = el('div', { class: 'chat-mutes small', id: 'chat-mutes' });
  root.replaceChildren(title, list, form, nameForm, errorBox, mutes);

  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const text = input.value;
    if (!text.trim()) return;
    errorBox.textContent = '';
    if (opts.send({ type: 'chat', text })) input.value = '';
  });
  nameForm.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    try {
      await opts.chooseName(nameInput.value.trim());
    } catch (err) {
      errorBox.textContent = errorText(err);
    }
  });

  function draw() {
    title.textContent = t(room === 'players' ? 'chat.players' : 'chat.spectators');
    sendButton.textContent = t('chat.send');
    input.placeholder = t('chat.placeholder');
    const anonymous = opts.needName();
    form.classList.toggle('hidden', anonymous);
    nameForm.classList.toggle('hidden', !anonymous);
    nameInput.placeholder = t('chat.name');
    // Another person's line may be reported by a viewer with a name (docs/protocol.md 7.11).
    const match = opts.match?.();
    list.replaceChildren(...lines.filter((l) => !muted.has(l.name)).map((l) => {
      const item = chatLine(opts.game() ?? '', l);
      if (me !== null && l.name !== me && match && typeof l.seq === 'number') {
        item.append(' ', reportButton({ name: l.name, match, seq: l.seq, line: l.text }, 'chip report small'));
      }
      return item;
    }));
    list.scrollTop = list.scrollHeight;
    const names = new Map(others.map((o) => [o.name, o]));
    for (const l of lines) if (l.name !== me && !names.has(l.name)) names.set(l.name, { name: l.name, seat: null });
    mutes.replaceChildren(...[...names.values()].flatMap((o) => {
      const isMuted = muted.has(o.name);
      const mute = el('button', {
        type: 'button', class: 'chip mute', 'data-name': o.name, 'aria-pressed': String(isMuted),
        onclick: () => toggleMute(o.name),
      }, t(isMuted ? 'chat.unmute' : 'chat.mute', { name: o.name }));
      // The people at the table may be reported from here too, by a viewer with a name.
      return me !== null && !o.name.endsWith('-bot') ? [mute, reportButton({ name: o.name, match })] : [mute];
    }));
    root.dataset.lines = String(lines.length);
  }

  /**
   * @param {string} name
   */
  function toggleMute(name) {
    const on = !muted.has(name);
    if (opts.send({ type: on ? 'mute' : 'unmute', name })) {
      if (on) muted.add(name);
      else muted.delete(name);
      draw();
    }
  }

  return {
    muted,
    /**
     * The viewer's room, its own name and the other people at the table ([{name, seat}]).
     * @param {string} newRoom
     * @param {string | null} myName
     * @param {{ name: string, seat: number | null }[]} people
     */
    setRoom(newRoom, myName, people) {
      room = newRoom;
      me = myName;
      others = people.filter((p) => p.name !== myName);
      root.dataset.room = room;
      draw();
    },
    /**
     * @param {ChatLine} line
     */
    add(line) {
      if (line.room && line.room !== room) return;
      lines.push(line);
      draw();
    },
    /**
     * The room's last lines, sent after each (re)connection: they replace what is shown.
     * @param {{ room?: string, lines: ChatLine[] }} msg `chat_backlog`
     */
    backlog(msg) {
      if (msg.room && msg.room !== room) return;
      lines.length = 0;
      lines.push(...msg.lines);
      draw();
    },
    /**
     * @param {string | null} text
     */
    error(text) {
      errorBox.textContent = text;
    },
    /** Mutes again after a reconnection (the server keeps mutes per connection). */
    resend() {
      for (const name of muted) opts.send({ type: 'mute', name });
    },
    draw,
  };
}

/**
 * The stored chat of a finished match, read-only: both rooms, each under its title.
 * @param {HTMLElement} root
 * @param {string} game
 * @param {{ players?: ChatLine[], spectators?: ChatLine[] }} chat the stored chat of a finished match, by room
 */
export function renderStoredChat(root, game, chat) {
  /** @type {[string, ChatLine[]][]} */
  const rooms = [['players', chat.players || []], ['spectators', chat.spectators || []]];
  root.replaceChildren(...rooms.map(([room, lines]) => el('div', { class: 'chat-room', 'data-room': room },
    el('h3', {}, t(room === 'players' ? 'chat.players' : 'chat.spectators')),
    lines.length
      ? el('ol', { class: 'chat-lines' }, ...lines.map((l) => chatLine(game, { ...l, room })))
      : el('p', { class: 'muted small' }, t('chat.empty')))));
}
