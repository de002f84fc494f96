// @ts-check
// The "how to play" page (web/howto.html, at /howto/{game}; also /assets/howto.html?game={game}):
// a short account of one game's rules in the page's language (texts in howto-texts.js), pictures
// drawn with the game's own board (howto-pictures.js), and a first game against the beginner bot
// with hints at every step (the match page's `learn` mode).

import { api, el, setToken, byId } from './api.js';
import { t, lang, setupLanguageSwitch, onLangChange, errorText } from './i18n.js';
import { setupIdentity } from './identity.js';
import { HOWTO } from './howto-texts.js';
import { pictures } from './howto-pictures.js';

const $ = byId;

/** The game named by the path (/howto/mad) or the query (?game=mad); MAD by default. */
function gameFromLocation() {
  const parts = location.pathname.split('/').filter(Boolean);
  if (parts[0] === 'howto' && parts[1]) return decodeURIComponent(parts[1]);
  return new URLSearchParams(location.search).get('game') || 'mad';
}

/** The how-to page's state. */
const page = {
  /** @type {import('./api.js').GameInfo[]} The games of /api/games, for the tabs. */
  games: [],
};
const game = gameFromLocation();

function draw() {
  const known = Object.hasOwn(HOWTO, game) ? HOWTO[game] : null;
  const title = page.games.find((g) => g.name === game)?.title || game;
  $('howto-tabs').replaceChildren(...Object.keys(HOWTO).map((name) => el('a', {
    href: `/howto/${name}`, class: `tab${name === game ? ' current' : ''}`, 'aria-current': name === game ? 'page' : null,
  }, page.games.find((g) => g.name === name)?.title || name)));
  if (!known) {
    $('error').textContent = t('howto.unknown', { game });
    $('error').classList.remove('hidden');
    $('howto').replaceChildren();
    return;
  }
  document.title = `${t('howto.title', { game: title })} · ${t('app.title')}`;
  const sections = known[/** @type {'en' | 'fr'} */ (lang())] || known.en;
  const entry = page.games.find((g) => g.name === game);
  $('howto').replaceChildren(
    el('h1', {}, t('howto.title', { game: title })),
    learnBox(entry),
    ...sections.map(([heading, paragraphs]) => el('section', {},
      el('h2', {}, heading),
      paragraphs.length > 1
        ? el('ul', {}, ...paragraphs.map((p) => el('li', {}, p)))
        : el('p', {}, paragraphs[0]))),
    pictures(game, entry?.default_config) || '',
    el('p', {}, el('a', { class: 'button secondary', href: '/', id: 'howto-play' }, t('howto.play', { game: title }))));
  $('howto').dataset.game = game;
}

/**
 * The first game: a match against the beginner bot at every other seat, without a clock, opened
 * in the match page's learning mode (`?learn`), which says what to tap at each step.
 * @param {import('./api.js').GameInfo | undefined} entry
 */
function learnBox(entry) {
  if (!entry) return '';
  const button = el('button', { type: 'button', id: 'howto-learn' }, t('howto.learn'));
  const error = el('p', { class: 'error-text small hidden', role: 'alert' });
  button.addEventListener('click', async () => {
    button.disabled = true;
    const others = Array.from({ length: (entry.default_seats ?? 2) - 1 }, () => ({ kind: 'bot', bot: firstLevel(entry) }));
    try {
      const res = await api('POST', '/api/matches', { game: game, seats: [{ kind: 'human' }, ...others], time_control: { kind: 'none' } });
      if (res.token) setToken(res.id, res.token);
      location.href = `${res.url}?learn`;
    } catch (err) {
      button.disabled = false;
      error.textContent = errorText(err);
      error.classList.remove('hidden');
    }
  });
  return el('div', { class: 'howto-learn' }, button, el('p', { class: 'muted small' }, t('howto.learn.help')), error);
}

/**
 * The easiest bot the game offers: its lobby's first level (the beginner).
 * @param {import('./api.js').GameInfo} entry
 */
function firstLevel(entry) {
  return (entry.levels?.length ? entry.levels : entry.bots || ['random'])[0];
}

async function start() {
  setupLanguageSwitch();
  setupIdentity();
  onLangChange(draw);
  try {
    page.games = (await api('GET', '/api/games')).games;
  } catch {
    page.games = [];
  }
  draw();
  document.body.dataset.ready = 'true';
}

start();
