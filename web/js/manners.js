// Table manners on the match page (docs/protocol.md section 7.4): taking back one's last move
// (at once against the computer in a casual game, once the others accept against people), the
// draw offer where the game's rules have an agreed ending (a draw in Chakart, MAD's agreed stop
// that the tie-break decides), the words saying so where they have none, and the others'
// requests with Accept and Decline.
//
// The page gives two mount points: `#manners` (the buttons, beside Resign) and `#request-panel`
// (a request waiting for an answer, close to the board). `renderManners` fills both from the
// state alone; everything it sends is an `offer` or a `decline`.

import { el } from './api.js';
import { t } from './i18n.js';

const $ = (id) => document.getElementById(id);

/**
 * Draws the manners of `state` (the live `state`) into the page's mount points. `game` is the
 * game's entry of `/api/games` (its `agreement` and `agreement_draw`, and its `title`), `send` sends
 * a message over the match socket, `names(seats)` names seats as people read them.
 */
export function renderManners({ state, game, send, names }) {
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
  // the agreed ending (people only: the computer never agrees), or the game's rule in words.
  const moved = seated && state.moves.some((m) => m.by?.seat === state.seat);
  const canTakeBack = moved && !(state.rated && botAtTable) && takeback.length === 0;
  const draw = Boolean(game?.agreement_draw);
  const canAgree = seated && game?.agreement && !botAtTable && agreement.length === 0;
  const parts = [];
  if (canTakeBack) {
    parts.push(el('button', {
      type: 'button', class: 'secondary', id: 'takeback', title: t('manners.takeback.title'),
      onclick: () => send({ type: 'offer', kind: 'takeback' }),
    }, t('manners.takeback')));
  }
  if (canAgree) {
    parts.push(el('button', {
      type: 'button', class: 'secondary', id: 'offer-agreement', 'data-draw': String(draw),
      onclick: () => send({ type: 'offer', kind: 'agreement' }),
    }, t(draw ? 'manners.draw' : 'offer.stop')));
  }
  if (seated && game && !game.agreement) {
    const key = `manners.nodraw.${state.game}`;
    const words = t(key) === key ? t('manners.nodraw', { game: game.title }) : t(key);
    parts.push(el('p', { class: 'muted small', id: 'no-draw' }, words));
  } else if (seated && game?.agreement && botAtTable) {
    parts.push(el('p', { class: 'muted small', id: 'no-draw' }, t('manners.nodraw.bot')));
  }
  mount.replaceChildren(...parts);

  // The request waiting for an answer: a takeback first (it is about the last move), else the
  // agreed ending.
  const pending = takeback.length ? { kind: 'takeback', seats: takeback } : agreement.length ? { kind: 'agreement', seats: agreement } : null;
  const shown = Boolean(seated && pending);
  box.classList.toggle('hidden', !shown);
  box.dataset.kind = shown ? pending.kind : '';
  box.dataset.offered = shown ? pending.seats.join(',') : '';
  if (!shown) {
    box.replaceChildren();
    return;
  }
  const mine = pending.seats.includes(state.seat);
  const others = pending.seats.filter((s) => s !== state.seat);
  const waitingFor = humans.filter((s) => !pending.seats.includes(s));
  let text;
  if (pending.kind === 'takeback') {
    // The first seat listed asked: its last move is the one taken back.
    const asker = pending.seats[0];
    text = asker === state.seat
      ? t('manners.takeback.sent', { names: names(waitingFor) })
      : t('manners.takeback.by', { names: names([asker]) });
  } else if (mine) {
    text = t(draw ? 'manners.draw.sent' : 'offer.stop.sent');
  } else {
    text = t(draw ? 'manners.draw.by' : 'offer.stop.by', { names: names(others) });
  }
  box.replaceChildren(
    el('p', { id: 'request-text' }, text),
    el('div', { class: 'offer-actions' },
      mine ? null : el('button', {
        type: 'button', id: 'request-accept', onclick: () => send({ type: 'offer', kind: pending.kind }),
      }, t('offer.accept')),
      el('button', {
        type: 'button', class: 'secondary', id: 'request-decline',
        onclick: () => send({ type: 'decline', kind: pending.kind }),
      }, t(mine ? 'offer.withdraw' : 'offer.decline'))));
}
