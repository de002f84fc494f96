//! The arena: lichess's streak scoring and the pairing of waiting players.

use plateau_tournament::{
    GameId, GameResult, Kind, PlayerId, Seat, Settings, Tournament, TournamentError,
};

fn arena(players: i64) -> Tournament {
    let settings = Settings {
        kind: Kind::Arena { minutes: 10 },
        seats: 2,
        rated: false,
        seed: 3,
    };
    let mut t = Tournament::new(settings).unwrap();
    for i in 1..=players {
        t.join(PlayerId(i), 1500 + i as i32, 0).unwrap();
    }
    t
}

fn seat_of(t: &Tournament, game: GameId, player: i64) -> Option<usize> {
    t.game(game).unwrap().seat_of(PlayerId(player))
}

#[test]
fn streaks_double_the_points_after_two_wins() {
    // Player 1's results in order; the others' games end with seat 0 winning.
    // Win 2, win 2, win (streak) 4, draw (streak) 2, win 2, loss 0, win 2, win 2: 16.
    let script = ['W', 'W', 'W', 'D', 'W', 'L', 'W', 'W'];
    let mut t = arena(4);
    t.start(0).unwrap();
    let mut played = 0;
    let mut now = 1;
    while played < script.len() {
        let games = t.pair_waiting(now).unwrap();
        now += 1;
        for id in games {
            let result = match seat_of(&t, id, 1) {
                Some(seat) => {
                    let r = match script[played] {
                        'W' => GameResult::win(seat),
                        'L' => GameResult::win(1 - seat),
                        _ => GameResult::draw(),
                    };
                    played += 1;
                    r
                }
                None => GameResult::win(0),
            };
            t.record(id, result).unwrap();
        }
    }
    let line = t
        .standings()
        .into_iter()
        .find(|s| s.player == PlayerId(1))
        .unwrap();
    assert_eq!((line.points, line.games, line.wins), (16, 8, 6));
    assert!(
        line.on_fire,
        "two wins to end with: the next game counts double"
    );
}

#[test]
fn waiting_players_are_paired_by_score_without_immediate_rematch() {
    let mut t = arena(3);
    assert_eq!(t.pair_waiting(0), Err(TournamentError::NotStarted));
    t.start(1_000).unwrap();
    assert_eq!(t.start(2_000), Err(TournamentError::AlreadyStarted));
    // Equal points: by rating, 3 (1503) against 2 (1502); 1 waits.
    let first = t.pair_waiting(1_000).unwrap();
    assert_eq!(first.len(), 1);
    let players: Vec<PlayerId> = t.game(first[0]).unwrap().players().collect();
    assert!(players.contains(&PlayerId(3)) && players.contains(&PlayerId(2)));
    assert_eq!(
        t.pair_waiting(1_001).unwrap(),
        vec![],
        "one waiting player is not paired"
    );
    let three = seat_of(&t, first[0], 3).unwrap();
    t.record(first[0], GameResult::win(three)).unwrap();
    // 3 (2 points) would meet 2 again: the next down is 1.
    let second = t.pair_waiting(1_002).unwrap();
    assert_eq!(second.len(), 1);
    let players: Vec<PlayerId> = t.game(second[0]).unwrap().players().collect();
    assert!(
        players.contains(&PlayerId(3)) && players.contains(&PlayerId(1)),
        "{players:?}"
    );
    // Ten minutes after the start nothing more is paired, and joining is over.
    assert_eq!(t.pair_waiting(601_000), Err(TournamentError::Finished));
    assert_eq!(
        t.join(PlayerId(9), 1500, 601_000),
        Err(TournamentError::Finished)
    );
    assert!(!t.is_over(601_000), "a game started in time still counts");
    t.record(second[0], GameResult::draw()).unwrap();
    assert!(t.is_over(601_000));
}

#[test]
fn two_players_are_not_paired_again_at_once_and_colours_alternate() {
    let mut t = arena(2);
    t.start(0).unwrap();
    let game = t.pair_waiting(0).unwrap()[0];
    let white = t.game(game).unwrap().seats[0];
    t.record(game, GameResult::draw()).unwrap();
    assert_eq!(t.pair_waiting(1).unwrap(), vec![]);
    // A third player arrives; the one who was white is black next.
    t.join(PlayerId(3), 1400, 2).unwrap();
    let next = t.pair_waiting(2).unwrap();
    assert_eq!(next.len(), 1);
    let seats = &t.game(next[0]).unwrap().seats;
    if seats.contains(&white) {
        assert_eq!(seats[1], white);
    }
    assert!(seats.contains(&Seat::Player(PlayerId(3))));
}

#[test]
fn a_player_who_withdraws_is_not_paired_and_comes_back_with_their_points() {
    let mut t = arena(4);
    t.start(0).unwrap();
    for id in t.pair_waiting(0).unwrap() {
        t.record(id, GameResult::win(0)).unwrap();
    }
    let winner = t.standings()[0].player;
    t.withdraw(winner).unwrap();
    let games = t.pair_waiting(1).unwrap();
    assert!(
        games
            .iter()
            .all(|&id| t.game(id).unwrap().seat_of(winner).is_none())
    );
    t.join(winner, 0, 2).unwrap();
    let line = t
        .standings()
        .into_iter()
        .find(|s| s.player == winner)
        .unwrap();
    assert_eq!((line.points, line.active), (2, true));
    assert_eq!(
        t.pair_next_round().unwrap_err(),
        TournamentError::WrongKind("an arena pairs waiting players, not rounds")
    );
}
