//! The arena (docs/tournaments.md section 3): lichess's scoring with streaks, and the pairing
//! of the players waiting for a game.

use std::collections::HashMap;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::{PlayerId, Seat, Tournament};

/// A player's arena so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Score {
    /// Lichess's points: 2 a win, 1 a draw, doubled on a streak.
    pub points: u32,
    pub games: u32,
    pub wins: u32,
    /// Wins in a row at the end of the finished games: 2 or more is a streak ("on fire").
    pub streak: u32,
    /// Whites minus blacks, over every game started.
    pub colour_balance: i32,
    /// Whether their last game had them white.
    pub last_white: Option<bool>,
    /// The opponent of their latest game (started), whom they are not paired with next.
    pub last_opponent: Option<PlayerId>,
    pub playing: bool,
}

/// Section 3.1: a win is 2 points and a draw 1; after two wins in a row every game is worth
/// double (4 a win, 2 a draw) until one is not won. `points` is the game's points in half
/// points (2 a win, 1 a draw, 0 a loss).
pub(crate) fn add_result(score: &mut Score, points: u32) {
    let double = if score.streak >= 2 { 2 } else { 1 };
    score.points += points * double;
    score.games += 1;
    if points == 2 {
        score.wins += 1;
        score.streak += 1;
    } else {
        score.streak = 0;
    }
}

/// Every player's score: their finished games in the order their results came.
pub(crate) fn scores(tournament: &Tournament) -> HashMap<PlayerId, Score> {
    let mut scores: HashMap<PlayerId, Score> = tournament
        .players
        .iter()
        .map(|p| (p.id, Score::default()))
        .collect();
    for game in &tournament.games {
        for (seat, player) in game.seats.iter().enumerate() {
            let Some(player) = player.player() else {
                continue;
            };
            let opponent = game.players().find(|&other| other != player);
            if let Some(entry) = scores.get_mut(&player) {
                entry.colour_balance += if seat == 0 { 1 } else { -1 };
                entry.last_white = Some(seat == 0);
                entry.last_opponent = opponent;
                entry.playing |= game.result.is_none();
            }
        }
    }
    let mut finished: Vec<_> = tournament
        .games
        .iter()
        .filter(|g| g.finished_order.is_some())
        .collect();
    finished.sort_by_key(|g| g.finished_order);
    for game in finished {
        let Some(result) = &game.result else { continue };
        for (seat, player) in game.seats.iter().enumerate() {
            if let Some(score) = player.player().and_then(|p| scores.get_mut(&p)) {
                add_result(score, result.points(seat));
            }
        }
    }
    scores
}

/// Section 3.2: the waiting players in order of points (then rating, then who joined first);
/// each is paired with the next one down who is not the opponent of their latest game, and
/// whose latest opponent they are not. Returns the seats of each new game (white first).
pub(crate) fn pair(tournament: &Tournament) -> Vec<Vec<Seat>> {
    let scores = scores(tournament);
    let mut waiting: Vec<(usize, &crate::Player)> = tournament
        .players
        .iter()
        .enumerate()
        .filter(|(_, p)| p.active && !scores[&p.id].playing)
        .collect();
    waiting.sort_by_key(|(joined, p)| {
        (
            std::cmp::Reverse(scores[&p.id].points),
            std::cmp::Reverse(p.rating),
            *joined,
        )
    });
    let mut rng =
        ChaCha8Rng::seed_from_u64(tournament.settings.seed ^ tournament.games.len() as u64);
    let mut paired = vec![false; waiting.len()];
    let mut boards = Vec::new();
    for i in 0..waiting.len() {
        if paired[i] {
            continue;
        }
        let a = waiting[i].1.id;
        let partner = (i + 1..waiting.len()).find(|&j| {
            let b = waiting[j].1.id;
            !paired[j] && scores[&a].last_opponent != Some(b) && scores[&b].last_opponent != Some(a)
        });
        let Some(j) = partner else { continue };
        paired[i] = true;
        paired[j] = true;
        let b = waiting[j].1.id;
        let a_white = match (scores[&a].colour_balance).cmp(&scores[&b].colour_balance) {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Greater => false,
            std::cmp::Ordering::Equal => match (scores[&a].last_white, scores[&b].last_white) {
                (Some(x), Some(y)) if x != y => !x,
                _ => rng.random::<bool>(),
            },
        };
        let (white, black) = if a_white { (a, b) } else { (b, a) };
        boards.push(vec![Seat::Player(white), Seat::Player(black)]);
    }
    boards
}
