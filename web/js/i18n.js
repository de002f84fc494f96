// Translations (English and French) and the language switch.
//
// The language is remembered in localStorage ("plateau.lang"); the first visit takes it from
// navigator.language. Elements with data-i18n="key" get their text from the table, elements with
// data-i18n-attr="attr:key,attr:key" get attributes (aria-label, title, placeholder).

const STORE_KEY = 'plateau.lang';

const TEXTS = {
  en: {
    'app.title': 'Plateau',
    'app.tagline': 'Board games to play in the browser',
    'nav.lobby': 'Lobby',
    'nav.verify': 'Verify a game',
    'lang.label': 'Language',
    'lobby.create': 'New match',
    'lobby.game': 'Game',
    'lobby.seat': 'Seat {n}',
    'lobby.seat.human': 'Human',
    'lobby.seat.bot': 'Bot',
    'lobby.seat.level': 'Level',
    'lobby.seat.mine': 'I play this seat',
    'lobby.clock': 'Time control',
    'lobby.clock.none': 'None (correspondence)',
    'lobby.clock.move': 'Per move',
    'lobby.clock.fischer': 'Fischer (base + increment)',
    'lobby.clock.base': 'Base (minutes)',
    'lobby.clock.increment': 'Increment (seconds)',
    'lobby.clock.per_move': 'Seconds per move',
    'lobby.options': 'Rule options',
    'lobby.create.button': 'Create the match',
    'lobby.created': 'Match created',
    'lobby.invite': 'Invite link for {n}: send it to the other player',
    'lobby.copy': 'Copy',
    'lobby.copied': 'Copied',
    'lobby.go': 'Go to the match',
    'lobby.open': 'Open and live matches',
    'lobby.live': 'Live matches',
    'lobby.finished': 'Finished matches',
    'lobby.none': 'No match here yet.',
    'lobby.join': 'Join as {n}',
    'lobby.seats': 'Players',
    'lobby.won': '{side} won ({kind})',
    'kind.corvette': 'corvette',
    'kind.tiebreak': 'tie-break',
    'kind.agreement': 'agreed stop',
    'kind.timeout': 'time out',
    'kind.resign': 'resignation',
    'opt.positioning_turn': 'Positioning turn (first turn: permute, rotate or pass)',
    'opt.tiebreak_limit': 'Tie-break after this many turns without expulsion',
    'lobby.watch': 'Watch',
    'lobby.resume': 'Resume',
    'lobby.replay': 'Replay',
    'lobby.refresh': 'Refresh',
    'lobby.players': 'Players',
    'lobby.status': 'Status',
    'lobby.free': 'free',
    'lobby.error': 'The server refused: {msg}',
    'seat.red': 'Red',
    'seat.blue': 'Blue',
    'seat.n': 'Seat {n}',
    'seat.bot': 'bot',
    'seat.human': 'human',
    'seat.you': 'you',
    'status.open': 'waiting for players',
    'status.live': 'in play',
    'status.finished': 'finished',
    'match.title': 'Match {id}',
    'match.you_play': 'You play {side}',
    'match.spectator': 'You are watching (spectator)',
    'match.turn.you': 'Your turn',
    'match.turn.other': '{side} to play',
    'match.waiting': 'Waiting for the other player to join',
    'match.connecting': 'Connecting…',
    'match.reconnecting': 'Connection lost, reconnecting…',
    'match.connected': 'Connected',
    'match.moves': 'Moves',
    'match.exile': 'Exile of {side}',
    'match.exile.short': 'Exile:',
    'match.exile.empty': 'empty',
    'match.shifts': 'Permutations and rotations',
    'match.shifts.none': 'None available now.',
    'match.pass': 'Pass',
    'ml.board': 'Moon Leap track of {n} craters',
    'ml.choices': 'Your choices',
    'ml.help': 'Click one of your highlighted astronauts, or a split button.',
    'ml.move': 'Move {a}',
    'ml.split': '{a} then {b}',
    'ml.pass': 'Pass (no move)',
    'ml.mercenary': 'mercenary {n}',
    'ml.astronaut': 'Astronaut {n} of colour {colour}',
    'ml.roll': 'Die: {face}',
    'ml.die': 'die {face}',
    'ml.roll.none': 'The die has not been rolled yet',
    'ml.score': '{n} pts',
    'ml.off': 'Off board:',
    'ml.rank': 'Rank',
    'ml.player': 'Player',
    'ml.final': 'Score',
    'ml.milestone.closed': 'Milestone after cell {n}: splits not open yet',
    'ml.milestone.open': 'Milestone after cell {n} passed: splits are open',
    'match.resign': 'Resign',
    'match.resign.confirm': 'Resign this match?',
    'match.bonus.title': 'Bonus move: {move} reaches the last row',
    'match.bonus.help': 'You may add one permutation or rotation with the ship that just arrived.',
    'match.bonus.none': 'No bonus, just {move}',
    'match.cancel': 'Cancel',
    'match.select.help': 'Click one of your ships, then a highlighted cell.',
    'match.result': 'Game over',
    'match.result.corvette': '{side} wins: the enemy corvette is exiled (full victory).',
    'match.result.tiebreak': '{side} wins on the tie-break (semi-victory): no expulsion for {n} turns.',
    'match.result.tiebreak.short': '{side} wins on the tie-break (semi-victory).',
    'match.result.timeout': '{side} wins: {loser} ran out of time.',
    'match.result.resign': '{side} wins: {loser} resigned.',
    'match.result.agreed': '{side} wins: the game was stopped by agreement (semi-victory).',
    'match.result.other': '{side} wins ({kind}).',
    'match.result.draw': 'The game ended ({kind}).',
    'match.result.score': '{side} wins on points.',
    'match.result.score.shared': '{sides} share the win on points.',
    'match.rematch': 'Rematch',
    'match.replay': 'Replay this game',
    'match.notfound': 'This match does not exist.',
    'match.error': 'Error: {msg}',
    'match.ply': 'Turns played: {n}',
    'match.since': 'Turns without expulsion: {n}',
    'match.invite': 'Invite link',
    'match.clock.none': 'no clock',
    'match.seed.hash': 'Seed hash (SHA-256)',
    'match.seed.revealed': 'Revealed seed',
    'move.perm': 'Swap {a} ⇄ {b}',
    'move.rot': 'Rotate {x} → {y} → {z} → {x}',
    'move.rot.long': '{x} takes the place of {y}, {y} of {z}, {z} of {x}',
    'board.label': 'MAD board seen by {side}',
    'board.cell': 'cell {cell}',
    'board.ship': '{side} ship {code} on {cell}',
    'ship.111': 'corvette',
    'ship.222': 'cruiser',
    'ship.frigate': 'frigate',
    'ship.destroyer': 'destroyer',
    'replay.title': 'Replay of match {id}',
    'replay.first': 'First',
    'replay.prev': 'Previous',
    'replay.next': 'Next',
    'replay.last': 'Last',
    'replay.position': 'Position after {n} of {total} actions',
    'replay.start': 'Start position',
    'replay.notfinished': 'This match is not finished yet; its replay will be here when it ends.',
    'verify.title': 'Verify a game’s dice',
    'verify.help': 'Every match publishes the SHA-256 of its random seed when it is created, and reveals the seed when it ends. This page checks that the revealed seed has the published hash, and that the game replays to the same result.',
    'verify.match': 'Match id',
    'verify.button': 'Verify',
    'verify.ok': 'Verified: the revealed seed has the published hash and the record replays.',
    'verify.ok.hash': 'Verified: the revealed seed has the published hash.',
    'verify.bad': 'Verification FAILED: {msg}',
    'replay.nosteps': 'The server gives no positions for this game; here is its move list.',
    'verify.pending': 'The seed is revealed only when the match ends.',
    'verify.local': 'Hash computed in this browser',
    'verify.hash_match': 'The hash computed here equals the published hash.',
    'verify.hash_mismatch': 'The hash computed here differs from the published hash!',
  },
  fr: {
    'app.title': 'Plateau',
    'app.tagline': 'Des jeux de plateau à jouer dans le navigateur',
    'nav.lobby': 'Salon',
    'nav.verify': 'Vérifier une partie',
    'lang.label': 'Langue',
    'lobby.create': 'Nouvelle partie',
    'lobby.game': 'Jeu',
    'lobby.seat': 'Place {n}',
    'lobby.seat.human': 'Humain',
    'lobby.seat.bot': 'Robot',
    'lobby.seat.level': 'Niveau',
    'lobby.seat.mine': 'Je joue cette place',
    'lobby.clock': 'Cadence',
    'lobby.clock.none': 'Aucune (par correspondance)',
    'lobby.clock.move': 'Par coup',
    'lobby.clock.fischer': 'Fischer (base + incrément)',
    'lobby.clock.base': 'Base (minutes)',
    'lobby.clock.increment': 'Incrément (secondes)',
    'lobby.clock.per_move': 'Secondes par coup',
    'lobby.options': 'Options de règles',
    'lobby.create.button': 'Créer la partie',
    'lobby.created': 'Partie créée',
    'lobby.invite': 'Lien d’invitation pour {n} : envoyez-le à l’autre joueur',
    'lobby.copy': 'Copier',
    'lobby.copied': 'Copié',
    'lobby.go': 'Aller à la partie',
    'lobby.open': 'Parties ouvertes et en cours',
    'lobby.live': 'Parties en cours',
    'lobby.finished': 'Parties terminées',
    'lobby.none': 'Aucune partie pour l’instant.',
    'lobby.join': 'Jouer {n}',
    'lobby.seats': 'Joueurs',
    'lobby.won': '{side} a gagné ({kind})',
    'kind.corvette': 'corvette',
    'kind.tiebreak': 'départage',
    'kind.agreement': 'arrêt d’un commun accord',
    'kind.timeout': 'temps dépassé',
    'kind.resign': 'abandon',
    'opt.positioning_turn': 'Tour de positionnement (premier tour : permuter, tourner ou passer)',
    'opt.tiebreak_limit': 'Départage après ce nombre de tours sans expulsion',
    'lobby.watch': 'Regarder',
    'lobby.resume': 'Reprendre',
    'lobby.replay': 'Revoir',
    'lobby.refresh': 'Actualiser',
    'lobby.players': 'Joueurs',
    'lobby.status': 'État',
    'lobby.free': 'libre',
    'lobby.error': 'Le serveur a refusé : {msg}',
    'seat.red': 'Rouge',
    'seat.blue': 'Bleu',
    'seat.n': 'Place {n}',
    'seat.bot': 'robot',
    'seat.human': 'humain',
    'seat.you': 'vous',
    'status.open': 'en attente de joueurs',
    'status.live': 'en cours',
    'status.finished': 'terminée',
    'match.title': 'Partie {id}',
    'match.you_play': 'Vous jouez {side}',
    'match.spectator': 'Vous regardez (spectateur)',
    'match.turn.you': 'À vous de jouer',
    'match.turn.other': 'Au tour de {side}',
    'match.waiting': 'En attente de l’autre joueur',
    'match.connecting': 'Connexion…',
    'match.reconnecting': 'Connexion perdue, reconnexion…',
    'match.connected': 'Connecté',
    'match.moves': 'Coups',
    'match.exile': 'Exil de {side}',
    'match.exile.short': 'Exil :',
    'match.exile.empty': 'vide',
    'match.shifts': 'Permutations et rotations',
    'match.shifts.none': 'Aucune possible maintenant.',
    'match.pass': 'Passer',
    'ml.board': 'Piste de Moon Leap, {n} cratères',
    'ml.choices': 'Vos choix',
    'ml.help': 'Cliquez sur un de vos astronautes en surbrillance, ou sur un bouton de partage.',
    'ml.move': 'Avancer {a}',
    'ml.split': '{a} puis {b}',
    'ml.pass': 'Passer (aucun coup)',
    'ml.mercenary': 'mercenaire {n}',
    'ml.astronaut': 'Astronaute {n} de la couleur {colour}',
    'ml.roll': 'Dé : {face}',
    'ml.die': 'dé {face}',
    'ml.roll.none': 'Le dé n’a pas encore été lancé',
    'ml.score': '{n} pts',
    'ml.off': 'Hors piste :',
    'ml.rank': 'Rang',
    'ml.player': 'Joueur',
    'ml.final': 'Score',
    'ml.milestone.closed': 'Jalon après la case {n} : partages pas encore ouverts',
    'ml.milestone.open': 'Jalon après la case {n} franchi : partages ouverts',
    'match.resign': 'Abandonner',
    'match.resign.confirm': 'Abandonner cette partie ?',
    'match.bonus.title': 'Coup bonus : {move} atteint la dernière rangée',
    'match.bonus.help': 'Vous pouvez ajouter une permutation ou une rotation avec le vaisseau qui vient d’arriver.',
    'match.bonus.none': 'Pas de bonus, seulement {move}',
    'match.cancel': 'Annuler',
    'match.select.help': 'Cliquez sur un de vos vaisseaux, puis sur une case en surbrillance.',
    'match.result': 'Partie terminée',
    'match.result.corvette': '{side} gagne : la corvette adverse est exilée (victoire complète).',
    'match.result.tiebreak': '{side} gagne au départage (semi-victoire) : aucune expulsion depuis {n} tours.',
    'match.result.tiebreak.short': '{side} gagne au départage (semi-victoire).',
    'match.result.timeout': '{side} gagne : {loser} a dépassé son temps.',
    'match.result.resign': '{side} gagne : {loser} a abandonné.',
    'match.result.agreed': '{side} gagne : partie arrêtée d’un commun accord (semi-victoire).',
    'match.result.other': '{side} gagne ({kind}).',
    'match.result.draw': 'La partie est finie ({kind}).',
    'match.result.score': '{side} gagne aux points.',
    'match.result.score.shared': '{sides} se partagent la victoire aux points.',
    'match.rematch': 'Revanche',
    'match.replay': 'Revoir la partie',
    'match.notfound': 'Cette partie n’existe pas.',
    'match.error': 'Erreur : {msg}',
    'match.ply': 'Tours joués : {n}',
    'match.since': 'Tours sans expulsion : {n}',
    'match.invite': 'Lien d’invitation',
    'match.clock.none': 'sans pendule',
    'match.seed.hash': 'Empreinte de la graine (SHA-256)',
    'match.seed.revealed': 'Graine révélée',
    'move.perm': 'Échanger {a} ⇄ {b}',
    'move.rot': 'Rotation {x} → {y} → {z} → {x}',
    'move.rot.long': '{x} prend la place de {y}, {y} celle de {z}, {z} celle de {x}',
    'board.label': 'Plateau de MAD vu par {side}',
    'board.cell': 'case {cell}',
    'board.ship': 'vaisseau {side} {code} en {cell}',
    'ship.111': 'corvette',
    'ship.222': 'croiseur',
    'ship.frigate': 'frégate',
    'ship.destroyer': 'destroyer',
    'replay.title': 'Relecture de la partie {id}',
    'replay.first': 'Début',
    'replay.prev': 'Précédent',
    'replay.next': 'Suivant',
    'replay.last': 'Fin',
    'replay.position': 'Position après {n} actions sur {total}',
    'replay.start': 'Position de départ',
    'replay.notfinished': 'Cette partie n’est pas finie ; sa relecture sera ici quand elle se terminera.',
    'verify.title': 'Vérifier les dés d’une partie',
    'verify.help': 'Chaque partie publie l’empreinte SHA-256 de sa graine aléatoire à sa création, et révèle la graine à la fin. Cette page vérifie que la graine révélée a l’empreinte publiée, et que la partie se rejoue jusqu’au même résultat.',
    'verify.match': 'Numéro de partie',
    'verify.button': 'Vérifier',
    'verify.ok': 'Vérifié : la graine révélée a l’empreinte publiée et la partie se rejoue.',
    'verify.ok.hash': 'Vérifié : la graine révélée a l’empreinte publiée.',
    'verify.bad': 'Vérification ÉCHOUÉE : {msg}',
    'replay.nosteps': 'Le serveur ne donne pas les positions de cette partie ; voici la liste de ses coups.',
    'verify.pending': 'La graine n’est révélée qu’à la fin de la partie.',
    'verify.local': 'Empreinte calculée dans ce navigateur',
    'verify.hash_match': 'L’empreinte calculée ici est égale à l’empreinte publiée.',
    'verify.hash_mismatch': 'L’empreinte calculée ici diffère de l’empreinte publiée !',
  },
};

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

let current = initialLanguage();
const listeners = [];

/** The current language code ("en" or "fr"). */
export function lang() {
  return current;
}

/**
 * The text of `key` in the current language with `{name}` placeholders filled from `vars`.
 * An unknown key is returned as is, so a missing translation shows instead of vanishing.
 */
export function t(key, vars = {}) {
  const text = TEXTS[current][key] ?? TEXTS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in vars ? String(vars[name]) : m));
}

/** Fills every data-i18n / data-i18n-attr element under `root`. */
export function translateDom(root = document) {
  document.documentElement.lang = current;
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-attr]')) {
    for (const pair of el.dataset.i18nAttr.split(',')) {
      const [attr, key] = pair.split(':');
      el.setAttribute(attr.trim(), t(key.trim()));
    }
  }
}

/** Changes the language, remembers it, re-translates the page and tells the listeners. */
export function setLang(code) {
  if (!TEXTS[code]) return;
  current = code;
  localStorage.setItem(STORE_KEY, code);
  translateDom();
  for (const fn of listeners) fn(code);
}

/** Calls `fn(code)` after each language change (pages redraw their dynamic parts). */
export function onLangChange(fn) {
  listeners.push(fn);
}

/** Fills the <select id="lang"> switch and translates the static page. */
export function setupLanguageSwitch() {
  const select = document.getElementById('lang');
  if (select) {
    select.replaceChildren(
      ...LANGUAGES.map(([code, name]) => {
        const opt = document.createElement('option');
        opt.value = code;
        opt.textContent = name;
        opt.selected = code === current;
        return opt;
      }),
    );
    select.addEventListener('change', () => setLang(select.value));
  }
  translateDom();
}
