//! The post-game analysis on a real game (docs/bots.md, "Analysis"): a MAD game of the expert
//! level against the casual level as they were before the MAD ladder was retuned (`mcts:i3000`
//! and `mcts:i100`), `plateau play mad --seat 1=mcts:i3000 --seat 2=mcts:i100 --seed 3 --record
//! f` (46 plies), judged at the expert's budget of then. Its turning point is the
//! casual seat's ply 12 (`c4-b3`): the expert's own searches put the casual seat's chance at
//! about 45% with its best move there (`b6-c6` or `c4-a4`, by the seed) and near 12% after it.

use plateau_bots::{Analysis, AnalysisOptions, Budget, Mark};
use plateau_engine::Record;

fn analyse(seed: u64) -> Analysis {
    let text = include_str!("data/mad-expert-casual-seed3.json");
    let record: Record = serde_json::from_str(text).unwrap();
    let options = AnalysisOptions {
        judge: Budget::Iterations(3000),
        seed,
        biggest: 5,
        marks: plateau_registry::judge_marks("mad").unwrap(),
    };
    plateau_registry::analyse(&record, &options, &mut |_, _| {}).unwrap()
}

#[test]
fn the_turning_point_is_the_casual_seats_worst_move_whatever_the_seed() {
    for seed in [0, 1] {
        let a = analyse(seed);
        assert_eq!(a.plies.len(), 46);
        // Ply 12 is the casual seat's (seat 2's) biggest loss, and the game's, and a blunder.
        let worst = a
            .plies
            .iter()
            .filter(|p| p.seat == Some(1))
            .max_by(|x, y| {
                let loss = |p: &plateau_bots::Ply| p.judgement.as_ref().unwrap().loss;
                loss(x).total_cmp(&loss(y))
            })
            .unwrap();
        assert_eq!(worst.index, 12, "seed {seed}");
        assert_eq!(a.biggest_losses[0].index, 12, "seed {seed}");
        let j = worst.judgement.as_ref().unwrap();
        assert_eq!(j.mark, Some(Mark::Blunder), "seed {seed}: {j:?}");
        // The winner, the expert, made no blunder.
        assert!(
            a.plies.iter().filter(|p| p.seat == Some(0)).all(|p| p
                .judgement
                .as_ref()
                .unwrap()
                .mark
                != Some(Mark::Blunder)),
            "seed {seed}"
        );
    }
}

/// The curve and the marks are one measure: after a judged decision the acting seat's value is
/// the played action's, from which the loss is subtracted, and every mark is its loss's.
#[test]
fn the_curve_shows_the_value_the_loss_is_measured_against() {
    let a = analyse(2);
    let marks = plateau_registry::judge_marks("mad").unwrap();
    let last = a.plies.len();
    for p in &a.plies[..last - 1] {
        let (Some(seat), Some(j)) = (p.seat, &p.judgement) else {
            continue;
        };
        assert_eq!(p.values[usize::from(seat)], j.played, "ply {}", p.index);
        assert!((j.before - j.played - j.loss).abs() < 1e-12);
        assert!(j.loss >= 0.0);
        assert_eq!(j.mark, marks.of(j.loss));
        // Two seats: the values are each other's complement.
        assert!(
            (p.values[0] + p.values[1] - 1.0).abs() < 1e-9,
            "ply {}",
            p.index
        );
    }
    // The last ply holds the outcome: the expert won.
    assert_eq!(a.plies[last - 1].values, vec![1.0, 0.0]);
}
