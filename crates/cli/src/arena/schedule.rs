//! Who plays whom and how each game runs: the tables of a tournament, every game's seed, and one
//! game between bots through the engine's driver (docs/architecture.md section 2.3), each seat's
//! bot built once for the whole game.

use plateau_bots::{BotError, BotSpec, DynBot};
use plateau_engine::driver::{Driver, Policy, Step, StepError};
use plateau_engine::{Actor, DynGame, GameEntry, LogEntry, Record, Seat, Seed};
use rand::RngCore;

use crate::common::CliResult;

/// A game still running after this many actions is stopped and counted as a draw (`unfinished`).
const MAX_ACTIONS: usize = 100_000;

/// The tables (bot index per seat of the first game) for `bots` bots and `players` seats.
pub fn tables(bots: usize, players: usize) -> CliResult<Vec<Vec<usize>>> {
    if bots < 2 {
        return Err("--bots needs at least two bots".into());
    }
    if players == 2 || bots >= players {
        Ok(combinations(bots, players))
    } else {
        Ok((1..bots)
            .map(|b| {
                std::iter::once(0)
                    .chain(std::iter::repeat_n(b, players - 1))
                    .collect()
            })
            .collect())
    }
}

/// All `k`-element subsets of `0..n`, in lexicographic order.
fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    fn go(start: usize, n: usize, k: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if cur.len() == k {
            out.push(cur.clone());
            return;
        }
        for i in start..n {
            cur.push(i);
            go(i + 1, n, k, cur, out);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    go(0, n, k, &mut Vec::new(), &mut out);
    out
}

/// The seed of game `index` of table `table`.
pub fn game_seed(base: u64, table: usize, index: usize) -> u64 {
    base.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(((table as u64) << 32) | index as u64)
}

/// The bots of one game's seats, as the driver's policy: each seat's bot chooses its action
/// (chance is the driver's, from the game seed). A bot's error is kept to be reported.
struct Bots {
    seats: Vec<Box<dyn DynBot>>,
    error: Option<BotError>,
}

impl Policy<dyn DynGame> for Bots {
    fn choose<R: RngCore>(&mut self, state: &dyn DynGame, seat: Seat, _: &mut R) -> Option<String> {
        match self.seats[seat.index()].act(state, seat) {
            Ok(action) => Some(action),
            Err(e) => {
                self.error = Some(e);
                None
            }
        }
    }
}

/// One game played: the ranks, how it ended, its length in actions, and its record when asked
/// for.
pub struct Played {
    /// Rank per seat (all 1 for an unfinished game).
    pub ranks: Vec<u8>,
    /// The outcome's kind, or `unfinished`.
    pub kind: String,
    /// Actions played, chance outcomes included.
    pub actions: usize,
    /// The game's record (docs/architecture.md section 4), its seed revealed.
    pub record: Option<Record>,
}

/// Plays one game: chance from the game seed, each seat's bot seeded from it too; with `record`,
/// keeps its record.
pub fn play(
    entry: &GameEntry,
    config: &serde_json::Value,
    bots: &[BotSpec],
    seats: &[usize],
    seed: u64,
    record: bool,
) -> CliResult<Played> {
    let mut state = entry
        .new_game(config, seats.len())
        .map_err(|e| e.to_string())?;
    let mut chance = Seed::from_u64(seed).rng();
    let mut players = Bots {
        seats: seats
            .iter()
            .enumerate()
            .map(|(s, &b)| {
                let bot_seed = seed ^ (s as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03);
                plateau_registry::new_bot(entry.info.name, bots[b], bot_seed)
                    .map_err(|e| e.to_string())
            })
            .collect::<CliResult<Vec<_>>>()?,
        error: None,
    };
    let game_seed = Seed::from_u64(seed);
    let mut log = record.then(|| {
        let names = seats.iter().map(|&b| bots[b].to_string()).collect();
        Record::new(entry.info.name, config.clone(), names, &game_seed)
    });
    let mut driver = Driver::checked();
    let mut actions = 0;
    while actions < MAX_ACTIONS {
        match driver.step(&mut *state, &mut chance, &mut players) {
            Ok(Step::Over) => break,
            Ok(step) => {
                actions += 1;
                if let Some(log) = &mut log {
                    let (by, action) = match step {
                        Step::Chance { action, .. } => (Actor::Chance, action),
                        Step::Seat { seat, action } => (Actor::Seat(seat), action),
                        Step::Over => unreachable!("matched above"),
                    };
                    log.log.push(LogEntry::action(by, action, None));
                }
            }
            Err(e) => {
                let (seat, why) = match (&e, players.error.take()) {
                    (StepError::NoAction { seat }, Some(bot)) => {
                        (*seat, format!("{bot} ({})", bot.code()))
                    }
                    (StepError::Refused(r), _) => (r.seat, e.to_string()),
                    _ => return Err(format!("{e} in {}", state.position_text())),
                };
                return Err(format!(
                    "{} at seat {seat}: {why} in {}",
                    players.seats[seat.index()].spec(),
                    state.position_text()
                ));
            }
        }
    }
    let outcome = state.outcome();
    if let Some(log) = &mut log {
        log.outcome.clone_from(&outcome);
        log.seed = Some(game_seed);
    }
    let (ranks, kind) = match outcome {
        Some(outcome) => (outcome.ranks, outcome.kind),
        None => (vec![1; seats.len()], "unfinished".into()),
    };
    Ok(Played {
        ranks,
        kind,
        actions,
        record: log,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_cover_round_robin_and_gauntlet() {
        assert_eq!(
            tables(3, 2).unwrap(),
            vec![vec![0, 1], vec![0, 2], vec![1, 2]]
        );
        assert_eq!(tables(4, 4).unwrap(), vec![vec![0, 1, 2, 3]]);
        assert_eq!(tables(2, 4).unwrap(), vec![vec![0, 1, 1, 1]]);
        assert_eq!(tables(5, 4).unwrap().len(), 5);
        assert!(tables(1, 2).is_err());
    }
}
