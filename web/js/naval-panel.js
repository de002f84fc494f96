// @ts-check
// Bataille Navale's panels: the turn panel's controls of the decision (the placement's buttons,
// the ships with their modes and Fire), the side panel's seats, the log and the account of the
// turns since the seat's last, and the board's legend.

import { el, byId } from './api.js';
import { t, tn, lang } from './i18n.js';
import { seatLabel, seatWithName } from './seats.js';
import { lastTouch } from './touch.js';
import { showLegend } from './legend.js';
import { ctx, me, movesLeft, myBattleTurn, myBoard, myShips, obsOf, placing, shipIndex, shipOptions, specialOptions, ui } from './naval-state.js';
import { accountTurns, describeOrder, hurtWords, orderWords, resultWords } from './naval-words.js';
import { hasOrientation, orderParts, passInfo, savePlan, startFiring } from './naval-plan.js';
import { COARSE, drawAll, legend, redrawOverlay } from './naval-draw.js';
import { pickShip, rotatePiece } from './naval-input.js';

/**
 * @param {string} id
 * @param {string} text
 * @param {() => void} onclick
 * @param {Record<string, import('./api.js').Attr>} [attrs]
 */
function button(id, text, onclick, attrs = {}) {
  return el('button', { type: 'button', id, onclick, ...attrs }, text);
}

function placementControls() {
  const b = myBoard();
  const max = ctx().config?.placement_moves;
  const left = movesLeft();
  return el('div', { class: 'nv-controls' },
    el('p', { class: 'small' }, t(COARSE.matches ? 'nv.help.placement.touch' : 'nv.help.placement')),
    b?.moves !== null && b?.moves !== undefined
      ? el('p', { class: 'muted small', id: 'nv-moves' }, max ? t('nv.moves.max', { n: b.moves, max }) : t('nv.moves', { n: b.moves }))
      : '',
    left ? '' : el('p', { class: 'small' }, t('nv.moves.done')),
    el('div', { class: 'chips' },
      button('nv-rotate', t('nv.rotate'), () => ui.selectedPiece && rotatePiece(ui.selectedPiece), {
        class: 'secondary', disabled: !ui.selectedPiece || !ctx().canAct || !left,
      }),
      // Rule 4.5: Ready only once a piece was picked up (a move made counts, after a reload).
      button('nv-ready', t('nv.ready'), () => {
        ui.sentPlacement = { kind: 'ready' };
        ctx().play?.(ui.sentPlacement);
      }, {
        disabled: !ctx().canAct || !(ui.pickedUp || (b?.moves || 0) > 0),
      })));
}

/**
 * One ship of the fleet in the row of ships: its name (short on a phone: the legend says what
 * CV, CR... stand for), its energy and its order this turn. A press picks it to give its order.
 * @param {ReturnType<typeof myShips>[number]} s
 */
function shipRow(s) {
  const planned = ui.plan.get(s.name);
  let what;
  if (s.sunk) what = t('nv.sunk');
  else if (s.given) what = t('nv.sent', { order: describeOrder(s.given) });
  else if (!myBattleTurn()) what = '';
  else if (planned) what = describeOrder(planned.info);
  else what = t('nv.pass.default');
  const b = myBoard();
  const disabled = (b?.emp_turns_left ?? 0) > 0 && !s.sunk;
  const pct = Math.round((s.energy / 1000) * 100);
  const state = s.sunk ? 'sunk' : planned && planned.kind !== 'pass' ? 'planned' : planned ? 'passes' : '';
  const order = planned?.info || s.given;
  return el('button', {
    type: 'button', class: `nv-ship${ui.ship === s.name && s.open ? ' selected' : ''}${s.sunk ? ' sunk' : ''}`,
    'data-ship': s.name, 'data-energy': s.energy, 'data-state': state,
    'data-order': order ? JSON.stringify(orderParts(order)) : '',
    'aria-label': `${t(`nv.ship.${s.name}`)}: ${what}`,
    disabled: !s.open || Boolean(s.given) || ui.firing,
    onclick: () => pickShip(s.name),
  },
  el('span', { class: 'nv-ship-name' }, el('span', { class: 'nv-long' }, t(`nv.ship.${s.name}`)),
    el('span', { class: 'nv-short' }, t(`nv.short.${s.name}`)), disabled ? ` · ${t('nv.disabled')}` : ''),
  el('span', { class: 'nv-energy', title: t('nv.energy', { n: s.energy }) },
    el('span', { class: 'nv-energy-bar', style: `width:${s.sunk ? 0 : pct}%` }), el('span', { class: 'nv-energy-num' }, s.sunk ? '—' : String(s.energy))),
  el('span', { class: 'nv-ship-order small' }, what));
}

/** The pass chip's words, with the energy a pass brings when the match's config is known (section 8). */
function passLabel() {
  const gain = ctx().config?.gains?.pass;
  return gain === undefined ? t('nv.mode.pass.plain') : t('nv.mode.pass', { n: gain });
}

function modeChips() {
  const ship = ui.ship;
  if (!ship || !myBattleTurn() || ui.firing) return '';
  const energy = myBoard()?.energy?.[shipIndex(ship)] ?? 0;
  const chip = (/** @type {string} */ mode, /** @type {string} */ label, /** @type {boolean} */ disabled, /** @type {string} */ title = '') => el('button', {
    type: 'button', class: `chip nv-mode${ui.mode === mode ? ' selected' : ''}`, 'data-mode': mode, disabled, title,
    onclick: () => {
      ui.aim = null;
      if (mode === 'pass') {
        ui.plan.set(ship, { cells: [], seat: null, kind: 'pass', info: passInfo(ship) });
        const open = myShips().filter((s) => s.open && !ui.plan.has(s.name));
        if (open.length) ui.ship = open[0].name;
        ui.mode = 'fire';
      } else ui.mode = mode;
      renderPanel();
      drawAll();
    },
  }, label);
  // The ship's specials, their costs and whether they are open: all from the turn's options.
  const specials = (shipOptions(ship)?.specials || []).map((sp) => chip(sp.ability,
    `${t(`nv.ab.${sp.ability}`)} (${sp.cost})`, !sp.open, t('nv.cost', { cost: sp.cost, energy })));
  return el('div', { class: 'nv-modes' },
    el('h3', {}, t('nv.orders.for', { ship: t(`nv.ship.${ship}`) }), ' ', el('span', { class: 'muted small' }, t('nv.energy', { n: energy }))),
    el('div', { class: 'chips' }, chip('fire', t('nv.mode.fire'), false), ...specials, chip('pass', passLabel(), false)),
    hasOrientation(specialOptions(ship, ui.mode))
      ? el('p', { class: 'small' }, button('nv-orient', t(ui.vertical ? 'nv.orient.v' : 'nv.orient.h'), () => {
        ui.vertical = !ui.vertical;
        renderPanel();
        redrawOverlay();
      }, { class: 'secondary' }), ' ', t('nv.orient.help'))
      : '',
    el('p', { class: 'muted small nv-help' }, lastTouch() ? t('nv.aim.tap') : t(`nv.help.${helpKey(ship, ui.mode)}`, { n: ctx().config?.emp_turns ?? 2 })));
}

/**
 * Which hint fits the chosen mode: the aimed area specials share one.
 * @param {string} ship
 * @param {string} mode
 */
function helpKey(ship, mode) {
  if (!specialOptions(ship, mode)) return 'fire';
  return ['emp', 'shield', 'torpedo'].includes(mode) ? mode : 'area';
}

function battleControls() {
  const mine = myBattleTurn();
  const ships = myShips();
  return el('div', { class: 'nv-controls' },
    el('h3', {}, t('nv.fleet')),
    el('div', { class: 'nv-ships', id: 'nv-ships', role: 'group', 'aria-label': t('nv.ships.row') }, ...ships.map(shipRow)),
    mine ? modeChips() : '',
    mine ? el('div', { class: 'chips nv-fire-row' },
      ui.zoom ? button('nv-zoom-out', t('nv.zoom.out'), () => {
        ui.zoom = null;
        ui.aim = null;
        drawAll();
        renderPanel();
      }, { class: 'secondary' }) : '',
      button('nv-clear', t('nv.clear'), () => {
        ui.plan = new Map();
        ui.ship = obsOf().next_ship ?? null;
        ui.mode = 'fire';
        drawAll();
        renderPanel();
      }, { class: 'secondary', disabled: ui.firing || ui.plan.size === 0 }),
      button('nv-fire', t('nv.fire'), startFiring, { disabled: ui.firing || !ctx().canAct })) : '');
}

function seatList() {
  const { state } = ctx();
  const obs = state.observation;
  return el('div', { class: 'nv-seats' }, ...state.seats.map(({ seat }) => {
    const b = obs.boards[seat];
    const toAct = state.status === 'live' && state.to_act.includes(seat);
    return el('div', { class: `nv-seat-row${toAct ? ' to-act' : ''}${b.eliminated ? ' out' : ''}`, 'data-seat': seat },
      el('span', { class: `swatch nv-swatch-${seat}` }),
      el('span', { class: 'player-name', 'data-seat': seat },
        seatWithName(state.game, seat, state.seats.find((x) => x.seat === seat)?.player)),
      b.eliminated ? el('span', { class: 'nv-badge out' }, t('nv.out')) : '',
      b.emp_turns_left ? el('span', { class: 'nv-badge emp' }, tn('nv.emp.badge', b.emp_turns_left)) : '',
      b.shield_up ? el('span', { class: 'nv-badge shield' }, b.shield ? t('nv.shield.charges', { n: b.shield.charges }) : t('nv.shield.up')) : '',
      el('span', { class: 'clock', id: `clock-${seat}`, role: 'timer' }, ''));
  }));
}

function logList() {
  const game = ctx().state.game;
  return el('ol', { class: 'nv-log small', id: 'nv-log' }, ...ui.log.map((a) => el('li', { 'data-seat': a.seat, 'data-order': a.order },
    el('span', { class: `swatch nv-swatch-${a.seat}` }), ' ',
    el('span', {}, t('nv.log.line', { fleet: seatLabel(game, a.seat), order: orderWords(a) || a.order })),
    resultWords(a) ? el('span', { class: 'muted' }, `: ${resultWords(a)}`) : '')));
}

/**
 * The account: one block per turn, "Fleet 2's turn", then each order with what it did.
 * @param {HTMLElement} box
 */
function renderAccount(box) {
  const game = ctx().state.game;
  const turns = accountTurns();
  const key = JSON.stringify([lang(), turns, me()]);
  if (key === ui.bannerKey) return;
  const fresh = ui.bannerKey !== '';
  ui.bannerKey = key;
  const seated = me() !== null && me() !== undefined;
  box.replaceChildren(
    el('div', { class: 'nv-banner-head' }, t(seated ? 'nv.account' : 'nv.account.all')),
    ...(turns.length ? turns.map(({ seat, orders }) => {
      const acted = orders.filter((a) => a.info?.kind !== 'pass');
      return el('div', { class: 'nv-turn', 'data-seat': seat },
        el('div', { class: 'nv-turn-head' }, el('span', { class: `swatch nv-swatch-${seat}` }), ' ',
          seat === me() ? t('nv.account.yours') : t('nv.account.turn', { fleet: seatLabel(game, seat) })),
        ...acted.map((a) => {
          const special = !['fire', 'pass'].includes(a.info?.kind);
          const result = resultWords(a);
          return el('div', { class: `nv-said${special ? ' nv-special' : ''}`, 'data-order': a.order }, orderWords(a) || a.order,
            result ? el('span', { class: 'nv-result' }, `: ${result}`) : '');
        }),
        acted.length < orders.length ? el('div', { class: 'muted small' }, tn('nv.passes', orders.length - acted.length)) : '');
    }) : [el('div', { class: 'muted small' }, t('nv.account.none'))]));
  box.classList.remove('fresh');
  void box.offsetWidth;
  if (fresh && turns.length) box.classList.add('fresh');
}

/**
 * The turn panel's part (`ctx.decision`: the phase and the countdown, what hit this seat, the
 * placement controls or the ships, their orders and Fire) and the Bataille Navale panel (the
 * account of the turns since this seat's last, the fleets with their clocks, the battle log), and
 * the legend of the marks.
 */
export function renderPanel() {
  const { state, panel, decision: box } = ctx();
  // Only the match page has the panel and the decision's slot.
  if (!panel || !box) return;
  if ((box.dataset.lang !== lang() || !box.querySelector('#nv-controls'))) {
    // The frames are built once per language; their parts are refreshed below.
    box.dataset.lang = lang();
    box.replaceChildren(
      el('div', { class: 'nv-phase' }, el('span', { id: 'nv-phase-text' }), ' ', el('span', { id: 'nv-countdown', class: 'nv-countdown', role: 'timer' })),
      el('div', { id: 'nv-hurt', class: 'nv-hurt', role: 'alert' }),
      el('div', { id: 'nv-message', class: 'nv-message small', role: 'status' }),
      el('div', { id: 'nv-controls' }));
  }
  if (panel.dataset.lang !== lang()) {
    panel.dataset.lang = lang();
    ui.bannerKey = '';
    panel.replaceChildren(
      el('div', { id: 'nv-banner', class: 'nv-banner', 'aria-live': 'polite' }),
      el('div', { id: 'nv-seats' }),
      el('h3', {}, t('nv.log')),
      el('div', { id: 'nv-log-box' }));
  }
  const obs = state.observation;
  if (obs.phase === 'battle' || obs.phase === 'over') renderAccount(byId('nv-banner'));
  else byId('nv-banner').replaceChildren();
  savePlan();
  let phaseText = '';
  if (state.status === 'finished') phaseText = t('nv.phase.over');
  else if (obs.phase === 'placement') phaseText = t(placing() ? 'nv.phase.placement' : 'nv.phase.placed');
  else if (myBattleTurn()) phaseText = t(ui.firing ? 'nv.phase.firing' : 'nv.phase.you');
  else if (obs.phase === 'battle' && obs.current !== null && obs.current !== undefined) phaseText = t('nv.phase.other', { seat: seatLabel(state.game, obs.current) });
  byId('nv-phase-text').textContent = phaseText;
  byId('nv-hurt').textContent = state.status === 'live' ? hurtWords() : '';
  byId('nv-message').textContent = typeof ui.message === 'function' ? ui.message() : ui.message;
  const controls = byId('nv-controls');
  if (placing()) controls.replaceChildren(placementControls());
  else if (me() !== null && me() !== undefined && obs.phase !== 'placement' && state.status === 'live') controls.replaceChildren(battleControls());
  else controls.replaceChildren();
  byId('nv-seats').replaceChildren(seatList());
  const list = logList();
  byId('nv-log-box').replaceChildren(list);
  list.scrollTop = list.scrollHeight;
  showLegend(ctx().legend, t('nv.legend'), legend());
  document.body.dataset.nvPhase = obs.phase;
  document.body.dataset.nvFiring = String(ui.firing);
  document.body.dataset.nvTurn = myBattleTurn() ? 'mine' : 'other';
}
