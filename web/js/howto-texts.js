// @ts-check
// The "how to play" pages (web/howto.html): a short account of each game, in our own words, drawn
// from the rules files (docs/rules/<game>.md; the section each part rests on is named in a comment).
// Each game: {en, fr}, each a list of [heading, [paragraph or bullet...]].

/** @type {Record<string, Record<'en' | 'fr', [string, string[]][]>>} */
export const HOWTO = {
  mad: {
    // docs/rules/mad.md sections 2 to 8.
    en: [
      ['The aim', ['Two fleets, Red and Blue, of eight ships each face off on a board of 4 columns and 6 rows. Exile the enemy corvette (the ship 111) and you win outright.']],
      ['The ships', ['Each ship has three numbers, each 1 or 2: sails (how far it moves), cannons (how strong it hits) and shields (how well it resists). Every combination appears once in a fleet: the corvette 111, the cruiser 222, three frigates (211, 121, 112) and three destroyers (221, 212, 122).']],
      ['Your turn: one of three moves', [
        'Move: one ship goes one step up, down, left or right; a ship with 2 sails may take a second step, turning if it likes but never back, over an empty first cell.',
        'Expel: ending a move on an enemy ship whose shields do not exceed your cannons sends it to its owner\u2019s exile, off the board.',
        'Permute: two complementary ships (digits adding to 3: 111 and 222, 112 and 221, 121 and 212, 211 and 122) trade places; if one of them is in exile, it comes back where the other stood, and that one leaves.',
        'Rotate: your three frigates, or your three destroyers, all change places in a cycle; one of them may be in exile.',
        'Passing is not allowed (except on the optional positioning turn).',
      ]],
      ['Bonus move', ['A one-cell move that ends on your last row (the enemy\u2019s back row) may be followed by a permutation or rotation involving the ship that just arrived.']],
      ['The end', ['The game ends the moment a corvette is exiled: full victory. After 40 turns in a row without an expulsion, the last player who expelled wins a semi-victory (Blue if nobody ever did). Both players may also agree to stop, which the same tie-break decides. There are no draws.']],
      ['On Plateau', ['Choose one of your ships, then a highlighted cell. Permutations and rotations are the buttons under the board: pointing at one (or a first tap on a phone) rings the ships it moves, a click (or a second tap) plays it. Red moves first.']],
    ],
    fr: [
      ['Le but', ['Deux flottes, Rouge et Bleue, de huit vaisseaux chacune s\u2019affrontent sur un plateau de 4 colonnes et 6 rangées. Exilez la corvette adverse (le vaisseau 111) et vous gagnez complètement.']],
      ['Les vaisseaux', ['Chaque vaisseau porte trois chiffres, chacun 1 ou 2 : voiles (jusqu\u2019où il va), canons (la force de son attaque) et boucliers (sa résistance). Chaque combinaison figure une fois par flotte : la corvette 111, le croiseur 222, trois frégates (211, 121, 112) et trois destroyers (221, 212, 122).']],
      ['À votre tour : un coup parmi trois', [
        'Déplacer : un vaisseau avance d\u2019une case en haut, en bas, à gauche ou à droite ; un vaisseau à 2 voiles peut faire un second pas, en tournant s\u2019il le veut mais sans revenir en arrière, si la première case est vide.',
        'Expulser : finir son déplacement sur un vaisseau adverse dont les boucliers ne dépassent pas vos canons l\u2019envoie dans l\u2019exil de son propriétaire, hors du plateau.',
        'Permuter : deux vaisseaux complémentaires (chiffres dont la somme fait 3 : 111 et 222, 112 et 221, 121 et 212, 211 et 122) échangent leurs places ; si l\u2019un est en exil, il revient à la place de l\u2019autre, qui part en exil.',
        'Faire tourner : vos trois frégates, ou vos trois destroyers, changent tous de place en cycle ; l\u2019un d\u2019eux peut être en exil.',
        'On ne peut pas passer (sauf au tour de positionnement, règle optionnelle).',
      ]],
      ['Coup bonus', ['Un déplacement d\u2019une case qui se termine sur votre dernière rangée (la rangée de départ adverse) peut être suivi d\u2019une permutation ou d\u2019une rotation avec le vaisseau qui vient d\u2019arriver.']],
      ['La fin', ['La partie s\u2019arrête dès qu\u2019une corvette est exilée : victoire complète. Après 40 tours de suite sans expulsion, le dernier joueur à avoir expulsé gagne une semi-victoire (Bleu si personne ne l\u2019a fait). Les deux joueurs peuvent aussi convenir d\u2019arrêter ; le même départage décide. Il n\u2019y a pas de nulle.']],
      ['Sur Plateau', ['Choisissez un de vos vaisseaux, puis une case en surbrillance. Les permutations et rotations sont les boutons sous le plateau : en pointer un (ou le toucher une fois sur un téléphone) entoure les vaisseaux qu\u2019il déplace, un clic (ou un second toucher) le joue. Rouge commence.']],
    ],
  },
  moonleap: {
    // docs/rules/moonleap.md "Setup", "Turn", "Splitting", "Runs & extra rolls", "End & scoring".
    en: [
      ['The aim', ['Two to four players each send five astronauts, numbered 1 to 5, along a track of craters. Each crater has a value, some negative; when the game ends, each astronaut scores its number times the value of its crater. The highest total wins; tied leaders share the win.']],
      ['Your turn', [
        'Roll the die. A number names one of your astronauts, never a distance: that astronaut enters the track, or leaps forward to the next free crater, jumping over everyone on the way.',
        'The star lets you move any one of your astronauts.',
        'If you can move, you must. If nothing can move, the roll is lost.',
      ]],
      ['Splitting', ['Once any astronaut has passed the milestone line, a 3, 4 or 5 may be split between two of your astronauts whose numbers add up to it (3 = 1 + 2, 4 = 1 + 3, 5 = 1 + 4 or 2 + 3), in the order you choose.']],
      ['Runs', ['If your move makes a run of three or more of your astronauts on consecutive craters, using an astronaut you just moved, you roll again.']],
      ['The end', ['The game stops at once when the last three craters are all taken. An astronaut that never entered the track costs five times its number.']],
      ['On Plateau', ['The die rolls by itself. Choose one of your highlighted astronauts on the track, or a button under it; the arrows show where the others\u2019 astronauts last leapt.']],
    ],
    fr: [
      ['Le but', ['De deux à quatre joueurs font avancer chacun cinq astronautes, numérotés de 1 à 5, sur une piste de cratères. Chaque cratère a une valeur, parfois négative ; à la fin, chaque astronaute rapporte son numéro multiplié par la valeur de son cratère. Le plus haut total gagne ; les premiers ex aequo partagent la victoire.']],
      ['À votre tour', [
        'Lancez le dé. Un chiffre désigne un de vos astronautes, jamais une distance : cet astronaute entre sur la piste, ou saute au prochain cratère libre devant lui, par-dessus tous ceux qui sont sur le chemin.',
        'L\u2019étoile permet de déplacer n\u2019importe lequel de vos astronautes.',
        'Si vous pouvez jouer, vous devez jouer. Si rien ne peut bouger, le lancer est perdu.',
      ]],
      ['Partager', ['Dès qu\u2019un astronaute a franchi le jalon, un 3, un 4 ou un 5 peut se partager entre deux de vos astronautes dont les numéros font ce total (3 = 1 + 2, 4 = 1 + 3, 5 = 1 + 4 ou 2 + 3), dans l\u2019ordre de votre choix.']],
      ['Les suites', ['Si votre coup forme une suite d\u2019au moins trois de vos astronautes sur des cratères consécutifs, avec un astronaute que vous venez de jouer, vous relancez le dé.']],
      ['La fin', ['La partie s\u2019arrête dès que les trois derniers cratères sont occupés. Un astronaute qui n\u2019est jamais entré sur la piste coûte cinq fois son numéro.']],
      ['Sur Plateau', ['Le dé se lance tout seul. Choisissez un de vos astronautes en surbrillance sur la piste, ou un bouton dessous ; les flèches montrent le dernier saut des astronautes des autres.']],
    ],
  },
  chakart: {
    // docs/rules/chakart.md sections 0, 5 to 10.
    en: [
      ['The aim', ['Chess with karting items, White against Black. There is no check and no checkmate: capture the enemy king (every enemy king, if a pawn was promoted to one) and you win. A player with no move at all loses.']],
      ['Moving', ['Pieces move as in chess, without castling or en passant. You may leave your king attacked. A pawn reaching the last rank may become a rook, knight, bishop, queen or even a king.']],
      ['Items', [
        'Moving pieces leave items behind: a pawn a mushroom, a knight an egg, a rook a banana, a bishop a bomb.',
        'A banana or a bomb sends the piece that lands on it one square further, at random (straight for a banana, diagonal for a bomb), possibly onto an enemy.',
        'A mushroom makes the piece go one step further (a slider jumps over the next piece).',
        'An egg hatches a random effect: swapping pieces (King Boo), an extra move (Daisy), a piece sent home (Koopa), eaten (Chomp) or frozen (Bowser), a captured piece dropped back (Toadette), a piece changing side (Luigi, Waluigi).',
      ]],
      ['Powers, once per game', ['Your queen may make one stealth move: it becomes invisible to the opponent for their next turn. Your king may fire one shell along a line, removing the first enemy piece or item it meets.']],
      ['On Plateau', ['Choose a piece, then its target. Every random effect is drawn by the server from the match\u2019s published seed (see \u201cFair dice\u201d on the match page), which anyone can check after the game.']],
    ],
    fr: [
      ['Le but', ['Les échecs avec des objets de course, Blancs contre Noirs. Il n\u2019y a ni échec ni mat : prenez le roi adverse (tous les rois adverses, si un pion a été promu en roi) et vous gagnez. Un joueur qui n\u2019a plus aucun coup perd.']],
      ['Les déplacements', ['Les pièces se déplacent comme aux échecs, sans roque ni prise en passant. On peut laisser son roi attaqué. Un pion qui atteint la dernière rangée devient tour, cavalier, fou, dame ou même roi.']],
      ['Les objets', [
        'Les pièces laissent des objets derrière elles : un pion un champignon, un cavalier un œuf, une tour une banane, un fou une bombe.',
        'Une banane ou une bombe envoie la pièce qui s\u2019y pose une case plus loin, au hasard (en ligne pour la banane, en diagonale pour la bombe), parfois sur une pièce adverse.',
        'Un champignon fait aller la pièce un pas plus loin (une pièce à longue portée saute la pièce suivante).',
        'Un œuf fait éclore un effet au hasard : échange de pièces (King Boo), coup de plus (Daisy), pièce renvoyée chez elle (Koopa), mangée (Chomp) ou immobilisée (Bowser), pièce capturée reparachutée (Toadette), pièce qui change de camp (Luigi, Waluigi).',
      ]],
      ['Pouvoirs, une fois par partie', ['Votre dame peut faire un coup furtif : elle devient invisible pour l\u2019adversaire pendant son tour suivant. Votre roi peut tirer une carapace en ligne, qui enlève la première pièce ou le premier objet adverse rencontré.']],
      ['Sur Plateau', ['Choisissez une pièce, puis sa destination. Chaque effet aléatoire est tiré par le serveur à partir de la graine publiée de la partie (voir \u00ab\u00a0Dés équitables\u00a0\u00bb sur la page de la partie), vérifiable après la partie.']],
    ],
  },
  naval: {
    // docs/rules/naval.md sections 2 to 11.
    en: [
      ['The aim', ['Four fleets on four hidden 14 by 14 boards. Each has six ships (carrier, cruiser, battleship, frigate, submarine, corvette) and three buoys that act as decoys. Be the last fleet afloat.']],
      ['Placement', ['Your pieces start at random places. For 90 seconds you may drag and turn them, then press Ready; when time runs out your layout is kept as it stands.']],
      ['A turn', [
        'Each of your ships gets one order: a normal shot at a cell of an opponent\u2019s board, one of its two special weapons, or pass. Then press Fire. A turn lasts at most 60 seconds.',
        'Hits and misses are shown to everyone, but a hit does not say which ship (or buoy) was touched.',
        'The first hit on a piece blocks the cells around it for everyone but the shooter until the shooter\u2019s next turn.',
      ]],
      ['Energy and specials', ['Ships earn energy by passing, by hitting, and from hits and nearby misses they take. Energy pays for the specials: shield, spy satellite, torpedo, sonar, rockets, ballistic missile, anti-submarine charges, radar, artillery, heavy artillery, linear bombing and the electromagnetic pulse that stops a whole fleet for two turns.']],
      ['The end', ['A fleet whose ships are all sunk is out. The last fleet with a ship afloat wins; after the round limit, the fleet with the most ship cells unhit wins.']],
      ['On Plateau', ['Drag your pieces, or tap one and then tap where it goes; the Rotate button turns the picked piece (with a mouse, R or a right-click too). In battle, pick a ship (in the row under the board, or on your own board) and its order, aim on an opponent\u2019s board (green can be shot; on a phone a first tap shows the aim large, a second confirms), then Fire.']],
    ],
    fr: [
      ['Le but', ['Quatre flottes sur quatre plateaux cachés de 14 sur 14. Chacune a six navires (porte-avions, croiseur, cuirassé, frégate, sous-marin, corvette) et trois bouées qui servent de leurres. Soyez la dernière flotte à flot.']],
      ['Le placement', ['Vos pièces commencent à des places tirées au hasard. Pendant 90 secondes vous pouvez les glisser et les tourner, puis appuyer sur Prêt ; à la fin du temps, votre placement est gardé tel quel.']],
      ['Un tour', [
        'Chacun de vos navires reçoit un ordre : un tir normal sur une case d\u2019un plateau adverse, une de ses deux armes spéciales, ou passer. Puis appuyez sur Feu. Un tour dure au plus 60 secondes.',
        'Touchés et ratés sont montrés à tous, mais un touché ne dit pas quel navire (ou quelle bouée) a été atteint.',
        'Le premier touché sur une pièce bloque les cases autour pour tous sauf le tireur, jusqu\u2019à son tour suivant.',
      ]],
      ['Énergie et armes spéciales', ['Les navires gagnent de l\u2019énergie en passant, en touchant, et avec les touchés et ratés qu\u2019ils subissent à côté d\u2019eux. L\u2019énergie paie les armes spéciales : bouclier, satellite espion, torpille, sonar, roquettes, missile balistique, charges anti-sous-marines, radar, artillerie, artillerie lourde, bombardement linéaire et l\u2019impulsion électromagnétique qui paralyse une flotte entière pendant deux tours.']],
      ['La fin', ['Une flotte dont tous les navires sont coulés est éliminée. La dernière flotte avec un navire à flot gagne ; à la limite de tours, la flotte qui a le plus de cases de navire intactes gagne.']],
      ['Sur Plateau', ['Glissez vos pièces, ou touchez-en une puis l\u2019endroit où la mettre ; le bouton Tourner fait pivoter la pièce choisie (à la souris, R ou un clic droit aussi). En bataille, choisissez un navire (dans la rangée sous le plateau, ou sur votre propre plateau) et son ordre, visez sur un plateau adverse (vert : on peut tirer ; sur un téléphone un premier toucher montre la visée en grand, un second la confirme), puis Feu.']],
    ],
  },
};
