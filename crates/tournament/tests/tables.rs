//! Rounds of tables: how tables are formed, bots filling, points by rank, seating by score.

use plateau_tournament::{
    Fill, GameResult, Kind, PlayerId, Seat, Settings, Tournament, TournamentError, table_sizes,
};

fn tables(players: i64, fill: Fill) -> Tournament {
    let settings = Settings {
        kind: Kind::Tables { rounds: 3, fill },
        seats: 4,
        rated: true,
        seed: 5,
    };
    let mut t = Tournament::new(settings).unwrap();
    for i in 1..=players {
        t.join(PlayerId(i), 2000 - 10 * i as i32, 0).unwrap();
    }
    t
}

#[test]
fn table_sizes_spread_the_players() {
    assert_eq!(table_sizes(10, 4), vec![4, 3, 3]);
    assert_eq!(table_sizes(12, 4), vec![4, 4, 4]);
    assert_eq!(table_sizes(13, 4), vec![4, 3, 3, 3]);
    assert_eq!(table_sizes(5, 4), vec![3, 2]);
    assert_eq!(table_sizes(7, 3), vec![3, 2, 2]);
    assert_eq!(table_sizes(0, 4), Vec::<usize>::new());
}

#[test]
fn ten_players_at_tables_of_four_sit_four_three_three() {
    let mut t = tables(10, Fill::ShortTables);
    let round = t.pair_next_round().unwrap().clone();
    let sizes: Vec<usize> = round
        .games
        .iter()
        .map(|&id| t.game(id).unwrap().seats.len())
        .collect();
    assert_eq!(sizes, vec![4, 3, 3]);
    // Round 1 deals by rating: the top four at table 1.
    let mut top: Vec<i64> = t
        .game(round.games[0])
        .unwrap()
        .players()
        .map(|p| p.0)
        .collect();
    top.sort_unstable();
    assert_eq!(top, vec![1, 2, 3, 4]);
}

#[test]
fn bots_fill_the_short_tables() {
    let mut t = tables(10, Fill::Bots);
    let round = t.pair_next_round().unwrap().clone();
    let bots: Vec<usize> = round
        .games
        .iter()
        .map(|&id| {
            t.game(id)
                .unwrap()
                .seats
                .iter()
                .filter(|s| **s == Seat::Bot)
                .count()
        })
        .collect();
    assert_eq!(bots, vec![0, 1, 1]);
    assert!(
        round
            .games
            .iter()
            .all(|&id| t.game(id).unwrap().seats.len() == 4)
    );
}

#[test]
fn points_by_rank_and_seating_by_score() {
    let mut t = tables(8, Fill::ShortTables);
    let round = t.pair_next_round().unwrap().clone();
    // At each table the seats finish in order, seats 2 and 3 tied: 6, 4, 1, 1 points.
    for &id in &round.games {
        t.record(
            id,
            GameResult {
                ranks: vec![0, 1, 2, 2],
            },
        )
        .unwrap();
    }
    let firsts: Vec<PlayerId> = round
        .games
        .iter()
        .map(|&id| t.game(id).unwrap().seats[0].player().unwrap())
        .collect();
    let seconds: Vec<PlayerId> = round
        .games
        .iter()
        .map(|&id| t.game(id).unwrap().seats[1].player().unwrap())
        .collect();
    let standings = t.standings();
    assert_eq!(
        standings.iter().map(|s| s.points).collect::<Vec<_>>(),
        vec![6, 6, 4, 4, 1, 1, 1, 1]
    );
    assert!(
        standings[..2]
            .iter()
            .all(|s| firsts.contains(&s.player) && s.wins == 1)
    );
    // Round 2 seats the two winners and the two seconds together.
    let round = t.pair_next_round().unwrap().clone();
    let top: Vec<PlayerId> = t.game(round.games[0]).unwrap().players().collect();
    assert!(
        firsts.iter().chain(&seconds).all(|p| top.contains(p)),
        "{top:?}"
    );
    // Who sat first before sits later now: the two winners (seat 0) are not first.
    assert!(!firsts.contains(&t.game(round.games[0]).unwrap().seats[0].player().unwrap()));
}

#[test]
fn too_few_players_for_short_tables_is_refused() {
    let mut t = tables(5, Fill::ShortTables);
    assert_eq!(
        t.pair_next_round().unwrap_err(),
        TournamentError::NoTables {
            players: 5,
            seats: 4
        }
    );
    let mut t = tables(2, Fill::ShortTables);
    assert_eq!(
        t.pair_next_round().unwrap_err(),
        TournamentError::NotEnoughPlayers {
            needed: 3,
            active: 2
        }
    );
    let mut t = tables(1, Fill::Bots);
    assert_eq!(
        t.pair_next_round().unwrap_err(),
        TournamentError::NotEnoughPlayers {
            needed: 2,
            active: 1
        }
    );
    let mut t = tables(5, Fill::Bots);
    let round = t.pair_next_round().unwrap().clone();
    let bots: usize = round
        .games
        .iter()
        .map(|&id| {
            t.game(id)
                .unwrap()
                .seats
                .iter()
                .filter(|s| **s == Seat::Bot)
                .count()
        })
        .sum();
    assert_eq!(bots, 3);
}

#[test]
fn settings_out_of_range_are_refused() {
    let bad = |kind, seats| {
        Tournament::new(Settings {
            kind,
            seats,
            rated: false,
            seed: 0,
        })
        .unwrap_err()
    };
    assert!(matches!(
        bad(
            Kind::Tables {
                rounds: 3,
                fill: Fill::Bots
            },
            2
        ),
        TournamentError::Settings(_)
    ));
    assert!(matches!(
        bad(Kind::Swiss { rounds: 3 }, 4),
        TournamentError::Settings(_)
    ));
    assert!(matches!(
        bad(Kind::Swiss { rounds: 0 }, 2),
        TournamentError::Settings(_)
    ));
    assert!(matches!(
        bad(Kind::Arena { minutes: 0 }, 2),
        TournamentError::Settings(_)
    ));
    assert!(matches!(
        bad(Kind::Arena { minutes: 10 }, 3),
        TournamentError::Settings(_)
    ));
}
