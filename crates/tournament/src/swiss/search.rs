//! The search of one score bracket's pairing (docs/tournaments.md section 4.3): the Dutch
//! system's candidates in its order (transpositions, then exchanges), pruned by the budgets of
//! colour conflicts and repeated floats, each complete candidate checked by the look-ahead.

use super::{Colour, Entrant, Field, Float, Strength, all_placed};

/// Nodes one search of a bracket may visit before the next way is tried: keeps a round of a
/// thousand players well under a second whatever the history (docs/tournaments.md 4.3).
const SEARCH_BUDGET: usize = 100_000;

/// What a bracket's choice costs, counted against the search's budgets: pairs leaving a player
/// without their colour wish, and players given the same float as in the last round.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Cost {
    pub colours: usize,
    /// Of those, pairs leaving a strong or absolute wish unmet.
    pub strong: usize,
    pub floats: usize,
    /// Players given the same float as two rounds ago.
    pub earlier: usize,
}

/// A bracket's pairs and the players it floats down.
pub(super) type Found = (Vec<(usize, usize)>, Vec<usize>);

pub(super) struct Search<'f, 'a> {
    pub(super) field: &'f Field<'a>,
    pub(super) below: &'f [usize],
    /// When set, the next score group, where every player floating down must find an
    /// opponent (our stand-in for the Dutch criteria on score differences and on the next bracket,
    /// section 4.4).
    pub(super) next: Option<&'f [usize]>,
    pub(super) budget: Cost,
    pub(super) nodes: usize,
    pub(super) chosen: Vec<(usize, usize)>,
    /// In [`Search::exchanges`], the moved-down players at the head of the bracket, and how
    /// many of them must be paired.
    pub(super) mdps: usize,
    pub(super) keep: usize,
    pub(super) result: Option<Found>,
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

    /// Whether `pairs` pairs of `players` (the others floating) must leave more players
    /// without their colour than the budget allows: each pair grants at most one white wish
    /// and one black wish, so at least `max(white, black) - pairs - floats` pairs miss one; the
    /// same count over strong and absolute wishes bounds the pairs missing a strong one.
    fn hopeless(&self, players: impl Iterator<Item = usize>, pairs: usize, cost: Cost) -> bool {
        let (mut wishes, mut strong, mut count) = ([0usize; 2], [0usize; 2], 0);
        for v in players {
            count += 1;
            let (strength, colour) = self.field.wants[v];
            if let Some(colour) = colour {
                let side = usize::from(colour == Colour::Black);
                wishes[side] += 1;
                if strength >= Strength::Strong {
                    strong[side] += 1;
                }
            }
        }
        if count < 2 * pairs {
            return true;
        }
        let spare = pairs + (count - 2 * pairs);
        let least = |w: [usize; 2]| w[0].max(w[1]).saturating_sub(spare);
        cost.colours + least(wishes) > self.budget.colours
            || cost.strong + least(strong) > self.budget.strong
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
            strong: cost.strong + usize::from(self.field.strong_conflict(a, b)),
            floats: cost.floats + up(lower.last_float),
            earlier: cost.earlier + up(lower.earlier_float),
        };
        let budget = self.budget;
        (cost.colours <= budget.colours
            && cost.strong <= budget.strong
            && cost.floats <= budget.floats
            && cost.earlier <= budget.earlier)
            .then_some(cost)
    }

    /// The moved-down players (S1 of the heterogeneous part) each take the first
    /// resident they can, in order; then the residents left are split into a top half S1 and a
    /// bottom half S2, and each of S1 takes the first of S2 it can. Backtracking walks the
    /// transpositions of S2 in lexicographic order.
    pub(super) fn transpositions(&mut self, floaters: &[usize], residents: &[usize], pairs: usize) {
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
        self.mdps = 0;
        self.keep = 0;
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
    /// and S2 (and of two in small brackets) in the order the Dutch rules give exchanges, then any pairing.
    fn homogeneous(&mut self, rest: &[usize], half: usize, extra: &[usize], cost: Cost) {
        if self.hopeless(rest.iter().copied(), half, cost) {
            return;
        }
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
            // The smallest difference of the numbers exchanged, then the highest numbers
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
        let open = s2
            .iter()
            .zip(taken.iter())
            .filter(|(_, t)| !**t)
            .map(|(&v, _)| v);
        if self.hopeless(s1[i..].iter().copied().chain(open), s1.len() - i, cost) {
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
    /// for the Dutch rules' exchanges, section 4.4).
    /// Of the bracket's first `mdps` players (moved down to it), at most `mdps - keep` float
    /// on, none scoring more than the `keep`-th: the pairing's score differences grow with
    /// every higher score sent down.
    pub(super) fn exchanges(&mut self, bracket: &[usize], pairs: usize, mdps: usize, keep: usize) {
        self.mdps = mdps;
        self.keep = keep;
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
        let open = bracket
            .iter()
            .zip(state.iter())
            .filter(|(_, s)| s.is_none())
            .map(|(&v, _)| v);
        let floated = state.iter().filter(|s| **s == Some(false)).count();
        let to_pair = pairs.saturating_sub(self.chosen.len());
        if floated > floats || self.hopeless(open, to_pair, cost) {
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
        let may_float = i >= self.mdps || self.keep == 0 || {
            let floated_mdps = state[..self.mdps]
                .iter()
                .filter(|s| **s == Some(false))
                .count();
            let score = |v: usize| self.field.players[v].score;
            floated_mdps < self.mdps - self.keep
                && score(bracket[i]) <= score(bracket[self.keep - 1])
        };
        if floated < floats && may_float {
            state[i] = Some(false);
            self.any(bracket, extra, pairs, floats, state, cost);
            state[i] = None;
        }
    }
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
