// The "how to play" page (web/howto.html, at /howto/{game}; also /assets/howto.html?game={game}):
// a short account of one game's rules in the page's language (texts in howto-texts.js).

import { api, el } from './api.js';
import { t, lang, setupLanguageSwitch, onLangChange } from './i18n.js';
import { setupIdentity } from './identity.js';
import { HOWTO } from './howto-texts.js';

const $ = (id) => document.getElementById(id);

/** The game named by the path (/howto/mad) or the query (?game=mad); MAD by default. */
function gameFromLocation() {
  const parts = location.pathname.split('/').filter(Boolean);
  if (parts[0] === 'howto' && parts[1]) return decodeURIComponent(parts[1]);
  return new URLSearchParams(location.search).get('game') || 'mad';
}

let games = [];
const game = gameFromLocation();

function draw() {
  const known = HOWTO[game];
  const title = games.find((g) => g.name === game)?.title || game;
  $('howto-tabs').replaceChildren(...Object.keys(HOWTO).map((name) => el('a', {
    href: `/howto/${name}`, class: `tab${name === game ? ' current' : ''}`, 'aria-current': name === game ? 'page' : null,
  }, games.find((g) => g.name === name)?.title || name)));
  if (!known) {
    $('error').textContent = t('howto.unknown', { game });
    $('error').classList.remove('hidden');
    $('howto').replaceChildren();
    return;
  }
  document.title = `${t('howto.title', { game: title })} · ${t('app.title')}`;
  const sections = known[lang()] || known.en;
  $('howto').replaceChildren(
    el('h1', {}, t('howto.title', { game: title })),
    ...sections.map(([heading, paragraphs]) => el('section', {},
      el('h2', {}, heading),
      paragraphs.length > 1
        ? el('ul', {}, ...paragraphs.map((p) => el('li', {}, p)))
        : el('p', {}, paragraphs[0]))),
    el('p', {}, el('a', { class: 'button', href: '/', id: 'howto-play' }, t('howto.play', { game: title }))));
  $('howto').dataset.game = game;
}

async function start() {
  setupLanguageSwitch();
  setupIdentity();
  onLangChange(draw);
  try {
    games = (await api('GET', '/api/games')).games;
  } catch {
    games = [];
  }
  draw();
  document.body.dataset.ready = 'true';
}

start();
