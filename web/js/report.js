// @ts-check
// Reporting a player to the moderators (docs/protocol.md section 7.11, `POST /api/reports`): a
// button beside a name (in the chat, at the table, on a profile) opens one dialog with a reason
// from the list and a few words; a chat line's report names the line itself.

import { api, el, byId } from './api.js';
import { t, errorText } from './i18n.js';

/** The reasons a report offers, in the server's words (their texts are `report.reason.*`). */
export const REASONS = ['abuse', 'spam', 'name', 'cheating', 'other'];

/** The longest text the server takes (characters). */
export const REPORT_MAX = 500;

/**
 * What a report is about: the player, and where it saw it (a match, a chat line of it).
 * @typedef {{ name: string, match?: string, seq?: number, line?: string }} ReportTarget
 */

/** @type {ReportTarget | null} What the open dialog reports. */
let target = null;

/** The dialog, made on first use and kept for the page. */
function dialog() {
  const found = document.getElementById('report-dialog');
  if (found instanceof HTMLDialogElement) return found;
  const reason = el('select', { id: 'report-reason', name: 'reason', required: true });
  const text = el('textarea', { id: 'report-text', name: 'text', maxlength: REPORT_MAX, rows: 3 });
  const form = el('form', { method: 'dialog' },
    el('h2', { id: 'report-title' }),
    el('p', { id: 'report-line', class: 'small muted hidden' }),
    el('label', { class: 'stack' }, el('span', { id: 'report-reason-label' }), reason),
    el('label', { class: 'stack' }, el('span', { id: 'report-text-label' }), text),
    el('div', { id: 'report-error', class: 'error-box hidden', role: 'alert' }),
    el('p', { id: 'report-done', class: 'note hidden', role: 'status' }),
    el('div', { class: 'actions' },
      el('button', { type: 'submit', id: 'report-send' }),
      el('button', { type: 'button', class: 'secondary', id: 'report-cancel', onclick: () => byId('report-dialog', HTMLDialogElement).close() })));
  const box = el('dialog', { id: 'report-dialog', class: 'dialog' }, form);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    if (!target) return;
    const send = byId('report-send', HTMLButtonElement);
    send.disabled = true;
    /** @type {Record<string, unknown>} */
    const body = { name: target.name, reason: reason.value, text: text.value };
    if (target.match) body.match = target.match;
    if (target.seq !== undefined) body.chat_seq = target.seq;
    try {
      await api('POST', '/api/reports', body);
      byId('report-error').classList.add('hidden');
      byId('report-done').textContent = t('report.done');
      byId('report-done').classList.remove('hidden');
      text.value = '';
    } catch (err) {
      byId('report-error').textContent = errorText(err);
      byId('report-error').classList.remove('hidden');
    } finally {
      send.disabled = false;
    }
  });
  document.body.append(box);
  return box;
}

/**
 * Opens the report dialog for `about`, its words in the page's language.
 * @param {ReportTarget} about
 */
export function openReport(about) {
  target = about;
  const box = dialog();
  byId('report-title').textContent = t('report.title', { name: about.name });
  const line = byId('report-line');
  line.textContent = about.line ? t('report.line', { line: about.line }) : '';
  line.classList.toggle('hidden', !about.line);
  byId('report-reason-label').textContent = t('report.reason');
  byId('report-text-label').textContent = t('report.text');
  byId('report-send').textContent = t('report.send');
  byId('report-cancel').textContent = t('match.cancel');
  byId('report-reason', HTMLSelectElement).replaceChildren(...REASONS.map((r) => el('option', { value: r }, t(`report.reason.${r}`))));
  byId('report-error').classList.add('hidden');
  byId('report-done').classList.add('hidden');
  box.showModal();
}

/**
 * A button that reports `about`: a chip (in the chat, at the table) or a plain button.
 * @param {ReportTarget} about
 * @param {string} [cls]
 */
export function reportButton(about, cls = 'chip report') {
  const label = about.seq === undefined ? t('report.player', { name: about.name }) : t('report.chat');
  return el('button', {
    type: 'button', class: cls, 'data-report': about.name,
    'aria-label': about.seq === undefined ? label : t('report.chat.label', { name: about.name }),
    onclick: () => openReport(about),
  }, label);
}
