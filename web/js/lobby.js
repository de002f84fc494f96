// @ts-check
// The lobby (web/index.html): a name for the visitor, three obvious ways to play each game (Quick
// play through the seek pools, Play a friend with an invite link, Play the computer by level), the
// full form behind the Advanced fold, the live counts, the games waiting for this player and the
// lists of matches. Routes: docs/protocol.md sections 3.1 to 3.5 and "Quick pairing".

import { api, el, setToken, absolute, copyButton, byId, findId } from './api.js';
import { t, tn, setupLanguageSwitch, onLangChange, errorText } from './i18n.js';
import { seatLabel, seatWithName, botName } from './seats.js';
import { setupIdentity, currentPlayer, chooseName, onPlayerChange } from './identity.js';
import { suggestName, NAME_PATTERN } from './nameprompt.js';
import { setupAdvanced, renderAdvanced } from './advanced.js';
import { openSocket } from './socket.js';
import { clockPresets, timeControlText, samePool } from './clocks.js';
import { renderSeekWait, renderChallenges } from './quickplay.js';
import { renderList } from './lobby-lists.js';
import { setupCommunity } from './community.js';

const $ = byId;

/** @typedef {import('./api.js').MatchSummary} MatchSummary */
/** @typedef {ReturnType<typeof readPlay>} Play What the play dialog asks for. */

/** The lobby page's state: one object, kept between the socket's messages and the lists' refreshes. */
const lobby = {
  /** @type {import('./api.js').GameInfo[]} The games of /api/games. */
  games: [],
  /** @type {{ name: string, kind: string } | null} The session's player, or null. */
  player: null,
  /** @type {import('./socket.js').Socket | null} The lobby socket (socket.js), open from the start on. */
  lobbySocket: null,
  /** @type {{ online: number, playing: number, pools: import('./quickplay.js').Pool[] } | null} The last `lobby` message (counts and pools), or null. */
  lobbyInfo: null,
  /** @type {import('./quickplay.js').Seeking | null} The seek in progress, or null. */
  seeking: null,
  /**
   * @type {{ id: string, game: string, url: string, token?: string, invites?: { seat: number, url: string }[] } | null}
   * The answer of the last match created here (Play a friend, docs/protocol.md section 3.2), for
   * its invite links.
   */
  lastCreated: null,
  /** @type {{ game: string, action: string } | null} The dialog on screen, or null. */
  dialogFor: null,
  /** @type {{ active: MatchSummary[], finished: MatchSummary[] }} The open and finished matches listed. */
  lists: { active: [], finished: [] },
  /** @type {MatchSummary[]} The correspondence matches waiting for this player's move. */
  waiting: [],
};

/** The lobby socket: every seek and answer is sent after the start opened it. */
function socket() {
  if (!lobby.lobbySocket) throw new Error('the lobby socket is not open yet');
  return lobby.lobbySocket;
}

/**
 * @param {unknown} err an error to show, or null to hide the box
 */
function showError(err) {
  const box = $('error');
  if (!err) {
    box.classList.add('hidden');
    return;
  }
  box.textContent = t('lobby.error', { msg: errorText(err) });
  box.classList.remove('hidden');
}

const gameOf = (/** @type {string} */ name) => lobby.games.find((g) => g.name === name);

/**
 * The entry of game `name` in /api/games, which the play dialog is only opened for.
 * @param {string} name
 */
function listedGame(name) {
  const game = gameOf(name);
  if (!game) throw new Error(`no game ${name} in /api/games`);
  return game;
}

// ---- The visitor's name -----------------------------------------------------------------------

function renderWelcome() {
  $('welcome').classList.toggle('hidden', Boolean(lobby.player));
  const input = $('welcome-name', HTMLInputElement);
  input.pattern = NAME_PATTERN;
  if (!lobby.player && !input.value) input.value = suggestName();
}

/**
 * @param {SubmitEvent} ev
 */
async function submitWelcome(ev) {
  ev.preventDefault();
  $('welcome-error').classList.add('hidden');
  try {
    await chooseName($('welcome-name', HTMLInputElement).value.trim());
  } catch (err) {
    $('welcome-error').textContent = errorText(err);
    $('welcome-error').classList.remove('hidden');
  }
}

// ---- Game cards and the play dialog ----------------------------------------------------------

/**
 * @param {string} game
 */
function seekersOf(game) {
  return (lobby.lobbyInfo?.pools || []).filter((p) => p.game === game).reduce((n, p) => n + (p.waiting || 0), 0);
}

function renderCards() {
  $('game-cards').replaceChildren(...lobby.games.map((g) => {
    const seekers = seekersOf(g.name);
    return el('article', { class: 'game-card panel', 'data-game': g.name },
      el('div', { class: 'game-card-head' },
        el('h2', {}, g.title),
        el('a', { href: `/howto/${g.name}`, class: 'small howto-link' }, t('lobby.howto'))),
      el('p', { class: 'small muted' }, t(`game.${g.name}.blurb`)),
      el('p', { class: 'small seekers', 'data-seekers': seekers }, seekers ? t('lobby.seekers', { n: seekers }) : '\u00a0'),
      el('div', { class: 'game-actions' },
        el('button', { type: 'button', id: `quick-${g.name}`, onclick: () => openPlay(g.name, 'quick') }, t('play.quick')),
        el('button', { type: 'button', class: 'secondary', id: `friend-${g.name}`, onclick: () => openPlay(g.name, 'friend') }, t('play.friend')),
        el('button', { type: 'button', class: 'secondary', id: `bot-${g.name}`, onclick: () => openPlay(g.name, 'bot') }, t('play.bot'))));
  }));
}

/**
 * @param {string} id
 * @param {string[][]} options `[value, label]` pairs
 * @param {string} value
 */
function select(id, options, value) {
  return el('select', { id, name: id }, ...options.map(([v, label]) => el('option', { value: v, selected: v === value }, label)));
}

/**
 * @param {string} text
 * @param {HTMLElement} control
 */
function labelled(text, control) {
  return el('label', {}, el('span', {}, text), ' ', control);
}

/**
 * The fields of the play dialog for `action` ("quick", "friend" or "bot") of game `name`.
 * @param {string} name
 * @param {string} action
 */
function playFields(name, action) {
  const game = listedGame(name);
  const rows = [];
  if (!lobby.player) {
    rows.push(el('div', { class: 'form-row' }, labelled(t('id.name'),
      el('input', { id: 'play-name', required: true, maxlength: 20, pattern: NAME_PATTERN, value: suggestName() }))));
  }
  const presets = clockPresets(game);
  rows.push(el('div', { class: 'form-row' }, labelled(t('lobby.clock'),
    select('play-tc', presets.map((p, i) => [String(i), t(p.key)]), String(presets.findIndex((p) => p.preferred))))));
  if (game.min_seats !== game.max_seats) {
    const sizes = [];
    for (let k = game.min_seats; k <= game.max_seats; k++) sizes.push([String(k), t('play.table', { n: k })]);
    rows.push(el('div', { class: 'form-row' }, labelled(t('play.size'), select('play-seats', sizes, String(game.default_seats)))));
  } else if (game.max_seats > 2) {
    rows.push(el('p', { class: 'small muted' }, t('play.table', { n: game.max_seats })));
  }
  const levels = game.levels || [];
  if (action === 'bot') {
    rows.push(el('div', { class: 'form-row' }, labelled(t('play.level'),
      select('play-level', levels.map((l) => [l, botName(l)]), levels[Math.min(1, levels.length - 1)]))));
  }
  if (action !== 'quick') {
    const sides = [['random', t('play.side.random')]];
    for (let s = 0; s < game.max_seats; s++) sides.push([String(s), seatLabel(name, s)]);
    rows.push(el('div', { class: 'form-row' }, labelled(t('play.side'), select('play-side', sides, 'random'))));
  }
  if (action === 'quick' && game.max_seats > 2) {
    // Bots fill a table of three or four by default: such a table rarely fills with people alone.
    rows.push(el('div', { class: 'form-row' },
      el('label', {}, el('input', { type: 'checkbox', id: 'play-fill', checked: game.default_seats > 2 }), ' ', t('play.fill')),
      el('input', { type: 'number', id: 'play-fill-seconds', min: 5, max: 600, value: 30, style: 'width:5rem', 'aria-label': t('play.fill.seconds') }),
      el('span', {}, t('play.fill.after')),
      select('play-fill-level', levels.map((l) => [l, botName(l)]), levels[Math.min(1, levels.length - 1)])));
  }
  if (action !== 'bot') {
    rows.push(el('div', { class: 'form-row', role: 'radiogroup', 'aria-label': t('play.rated') },
      el('label', {}, el('input', { type: 'radio', name: 'rated', id: 'play-rated', value: 'rated', checked: action === 'quick' }), ' ', t('play.rated')),
      el('label', {}, el('input', { type: 'radio', name: 'rated', id: 'play-casual', value: 'casual', checked: action !== 'quick' }), ' ', t('play.casual'))));
  } else {
    rows.push(el('p', { class: 'small muted' }, t('play.bot.casual')));
  }
  return rows;
}

/**
 * @param {string} name
 * @param {string} action
 */
function openPlay(name, action) {
  lobby.dialogFor = { game: name, action };
  const game = listedGame(name);
  $('play-title').textContent = `${t(`play.${action}`)} · ${game.title}`;
  $('play-go').textContent = t(`play.${action}.go`);
  $('play-fields').replaceChildren(...playFields(name, action));
  const size = findId('play-seats', HTMLSelectElement);
  size?.addEventListener('change', () => {
    const fill = findId('play-fill', HTMLInputElement);
    if (fill) fill.checked = Number(size.value) > 2;
  });
  $('play-error').classList.add('hidden');
  $('play-dialog', HTMLDialogElement).showModal();
}

function readPlay() {
  if (!lobby.dialogFor) throw new Error('no play dialog is open');
  const { game: name, action } = lobby.dialogFor;
  const game = listedGame(name);
  const size = findId('play-seats', HTMLSelectElement);
  const seats = size ? Number(size.value) : game.default_seats;
  const timeControl = clockPresets(game)[Number($('play-tc', HTMLSelectElement).value)].tc;
  const rated = action !== 'bot' && $('play-rated', HTMLInputElement).checked;
  const side = findId('play-side', HTMLSelectElement)?.value;
  const mySeat = !side || side === 'random' ? Math.floor(Math.random() * seats) : Math.min(Number(side), seats - 1);
  return { name, game, action, seats, timeControl, rated, mySeat };
}

/**
 * @param {SubmitEvent} ev
 */
async function submitPlay(ev) {
  ev.preventDefault();
  const play = readPlay();
  const button = $('play-go', HTMLButtonElement);
  button.disabled = true;
  try {
    if (!lobby.player) await chooseName($('play-name', HTMLInputElement).value.trim());
    if (play.action === 'quick') await startSeek(play);
    else await createFor(play);
    $('play-dialog', HTMLDialogElement).close();
  } catch (err) {
    $('play-error').textContent = errorText(err);
    $('play-error').classList.remove('hidden');
  } finally {
    button.disabled = false;
  }
}

// ---- Play a friend, play the computer ---------------------------------------------------------

/**
 * @param {Play} play
 */
async function createFor({ name, action, seats, timeControl, rated, mySeat }) {
  const list = [];
  for (let s = 0; s < seats; s++) {
    list.push(action === 'bot' && s !== mySeat ? { kind: 'bot', bot: $('play-level', HTMLSelectElement).value } : { kind: 'human' });
  }
  await create({ game: name, seats: list, time_control: timeControl, rated, creator_seat: mySeat });
}

/**
 * Creates a match; with no other human seat, goes to it, else shows the invite links.
 * @param {import('./api.js').NewMatch} body `POST /api/matches` (docs/protocol.md section 3.2)
 */
async function create(body) {
  showError(null);
  const res = await api('POST', '/api/matches', body);
  if (res.token) setToken(res.id, res.token);
  if (!res.invites?.length) {
    location.href = res.url;
    return;
  }
  lobby.lastCreated = { ...res, game: body.game };
  renderCreated();
  refreshLists();
}

/** After creating a match with friends: the invite link of each free seat, and the way in. */
function renderCreated() {
  const panel = $('created-panel');
  if (!lobby.lastCreated) {
    panel.classList.add('hidden');
    return;
  }
  const res = lobby.lastCreated;
  const box = $('created');
  box.replaceChildren(el('h2', {}, t('lobby.created')), el('p', { class: 'small muted' }, t('lobby.created.help')));
  for (const inv of res.invites || []) {
    const side = seatLabel(res.game, inv.seat);
    const input = el('input', { type: 'text', readonly: true, value: absolute(inv.url), class: 'invite-link', 'data-seat': inv.seat,
      'aria-label': t('lobby.invite', { n: side }) });
    box.append(el('p', { class: 'small' }, t('lobby.invite', { n: side })),
      el('div', { class: 'invite' }, input, copyButton(input, t('lobby.copy'), t('lobby.copied'))));
  }
  const go = el('a', { class: 'button', id: 'go-match', href: res.url }, t('lobby.go'));
  box.append(el('p', {}, go));
  panel.classList.remove('hidden');
  go.focus();
  panel.scrollIntoView({ block: 'nearest' });
}

// ---- Quick play --------------------------------------------------------------------------------

/**
 * @param {Play} play
 */
async function startSeek({ name, seats, timeControl, rated }) {
  const fill = findId('play-fill', HTMLInputElement)?.checked;
  /** @type {import('./quickplay.js').SeekRequest} */
  const request = {
    type: 'seek', game: name, seats, time_control: timeControl, rated,
    bots_after_seconds: fill ? Number($('play-fill-seconds', HTMLInputElement).value) : null,
    bot: fill ? $('play-fill-level', HTMLSelectElement).value : null,
  };
  await socket().whenOpen();
  if (!socket().send(request)) throw Object.assign(new Error(t('match.reconnecting')), { code: 'network' });
  lobby.seeking = { request, since: null };
  renderSeeking();
}

function cancelSeek() {
  socket().send({ type: 'cancel' });
  lobby.seeking = null;
  renderSeeking();
}

/**
 * Accepts the open challenge `seek` of `pool`: a seek in its pool, paired with it at once.
 * @param {number} seek
 * @param {import('./quickplay.js').Pool} pool
 */
async function acceptChallenge(seek, pool) {
  showError(null);
  try {
    if (!lobby.player) await chooseName($('welcome-name', HTMLInputElement).value.trim() || suggestName());
    await socket().whenOpen();
    /** @type {import('./quickplay.js').SeekRequest} */
    const request = { type: 'seek', game: pool.game, seats: pool.seats, time_control: pool.time_control, rated: pool.rated };
    if (!socket().send({ type: 'accept', seek })) throw Object.assign(new Error(t('match.reconnecting')), { code: 'network' });
    lobby.seeking = { request, since: null };
    renderSeeking();
  } catch (err) {
    showError(err);
  }
}

/**
 * The offer after a long wait, a table of two: the computer instead (a casual game).
 * @param {string} level
 */
async function playComputerInstead(level) {
  // The offer is shown only while a seek waits.
  if (!lobby.seeking) return;
  const r = lobby.seeking.request;
  cancelSeek();
  try {
    const mySeat = Math.floor(Math.random() * r.seats);
    const seats = [];
    for (let s = 0; s < r.seats; s++) seats.push(s === mySeat ? { kind: 'human' } : { kind: 'bot', bot: level });
    await create({ game: r.game, seats, time_control: r.time_control, rated: false, creator_seat: mySeat });
  } catch (err) {
    showError(err);
  }
}

/** The offer after a long wait, a bigger table: bots fill the empty seats now. */
function fillWithBots() {
  socket().send({ type: 'fill' });
}

function renderSeeking() {
  $('seeking').classList.toggle('hidden', !lobby.seeking);
  document.body.dataset.seeking = lobby.seeking ? (lobby.seeking.since === null ? 'sent' : 'yes') : 'no';
  if (!lobby.seeking) return;
  const r = lobby.seeking.request;
  const pool = (lobby.lobbyInfo?.pools || []).find((p) => samePool(p, r));
  const parts = [t('seek.looking', { game: gameOf(r.game)?.title || r.game }),
    `${timeControlText(r.time_control)} · ${r.rated ? t('play.rated') : t('play.casual')}`];
  if (r.seats > 2) parts.push(t('play.table', { n: r.seats }));
  if (pool) parts.push(t('seek.waiting', { n: pool.waiting }));
  if (r.bots_after_seconds) parts.push(t('seek.fill', { s: r.bots_after_seconds }));
  $('seeking-text').textContent = parts.join(' · ');
  renderSeekWait({
    seeking: lobby.seeking, pools: lobby.lobbyInfo?.pools, game: gameOf(r.game),
    actions: { computer: playComputerInstead, fill: fillWithBots },
  });
}

/**
 * @param {{ id: string, seat: number, token: string, url?: string }} msg
 */
function onPaired(msg) {
  setToken(msg.id, msg.token);
  lobby.seeking = null;
  location.href = msg.url || `/m/${msg.id}`;
}

/**
 * @param {{ code: string, message: string }} msg
 */
function onLobbyError(msg) {
  if (msg.code?.startsWith('seek/') || ['game/unknown', 'config/invalid', 'time_control/invalid', 'bot/unknown', 'auth/required'].includes(msg.code)) {
    lobby.seeking = null;
    renderSeeking();
  }
  showError(msg);
}

/**
 * @param {{ online: number, playing: number, pools: import('./quickplay.js').Pool[] }} msg
 */
function onLobby(msg) {
  lobby.lobbyInfo = msg;
  const before = [$('count-online').textContent, $('count-playing').textContent];
  $('count-online').textContent = String(msg.online);
  $('count-playing').textContent = String(msg.playing);
  countWords();
  document.body.dataset.online = String(msg.online);
  document.body.dataset.playing = String(msg.playing);
  renderCards();
  renderSeeking();
  renderOpenChallenges();
  if (before[1] !== String(msg.playing)) refreshLists();
}

/** "1 player online", "2 players online": the words after the counts, by the plural rule. */
function countWords() {
  $('online-word').textContent = tn('lobby.online', lobby.lobbyInfo?.online ?? 0);
  $('playing-word').textContent = tn('lobby.playing', lobby.lobbyInfo?.playing ?? 0);
}

function renderOpenChallenges() {
  renderChallenges({ pools: lobby.lobbyInfo?.pools, player: lobby.player, games: lobby.games, accept: acceptChallenge });
}

// ---- Games waiting for this player -----------------------------------------------------------

async function refreshWaiting() {
  if (!lobby.player) {
    lobby.waiting = [];
  } else {
    try {
      lobby.waiting = (await api('GET', '/api/me/games')).waiting || [];
    } catch {
      lobby.waiting = [];
    }
  }
  renderWaiting();
}

/**
 * @param {MatchSummary} m
 */
function opponents(m) {
  return m.seats.filter((s) => s.player && s.player.name !== lobby.player?.name).map((s) => seatWithName(m.game, s.seat, s.player)).join(', ');
}

function renderWaiting() {
  $('waiting-panel').classList.toggle('hidden', lobby.waiting.length === 0);
  $('waiting-list').replaceChildren(...lobby.waiting.map((m) => el('li', { 'data-match': m.id },
    el('a', { href: `/m/${m.id}` }, m.title), ' ', el('span', { class: 'muted small' }, opponents(m)))));
  document.title = lobby.waiting.length ? `(${lobby.waiting.length}) ${t('app.title')}` : t('app.title');
  document.body.dataset.waiting = String(lobby.waiting.length);
}

// ---- Match lists -------------------------------------------------------------------------------

/**
 * @param {string} id
 * @param {number} seat
 */
async function joinSeat(id, seat) {
  showError(null);
  try {
    if (!lobby.player) await chooseName($('welcome-name', HTMLInputElement).value.trim() || suggestName());
    const res = await api('POST', `/api/matches/${id}/join`, { seat });
    setToken(res.id, res.token);
    location.href = res.url;
  } catch (err) {
    showError(err);
    refreshLists();
  }
}

async function refreshLists() {
  try {
    const [active, finished] = await Promise.all([
      api('GET', '/api/matches?status=open,live'),
      api('GET', '/api/matches?status=finished'),
    ]);
    lobby.lists = { active: active.matches, finished: finished.matches.slice(0, 20) };
    renderLists();
  } catch (err) {
    showError(err);
  }
}

function renderLists() {
  const viewer = { me: lobby.player, onJoin: joinSeat };
  renderList($('list-active'), lobby.lists.active, viewer);
  renderList($('list-finished'), lobby.lists.finished, viewer);
}

// ---- Start -----------------------------------------------------------------------------------

function renderAll() {
  renderWelcome();
  renderCards();
  renderSeeking();
  renderOpenChallenges();
  renderAdvanced();
  renderCreated();
  renderWaiting();
  renderLists();
}

async function start() {
  setupLanguageSwitch();
  setupIdentity();
  $('welcome-form').addEventListener('submit', submitWelcome);
  $('welcome-signin').addEventListener('click', () => findId('open-signin')?.click());
  $('play-form').addEventListener('submit', submitPlay);
  $('play-close').addEventListener('click', () => $('play-dialog', HTMLDialogElement).close());
  $('seek-cancel').addEventListener('click', cancelSeek);
  $('refresh').addEventListener('click', refreshLists);
  onLangChange(renderAll);
  onLangChange(countWords);
  countWords();
  onPlayerChange((p) => {
    lobby.player = p;
    renderWelcome();
    renderOpenChallenges();
    refreshWaiting();
    // The socket was opened without a session: open it again with the new cookie.
    lobby.lobbySocket?.reconnect();
  });
  lobby.player = await currentPlayer();
  try {
    lobby.games = (await api('GET', '/api/games')).games;
  } catch (err) {
    showError(err);
  }
  setupAdvanced(lobby.games, async (body) => {
    try {
      if (!lobby.player) await chooseName($('welcome-name', HTMLInputElement).value.trim() || suggestName());
      await create(body);
    } catch (err) {
      showError(err);
    }
  });
  // The lobby socket (docs/protocol.md "Quick pairing"): live counts of players online and games
  // in play, the seek pools, and the messages that pair this player into a match or tell it that a
  // correspondence match waits for its move.
  /** @type {Record<string, (msg: any) => void>} */
  const handlers = {
    lobby: onLobby,
    seeking: (msg) => {
      if (lobby.seeking) {
        lobby.seeking.since = Date.now();
        lobby.seeking.estimate = msg.estimate_seconds ?? null;
      }
      renderSeeking();
    },
    paired: onPaired,
    turn: refreshWaiting,
    error: onLobbyError,
  };
  // A name first if the visitor has none; the socket opened again with its cookie then.
  const ensureName = async () => { if (!lobby.player) await chooseName($('welcome-name', HTMLInputElement).value.trim() || suggestName()); await socket().whenOpen(); };
  Object.assign(handlers, setupCommunity({ send: (m) => socket().send(m), games: () => lobby.games, player: () => lobby.player, ensureName, showError }));
  lobby.lobbySocket = openSocket('/api/lobby/ws', {
    message: (msg) => handlers[msg.type]?.(msg),
    status: (up) => {
      document.body.dataset.lobby = up ? 'up' : 'down';
      // A seek does not outlive its socket (the server leaves the pools when it closes).
      if (!up && lobby.seeking) {
        lobby.seeking = null;
        renderSeeking();
      }
    },
  });
  renderAll();
  await Promise.all([refreshLists(), refreshWaiting()]);
  setInterval(refreshLists, 5000);
  // The time waited moves on by itself.
  setInterval(() => {
    if (lobby.seeking) renderSeeking();
    renderOpenChallenges();
  }, 1000);
  setInterval(refreshWaiting, 15000);
  document.body.dataset.ready = 'true';
}

start();
