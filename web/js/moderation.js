// @ts-check
// The moderators' page (web/moderation.html at /moderation; docs/protocol.md section 7.11): the
// open reports with the chat line or match they name, what to do about each (warn, mute, rename,
// ban the reported player, close the match; each also resolves the report; or dismiss it), and
// the audit log of every moderator action.

import { api, el, byId, errorCode } from './api.js';
import { t, lang, errorText, setupLanguageSwitch, onLangChange } from './i18n.js';
import { setupIdentity, playerHref } from './identity.js';

const $ = byId;

/**
 * An open report (`GET /api/mod/reports`).
 * @typedef {{ id: number, at: number, reporter: string, reported: string, reason: string,
 *   text: string, match_id: string | null, chat: { seq: number, text: string } | null }} Report
 */

/**
 * An audit entry (`GET /api/mod/audit`).
 * @typedef {{ id: number, at: number, moderator: string | null, action: string,
 *   target: string | null, match_id: string | null, report: number | null,
 *   until: number | null, detail: string | null, reason: string }} Entry
 */

/** What the page shows. */
const page = {
  /** @type {Report[]} */
  reports: [],
  /** @type {Entry[]} */
  audit: [],
};

/**
 * @param {number} ms unix ms
 */
function when(ms) {
  return new Date(ms).toLocaleString(lang() === 'fr' ? 'fr-FR' : 'en-GB',
    { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/**
 * What a moderator may do about a report, as buttons: each sends its action, then resolves the
 * report (dismiss only dismisses it). The reason is the moderator's words from the report's
 * field.
 * @param {Report} r
 * @param {HTMLInputElement} reason
 * @param {HTMLElement} error
 */
function actions(r, reason, error) {
  /**
   * @param {string} key the button's text
   * @param {() => Promise<unknown>} act
   * @param {boolean} [resolve] whether the report is resolved after it
   */
  const button = (key, act, resolve = true) => el('button', {
    type: 'button', class: 'secondary', 'data-act': key,
    onclick: async () => {
      error.classList.add('hidden');
      try {
        await act();
        if (resolve) await api('POST', `/api/mod/reports/${r.id}`, { action: 'resolve', reason: reason.value });
        await load();
      } catch (err) {
        error.textContent = errorText(err);
        error.classList.remove('hidden');
      }
    },
  }, t(key));
  /** @param {Record<string, unknown>} body */
  const onPlayer = (body) => api('POST', `/api/mod/players/${encodeURIComponent(r.reported)}`, { ...body, reason: reason.value });
  const buttons = [
    button('mod.warn', () => onPlayer({ action: 'warn' })),
    button('mod.mute', () => onPlayer({ action: 'mute', minutes: 60 })),
    button('mod.rename', () => onPlayer({ action: 'rename' })),
    button('mod.ban.week', () => onPlayer({ action: 'ban', days: 7 })),
    button('mod.ban', () => onPlayer({ action: 'ban' })),
  ];
  if (r.match_id) {
    const match = r.match_id;
    buttons.push(button('mod.close', () => api('POST', `/api/mod/matches/${encodeURIComponent(match)}/close`, { reason: reason.value })));
  }
  buttons.push(button('mod.dismiss', () => api('POST', `/api/mod/reports/${r.id}`, { action: 'dismiss', reason: reason.value }), false));
  return buttons;
}

/**
 * One open report: who reported whom, why, the line or match, and what to do.
 * @param {Report} r
 */
function reportCard(r) {
  const reason = el('input', { type: 'text', maxlength: 500, class: 'mod-reason', 'aria-label': t('mod.reason'), placeholder: t('mod.reason') });
  const error = el('div', { class: 'error-box hidden', role: 'alert' });
  return el('article', { class: 'report', 'data-report': r.id, 'data-reported': r.reported },
    el('p', {},
      el('span', { class: 'muted small' }, `#${r.id} · ${when(r.at)} · `),
      t('mod.report.line.before', { reporter: r.reporter }), ' ',
      el('a', { href: playerHref(r.reported), class: 'player-link' }, r.reported), ' ',
      el('span', { class: 'badge' }, t(`report.reason.${r.reason}`))),
    r.text ? el('p', { class: 'report-text' }, `“${r.text}”`) : '',
    r.chat ? el('blockquote', { class: 'report-chat' }, t('mod.chat', { name: r.reported, line: r.chat.text })) : '',
    r.match_id ? el('p', { class: 'small' }, el('a', { href: `/m/${r.match_id}` }, t('mod.match'))) : '',
    reason,
    el('div', { class: 'actions' }, ...actions(r, reason, error)),
    error);
}

/**
 * One audit entry in words: when, who, what to whom, until when, why.
 * @param {Entry} e
 */
function auditItem(e) {
  const who = e.moderator ?? t('mod.server');
  const what = t(`mod.did.${e.action}`, {
    name: e.target ?? '', report: e.report ?? '', match: e.match_id ?? '', to: e.detail ?? '',
    until: e.until ? when(e.until) : '',
  });
  const end = e.action === 'ban' && !e.until ? ` (${t('mod.noend')})` : '';
  return el('li', { 'data-action': e.action, 'data-entry': e.id },
    el('span', { class: 'muted small' }, `${when(e.at)} · `),
    el('strong', {}, who), ' ', what, end,
    e.reason ? el('span', { class: 'muted' }, ` — ${e.reason}`) : '');
}

function draw() {
  $('reports').replaceChildren(...(page.reports.length
    ? page.reports.map(reportCard)
    : [el('p', { class: 'muted', id: 'no-reports' }, t('mod.noreports'))]));
  $('audit').replaceChildren(...page.audit.map(auditItem));
  document.body.dataset.reports = String(page.reports.length);
}

/** Reads the queue and the log again. */
async function load() {
  const [reports, audit] = await Promise.all([api('GET', '/api/mod/reports'), api('GET', '/api/mod/audit')]);
  page.reports = reports.reports;
  page.audit = audit.entries;
  draw();
}

async function start() {
  setupLanguageSwitch();
  setupIdentity();
  onLangChange(draw);
  try {
    await load();
    $('mod-page').classList.remove('hidden');
  } catch (err) {
    const code = errorCode(err);
    $('mod-error').textContent = code === 'auth/moderator' || code === 'auth/required' ? t('mod.only') : errorText(err);
    $('mod-error').classList.remove('hidden');
  }
  document.body.dataset.ready = 'true';
}

start();
