//! Standings and tie-breaks (docs/tournaments.md section 6).

use std::cmp::Reverse;
use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::sheet::{Entry, pairing_numbers, sheets};
use crate::{Kind, PlayerId, Tournament, arena};

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    /// Place, from 1; every line has its own (the last tie-break is the seeding).
    pub place: u32,
    /// Who.
    pub player: PlayerId,
    /// False once they withdrew.
    pub active: bool,
    /// Points: in a Swiss and rounds of tables, half points (a Swiss win is 2, a draw 1, the
    /// bye 2; a table gives 2 per player outranked and 1 per player tied); in an arena,
    /// lichess's points (2 a win, 1 a draw, doubled on a streak).
    pub points: u32,
    /// Games finished.
    pub games: u32,
    /// Games won: over the board in a Swiss and an arena (a bye is no win here, FIDE's "WON"),
    /// sole first places at tables.
    pub wins: u32,
    /// A Swiss's tie-breaks (`None` in the other kinds).
    pub tie_breaks: Option<TieBreaks>,
    /// In an arena, whether the player is on a streak of two wins or more: their next game
    /// counts double.
    pub on_fire: bool,
}

/// A Swiss's tie-breaks, applied in this order after the points (FIDE C.07; section 6.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TieBreaks {
    /// Buchholz less the lowest of its terms, in half points.
    pub buchholz_cut1: u32,
    /// Buchholz: the sum of the opponents' scores, in half points. An opponent's rounds
    /// without a game count as draws in their score; a round the player did not play counts
    /// as an opponent with the player's own score.
    pub buchholz: u32,
    /// Sonneborn-Berger: each opponent's score (as for Buchholz) times the points scored
    /// against them, in quarter points; a round without a game counts the player's own score
    /// times the points it gave (a bye: its whole score).
    pub sonneborn_berger: u32,
}

pub(crate) fn standings(tournament: &Tournament) -> Vec<Standing> {
    let numbers = pairing_numbers(tournament);
    let mut lines: Vec<Standing> = match tournament.settings.kind {
        Kind::Arena { .. } => {
            let scores = arena::scores(tournament);
            tournament
                .players
                .iter()
                .map(|p| {
                    let score = &scores[&p.id];
                    Standing {
                        place: 0,
                        player: p.id,
                        active: p.active,
                        points: score.points,
                        games: score.games,
                        wins: score.wins,
                        tie_breaks: None,
                        on_fire: score.streak >= 2,
                    }
                })
                .collect()
        }
        Kind::Swiss { .. } | Kind::Tables { .. } => {
            let sheets = sheets(tournament);
            let swiss = matches!(tournament.settings.kind, Kind::Swiss { .. });
            let breaks = if swiss {
                Some(tie_breaks(&sheets))
            } else {
                None
            };
            tournament
                .players
                .iter()
                .map(|p| {
                    let sheet = &sheets[&p.id];
                    let finished = sheet.iter().filter(|e| {
                        matches!(
                            e,
                            Entry::Played {
                                points: Some(_),
                                ..
                            }
                        )
                    });
                    let wins = finished
                        .clone()
                        .filter(|e| match e {
                            Entry::Played {
                                points: Some(points),
                                others,
                                ..
                            } => {
                                if swiss {
                                    *points == 2
                                } else {
                                    *points as usize == 2 * others.len()
                                }
                            }
                            _ => false,
                        })
                        .count();
                    Standing {
                        place: 0,
                        player: p.id,
                        active: p.active,
                        points: sheet.iter().map(Entry::points).sum(),
                        games: finished.count() as u32,
                        wins: wins as u32,
                        tie_breaks: breaks.as_ref().map(|b| b[&p.id]),
                        on_fire: false,
                    }
                })
                .collect()
        }
    };
    lines.sort_by_key(|line| {
        let t = line.tie_breaks.unwrap_or_default();
        (
            Reverse(line.points),
            Reverse(t.buchholz_cut1),
            Reverse(t.buchholz),
            Reverse(t.sonneborn_berger),
            Reverse(line.wins),
            numbers[&line.player],
        )
    });
    for (i, line) in lines.iter_mut().enumerate() {
        line.place = i as u32 + 1;
    }
    lines
}

/// Section 6.1: Buchholz, Buchholz cut 1 and Sonneborn-Berger of every player.
fn tie_breaks(sheets: &HashMap<PlayerId, Vec<Entry>>) -> HashMap<PlayerId, TieBreaks> {
    let score = |id: &PlayerId| sheets[id].iter().map(Entry::points).sum::<u32>();
    // An opponent's score with their rounds without a game counted as draws.
    let adjusted = |id: &PlayerId| {
        sheets[id]
            .iter()
            .map(|e| match e {
                Entry::Played { .. } => e.points(),
                Entry::Bye | Entry::Absent => 1,
            })
            .sum::<u32>()
    };
    sheets
        .iter()
        .map(|(id, sheet)| {
            let own = score(id);
            let mut terms = Vec::with_capacity(sheet.len());
            let mut sonneborn_berger = 0;
            for entry in sheet {
                let value = match entry {
                    Entry::Played { others, .. } => others.first().map_or(own, adjusted),
                    Entry::Bye | Entry::Absent => own,
                };
                terms.push(value);
                sonneborn_berger += value * entry.points();
            }
            let buchholz: u32 = terms.iter().sum();
            let cut = terms.iter().min().copied().unwrap_or(0);
            (
                *id,
                TieBreaks {
                    buchholz_cut1: buchholz - cut,
                    buchholz,
                    sonneborn_berger,
                },
            )
        })
        .collect()
}
