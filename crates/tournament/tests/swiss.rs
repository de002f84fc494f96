//! The Swiss: pairings against an independently computed example, and the tie-breaks.

mod common;

use common::{boards, result, swiss, white_first_seed};

#[test]
fn nine_players_four_rounds_match_the_reference() {
    // (round, boards as (white, black, white's result), bye)
    let expected: [(Vec<(i64, i64, char)>, i64); 4] = [
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
}
