//! The Dutch system's pairing of one Swiss round (FIDE C.04.3, as docs/tournaments.md section 4
//! lists what is kept and what is simplified): score brackets from the top, the top half of a
//! bracket against its bottom half, transpositions then exchanges, down-floaters, no rematch,
//! colour preferences, one bye for the lowest player who has not had one, and a look-ahead that
//! keeps the players below pairable.

mod colours;
mod search;

pub use colours::Colour;
use colours::Strength;
use search::{Cost, Search};

use crate::PlayerId;
use crate::matching;

/// A player as the pairing sees them.
#[derive(Clone, Debug)]
pub(crate) struct Entrant {
    pub id: PlayerId,
    /// Pairing number: 1 for the highest rating.
    pub tpn: u32,
    /// Score in half points.
    pub score: u32,
    /// Colour per past round, `None` for a round not played.
    pub history: Vec<Option<Colour>>,
    /// Sorted ids of past opponents.
    pub opponents: Vec<PlayerId>,
    pub had_bye: bool,
    /// How they floated in the last round: paired with a lower score (or given the bye), or
    /// with a higher one.
    pub last_float: Option<Float>,
    /// How they floated two rounds ago.
    pub earlier_float: Option<Float>,
}

/// A float: a player paired outside their score group (C.04.3's floaters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Float {
    /// Paired with a lower score, or given the bye.
    Down,
    /// Paired with a higher score.
    Up,
}

impl Entrant {
    fn played(&self) -> impl DoubleEndedIterator<Item = Colour> + '_ {
        self.history.iter().flatten().copied()
    }

    /// Colour difference (whites minus blacks).
    fn difference(&self) -> i32 {
        self.played()
            .map(|c| if c == Colour::White { 1 } else { -1 })
            .sum()
    }

    fn met(&self, other: PlayerId) -> bool {
        self.opponents.binary_search(&other).is_ok()
    }
}

/// A round's pairing: (white, black) board by board, and the bye.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Pairing {
    pub boards: Vec<(PlayerId, PlayerId)>,
    pub bye: Option<PlayerId>,
}

/// The steps of the float budgets (players floating as in the last round, as two rounds
/// before), tried in order within each colour budget.
const FLOAT_STEPS: [(usize, usize); 7] = [
    (0, 0),
    (0, 1),
    (0, usize::MAX),
    (1, 0),
    (1, usize::MAX),
    (2, usize::MAX),
    (usize::MAX, usize::MAX),
];

/// Nodes all the brackets of a round may visit before each tries only its loosest.
const ROUND_BUDGET: usize = 1_000_000;

/// Nodes all the searches of one bracket may visit before only the loosest is tried.
const BRACKET_BUDGET: usize = 300_000;

/// The pairing context: entrants in rank order (score, then pairing number), their colour
/// wishes and which meetings are forbidden.
struct Field<'a> {
    players: Vec<&'a Entrant>,
    wants: Vec<(Strength, Option<Colour>)>,
    /// Per player, an upper bound on the others they may not meet.
    missing: Vec<usize>,
    /// Whether two players with the same absolute colour wish may not meet (C.3).
    absolute_colours: bool,
}

impl Field<'_> {
    /// C.04.3 C.1 and C.3: no rematch; two players with the same absolute colour preference
    /// do not meet.
    fn may_meet(&self, a: usize, b: usize) -> bool {
        let (pa, pb) = (self.players[a], self.players[b]);
        if pa.met(pb.id) {
            return false;
        }
        let (sa, ca) = self.wants[a];
        let (sb, cb) = self.wants[b];
        !(self.absolute_colours && sa == Strength::Absolute && sb == Strength::Absolute && ca == cb)
    }

    /// Whether a pair leaves one of them without the colour they want.
    fn conflict(&self, a: usize, b: usize) -> bool {
        let (sa, ca) = self.wants[a];
        let (sb, cb) = self.wants[b];
        sa != Strength::None && sb != Strength::None && ca == cb
    }

    /// Whether a pair leaves a player without a strong or absolute colour wish (the weaker of
    /// two equal wishes loses; C.04.3's criterion on strong preferences).
    fn strong_conflict(&self, a: usize, b: usize) -> bool {
        self.conflict(a, b) && self.wants[a].0.min(self.wants[b].0) >= Strength::Strong
    }

    /// Whether `set` (ranked) can all be paired, one of them given the bye if their number is
    /// odd: the lowest who has not had one and whose leaving lets the others be paired (C.2).
    fn pairable(&self, set: &[usize]) -> bool {
        let perfect = |set: &[usize]| {
            matching::perfect(
                set.len(),
                |v| self.missing[set[v]],
                |a, b| self.may_meet(set[a], set[b]),
            )
        };
        if set.len().is_multiple_of(2) {
            return perfect(set);
        }
        set.iter()
            .rev()
            .filter(|&&v| !self.players[v].had_bye)
            .any(|&v| perfect(&without(set, v)))
    }
}

/// Pairs a round. `entrants` are the active players; `first` is the colour drawn for the
/// top-ranked player of the first round (C.04.3 E.5). `None` if no pairing avoids every
/// rematch.
pub(crate) fn pair(entrants: &[Entrant], first: Colour) -> Option<Pairing> {
    let mut players: Vec<&Entrant> = entrants.iter().collect();
    players.sort_by_key(|p| (std::cmp::Reverse(p.score), p.tpn));
    let wants: Vec<_> = players.iter().map(|p| p.preference()).collect();
    let absolute = |c| {
        wants
            .iter()
            .filter(|w| **w == (Strength::Absolute, Some(c)))
            .count()
    };
    let (white, black) = (absolute(Colour::White), absolute(Colour::Black));
    // C.3 (two players with the same absolute colour wish do not meet) is kept if any pairing
    // keeps it; else only rematches are forbidden (section 4.4).
    let fields = [true, false].map(|absolute_colours| {
        let missing = players
            .iter()
            .zip(&wants)
            .map(|(p, w)| {
                p.opponents.len()
                    + match *w {
                        (Strength::Absolute, Some(Colour::White)) if absolute_colours => white,
                        (Strength::Absolute, Some(Colour::Black)) if absolute_colours => black,
                        _ => 0,
                    }
            })
            .collect();
        Field {
            players: players.clone(),
            wants: wants.clone(),
            missing,
            absolute_colours,
        }
    });
    let everyone: Vec<usize> = (0..players.len()).collect();
    let field = fields.into_iter().find(|field| field.pairable(&everyone))?;
    // The bye is the one player the lowest bracket floats out of the round.
    let (pairs, bye) = pair_brackets(&field, &everyone);
    // Boards in rank order of their higher player: brackets are paired from the top.
    let boards = pairs
        .into_iter()
        .map(|(a, b)| colours::colours(&field, a, b, first))
        .collect();
    Some(Pairing {
        boards,
        bye: bye.map(|v| field.players[v].id),
    })
}

fn without(set: &[usize], v: usize) -> Vec<usize> {
    set.iter().copied().filter(|&w| w != v).collect()
}

/// Pairs `set` (ranked, known pairable) bracket by bracket from the top score down; returns
/// the pairs and the player left for the bye, if any.
fn pair_brackets(field: &Field, set: &[usize]) -> (Vec<(usize, usize)>, Option<usize>) {
    let mut pairs = Vec::new();
    let mut floaters: Vec<usize> = Vec::new();
    let mut start = 0;
    let mut spent = 0;
    while start < set.len() {
        let score = field.players[set[start]].score;
        let end = start
            + set[start..]
                .iter()
                .take_while(|&&v| field.players[v].score == score)
                .count();
        let residents = &set[start..end];
        let below = &set[end..];
        let (bracket_pairs, down) = pair_bracket(field, &floaters, residents, below, &mut spent);
        pairs.extend(bracket_pairs);
        floaters = down;
        start = end;
    }
    debug_assert!(
        floaters.len() <= 1,
        "the look-ahead keeps the last bracket pairable"
    );
    (pairs, floaters.first().copied())
}

/// Pairs one bracket: the floaters from above (`floaters`, moved-down players) and the
/// `residents` of this score. Returns its pairs and the players floating further down, chosen
/// so that they and `below` stay pairable (C.4). Tries, in order: the most pairs (C.5), then
/// the fewest colour conflicts, then the fewest repeated floats, each first by transpositions
/// of S2 and then by exchanges.
fn pair_bracket(
    field: &Field,
    floaters: &[usize],
    residents: &[usize],
    below: &[usize],
    round_spent: &mut usize,
) -> (Vec<(usize, usize)>, Vec<usize>) {
    let bracket: Vec<usize> = floaters.iter().chain(residents).copied().collect();
    let next_score = below.first().map(|&v| field.players[v].score);
    let next: Vec<usize> = below
        .iter()
        .copied()
        .take_while(|&v| Some(field.players[v].score) == next_score)
        .collect();
    let most = bracket.len() / 2;
    let mut spent = 0;
    for pairs in (0..=most).rev() {
        let least = least_conflicts(field, &bracket, pairs);
        // The fewest conflicts first, one more, then any number; within each, no player
        // given the same float as in the last two rounds, then not as in the last one, then
        // any. The first tries ask every player floating down to find an opponent in the
        // next score group.
        let mut tries = Vec::new();
        for strict in [true, false] {
            let mut colour_budgets = vec![least, least + 1, pairs];
            colour_budgets.retain(|&b| b <= pairs);
            colour_budgets.dedup();
            for colours in colour_budgets {
                // Conflicts on mild wishes before strong ones.
                let strong_budgets = if colours == 0 {
                    vec![0]
                } else {
                    vec![0, usize::MAX]
                };
                for strong in strong_budgets {
                    for (floats, earlier) in FLOAT_STEPS {
                        tries.push((
                            strict,
                            Cost {
                                colours,
                                strong,
                                floats,
                                earlier,
                            },
                        ));
                    }
                }
            }
        }
        let loosest = tries.len() - 1;
        for (i, (strict, budget)) in tries.into_iter().enumerate() {
            // Past its share of work a bracket goes straight to the loosest try, which a large
            // bracket passes at once: a round of a thousand stays well under a second.
            if (spent > BRACKET_BUDGET || *round_spent + spent > ROUND_BUDGET) && i != loosest {
                continue;
            }
            let next = if strict { Some(next.as_slice()) } else { None };
            let mut search = Search {
                field,
                below,
                next,
                budget,
                nodes: 0,
                chosen: Vec::new(),
                result: None,
                mdps: 0,
                keep: 0,
            };
            search.transpositions(floaters, residents, pairs);
            spent += search.nodes;
            if search.result.is_none() {
                search.nodes = 0;
                let keep = if strict { floaters.len().min(pairs) } else { 0 };
                search.exchanges(&bracket, pairs, floaters.len(), keep);
                spent += search.nodes;
            }
            if let Some(found) = search.result {
                *round_spent += spent;
                return found;
            }
        }
    }
    // Unreachable when `floaters + residents + below` is pairable: floating the whole bracket
    // leaves exactly that set below. Kept as a plain answer rather than a panic.
    (Vec::new(), bracket)
}

/// Whether every player of `left` can be given a distinct opponent in `next` (Kuhn's
/// augmenting paths on the bipartite graph of who may meet whom).
fn all_placed(field: &Field, left: &[usize], next: &[usize]) -> bool {
    fn place(
        field: &Field,
        a: usize,
        next: &[usize],
        owner: &mut [Option<usize>],
        seen: &mut [bool],
    ) -> bool {
        for (j, &b) in next.iter().enumerate() {
            if seen[j] || !field.may_meet(a, b) {
                continue;
            }
            seen[j] = true;
            if owner[j].is_none_or(|other| place(field, other, next, owner, seen)) {
                owner[j] = Some(a);
                return true;
            }
        }
        false
    }
    if left.len() > next.len() {
        return false;
    }
    let mut owner = vec![None; next.len()];
    left.iter()
        .all(|&a| place(field, a, next, &mut owner, &mut vec![false; next.len()]))
}

/// The fewest pairs that must leave a player without their colour when `pairs` pairs are made
/// of `bracket`: each pair gives at most one white and one black wish.
fn least_conflicts(field: &Field, bracket: &[usize], pairs: usize) -> usize {
    let count = |c| {
        bracket
            .iter()
            .filter(|&&v| field.wants[v].1 == Some(c))
            .count()
    };
    let most = count(Colour::White).max(count(Colour::Black));
    most.saturating_sub(pairs + (bracket.len() - 2 * pairs))
        .min(pairs)
}
