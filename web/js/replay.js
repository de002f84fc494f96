// @ts-check
// The replay page (web/replay.html at /replay/{id}): steps through a finished match.
//
// The positions come from the server (`GET /api/matches/{id}/replay`, one observation per step):
// the browser applies no rule, and reads no notation (each action comes with its parts). Each
// game's position is drawn read-only, and its moves put in words, by the game's page module
// (games.js), the one the match page uses, so both pages show a position the same way.

import { api, el, idFromPath, byId, errorMessage, errorCode } from './api.js';
import { t, setupLanguageSwitch, onLangChange } from './i18n.js';
import { setupIdentity } from './identity.js';
import { resultSentence } from './result.js';
import { gameModule, applyLayout, seatOf } from './games.js';
import { seatLabel, seatWithName } from './seats.js';
import { renderStoredChat } from './chat.js';
import { renderSeedCheck } from './seedcheck.js';
import { mountAnalysis } from './analysis.js';

const $ = byId;
// The page is served at /replay/{id} only, so the path always has one.
const id = idFromPath() ?? '';

let summary = null;
/** The game's page module (games.js), or null: then the page shows the move list alone. */
let mod = null;
/** [{by, text, observation}], steps[0] being the start; or null when only the record is known. */
let steps = null;
/**
 * A step's text: an action's move-list form, or an early ending as the record writes it
 * (`{"resign": 0}`, `{"timeout": 1}`, `"agreement"`), which may fall mid-game (a Bataille Navale
 * seat resigning leaves the others playing).
 */
function stepText(text) {
  if (text === null || typeof text === 'string' && text !== 'agreement') return text;
  if (text === 'agreement') return t('replay.end.agreement');
  const [kind, seat] = Object.entries(text)[0] ?? [];
  return t(`replay.end.${kind}`, { seat: seatLabel(summary.game, Number(seat)) });
}

let serverVerified;
let index = 0;

function total() {
  return steps ? steps.length - 1 : 0;
}

function go(i) {
  index = Math.max(0, Math.min(total(), i));
  draw();
}

function draw() {
  if (!summary) return;
  $('title').textContent = `${summary.title || summary.game} · ${t('replay.title', { id: id.slice(0, 8) })}`;
  document.body.dataset.step = String(index);
  document.body.dataset.total = String(total());
  const obs = steps ? steps[index].observation : null;
  applyLayout($('layout'), mod);
  $('nosteps').classList.toggle('hidden', Boolean(steps));
  for (const node of document.querySelectorAll('.needs-steps')) node.classList.toggle('hidden', !steps);
  const drawn = drawPosition(obs);
  if (!drawn) $('board').replaceChildren();
  $('board-wrap').classList.toggle('hidden', !drawn);
  $('where').textContent = index === 0 ? t('replay.start') : t('replay.position', { n: index, total: total() });
  $('first', HTMLButtonElement).disabled = $('prev', HTMLButtonElement).disabled = index === 0;
  $('next', HTMLButtonElement).disabled = $('last', HTMLButtonElement).disabled = index === total();

  renderMoves();
  analysis?.draw(index);
  const current = $('moves').querySelector('.current');
  if (current) current.scrollIntoView({ block: 'nearest' });

  const o = summary.outcome;
  $('result-panel').classList.toggle('hidden', !o);
  if (o) {
    const lastObs = steps ? steps[steps.length - 1].observation : null;
    $('result-text').textContent = resultSentence(summary.game, o, lastObs?.since ?? '',
      (s) => seatWithName(summary.game, s, summary.seats[s]?.player));
  }
  renderSeedCheck($('verify'), summary, serverVerified);
  if (chat) renderStoredChat($('chat-stored'), summary.game, chat);
}

/** The analysis panel (analysis.js), once the steps are known. */
let analysis = null;

/** The stored chat of the match (both rooms), or null when the server has none to give. */
let chat = null;

/**
 * Draws the position `obs` (null without steps) with the game's module, read-only: the board, and
 * the player bars and the info panel when the module uses them (they are hidden otherwise).
 * Returns false when nothing is drawn (no steps, or a game without a module): the board area is
 * then hidden.
 */
function drawPosition(obs) {
  for (const node of [$('bar-top'), $('bar-bottom'), $('info-panel')]) node.classList.add('hidden');
  if (!obs || !mod?.renderPosition) return false;
  const text = index > 0 ? steps[index].text : null;
  const info = index > 0 ? steps[index].info ?? null : null;
  const by = index > 0 ? steps[index].by : null;
  mod.renderPosition({
    game: summary.game, seats: summary.seats, observation: obs, text, info, by,
    board: $('board'), barTop: $('bar-top'), barBottom: $('bar-bottom'),
    showInfo: (...nodes) => {
      $('info').replaceChildren(...nodes);
      $('info-panel').classList.remove('hidden');
    },
  });
  return true;
}

/**
 * The move list's entries: `{index, by, label}` where `index` is the step it shows (undefined
 * without steps). A chance draw is marked by its style, an action a spectator may not see reads
 * "hidden"; a chance draw without text (a secret one) is left out, as it tells nothing.
 */
function entries() {
  const list = steps ? steps.slice(1).map((s, i) => ({ index: i + 1, by: s.by, text: s.text, info: s.info })) : [];
  const out = [];
  for (const m of list) {
    if (m.by === 'chance' && (m.text === null || m.text === undefined)) continue;
    out.push({ index: m.index, by: m.by, label: label(m) });
  }
  return out;
}

/**
 * A step's words in the move list (`by`, `text` and `info` as in a step): the game module's words
 * for an action or a chance draw, from its parts, when it has them, else the notation (or an early
 * ending in words).
 */
function label(entry) {
  const { by, text } = entry;
  const words = text === null || text === undefined ? null : mod?.describe?.(entry);
  if (by === 'chance') return words || text;
  if (text === null || text === undefined) return t('replay.hidden');
  return words || stepText(text);
}

/**
 * The number the move list shows for each entry of `list`, by its step index: with pairs, seat 0
 * opens a numbered move and seat 1 completes it (a chance draw or an ending between them starts
 * the next number afresh, and has none itself); else each entry's step index.
 */
function moveNumbers(list) {
  const out = new Map();
  let n = 0;
  let open = false;
  for (const m of list) {
    const seat = seatOf(m.by);
    if (mod?.moveList !== 'pairs') out.set(m.index, m.index);
    else if (seat === null) open = false;
    else {
      if (seat === 0 || !open) n += 1;
      out.set(m.index, n);
      open = seat === 0;
    }
  }
  return out;
}

/**
 * The move list: numbered pairs for two seats in turn (the module's `moveList: 'pairs'`), else
 * one entry a line with the seat's colour.
 */
function renderMoves() {
  const game = summary.game;
  const button = (m) => {
    const seat = seatOf(m.by);
    const extra = seat === null ? '' : mod?.moveClass?.(seat) ?? '';
    return el('button', {
      type: 'button', class: `mv${extra ? ` ${extra}` : ''}${m.by === 'chance' ? ' chance' : ''}${m.index === index ? ' current' : ''}`,
      'data-index': m.index ?? '', onclick: () => go(m.index), disabled: !steps,
    }, m.label);
  };
  const list = entries();
  const number = moveNumbers(list);
  if (mod?.moveList !== 'pairs') {
    $('moves').replaceChildren(...list.map((m) => {
      const seat = seatOf(m.by);
      const swatch = seat === null ? '' : mod?.swatch?.(seat) ?? '';
      const who = seat === null ? el('span', { class: 'muted small' }, '')
        : el('span', { class: 'small', 'data-seat': seat }, el('span', { class: `swatch ${swatch}` }), ' ', seatLabel(game, seat));
      return el('li', {}, el('span', { class: 'num' }, m.index ? `${m.index}.` : ''), who, button(m));
    }));
    return;
  }
  // Pairs: one row per move number (seat 0, then seat 1); a chance draw or an ending gets a row
  // of its own, without a number.
  /** @typedef {{ num: string, cells: (HTMLElement | null)[] }} Row */
  /** @type {Row[]} */
  const rows = [];
  /** @type {Row | null} */
  let row = null;
  for (const m of list) {
    const seat = seatOf(m.by);
    if (seat === null) {
      rows.push({ num: '', cells: [button(m), null] });
      row = null;
      continue;
    }
    if (!row || row.num !== `${number.get(m.index)}.`) {
      row = { num: `${number.get(m.index)}.`, cells: [null, null] };
      rows.push(row);
    }
    row.cells[seat === 1 ? 1 : 0] = button(m);
  }
  $('moves').replaceChildren(...rows.map((r) => el('li', {}, el('span', { class: 'num' }, r.num),
    r.cells[0] || el('span', { class: 'mv' }, '…'), r.cells[1] || el('span', {}, ''))));
}

async function start() {
  setupLanguageSwitch();
  setupIdentity();
  // The heading before the match is known, and when it cannot be shown (not found, not finished).
  const heading = () => {
    const title = t('replay.title', { id: id.slice(0, 8) });
    $('title').textContent = summary ? `${summary.title || summary.game} · ${title}` : title;
    if (summary && summary.status !== 'finished') $('error').textContent = t('replay.notfinished');
  };
  heading();
  onLangChange(() => (summary?.status === 'finished' ? draw() : heading()));
  $('first').addEventListener('click', () => go(0));
  $('prev').addEventListener('click', () => go(index - 1));
  $('next').addEventListener('click', () => go(index + 1));
  $('last').addEventListener('click', () => go(total()));
  document.addEventListener('keydown', (ev) => {
    if (ev.target instanceof HTMLInputElement) return;
    if (ev.key === 'ArrowLeft') go(index - 1);
    else if (ev.key === 'ArrowRight') go(index + 1);
    else if (ev.key === 'Home') go(0);
    else if (ev.key === 'End') go(total());
  });
  try {
    summary = await api('GET', `/api/matches/${encodeURIComponent(id)}`);
    mod = gameModule(summary.game);
  } catch (err) {
    $('error').textContent = errorCode(err) === 'match/not_found' ? t('match.notfound') : errorMessage(err);
    $('error').classList.remove('hidden');
    $('layout').classList.add('hidden');
    return;
  }
  if (summary.status !== 'finished') {
    heading();
    $('error').classList.remove('hidden');
    $('layout').classList.add('hidden');
    return;
  }
  $('export-link', HTMLAnchorElement).href = `/api/matches/${encodeURIComponent(id)}/export`;
  $('export-panel').classList.remove('hidden');
  // The positions, each action with its parts (`info`). The server computes a few replays at a
  // time: while it is busy (`limit/replays`) the page asks again; any other refusal is shown in
  // the server's words, without a move list (the page never reads the record's notation).
  for (let tries = 0; ; tries += 1) {
    try {
      const replay = await api('GET', `/api/matches/${id}/replay`);
      steps = replay.steps;
      serverVerified = replay.verified;
      $('analysis-panel').classList.remove('hidden');
      // The numbers depend on the steps alone: counted once, not at every redraw of the panel.
      const numbers = moveNumbers(entries());
      analysis = mountAnalysis($('analysis'), {
        id,
        game: summary.game,
        steps,
        go,
        describe: (seat, text, info) => label({ by: { seat }, text, info }),
        moveNumber: (step) => numbers.get(step) ?? step,
      });
      break;
    } catch (err) {
      if (errorCode(err) === 'limit/replays' && tries < 60) {
        await new Promise((done) => { setTimeout(done, 1000); });
        continue;
      }
      $('error').textContent = errorMessage(err);
      $('error').classList.remove('hidden');
      break;
    }
  }
  try {
    chat = await api('GET', `/api/matches/${id}/chat`);
  } catch {
    chat = { players: [], spectators: [] };
  }
  index = total();
  draw();
  document.body.dataset.ready = 'true';
}

start();
