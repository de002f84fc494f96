//! The Swiss: pairings against an independently computed example, tie-breaks computed by
//! hand, and refusals.

use crate::common;

use common::{boards, result, swiss, white_first_seed};
use plateau_tournament::{GameResult, PlayerId, TieBreaks, TournamentError};

/// A round: boards as (white, black, white's result), and the bye.
type Round = (Vec<(i64, i64, char)>, i64);

/// Nine players rated 2000 to 1200 (pairing numbers 1 to 9), four rounds, the top seed white
/// in round 1. The pairings were computed independently by py4swiss 0.3.1's Dutch engine (a
/// port of bbpPairings, FIDE-endorsed) from the same results, and checked by hand:
///
/// - Round 1: the bye goes to the lowest, 9; S1 = 1-4 meets S2 = 5-8, colours alternating
///   down the boards from 1's white (E.5).
/// - Round 2: scores 1 = {2, 4, 5, 7, 9}, 0 = {1, 3, 6, 8}. 2, 4, 5 and 7 all want white
///   (black in round 1), so one pair must miss it: 2-5 (2 gets white, the higher rank, E.4),
///   4-9 (9 has no wish); 7 floats down. 7 meets the first resident, 1 (7 wants white, 1
///   black); the remainder 3, 6, 8 all want black: 6-3 (3, higher, gets its black), and 8,
///   the lowest without a bye, gets it.
/// - Round 3: 2 (2 points) floats into {4, 9}: 9-2 (9 wants white, 2 black); 4 floats into
///   the 1-point group {1, 3, 5, 7, 8}. 4 against 1 would give 1 a second upfloat in a row
///   (1 met the higher 7 in round 2), so 4 meets 3 (3-4). The remainder 1, 5, 7, 8: 1-7 met,
///   so 1-8 and 5-7; 6 (0 points) gets the bye.
/// - Round 4: 2 (2.5) floats into {3, 7, 8, 9}: 2-3. Of 7, 8, 9, 9-8 pairs and 7 floats,
///   because 8 could not meet 4 (round 1) in the 1.5 group: 7-4. In {1, 5, 6} 6 has had the
///   bye; 1-6 would leave both wanting black (6 absolutely), so 5-6 and the bye to 1.
#[test]
fn nine_players_four_rounds_match_the_reference() {
    // Per round: boards as (white, black, white's result) and the bye.
    let expected: [Round; 4] = [
        (vec![(1, 5, '0'), (6, 2, '0'), (3, 7, '0'), (8, 4, '0')], 9),
        (vec![(2, 5, '1'), (4, 9, '='), (7, 1, '0'), (6, 3, '0')], 8),
        (vec![(9, 2, '='), (3, 4, '1'), (1, 8, '0'), (5, 7, '0')], 6),
        (vec![(2, 3, '='), (8, 9, '='), (7, 4, '1'), (5, 6, '=')], 1),
    ];
    let mut t = swiss(9, 4, white_first_seed());
    for (r, (games, bye)) in expected.iter().enumerate() {
        t.pair_next_round().unwrap();
        let (got, got_bye) = boards(&t, r);
        let want: Vec<(i64, i64)> = games.iter().map(|&(w, b, _)| (w, b)).collect();
        assert_eq!((got, got_bye), (want, Some(*bye)), "round {}", r + 1);
        for (&id, &(_, _, token)) in t.rounds()[r].games.clone().iter().zip(games) {
            t.record(id, result(token)).unwrap();
        }
    }
    assert!(t.is_over(0));
    assert_eq!(t.pair_next_round().unwrap_err(), TournamentError::Finished);

    // Tie-breaks of the final table, by hand (half points; Sonneborn-Berger in quarters).
    // Final scores: 2 and 7: 3; 3, 8, 9: 2.5; 1: 2; 4, 5, 6: 1.5. For Buchholz an opponent's
    // rounds without a game count as draws: 1 (bye in round 4) counts 1.5, 6 (bye in round 3)
    // 1, 8 (bye in round 2) 2, 9 (bye in round 1) 2.
    // - 2 met 6 (won), 5 (won), 9 (draw), 3 (draw): Buchholz 1 + 1.5 + 2 + 2.5 = 7, cut 1: 6;
    //   Sonneborn-Berger 1 + 1.5 + 2/2 + 2.5/2 = 4.75.
    // - 7 met 3 (won), 1 (lost), 5 (won), 4 (won): Buchholz 2.5 + 1.5 + 1.5 + 1.5 = 7, cut 1:
    //   5.5; Sonneborn-Berger 2.5 + 1.5 + 1.5 = 5.5. Same points and Buchholz as 2, lower cut.
    // - 1 met 5 (lost), 7 (won), 8 (lost), then the bye, which counts as an opponent with
    //   1's own 2 points: Buchholz 1.5 + 3 + 2 + 2 = 8.5, cut 1: 7; Sonneborn-Berger 3 + 2 = 5.
    let standings = t.standings();
    let line = |id: i64| standings.iter().find(|s| s.player == PlayerId(id)).unwrap();
    assert_eq!(
        (standings[0].player, standings[1].player),
        (PlayerId(2), PlayerId(7))
    );
    assert_eq!(
        (line(2).points, line(2).wins, line(2).tie_breaks),
        (
            6,
            2,
            Some(TieBreaks {
                buchholz_cut1: 12,
                buchholz: 14,
                sonneborn_berger: 19
            })
        )
    );
    assert_eq!(
        (line(7).points, line(7).wins, line(7).tie_breaks),
        (
            6,
            3,
            Some(TieBreaks {
                buchholz_cut1: 11,
                buchholz: 14,
                sonneborn_berger: 22
            })
        )
    );
    assert_eq!(
        (
            line(1).points,
            line(1).wins,
            line(1).games,
            line(1).tie_breaks
        ),
        (
            4,
            1,
            3,
            Some(TieBreaks {
                buchholz_cut1: 14,
                buchholz: 17,
                sonneborn_berger: 20
            })
        )
    );
    let points: Vec<u32> = standings.iter().map(|s| s.points).collect();
    assert!(points.windows(2).all(|w| w[0] >= w[1]), "{points:?}");
    assert_eq!(points.iter().sum::<u32>(), 2 * (16 + 4));
}

#[test]
fn a_round_waits_for_its_results_and_bad_results_change_nothing() {
    let mut t = swiss(4, 3, 1);
    let round = t.pair_next_round().unwrap().clone();
    assert_eq!(
        t.pair_next_round().unwrap_err(),
        TournamentError::RoundRunning(1)
    );
    let before = t.clone();
    let bad = GameResult { ranks: vec![1, 1] };
    assert!(matches!(
        t.record(round.games[0], bad),
        Err(TournamentError::BadResult(_))
    ));
    let three = GameResult {
        ranks: vec![0, 1, 2],
    };
    assert!(matches!(
        t.record(round.games[0], three),
        Err(TournamentError::BadResult(_))
    ));
    let unknown = plateau_tournament::GameId(99);
    assert_eq!(
        t.record(unknown, GameResult::draw()),
        Err(TournamentError::UnknownGame(unknown))
    );
    assert_eq!(t, before);
    t.record(round.games[0], GameResult::win(0)).unwrap();
    assert_eq!(
        t.record(round.games[0], GameResult::draw()),
        Err(TournamentError::AlreadyRecorded(round.games[0]))
    );
    assert_eq!(
        t.pair_next_round().unwrap_err(),
        TournamentError::RoundRunning(1)
    );
    t.record(round.games[1], GameResult::draw()).unwrap();
    assert_eq!(t.pair_next_round().unwrap().number, 2);
}

#[test]
fn more_rounds_than_opponents_ends_in_no_pairing() {
    // Three players, three rounds: each meets the two others and has one bye; a fourth round
    // would need a rematch.
    let mut t = swiss(3, 4, 0);
    for _ in 0..3 {
        let round = t.pair_next_round().unwrap().clone();
        for id in round.games {
            t.record(id, GameResult::draw()).unwrap();
        }
    }
    let byes: Vec<_> = t.rounds().iter().map(|r| r.bye.unwrap()).collect();
    assert_eq!(byes.len(), 3);
    assert!(
        byes.iter()
            .all(|b| byes.iter().filter(|c| *c == b).count() == 1),
        "{byes:?}"
    );
    let before = t.clone();
    assert_eq!(t.pair_next_round().unwrap_err(), TournamentError::NoPairing);
    assert_eq!(t, before);
}

#[test]
fn withdrawn_players_are_not_paired_and_late_ones_are() {
    let mut t = swiss(6, 3, 0);
    let round = t.pair_next_round().unwrap().clone();
    for id in round.games {
        t.record(id, GameResult::win(0)).unwrap();
    }
    t.withdraw(PlayerId(3)).unwrap();
    assert_eq!(
        t.withdraw(PlayerId(3)),
        Err(TournamentError::AlreadyWithdrawn(PlayerId(3)))
    );
    assert_eq!(
        t.withdraw(PlayerId(42)),
        Err(TournamentError::UnknownPlayer(PlayerId(42)))
    );
    t.join(PlayerId(7), 1500, 0).unwrap();
    assert_eq!(
        t.join(PlayerId(7), 1500, 0),
        Err(TournamentError::AlreadyJoined(PlayerId(7)))
    );
    let round = t.pair_next_round().unwrap().clone();
    let seated: Vec<PlayerId> = round
        .games
        .iter()
        .flat_map(|&id| t.game(id).unwrap().players().collect::<Vec<_>>())
        .chain(round.bye)
        .collect();
    assert_eq!(seated.len(), 6);
    assert!(!seated.contains(&PlayerId(3)));
    assert!(seated.contains(&PlayerId(7)));
}
