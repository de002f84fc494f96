//! Helpers shared by the tournament's tests.

#![allow(dead_code)]

use plateau_tournament::{GameResult, Kind, PlayerId, Settings, Tournament};

/// A Swiss of `players` players rated 2000, 1900, ... (player `i` has pairing number `i`).
pub fn swiss(players: i64, rounds: u32, seed: u64) -> Tournament {
    let settings = Settings {
        kind: Kind::Swiss { rounds },
        seats: 2,
        rated: true,
        seed,
    };
    let mut tournament = Tournament::new(settings).unwrap();
    for i in 1..=players {
        tournament
            .join(PlayerId(i), 2100 - 100 * i as i32, 0)
            .unwrap();
    }
    tournament
}

/// The first seed whose first round gives white to the top seed (FIDE's "white1").
pub fn white_first_seed() -> u64 {
    (0..)
        .find(|&seed| {
            let mut t = swiss(2, 1, seed);
            let round = t.pair_next_round().unwrap().clone();
            t.game(round.games[0]).unwrap().seats[0]
                == plateau_tournament::Seat::Player(PlayerId(1))
        })
        .unwrap()
}

/// A two-seat result from white's point of view: '1' white wins, '=' draw, '0' black wins.
pub fn result(token: char) -> GameResult {
    match token {
        '1' => GameResult::win(0),
        '0' => GameResult::win(1),
        _ => GameResult::draw(),
    }
}

/// The round's boards as (white, black) ids and its bye.
pub fn boards(tournament: &Tournament, round: usize) -> (Vec<(i64, i64)>, Option<i64>) {
    let round = &tournament.rounds()[round];
    let boards = round
        .games
        .iter()
        .map(|&id| {
            let seats = &tournament.game(id).unwrap().seats;
            (seats[0].player().unwrap().0, seats[1].player().unwrap().0)
        })
        .collect();
    (boards, round.bye.map(|p| p.0))
}
