// The replay page (web/replay.html at /replay/{id}): steps through a finished match.
//
// The positions come from the server (`GET /api/matches/{id}/replay`, one observation per step):
// the browser applies no rule. Without that route it falls back to the record's move list.

import { api, el, idFromPath } from './api.js';
import { t, setupLanguageSwitch, onLangChange } from './i18n.js';
import { resultSentence } from './result.js';
import { parseAction, renderBoard, renderExile, seatColour } from './mad.js';
import { renderSeedCheck } from './seedcheck.js';

const $ = (id) => document.getElementById(id);
const id = idFromPath();

let summary = null;
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
  return t(`replay.end.${kind}`, { seat: Number(seat) + 1 });
}

/** The record's actions when there are no steps: [{by, text}]. */
let moves = [];
let serverVerified;
let index = 0;

function total() {
  return steps ? steps.length - 1 : moves.length;
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
  const isMad = summary.game === 'mad';
  if (obs && isMad) {
    const text = index > 0 ? steps[index].text : null;
    const entry = typeof text === 'string' ? parseAction(text) : null;
    renderBoard($('board'), {
      cells: obs.cells, orientation: 'r', onCell: null,
      lastFrom: entry?.kind === 'move' ? entry.from : null,
      lastTo: entry?.kind === 'move' ? entry.to : null,
    });
    renderExile($('exile-top'), 'b', obs.exile?.b || []);
    renderExile($('exile-bottom'), 'r', obs.exile?.r || []);
  } else {
    $('board').replaceChildren();
  }
  $('board-wrap').classList.toggle('hidden', !obs);
  $('nosteps').classList.toggle('hidden', Boolean(steps));
  for (const node of document.querySelectorAll('.needs-steps')) node.classList.toggle('hidden', !steps);
  $('where').textContent = index === 0 ? t('replay.start') : t('replay.position', { n: index, total: total() });
  $('first').disabled = $('prev').disabled = index === 0;
  $('next').disabled = $('last').disabled = index === total();

  const list = steps ? steps.slice(1).map((s) => ({ by: s.by, text: stepText(s.text) })) : moves;
  const rows = [];
  let row = null;
  list.forEach((m, i) => {
    const seat = m.by && typeof m.by === 'object' ? m.by.seat : null;
    const btn = el('button', {
      type: 'button', class: `mv ${isMad && seat !== null ? seatColour(seat) : ''}${i + 1 === index ? ' current' : ''}`,
      'data-index': i + 1, onclick: () => go(i + 1), disabled: !steps,
    }, m.text ?? '');
    if (seat === 0 || !row || row.cells[1] || seat === null) {
      row = { num: rows.length + 1, cells: [null, null] };
      rows.push(row);
    }
    row.cells[seat === 1 ? 1 : 0] = btn;
  });
  $('moves').replaceChildren(...rows.map((r) => el('li', {}, el('span', { class: 'num' }, `${r.num}.`),
    r.cells[0] || el('span', { class: 'mv' }, '…'), r.cells[1] || el('span', {}, ''))));
  const current = $('moves').querySelector('.current');
  if (current) current.scrollIntoView({ block: 'nearest' });

  const o = summary.outcome;
  $('result-panel').classList.toggle('hidden', !o);
  if (o) {
    const lastObs = steps ? steps[steps.length - 1].observation : null;
    $('result-text').textContent = resultSentence(summary.game, o, lastObs?.since ?? '');
  }
  renderSeedCheck($('verify'), summary, serverVerified);
}

async function start() {
  setupLanguageSwitch();
  onLangChange(draw);
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
  } catch (err) {
    $('error').textContent = err.code === 'match/not_found' ? t('match.notfound') : `[${err.code}] ${err.message}`;
    $('error').classList.remove('hidden');
    $('layout').classList.add('hidden');
    return;
  }
  if (summary.status !== 'finished') {
    $('error').textContent = t('replay.notfinished');
    $('error').classList.remove('hidden');
    $('layout').classList.add('hidden');
    return;
  }
  try {
    const replay = await api('GET', `/api/matches/${id}/replay`);
    steps = replay.steps;
    serverVerified = replay.verified;
  } catch {
    // No replay route: show the record's moves without positions.
    try {
      const record = await api('GET', `/api/matches/${id}/record`);
      moves = record.actions.map((a) => ({ by: a.by, text: a.action }));
    } catch (err) {
      $('error').textContent = `[${err.code}] ${err.message}`;
      $('error').classList.remove('hidden');
    }
  }
  index = total();
  draw();
  document.body.dataset.ready = 'true';
}

start();
