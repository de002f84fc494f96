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
import { gameModule, applyLayout } from './games.js';
import { seatLabel, seatOf, seatWithName } from './seats.js';
import { renderStoredChat } from './chat.js';
import { renderSeedCheck } from './seedcheck.js';
import { mountAnalysis } from './analysis.js';

const $ = byId;
// The page is served at /replay/{id} only, so the path always has one.
const id = idFromPath() ?? '';

/**
 * A step of `GET /api/matches/{id}/replay` (docs/protocol.md section 3.7): who played, the
 * action's text or an early ending as the record writes it, its parts, and the position after it.
 * @typedef {{ by: import('./games.js').LogEntry['by'], text?: string | Record<string, number> | null,
 *   info?: any, observation: any }} Step
 */

/**
 * An entry of the move list: the step it shows, who played, its words.
 * @typedef {{ index: number, by: Step['by'], label: string }} Entry
 */

/** The match summary, once it came (the page draws nothing before). */
function summary() {
  if (!page.summary) throw new Error('the replay page has no summary yet');
  return page.summary;
}

/** The replay page's state: one object, filled as the page loads and moved by the step buttons. */
const page = {
  /** @type {import('./api.js').MatchSummary | null} The match summary (`GET /api/matches/{id}`), or null before it came. */
  summary: null,
  /** @type {import('./games.js').GameModule | null} The game's page module (games.js), or null: then the page shows the move list alone. */
  mod: null,
  /** @type {Step[] | null} The steps, the start first; null when only the record is known. */
  steps: null,
  /** @type {boolean | undefined} Whether the server replayed the record to its published result. */
  serverVerified: undefined,
  /** The step shown (0: the start). */
  index: 0,
  /** @type {ReturnType<typeof mountAnalysis> | null} The analysis panel (analysis.js), once the steps are known. */
  analysis: null,
  /** @type {Parameters<typeof renderStoredChat>[2] | null} The stored chat of the match (both rooms), or null when the server has none to give. */
  chat: null,
};
/**
 * A step's text: an action's move-list form, or an early ending as the record writes it
 * (`{"resign": 0}`, `{"timeout": 1}`, `"agreement"`), which may fall mid-game (a Bataille Navale
 * seat resigning leaves the others playing).
 * @param {string | Record<string, number>} text
 * @returns {string}
 */
function stepText(text) {
  if (typeof text === 'string' && text !== 'agreement') return text;
  if (text === 'agreement') return t('replay.end.agreement');
  const [kind, seat] = Object.entries(text)[0] ?? [];
  return t(`replay.end.${kind}`, { seat: seatLabel(summary().game, Number(seat)) });
}


function total() {
  return page.steps ? page.steps.length - 1 : 0;
}

/**
 * @param {number} i
 */
function go(i) {
  page.index = Math.max(0, Math.min(total(), i));
  draw();
}

function draw() {
  if (!page.summary) return;
  $('title').textContent = `${summary().title || summary().game} · ${t('replay.title', { id: id.slice(0, 8) })}`;
  document.body.dataset.step = String(page.index);
  document.body.dataset.total = String(total());
  const obs = page.steps ? page.steps[page.index].observation : null;
  applyLayout($('layout'), page.mod);
  $('nosteps').classList.toggle('hidden', Boolean(page.steps));
  for (const node of document.querySelectorAll('.needs-steps')) node.classList.toggle('hidden', !page.steps);
  const drawn = drawPosition(obs);
  if (!drawn) $('board').replaceChildren();
  $('board-wrap').classList.toggle('hidden', !drawn);
  $('where').textContent = page.index === 0 ? t('replay.start') : t('replay.position', { n: page.index, total: total() });
  $('first', HTMLButtonElement).disabled = $('prev', HTMLButtonElement).disabled = page.index === 0;
  $('next', HTMLButtonElement).disabled = $('last', HTMLButtonElement).disabled = page.index === total();

  renderMoves();
  page.analysis?.draw(page.index);
  const current = $('moves').querySelector('.current');
  if (current) current.scrollIntoView({ block: 'nearest' });

  const o = summary().outcome;
  $('result-panel').classList.toggle('hidden', !o);
  if (o) {
    const lastObs = page.steps ? page.steps[page.steps.length - 1].observation : null;
    $('result-text').textContent = resultSentence(summary().game, o, lastObs?.since ?? '',
      (s) => seatWithName(summary().game, s, summary().seats[s]?.player));
  }
  renderSeedCheck($('verify'), page.summary, page.serverVerified);
  if (page.chat) renderStoredChat($('chat-stored'), summary().game, page.chat);
}



/**
 * Draws the position `obs` (null without steps) with the game's module, read-only: the board, and
 * the player bars and the info panel when the module uses them (they are hidden otherwise).
 * Returns false when nothing is drawn (no steps, or a game without a module): the board area is
 * then hidden.
 * @param {any} obs the observation of the step shown, as the server sent it
 */
function drawPosition(obs) {
  for (const node of [$('bar-top'), $('bar-bottom'), $('info-panel')]) node.classList.add('hidden');
  if (!obs || !page.mod?.renderPosition) return false;
  // A position drawn comes from the steps; the start has no step that led to it.
  const step = page.index > 0 ? page.steps?.[page.index] : null;
  const text = step ? step.text : null;
  const info = step ? step.info ?? null : null;
  const by = step ? step.by : null;
  page.mod.renderPosition({
    game: summary().game, seats: summary().seats, observation: obs, text, info, by,
    board: $('board', SVGSVGElement), barTop: $('bar-top'), barBottom: $('bar-bottom'),
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
  const list = page.steps ? page.steps.slice(1).map((s, i) => ({ index: i + 1, by: s.by, text: s.text, info: s.info })) : [];
  /** @type {Entry[]} */
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
 * @param {{ by: Step['by'], text?: Step['text'], info?: any }} entry
 * @returns {string}
 */
function label(entry) {
  const { by, text, info } = entry;
  // The module reads the parts, never the text (games.js).
  const words = text === null || text === undefined ? null : page.mod?.describe?.({ by, info });
  if (by === 'chance') return words || (text === null || text === undefined ? '' : stepText(text));
  if (text === null || text === undefined) return t('replay.hidden');
  return words || stepText(text);
}

/**
 * The number the move list shows for each entry of `list`, by its step index: with pairs, seat 0
 * opens a numbered move and seat 1 completes it (a chance draw or an ending between them starts
 * the next number afresh, and has none itself); else each entry's step index.
 * @param {Entry[]} list
 */
function moveNumbers(list) {
  /** @type {Map<number, number>} */
  const out = new Map();
  let n = 0;
  let open = false;
  for (const m of list) {
    const seat = seatOf(m.by);
    if (page.mod?.moveList !== 'pairs') out.set(m.index, m.index);
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
  const game = summary().game;
  const button = (/** @type {Entry} */ m) => {
    const seat = seatOf(m.by);
    const extra = seat === null ? '' : page.mod?.moveClass?.(seat) ?? '';
    return el('button', {
      type: 'button', class: `mv${extra ? ` ${extra}` : ''}${m.by === 'chance' ? ' chance' : ''}${m.index === page.index ? ' current' : ''}`,
      'data-index': m.index ?? '', onclick: () => go(m.index), disabled: !page.steps,
    }, m.label);
  };
  const list = entries();
  const number = moveNumbers(list);
  if (page.mod?.moveList !== 'pairs') {
    $('moves').replaceChildren(...list.map((m) => {
      const seat = seatOf(m.by);
      const swatch = seat === null ? '' : page.mod?.swatch?.(seat) ?? '';
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
    $('title').textContent = page.summary ? `${summary().title || summary().game} · ${title}` : title;
    if (page.summary && summary().status !== 'finished') $('error').textContent = t('replay.notfinished');
  };
  heading();
  onLangChange(() => (page.summary?.status === 'finished' ? draw() : heading()));
  $('first').addEventListener('click', () => go(0));
  $('prev').addEventListener('click', () => go(page.index - 1));
  $('next').addEventListener('click', () => go(page.index + 1));
  $('last').addEventListener('click', () => go(total()));
  document.addEventListener('keydown', (ev) => {
    if (ev.target instanceof HTMLInputElement) return;
    if (ev.key === 'ArrowLeft') go(page.index - 1);
    else if (ev.key === 'ArrowRight') go(page.index + 1);
    else if (ev.key === 'Home') go(0);
    else if (ev.key === 'End') go(total());
  });
  try {
    page.summary = await api('GET', `/api/matches/${encodeURIComponent(id)}`);
    page.mod = gameModule(summary().game);
  } catch (err) {
    $('error').textContent = errorCode(err) === 'match/not_found' ? t('match.notfound') : errorMessage(err);
    $('error').classList.remove('hidden');
    $('layout').classList.add('hidden');
    return;
  }
  if (summary().status !== 'finished') {
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
      const answer = await api('GET', `/api/matches/${id}/replay`);
      /** @type {Step[]} */
      const steps = answer.steps;
      page.steps = steps;
      page.serverVerified = answer.verified;
      $('analysis-panel').classList.remove('hidden');
      // The numbers depend on the steps alone: counted once, not at every redraw of the panel.
      const numbers = moveNumbers(entries());
      page.analysis = mountAnalysis($('analysis'), {
        id,
        game: summary().game,
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
    page.chat = await api('GET', `/api/matches/${id}/chat`);
  } catch {
    page.chat = { players: [], spectators: [] };
  }
  page.index = total();
  draw();
  document.body.dataset.ready = 'true';
}

start();
