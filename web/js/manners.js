// @ts-check
// Table manners on the match page (docs/protocol.md section 7.4): taking back one's last move
// (at once against the computer in a casual game, once the others accept against people), the
// draw offer where the game's rules have an agreed ending (a draw in Chakart, MAD's agreed stop
// that the tie-break decides), the words saying why where there is none (pressing the same
// button), and the others' requests with Accept and Decline.
//
// The page gives two mount points: `#manners` (the buttons, beside Resign) and `#request-panel`
// (a request waiting for an answer, close to the board). `renderManners` fills both from the
// state alone; everything it sends is an `offer` or a `decline`.

import { el, byId } from './api.js';
import { t, lang } from './i18n.js';
import { seatOf } from './seats.js';

const $ = byId;

/**
 * What `renderManners` draws from: the live state, the game's entry of `/api/games`, the match
 * socket's send, and seats named as people read them.
 * @typedef {{ state: import('./match-state.js').MatchState, game: import('./api.js').GameInfo | null,
 *   send: (msg: object) => unknown, names: (seats: number[]) => string }} Manners
 */

/** The manners' state between renders. */
const table = {
  /** The draw button was pressed where the table has no agreed ending: its words are shown. */
  explaining: false,
  /** @type {Manners | null} The arguments of the last `renderManners`, for the buttons that draw again. */
  last: null,
};

/**
 * Puts what `make()` builds into `node`, unless it already shows what `key` describes. A state
 * that changes nothing here (a bot's move, someone connecting) leaves the buttons as they are,
 * so a tap on its way is never lost on a button replaced under the finger.
 * @param {HTMLElement} node
 * @param {string} key
 * @param {() => (Node | string)[]} make
 */
function redraw(node, key, make) {
  if (node.dataset.drawn === key) return;
  node.dataset.drawn = key;
  node.replaceChildren(...make());
}

/**
 * A button of the table's row: its sign, and its words (which a phone's narrow row leaves out,
 * manners.css: the sign, the title and the accessible name stay), so that it fits one row with
 * Resign beside the board.
 * @param {string} id
 * @param {string} sign
 * @param {string} words
 * @param {string} title
 * @param {() => void} onclick
 */
function button(id, sign, words, title, onclick) {
  return el('button', { type: 'button', class: 'secondary manner', id, title, 'aria-label': words, onclick },
    el('span', { class: 'sign', 'aria-hidden': 'true' }, sign), el('span', { class: 'words' }, words));
}

/**
 * Why there is no draw to offer here: the computer never agrees, or the game's own rule.
 * @param {import('./match-state.js').MatchState} state
 * @param {import('./api.js').GameInfo | null} game
 * @param {boolean} botAtTable
 */
function noDraw(state, game, botAtTable) {
  if (game?.agreement && botAtTable) return t('manners.nodraw.bot');
  const key = `manners.nodraw.${state.game}`;
  return t(key) === key ? t('manners.nodraw', { game: game?.title ?? state.game }) : t(key);
}

/**
 * Shows or hides the words saying why there is no draw here.
 * @param {boolean} on
 */
function explain(on) {
  table.explaining = on;
  if (table.last) renderManners(table.last);
}

/**
 * Draws the manners of `state` (the live `state`) into the page's mount points. `game` is the
 * game's entry of `/api/games` (its `agreement` and `agreement_draw`, and its `title`), `send` sends
 * a message over the match socket, `names(seats)` names seats as people read them.
 * @param {Manners} manners
 */
export function renderManners({ state, game, send, names }) {
  table.last = { state, game, send, names };
  const mount = $('manners');
  const box = $('request-panel');
  if (!mount || !box) return;
  const seated = state.seat !== null && state.status === 'live';
  const humans = state.seats.filter((x) => x.kind === 'human').map((x) => x.seat);
  const botAtTable = state.seats.some((x) => x.kind === 'bot');
  const offers = state.offers || {};
  const takeback = offers.takeback || [];
  const agreement = offers.agreement || [];

  // Buttons: take back (once this seat has moved; never against the computer in a rated game),
  // and the draw offer: the agreed ending where people alone sit at a game that has one, else
  // the same button tells the game's rule (the computer never agrees; Moon Leap has no draw), so
  // that one who looks for it learns why, and the turn panel stays short on a phone.
  const moved = seated && state.moves.some((m) => seatOf(m.by) === state.seat);
  // Nothing is taken back while seats act at once (Bataille Navale's placement: pieces move).
  const together = state.to_act.length > 1;
  const canTakeBack = moved && !together && !(state.rated && botAtTable) && takeback.length === 0;
  const draw = Boolean(game?.agreement_draw);
  const canAgree = Boolean(seated && game?.agreement && !botAtTable);
  const showOffer = Boolean(seated && game && agreement.length === 0);
  const label = t(draw || !game?.agreement ? 'manners.draw' : 'offer.stop');
  redraw(mount, JSON.stringify([lang(), canTakeBack, showOffer, label, draw, canAgree]), () => {
    const parts = [];
    if (canTakeBack) {
      parts.push(button('takeback', '↶', t('manners.takeback'), t('manners.takeback.title'),
        () => send({ type: 'offer', kind: 'takeback' })));
    }
    if (showOffer) {
      const offer = button('offer-agreement', draw || !game?.agreement ? '½' : '⚑', label, label, () => {
        if (canAgree) send({ type: 'offer', kind: 'agreement' });
        else explain(!table.explaining);
      });
      offer.dataset.draw = String(draw);
      offer.dataset.none = String(!canAgree);
      parts.push(offer);
    }
    return parts;
  });
  if (!seated || canAgree) table.explaining = false;

  // The request waiting for an answer: a takeback first (it is about the last move), else the
  // agreed ending.
  const pending = takeback.length ? { kind: 'takeback', seats: takeback } : agreement.length ? { kind: 'agreement', seats: agreement } : null;
  const shown = seated ? pending : null;
  box.classList.toggle('hidden', !shown && !table.explaining);
  box.dataset.kind = shown ? shown.kind : table.explaining ? 'none' : '';
  box.dataset.offered = shown ? shown.seats.join(',') : '';
  if (!shown) {
    const why = table.explaining ? noDraw(state, game, botAtTable) : '';
    redraw(box, JSON.stringify(['none', why]), () => (table.explaining ? [
      el('p', { id: 'no-draw' }, why),
      el('div', { class: 'offer-actions' }, el('button', {
        type: 'button', class: 'secondary', id: 'no-draw-close', onclick: () => explain(false),
      }, t('manners.nodraw.close'))),
    ] : []));
    return;
  }
  const request = shown;
  const mine = request.seats.some((s) => s === state.seat);
  const others = request.seats.filter((s) => s !== state.seat);
  const waitingFor = humans.filter((s) => !request.seats.includes(s));
  let text;
  if (request.kind === 'takeback') {
    // The first seat listed asked: its last move is the one taken back.
    const asker = request.seats[0];
    text = asker === state.seat
      ? t('manners.takeback.sent', { names: names(waitingFor) })
      : t('manners.takeback.by', { names: names([asker]) });
  } else if (mine) {
    text = t(draw ? 'manners.draw.sent' : 'offer.stop.sent');
  } else {
    text = t(draw ? 'manners.draw.by' : 'offer.stop.by', { names: names(others) });
  }
  const answer = t(mine ? 'offer.withdraw' : 'offer.decline');
  redraw(box, JSON.stringify([request.kind, text, mine, answer]), () => [
    el('p', { id: 'request-text' }, text),
    el('div', { class: 'offer-actions' },
      mine ? null : el('button', {
        type: 'button', id: 'request-accept', onclick: () => send({ type: 'offer', kind: request.kind }),
      }, t('offer.accept')),
      el('button', {
        type: 'button', class: 'secondary', id: 'request-decline',
        onclick: () => send({ type: 'decline', kind: request.kind }),
      }, answer)),
  ]);
}
