//! Each player's sheet of a tournament in rounds: per round, whom they met, with which seat,
//! and the points they got. The Swiss pairing, the tables' seating and the tie-breaks all read
//! it (docs/tournaments.md sections 4 to 6).

use std::collections::HashMap;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::swiss::{self, Colour, Entrant, Float, Pairing};
use crate::{PlayerId, Tournament, TournamentError};

/// What a player did in one round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Entry {
    /// Played a game: the others at the table (one for a two-seat game), their seat, the
    /// points (half points, `None` while the game runs).
    Played {
        others: Vec<PlayerId>,
        seat: usize,
        points: Option<u32>,
    },
    /// The pairing-allocated bye: a win without a game.
    Bye,
    /// Not paired: joined later, withdrew, or sat out.
    Absent,
}

impl Entry {
    /// Points the round gave, in half points (a bye is a win: 2).
    pub fn points(&self) -> u32 {
        match self {
            Entry::Played { points, .. } => points.unwrap_or(0),
            Entry::Bye => 2,
            Entry::Absent => 0,
        }
    }
}

/// Every player's sheet, one entry per paired round.
pub(crate) fn sheets(tournament: &Tournament) -> HashMap<PlayerId, Vec<Entry>> {
    let rounds = tournament.rounds.len();
    let mut sheets: HashMap<PlayerId, Vec<Entry>> = tournament
        .players
        .iter()
        .map(|p| (p.id, vec![Entry::Absent; rounds]))
        .collect();
    for (r, round) in tournament.rounds.iter().enumerate() {
        for &id in &round.games {
            let game = &tournament.games[id.0 as usize];
            for (seat, player) in game.seats.iter().enumerate() {
                let Some(player) = player.player() else {
                    continue;
                };
                let others = game.players().filter(|&other| other != player).collect();
                let points = game.result.as_ref().map(|result| result.points(seat));
                if let Some(sheet) = sheets.get_mut(&player) {
                    sheet[r] = Entry::Played {
                        others,
                        seat,
                        points,
                    };
                }
            }
        }
        if let Some(sheet) = round.bye.and_then(|bye| sheets.get_mut(&bye)) {
            sheet[r] = Entry::Bye;
        }
    }
    sheets
}

/// Pairing numbers: 1 for the highest rating, ties by order of joining (C.04.3's initial ranking).
pub(crate) fn pairing_numbers(tournament: &Tournament) -> HashMap<PlayerId, u32> {
    let mut order: Vec<(usize, &crate::Player)> = tournament.players.iter().enumerate().collect();
    order.sort_by_key(|(joined, p)| (std::cmp::Reverse(p.rating), *joined));
    order
        .iter()
        .enumerate()
        .map(|(i, (_, p))| (p.id, i as u32 + 1))
        .collect()
}

/// Pairs a Swiss round among the active players.
pub(crate) fn pair_swiss(tournament: &Tournament) -> Result<Pairing, TournamentError> {
    let sheets = sheets(tournament);
    let numbers = pairing_numbers(tournament);
    // Scores before each round, to tell who floated in the last two.
    let before =
        |id: &PlayerId, round: usize| sheets[id][..round].iter().map(Entry::points).sum::<u32>();
    let float = |id: &PlayerId, round: Option<usize>| {
        let round = round?;
        match &sheets[id][round] {
            Entry::Bye => Some(Float::Down),
            Entry::Played { others, .. } => {
                let theirs = others.first().map_or(0, |o| before(o, round));
                match before(id, round).cmp(&theirs) {
                    std::cmp::Ordering::Greater => Some(Float::Down),
                    std::cmp::Ordering::Less => Some(Float::Up),
                    std::cmp::Ordering::Equal => None,
                }
            }
            Entry::Absent => None,
        }
    };
    let rounds = tournament.rounds.len();
    let entrants: Vec<Entrant> = tournament
        .players
        .iter()
        .filter(|p| p.active)
        .map(|p| {
            let sheet = &sheets[&p.id];
            let mut opponents: Vec<PlayerId> = sheet
                .iter()
                .filter_map(|e| match e {
                    Entry::Played { others, .. } => others.first().copied(),
                    _ => None,
                })
                .collect();
            opponents.sort_unstable();
            let history = sheet
                .iter()
                .map(|e| match e {
                    Entry::Played { seat: 0, .. } => Some(Colour::White),
                    Entry::Played { .. } => Some(Colour::Black),
                    _ => None,
                })
                .collect();
            Entrant {
                id: p.id,
                tpn: numbers[&p.id],
                score: sheet.iter().map(Entry::points).sum(),
                history,
                opponents,
                had_bye: sheet.contains(&Entry::Bye),
                last_float: float(&p.id, rounds.checked_sub(1)),
                earlier_float: float(&p.id, rounds.checked_sub(2)),
            }
        })
        .collect();
    if entrants.len() < 2 {
        return Err(TournamentError::NotEnoughPlayers {
            needed: 2,
            active: entrants.len(),
        });
    }
    let first = if ChaCha8Rng::seed_from_u64(tournament.settings.seed).random::<bool>() {
        Colour::White
    } else {
        Colour::Black
    };
    swiss::pair(&entrants, first).ok_or(TournamentError::NoPairing)
}
