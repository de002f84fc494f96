// @ts-check
// Bataille Navale in words: an order or a chance draw as the move lists say it, and the account of
// the turns since the seat's last (who did what, what it hit, what was lost), from the entries'
// parts and the observation's announcements; never from notation.

import { t, tn } from './i18n.js';
import { seatLabel } from './seats.js';
import { COLS, parseCell } from './naval-geometry.js';
import { isBuoy, me, myBoard, obsOf, ui } from './naval-state.js';

/** @typedef {import('./naval-state.js').OrderParts} OrderParts */
/** @typedef {import('./naval-state.js').Announcement} Announcement */

/**
 * A torpedo lane in words ("rightwards along 5"), from its cells in travel order (an order's
 * `cells`): the row or column it runs along and the way it goes.
 * @param {string[] | undefined} cells
 */
function laneWords(cells) {
  const a = parseCell(cells?.[0]);
  const b = parseCell(cells?.[cells.length - 1]);
  if (!a || !b) return '';
  const dir = a.r === b.r ? (b.c >= a.c ? 'right' : 'left') : (b.r >= a.r ? 'down' : 'up');
  const n = a.r === b.r ? String(a.r + 1) : COLS[a.c].toUpperCase();
  return t('nv.lane', { dir: t(`nv.dir.${dir}`), n });
}

/**
 * Words for an order from its parts (docs/protocol.md section 4.1: `kind`, the ship in `pieces`,
 * `target`, `to`, `cells`), as an announcement (`info`), a logged order, a given one (`plan_info`)
 * or a planned one carry them, e.g. "cruiser: heavy artillery on Seat 2 (f7)". Null for parts
 * that are no order (a placement, `ready`).
 * @param {OrderParts | null | undefined} info
 * @returns {string | null}
 */
export function describeOrder(info, game = 'naval') {
  const ship = info?.pieces?.[0];
  if (!ship || ['place', 'layout', 'ready'].includes(info.kind)) return null;
  const words = { ship: t(`nv.ship.${ship}`), seat: info.target == null ? '' : seatLabel(game, info.target) };
  switch (info.kind) {
    case 'pass': return t('nv.say.pass', words);
    case 'fire': return t('nv.say.fire', { ...words, cell: info.to });
    case 'emp': return t('nv.say.emp', words);
    case 'shield': return info.to ? t('nv.say.shield.at', { ...words, cell: info.to }) : t('nv.say.shield', words);
    case 'torpedo': return t('nv.say.torpedo', { ...words, lane: laneWords(info.cells) });
    default: return t('nv.say.special', { ...words, ability: t(`nv.ab.${info.kind}`), cell: info.to });
  }
}

/**
 * Words for any step of a Bataille Navale move list from its parts: a layout draw ("Fleet 2: aircraft
 * carrier → i7 (horizontal)") or a placement move ("aircraft carrier → i7 (horizontal)"), `ready`, the first player, a rocket's draw, else
 * the order (`describeOrder`). Null without parts.
 * @param {OrderParts | null | undefined} info
 * @returns {string | null}
 */
export function describeStep(info, game = 'naval') {
  const piece = info?.pieces?.[0];
  const way = info?.choice === 'h' || info?.choice === 'v' ? t(`nv.way.${info.choice}`) : '';
  // A ship's placement has an orientation, a buoy's none.
  const placed = () => t('nv.say.placed', { ship: t(`nv.ship.${way ? piece : 'buoy'}`), cell: info?.to, way });
  switch (info?.kind) {
    case 'layout':
      // A chance draw for one fleet (`target`): the list shows no seat beside it, so it names it.
      if (!piece) return null;
      return info.target == null ? placed() : t('nv.say.laid', { seat: seatLabel(game, info.target), placed: placed() });
    case 'place':
      return piece ? placed() : null;
    case 'ready': return t('nv.ready');
    case 'first': return t('nv.say.first', { seat: seatLabel(game, info.target ?? 0) });
    case 'rocket': return t(`nv.say.rocket.${info.choice === 'shot' ? 'shot' : 'spared'}`, { cell: info.to });
    default: return describeOrder(info, game);
  }
}

/**
 * An announcement's result in words (empty when the order was simply done).
 * @param {Announcement} a
 */
function describeResult(a) {
  if (!a.result || a.result === 'done') return '';
  if (a.exploded_at) return t('nv.res.exploded', { cell: a.exploded_at });
  return t(`nv.res.${a.result}`);
}

/**
 * The own piece on cell `name` of the viewer's board (its fleet is in its observation), or null.
 * @param {string} name
 */
function ownPieceOn(name) {
  return (myBoard()?.fleet || []).find((p) => p.cells.includes(name))?.piece ?? null;
}

/** A piece as the account names it: a ship by its name, any buoy as "buoy". */
const pieceWords = (/** @type {string} */ piece) => t(`nv.ship.${isBuoy(piece) ? 'buoy' : piece}`);

/**
 * An announced order in words, "your" when it was aimed at the viewer's own board: "cruiser:
 * shot at Fleet 2 f7", "carrier: shot at your h9".
 * @param {Announcement} a
 */
export function orderWords(a) {
  const info = a.info;
  const ship = info?.pieces?.[0];
  if (!ship || info.target == null || info.target !== me() || a.seat === me()) return describeOrder(info);
  const words = { ship: t(`nv.ship.${ship}`), cell: info.to };
  switch (info.kind) {
    case 'fire': return t('nv.say.fire.you', words);
    case 'emp': return t('nv.say.emp.you', words);
    case 'torpedo': return t('nv.say.torpedo.you', { ...words, lane: laneWords(info.cells) });
    case 'shield':
    case 'pass': return describeOrder(info);
    default: return t('nv.say.special.you', { ...words, ability: t(`nv.ab.${info.kind}`) });
  }
}

/**
 * What an announced order did, in words, from its result and the markers it left (the
 * announcement's `hits`, `misses`, `deflected`, `sunk`: public, docs/protocol.md section 4.1):
 * "hit", "2 hits, 3 misses, submarine sunk"; on the viewer's own board the ships it struck are
 * named ("your cruiser is hit", "your submarine is sunk"), which only the owner knows. Empty for
 * an order that shoots nothing (a pass, a detection, a shield, an EMP).
 * @param {Announcement} a
 */
export function resultWords(a) {
  const parts = [];
  if (a.result && a.result !== 'done') parts.push(describeResult(a));
  const hits = a.hits || [];
  const sunk = a.sunk || [];
  if (a.info?.target != null && a.info.target === me() && a.seat !== me()) {
    const struck = [...new Set(hits.flatMap((cell) => ownPieceOn(cell) ?? []))];
    for (const piece of struck) {
      if (!sunk.includes(piece)) parts.push(t('nv.res.your.hit', { ship: pieceWords(piece) }));
    }
    for (const ship of sunk) parts.push(t('nv.res.your.sunk', { ship: t(`nv.ship.${ship}`) }));
  } else {
    if (hits.length) parts.push(tn('nv.res.hits', hits.length));
    for (const ship of sunk) parts.push(t('nv.res.sunk', { ship: t(`nv.ship.${ship}`) }));
  }
  const misses = a.misses || [];
  if (misses.length) parts.push(tn('nv.res.misses', misses.length));
  if ((a.deflected || []).length) parts.push(t('nv.res.deflected'));
  const shoots = ['fire', 'artillery', 'heavy', 'bombing', 'rockets', 'missile', 'charges', 'torpedo'].includes(a.info?.kind);
  if (!parts.length && shoots && a.result === 'done') parts.push(t('nv.res.nothing'));
  return parts.join(', ');
}

/**
 * The turns to tell this viewer about: from its own last turn on (the turns the observation keeps,
 * `earlier_turns` then `last_turn`: up to one round), every turn for a spectator. Each is
 * `{seat, orders}`.
 */
export function accountTurns() {
  const obs = obsOf();
  const turns = [...(obs.earlier_turns || []), obs.last_turn || []].filter((turn) => turn.length)
    .map((orders) => ({ seat: orders[0].seat, orders }));
  const mine = me();
  const own = mine === null || mine === undefined ? -1 : turns.map((x) => x.seat).lastIndexOf(mine);
  return own >= 0 ? turns.slice(own) : turns;
}

/**
 * The cells of board `seat` that the other fleets' shots marked since this viewer's last turn
 * (hits, misses, deflections of the turns of its account): `[{name, by}]`, `by` the shooter.
 * @param {number} seat
 */
export function recentCells(seat) {
  const obs = ui.ctx?.state?.observation;
  if (!obs || obs.phase !== 'battle' || !obs.last_turn) return [];
  const out = [];
  for (const { seat: by, orders } of accountTurns()) {
    if (by === me()) continue;
    for (const a of orders) {
      if (a.info?.target !== seat) continue;
      for (const name of [...(a.hits || []), ...(a.misses || []), ...(a.deflected || [])]) out.push({ name, by });
    }
  }
  return out;
}

/**
 * What the other fleets did to this seat's ships since its last turn, for the turn panel: "Your
 * submarine has been sunk. Your cruiser was hit." Empty when nothing of its was hit.
 */
export function hurtWords() {
  const mine = me();
  if (mine === null || mine === undefined) return '';
  const hit = new Set();
  const sunk = new Set();
  for (const { seat, orders } of accountTurns()) {
    if (seat === mine) continue;
    for (const a of orders) {
      if (a.info?.target !== mine) continue;
      for (const cell of a.hits || []) {
        const piece = ownPieceOn(cell);
        if (piece) hit.add(piece);
      }
      for (const ship of a.sunk || []) sunk.add(ship);
    }
  }
  return [
    ...[...sunk].map((ship) => t('nv.sunk.yours', { ship: t(`nv.ship.${ship}`) })),
    ...[...hit].filter((p) => !sunk.has(p)).map((piece) => t('nv.hit.yours', { ship: pieceWords(piece) })),
  ].join(' ');
}
