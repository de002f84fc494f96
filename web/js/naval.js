// @ts-check
// Bataille Navale on the match page (rules/naval.md): the four 14x14 boards in the fixed 2x2
// layout of section 3, the secret placement (drag and rotate your pieces under the placement
// clock), and the battle turn (an order per ship, planned in any order, fired together).
//
// Everything drawn comes from the seat's observation (crates/games/naval/src/observe.rs), and the
// rules stay in the crate: on the seat's battle turn the observation carries `options`
// (crates/games/naval/src/options.rs), every order each ship still to act may be given, with the
// specials' costs, the open boards, aims and lanes and the area shapes. The page highlights from
// them alone and sends each order as its parts (ship, kind, board, aim, `choice`; docs/protocol.md
// section 4.2); it plans all the ship orders of the turn at once (the engine takes them one at a
// time, section 5.3a), and `distinct_fire_cells` tells it to keep two planned shots off one cell
// (section 5.5). During the placement the seat's observation carries `placement`: each piece's
// shape and its legal top-left cells per orientation. A drop is drawn from the shape, judged by
// the anchors, and sent as its parts (piece, top-left cell, the orientation's `choice`): a drop
// the anchors do not hold is sent too, so that the server names the rule it breaks. The page
// writes no notation.
//
// The page's part is in modules by job: the cells (naval-geometry.js), the state and its readings
// (naval-state.js), the words (naval-words.js), the turn's plan (naval-plan.js), the drawing
// (naval-draw.js), the pointer and keys (naval-input.js) and the panels (naval-panel.js). This one
// follows the game from state to state and is what game-naval.js calls.

import { setText } from './api.js';
import { t } from './i18n.js';
import { runningSeats } from './clocks.js';
import { parseCell } from './naval-geometry.js';
import { ctx, myBattleTurn, myBoard, myRemaining, placing, redraw, remaining, ui } from './naval-state.js';
import { fireStep, startFiring, syncTurn } from './naval-plan.js';
import { drawAll, drawChanged } from './naval-draw.js';
import { attach } from './naval-input.js';
import { renderPanel } from './naval-panel.js';

/** @typedef {import('./naval-state.js').NavalCtx} NavalCtx */
/** @typedef {import('./naval-state.js').Announcement} Announcement */

export { renderNavalBoards, renderNavalExample } from './naval-draw.js';
export { describeStep } from './naval-words.js';

// The input and the plan ask for the panel again without importing it (it imports them).
redraw.panel = renderPanel;

/**
 * New announcements (section 13: every resolved order is public) and changed cells.
 * @param {import('./naval-state.js').NavalState} state
 */
function follow(state) {
  const obs = state.observation;
  const list = obs.last_turn || [];
  const prev = ui.lastTurn;
  const same = (/** @type {Announcement} */ a, /** @type {Announcement} */ b) => a.seat === b.seat && a.order === b.order && a.result === b.result;
  // While a turn resolves (rocket draws) its list grows: only the tail is new.
  const continues = prev && prev.length <= list.length && prev.every((a, i) => same(a, list[i]));
  const fresh = continues ? list.slice(prev.length) : list;
  if (prev === null) {
    // The first state: the log starts with the turns the observation keeps.
    if (!ui.log.length) for (const turn of [...(obs.earlier_turns || []), list]) ui.log.push(...turn);
  } else {
    // A salvo adds markers to its announcement as its rockets fall: the logged copy follows.
    if (continues && prev.length) ui.log.splice(ui.log.length - prev.length, prev.length, ...list.slice(0, prev.length));
    ui.log.push(...fresh);
  }
  if (ui.log.length > 300) ui.log.splice(0, ui.log.length - 300);
  ui.lastTurn = list;

  const boards = obs.boards.map((b) => ({
    hits: new Set(b.hits), misses: new Set(b.misses), deflected: new Set(b.deflected),
    sunk: new Set((b.sunk || []).flatMap((p) => p.cells)),
  }));
  const prevBoards = ui.prevBoards;
  if (prevBoards) {
    /** @type {typeof ui.flash} */
    const changed = new Map();
    boards.forEach((now, seat) => {
      const was = prevBoards[seat];
      for (const kind of /** @type {const} */ (['sunk', 'hits', 'misses', 'deflected'])) {
        for (const cell of now[kind]) if (!was[kind].has(cell) && !changed.has(`${seat} ${cell}`)) changed.set(`${seat} ${cell}`, { seat, cell, kind });
      }
    });
    const areas = fresh.flatMap((a) => specialArea(a) ?? []);
    if (changed.size || areas.length) {
      ui.flash = changed;
      ui.areas = areas;
      ui.flashAt = performance.now();
      clearTimeout(ui.flashTimer);
      ui.flashTimer = setTimeout(() => {
        ui.flash = new Map();
        ui.areas = [];
        if (ui.ctx) drawAll();
      }, 2400);
    }
  }
  ui.prevBoards = boards;
}

/**
 * Where an announced special struck, to outline it for a moment: `{seat, cells}` from the
 * announcement's `area` (its rectangle's corners), or null for an order without one (a shot, a
 * pass, a shield, whose outline the board shows to whom may see it).
 * @param {Announcement} a
 */
function specialArea(a) {
  const area = a.area;
  if (!area || !parseCell(area.from) || !parseCell(area.to)) return null;
  return { seat: area.target, cells: [area.from, area.to] };
}

/** In a first game: what to do now (place, aim, or wait for the others), in words. */
export function hint() {
  if (!ui.ctx?.state?.observation) return '';
  if (placing()) return t('learn.nv.place');
  return t(myBattleTurn() ? 'learn.nv.aim' : 'learn.nv.wait');
}

/**
 * The server refused the last action: a refused drop snaps back, a plan being fired stops. The
 * reason stays in the naval panel until the next action (the page's error box is cleared by the
 * next state, which the other seats' simultaneous placement brings at once).
 * @param {{ code: string, message?: string }} msg
 */
export function onServerError(msg) {
  const sent = ui.sentPlacement;
  ui.sentPlacement = null;
  if (msg?.code === 'action/stale' && sent && placing()) {
    // Another seat's move got in first: the drop still stands, send it again once.
    ui.resending = true;
    setTimeout(() => {
      ui.resending = false;
      if (ctx().canAct && placing()) ctx().play?.(sent);
      else {
        ui.moving = null;
        drawAll();
      }
    }, 0);
    return;
  }
  ui.moving = null;
  if (ui.firing && ui.whole) {
    // The whole turn was refused, so nothing of it was played: send it order by order, and the
    // order the server refuses is named to the player.
    ui.whole = false;
    setTimeout(fireStep, 0);
    return;
  }
  ui.firing = false;
  if (msg?.code !== 'action/stale') ui.message = msg?.message || '';
}

/**
 * Called about ten times a second (the page's clock tick): counts the own clock down and, when it
 * is about to run out during a battle turn, fires the plan as it stands (section 5.10), so the
 * planned orders are not lost to the server's timeout, which would pass every remaining ship.
 * @param {Partial<NavalCtx>} given the page's context of this tick (its state, when it arrived)
 */
export function tick(given) {
  if (given.state?.game !== 'naval' || !ui.ctx) return;
  ui.ctx = { ...ui.ctx, ...given };
  const ms = myRemaining();
  // The own clock while it runs, else the clock of the seat playing (whose turn it is, in time).
  const shown = ms ?? remaining(runningSeats(ctx().state)[0]);
  const box = document.getElementById('nv-countdown');
  if (box) {
    setText(box, shown === null ? '' : t('nv.countdown', { s: (Math.max(0, shown) / 1000).toFixed(1) }));
    box.classList.toggle('low', ms !== null && ms < 10000);
  }
  if (ms !== null && ms <= 1500 && myBattleTurn() && !ui.firing && ctx().canAct) {
    ui.autoFired = true;
    startFiring();
  }
}

/**
 * Draws the boards and the Bataille Navale panel. `given`: `{svg, panel, decision, legend, state,
 * stateAt, canAct, config, play, render}`: the match state, when it arrived (performance.now),
 * whether this page may act now, the game's config if known, `play(text)` to send an action,
 * `render()` to redraw; `decision` is the turn panel's node for the controls of the decision and
 * `legend` the slot of the board's legend.
 * @param {NavalCtx} given
 */
export function renderNaval(given) {
  ui.ctx = given;
  attach(given.svg);
  if (given.state.version !== ui.version) {
    ui.version = given.state.version ?? null;
    // A drop stays drawn where it was dropped until the server has applied it (the own move count
    // grew) or refused it; other seats' moves come in between.
    if (ui.moving && (!placing() || myBoard()?.moves !== ui.moving.moves)) ui.moving = null;
    follow(given.state);
  }
  // Nothing on its way (a lost connection drops the request): the piece is where the state says.
  if (given.canAct && !ui.resending) ui.moving = null;
  syncTurn();
  if (!placing()) ui.drag = null;
  drawChanged();
  renderPanel();
  // Sending the next order of a plan waits for this render to finish.
  if (ui.firing) setTimeout(fireStep, 0);
}
