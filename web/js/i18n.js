// @ts-check
// Translations (English and French) and the language switch. The texts are data
// (i18n-texts.js); this module picks the language and fills the texts in.
//
// The language is remembered in localStorage ("plateau.lang"); the first visit takes it from
// navigator.language. Elements with data-i18n="key" get their text from the table, elements with
// data-i18n-attr="attr:key,attr:key" get attributes (aria-label, title, placeholder).

import { errorCode, errorMessage } from './api.js';
import { TEXTS } from './i18n-texts.js';

const STORE_KEY = 'plateau.lang';

/** The languages offered, in menu order. */
export const LANGUAGES = [
  ['en', 'English'],
  ['fr', 'Français'],
];

function initialLanguage() {
  const stored = localStorage.getItem(STORE_KEY);
  if (stored && TEXTS[stored]) return stored;
  const nav = (navigator.language || 'en').slice(0, 2).toLowerCase();
  return TEXTS[nav] ? nav : 'en';
}

/** The page's language and who wants to know when it changes. */
const chosen = {
  /** The current language code. */
  current: initialLanguage(),
  /** @type {((code: string) => void)[]} Called after each change. */
  listeners: [],
};

/** The current language code ("en" or "fr"). */
export function lang() {
  return chosen.current;
}

/**
 * `text` with its `{name}` placeholders filled from `vars` (one missing from `vars` stays as is).
 * @param {string} text
 * @param {Record<string, unknown>} vars
 */
function fill(text, vars) {
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in vars ? String(vars[name]) : m));
}

/**
 * The entry of `key` and the language it is in: the current language's, else the English.
 * @param {string} key
 * @returns {[import('./i18n-texts.js').Plural | string | undefined, string]}
 */
function entry(key) {
  const own = TEXTS[chosen.current][key];
  return own === undefined ? [TEXTS.en[key], 'en'] : [own, chosen.current];
}

/**
 * The text of `key` in the current language with `{name}` placeholders filled from `vars`.
 * An unknown key is returned as is, so a missing translation shows instead of vanishing. A count's
 * text asked without its count reads in its `other` form.
 * @param {string} key
 * @param {Record<string, unknown>} [vars]
 * @returns {string}
 */
export function t(key, vars = {}) {
  const [text] = entry(key);
  if (text === undefined) return key;
  return fill(typeof text === 'string' ? text : text.other, vars);
}

/**
 * The text of `key` for a count `n`, in the form the language's plural rule (Intl.PluralRules)
 * gives `n`: "1 player online", "2 players online"; French counts 0 and 1 alike. `{n}` and the
 * placeholders of `vars` are filled.
 * @param {string} key
 * @param {number} n
 * @param {Record<string, unknown>} [vars]
 * @returns {string}
 */
export function tn(key, n, vars = {}) {
  const [text, code] = entry(key);
  if (text === undefined) return key;
  const form = typeof text === 'string' ? text : text[new Intl.PluralRules(code).select(n)] ?? text.other;
  return fill(form, { n, ...vars });
}

/**
 * A refusal in words: the translation of its code when there is one, else the server's message.
 * The code itself is for programs: pages put it in a `data-code` attribute, never in the text.
 * @param {unknown} err
 * @returns {string}
 */
export function errorText(err) {
  const key = `err.${errorCode(err)}`;
  const text = t(key);
  return text === key ? errorMessage(err) : text;
}

/** Fills every data-i18n / data-i18n-attr element under `root`. */
export function translateDom(root = document) {
  document.documentElement.lang = chosen.current;
  for (const el of root.querySelectorAll('[data-i18n]')) {
    if (el instanceof HTMLElement) el.textContent = t(el.dataset.i18n ?? '');
  }
  for (const el of root.querySelectorAll('[data-i18n-attr]')) {
    if (!(el instanceof HTMLElement || el instanceof SVGElement)) continue;
    for (const pair of (el.dataset.i18nAttr ?? '').split(',')) {
      const [attr, key] = pair.split(':');
      el.setAttribute(attr.trim(), t(key.trim()));
    }
  }
}

/**
 * Changes the language, remembers it, re-translates the page and tells the listeners.
 * @param {string} code a language of LANGUAGES; another changes nothing
 */
export function setLang(code) {
  if (!TEXTS[code]) return;
  chosen.current = code;
  localStorage.setItem(STORE_KEY, code);
  translateDom();
  for (const fn of chosen.listeners) fn(code);
}

/**
 * Calls `fn(code)` after each language change (pages redraw their dynamic parts).
 * @param {(code: string) => void} fn
 */
export function onLangChange(fn) {
  chosen.listeners.push(fn);
}

/** Fills the <select id="lang"> switch and translates the static page. */
export function setupLanguageSwitch() {
  const select = document.getElementById('lang');
  if (select instanceof HTMLSelectElement) {
    select.replaceChildren(
      ...LANGUAGES.map(([code, name]) => {
        const opt = document.createElement('option');
        opt.value = code;
        opt.textContent = name;
        opt.selected = code === chosen.current;
        return opt;
      }),
    );
    select.addEventListener('change', () => setLang(select.value));
  }
  translateDom();
}
