//! The Dutch system's pairing of one Swiss round (FIDE C.04.3, as docs/tournaments.md section 4
//! lists what is kept and what is simplified): score brackets from the top, the top half of a
//! bracket against its bottom half, transpositions then exchanges, down-floaters, no rematch,
//! colour preferences, one bye for the lowest player who has not had one, and a look-ahead that
//! keeps the players below pairable.

use serde::{Deserialize, Serialize};

use crate::PlayerId;
use crate::matching;

/// A side of a two-seat game: white sits in seat 0 and moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Colour {
    /// Seat 0, first to move.
    White,
    /// Seat 1.
    Black,
}

impl Colour {
    /// The other colour.
    pub fn other(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// How much a player wants a colour (C.04.3 A.6), weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Strength {
    None,
    Mild,
    Strong,
    Absolute,
}

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

/// A float: a player paired outside their score (C.04.3 A.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Float {
    /// Paired with a lower score, or given the bye.
    Down,
    /// Paired with a higher score.
    Up,
}

/// What a bracket's choice costs, counted against the search's budgets: pairs leaving a player
/// without their colour wish, and players given the same float as in the last round.
#[derive(Clone, Copy, Debug, Default)]
struct Cost {
    colours: usize,
    floats: usize,
    /// Players given the same float as two rounds ago.
    earlier: usize,
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

    /// The colour wanted and how much (C.04.3 A.6): absolute after a colour difference above
    /// one or the same colour twice running, strong after a difference of one, mild otherwise.
    fn preference(&self) -> (Strength, Option<Colour>) {
        let played: Vec<Colour> = self.played().collect();
        let Some(&latest) = played.last() else {
            return (Strength::None, None);
        };
        let twice = played.len() >= 2 && played[played.len() - 2] == latest;
        match self.difference() {
            d if d > 1 => (Strength::Absolute, Some(Colour::Black)),
            d if d < -1 => (Strength::Absolute, Some(Colour::White)),
            _ if twice => (Strength::Absolute, Some(latest.other())),
            1 => (Strength::Strong, Some(Colour::Black)),
            -1 => (Strength::Strong, Some(Colour::White)),
            _ => (Strength::Mild, Some(latest.other())),
        }
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

/// Nodes one search of a bracket may visit before the next way is tried: keeps a round of a
/// thousand players well under a second whatever the history (docs/tournaments.md 4.3).
const SEARCH_BUDGET: usize = 20_000;

/// Nodes all the searches of one bracket may visit before only the loosest is tried.
const BRACKET_BUDGET: usize = 60_000;

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
        if set.len() % 2 == 0 {
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
        .map(|(a, b)| colours(&field, a, b, first))
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
    while start < set.len() {
        let score = field.players[set[start]].score;
        let end = start
            + set[start..]
                .iter()
                .take_while(|&&v| field.players[v].score == score)
                .count();
        let residents = &set[start..end];
        let below = &set[end..];
        let (bracket_pairs, down) = pair_bracket(field, &floaters, residents, below);
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
/// so that they and `below` stay pairable (C.4). Tries, in order (C.5 then C.10 to C.13): the
/// most pairs, then the fewest colour conflicts, each first by transpositions of S2 (B.2) and
/// then by any exchange.
fn pair_bracket(
    field: &Field,
    floaters: &[usize],
    residents: &[usize],
    below: &[usize],
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
                for (floats, earlier) in [(0, 0), (0, usize::MAX), (usize::MAX, usize::MAX)] {
                    tries.push((
                        strict,
                        Cost {
                            colours,
                            floats,
                            earlier,
                        },
                    ));
                }
            }
        }
        let loosest = tries.len() - 1;
        for (i, (strict, budget)) in tries.into_iter().enumerate() {
            // Past its share of work a bracket goes straight to the loosest try, which a large
            // bracket passes at once: a round of a thousand stays well under a second.
            if spent > BRACKET_BUDGET && i != loosest {
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
            };
            search.transpositions(floaters, residents, pairs);
            spent += search.nodes;
            if search.result.is_none() {
                search.nodes = 0;
                search.exchanges(&bracket, pairs);
                spent += search.nodes;
            }
            if let Some(found) = search.result {
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

/// The subsets of `k` elements of `set`, in lexicographic order.
fn subsets(set: &[usize], k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    let mut all = Vec::new();
    for (i, &first) in set.iter().enumerate() {
        for mut rest in subsets(&set[i + 1..], k - 1) {
            rest.insert(0, first);
            all.push(rest);
        }
    }
    all
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

struct Search<'f, 'a> {
    field: &'f Field<'a>,
    below: &'f [usize],
    /// When set, the next score group, where every player floating down must find an
    /// opponent (C.7, our stand-in for also minimising the score differences of C.6).
    next: Option<&'f [usize]>,
    budget: Cost,
    nodes: usize,
    chosen: Vec<(usize, usize)>,
    result: Option<(Vec<(usize, usize)>, Vec<usize>)>,
}

impl Search<'_, '_> {
    fn step(&mut self) -> bool {
        self.nodes += 1;
        self.result.is_none() && self.nodes <= SEARCH_BUDGET
    }

    /// A complete choice for the bracket: accepted if the players floating down did not
    /// float down last round (within the budget) and can be paired with the players below.
    fn leaf(&mut self, left: Vec<usize>, cost: Cost) {
        let down = |v: &&usize, float: fn(&Entrant) -> Option<Float>| {
            float(self.field.players[**v]) == Some(Float::Down)
        };
        let again = left.iter().filter(|v| down(v, |p| p.last_float)).count();
        let earlier = left.iter().filter(|v| down(v, |p| p.earlier_float)).count();
        if cost.floats.saturating_add(again) > self.budget.floats
            || cost.earlier.saturating_add(earlier) > self.budget.earlier
        {
            return;
        }
        if let Some(next) = self.next
            && !self.below.is_empty()
            && !all_placed(self.field, &left, next)
        {
            return;
        }
        // In rank order: the bye is looked for from the bottom.
        let mut rest = left.clone();
        rest.sort_unstable();
        rest.extend_from_slice(self.below);
        if self.field.pairable(&rest) {
            self.result = Some((self.chosen.clone(), left));
        }
    }

    /// The cost after pairing `a` with `b`, if they may meet within the budget. A resident
    /// paired with a player floating down to them floats up: a cost if they did last round.
    fn try_pair(&mut self, a: usize, b: usize, cost: Cost) -> Option<Cost> {
        if !self.field.may_meet(a, b) {
            return None;
        }
        let (pa, pb) = (self.field.players[a], self.field.players[b]);
        let lower = self.field.players[a.max(b)];
        let up =
            |float: Option<Float>| usize::from(pa.score != pb.score && float == Some(Float::Up));
        let cost = Cost {
            colours: cost.colours + usize::from(self.field.conflict(a, b)),
            floats: cost.floats + up(lower.last_float),
            earlier: cost.earlier + up(lower.earlier_float),
        };
        let budget = self.budget;
        (cost.colours <= budget.colours
            && cost.floats <= budget.floats
            && cost.earlier <= budget.earlier)
            .then_some(cost)
    }

    /// B.1 to B.3: the moved-down players (S1 of the heterogeneous part) each take the first
    /// resident they can, in order; then the residents left are split into a top half S1 and a
    /// bottom half S2, and each of S1 takes the first of S2 it can. Backtracking walks the
    /// transpositions of S2 in lexicographic order.
    fn transpositions(&mut self, floaters: &[usize], residents: &[usize], pairs: usize) {
        let paired_down = floaters.len().min(pairs);
        let mut used = vec![false; residents.len()];
        self.down(
            floaters,
            residents,
            paired_down,
            pairs,
            0,
            &mut used,
            Cost::default(),
        );
    }

    #[allow(clippy::too_many_arguments)]
    fn down(
        &mut self,
        floaters: &[usize],
        residents: &[usize],
        paired_down: usize,
        pairs: usize,
        i: usize,
        used: &mut [bool],
        cost: Cost,
    ) {
        if !self.step() {
            return;
        }
        if i == paired_down {
            let rest: Vec<usize> = residents
                .iter()
                .zip(used.iter())
                .filter(|(_, u)| !**u)
                .map(|(&v, _)| v)
                .collect();
            let extra: Vec<usize> = floaters[paired_down..].to_vec();
            let half = (pairs - paired_down).min(rest.len() / 2);
            if half == pairs - paired_down {
                self.homogeneous(&rest, half, &extra, cost);
            }
            return;
        }
        for j in 0..residents.len() {
            if used[j] {
                continue;
            }
            if let Some(c) = self.try_pair(floaters[i], residents[j], cost) {
                used[j] = true;
                self.chosen.push((floaters[i], residents[j]));
                self.down(floaters, residents, paired_down, pairs, i + 1, used, c);
                self.chosen.pop();
                used[j] = false;
                if self.result.is_some() {
                    return;
                }
            }
        }
    }

    /// Pairs the remainder `rest` (ranked) into `half` pairs: S1 its first `half` players, S2
    /// the others; transpositions of S2 first, then the exchanges of one player between S1
    /// and S2 (and of two in small brackets) in the order of C.04.3 D.2, then any pairing.
    fn homogeneous(&mut self, rest: &[usize], half: usize, extra: &[usize], cost: Cost) {
        let split = |s1: &[usize]| -> (Vec<usize>, Vec<usize>) {
            let (a, b): (Vec<usize>, Vec<usize>) = (0..rest.len()).partition(|i| s1.contains(i));
            (
                a.iter().map(|&i| rest[i]).collect(),
                b.iter().map(|&i| rest[i]).collect(),
            )
        };
        let upper: Vec<usize> = (0..half).collect();
        let lower: Vec<usize> = (half..rest.len()).collect();
        let (s1, s2) = split(&upper);
        self.halves(&s1, &s2, extra, 0, &mut vec![false; s2.len()], cost);
        if self.result.is_some() || self.nodes > SEARCH_BUDGET {
            return;
        }
        let mut exchanges: Vec<(Vec<usize>, Vec<usize>)> = Vec::new();
        for k in 1..=2 {
            if upper.len() * lower.len() > [0, 4096, 64][k] {
                break;
            }
            let mut these: Vec<(Vec<usize>, Vec<usize>)> = Vec::new();
            for a in subsets(&upper, k) {
                for b in subsets(&lower, k) {
                    these.push((a.clone(), b));
                }
            }
            // D.2: the smallest difference of the numbers exchanged, then the highest numbers
            // leaving S1, then the lowest numbers leaving S2.
            these.sort_by_key(|(a, b)| {
                let difference = b.iter().sum::<usize>() - a.iter().sum::<usize>();
                let mut high: Vec<usize> = a.clone();
                high.sort_unstable_by(|x, y| y.cmp(x));
                (
                    difference,
                    high.into_iter().map(std::cmp::Reverse).collect::<Vec<_>>(),
                    b.clone(),
                )
            });
            exchanges.extend(these);
        }
        let mut tries = exchanges.into_iter().map(|(a, b)| {
            let mut s1: Vec<usize> = upper
                .iter()
                .copied()
                .filter(|i| !a.contains(i))
                .chain(b)
                .collect();
            s1.sort_unstable();
            s1
        });
        while self.result.is_none() && self.nodes <= SEARCH_BUDGET {
            let Some(s1) = tries.next() else { break };
            let (s1, s2) = split(&s1);
            let mut taken = vec![false; s2.len()];
            self.halves(&s1, &s2, extra, 0, &mut taken, cost);
        }
        if self.result.is_none() {
            let mut state = vec![None; rest.len()];
            self.any(
                rest,
                extra,
                self.chosen.len() + half,
                rest.len() - 2 * half,
                &mut state,
                cost,
            );
        }
    }

    fn halves(
        &mut self,
        s1: &[usize],
        s2: &[usize],
        extra: &[usize],
        i: usize,
        taken: &mut [bool],
        cost: Cost,
    ) {
        if !self.step() {
            return;
        }
        if i == s1.len() {
            let left = extra.iter().copied().chain(
                s2.iter()
                    .zip(taken.iter())
                    .filter(|(_, t)| !**t)
                    .map(|(&v, _)| v),
            );
            let left = left.collect();
            self.leaf(left, cost);
            return;
        }
        for j in 0..s2.len() {
            if taken[j] {
                continue;
            }
            if let Some(c) = self.try_pair(s1[i], s2[j], cost) {
                taken[j] = true;
                self.chosen.push((s1[i], s2[j]));
                self.halves(s1, s2, extra, i + 1, taken, c);
                self.chosen.pop();
                taken[j] = false;
                if self.result.is_some() {
                    return;
                }
            }
        }
    }

    /// When no transposition works: the highest unpaired player meets the highest one below
    /// them that they can, floating down as few and as low players as possible (our stand-in
    /// for the exchanges of B.3, section 4.4).
    fn exchanges(&mut self, bracket: &[usize], pairs: usize) {
        let mut state = vec![None; bracket.len()];
        self.any(
            bracket,
            &[],
            pairs,
            bracket.len() - 2 * pairs,
            &mut state,
            Cost::default(),
        );
    }

    /// Pairs `bracket` until `self.chosen` holds `pairs` pairs, floating at most `floats` of
    /// it; `extra` float down in any case.
    #[allow(clippy::too_many_arguments)]
    fn any(
        &mut self,
        bracket: &[usize],
        extra: &[usize],
        pairs: usize,
        floats: usize,
        state: &mut [Option<bool>],
        cost: Cost,
    ) {
        if !self.step() {
            return;
        }
        let Some(i) = state.iter().position(Option::is_none) else {
            let floated = bracket
                .iter()
                .zip(state.iter())
                .filter(|(_, s)| **s == Some(false));
            let left = extra
                .iter()
                .copied()
                .chain(floated.map(|(&v, _)| v))
                .collect();
            self.leaf(left, cost);
            return;
        };
        if self.chosen.len() < pairs {
            for j in i + 1..bracket.len() {
                if state[j].is_some() {
                    continue;
                }
                if let Some(c) = self.try_pair(bracket[i], bracket[j], cost) {
                    state[i] = Some(true);
                    state[j] = Some(true);
                    self.chosen.push((bracket[i], bracket[j]));
                    self.any(bracket, extra, pairs, floats, state, c);
                    self.chosen.pop();
                    state[j] = None;
                    state[i] = None;
                    if self.result.is_some() {
                        return;
                    }
                }
            }
        }
        let floated = state.iter().filter(|s| **s == Some(false)).count();
        if floated < floats {
            state[i] = Some(false);
            self.any(bracket, extra, pairs, floats, state, cost);
            state[i] = None;
        }
    }
}

/// Gives the colours of a pair (C.04.3 E.1 to E.5); `a` ranks above `b`. Returns (white, black).
fn colours(field: &Field, a: usize, b: usize, first: Colour) -> (PlayerId, PlayerId) {
    let (a, b) = if a < b { (a, b) } else { (b, a) };
    let (pa, pb) = (field.players[a], field.players[b]);
    let (sa, ca) = field.wants[a];
    let (sb, cb) = field.wants[b];
    let a_colour = match (ca, cb) {
        // E.5: no history on either side: by the higher player's pairing number.
        (None, None) => {
            if pa.tpn % 2 == 1 {
                first
            } else {
                first.other()
            }
        }
        // E.1: both wishes can be granted.
        (Some(x), None) => x,
        (None, Some(y)) => y.other(),
        (Some(x), Some(y)) if x != y => x,
        (Some(x), Some(_)) => {
            if sa != sb {
                // E.2: the stronger wish wins.
                if sa > sb { x } else { x.other() }
            } else if sa == Strength::Absolute && pa.difference().abs() != pb.difference().abs() {
                // E.2: both absolute: the wider colour difference wins.
                if pa.difference().abs() > pb.difference().abs() {
                    x
                } else {
                    x.other()
                }
            } else {
                // E.3: alternate from the latest round where they had different colours;
                // E.4: else the higher player's wish.
                let rounds = pa.history.len().min(pb.history.len());
                (0..rounds)
                    .rev()
                    .find_map(|r| match (pa.history[r], pb.history[r]) {
                        (Some(u), Some(v)) if u != v => Some(u.other()),
                        _ => None,
                    })
                    .unwrap_or(x)
            }
        }
    };
    if a_colour == Colour::White {
        (pa.id, pb.id)
    } else {
        (pb.id, pa.id)
    }
}
