//! Whether a set of players can all be paired without a forbidden pairing: the Swiss pairing's
//! look-ahead (docs/tournaments.md section 4.3). A pairing of one score group is accepted only
//! if the players left below it can still all be paired, which is what FIDE's "completion"
//! criterion (C.04.3 C.4) asks.
//!
//! A graph whose every vertex meets at least half of the others has a Hamiltonian cycle
//! (Dirac's theorem), hence a perfect matching when its order is even: in large tournaments
//! that cheap test settles almost every case. Otherwise Edmonds' blossom algorithm finds a
//! maximum matching, O(n³) on the (small or sparse) set left.

use std::collections::VecDeque;

/// Whether the `n` vertices (`n` even) have a perfect matching in the graph where `edge(a, b)`
/// says whether a and b may meet. `missing[v]` is an upper bound on the vertices v may not meet.
pub(crate) fn perfect(
    n: usize,
    missing: impl Fn(usize) -> usize,
    edge: impl Fn(usize, usize) -> bool,
) -> bool {
    if n % 2 == 1 {
        return false;
    }
    if n == 0 {
        return true;
    }
    if (0..n).all(|v| n > missing(v) + n / 2) {
        return true;
    }
    let adjacency: Vec<Vec<usize>> = (0..n)
        .map(|a| (0..n).filter(|&b| b != a && edge(a, b)).collect())
        .collect();
    maximum(&adjacency) * 2 == n
}

/// The size of a maximum matching of the graph (Edmonds' blossom algorithm).
fn maximum(adjacency: &[Vec<usize>]) -> usize {
    const NONE: usize = usize::MAX;
    let n = adjacency.len();
    let mut mate = vec![NONE; n];
    let mut size = 0;
    // Greedy start: most vertices are matched without a search.
    for v in 0..n {
        if mate[v] == NONE
            && let Some(&w) = adjacency[v].iter().find(|&&w| mate[w] == NONE)
        {
            mate[v] = w;
            mate[w] = v;
            size += 1;
        }
    }
    let mut parent = vec![NONE; n];
    let mut base: Vec<usize> = (0..n).collect();
    let mut used = vec![false; n];
    let mut blossom = vec![false; n];
    for root in 0..n {
        if mate[root] != NONE {
            continue;
        }
        // One breadth-first search for an augmenting path from `root`.
        parent.fill(NONE);
        used.fill(false);
        for (v, b) in base.iter_mut().enumerate() {
            *b = v;
        }
        used[root] = true;
        let mut queue = VecDeque::from([root]);
        let mut end = NONE;
        'search: while let Some(v) = queue.pop_front() {
            for &to in &adjacency[v] {
                if base[v] == base[to] || mate[v] == to {
                    continue;
                }
                if to == root || (mate[to] != NONE && parent[mate[to]] != NONE) {
                    // An odd cycle: contract it into its base.
                    let current = lowest_common(&base, &mate, &parent, v, to);
                    blossom.fill(false);
                    mark_path(&mut blossom, &base, &mate, &mut parent, v, current, to);
                    mark_path(&mut blossom, &base, &mate, &mut parent, to, current, v);
                    for i in 0..n {
                        if blossom[base[i]] {
                            base[i] = current;
                            if !used[i] {
                                used[i] = true;
                                queue.push_back(i);
                            }
                        }
                    }
                } else if parent[to] == NONE {
                    parent[to] = v;
                    if mate[to] == NONE {
                        end = to;
                        break 'search;
                    }
                    used[mate[to]] = true;
                    queue.push_back(mate[to]);
                }
            }
        }
        // Flip the path's edges.
        let mut v = end;
        while v != NONE {
            let pv = parent[v];
            let next = mate[pv];
            mate[v] = pv;
            mate[pv] = v;
            v = next;
        }
        if end != NONE {
            size += 1;
        }
    }
    size
}

fn lowest_common(
    base: &[usize],
    mate: &[usize],
    parent: &[usize],
    mut a: usize,
    mut b: usize,
) -> usize {
    const NONE: usize = usize::MAX;
    let mut seen = vec![false; base.len()];
    loop {
        a = base[a];
        seen[a] = true;
        if mate[a] == NONE {
            break;
        }
        a = parent[mate[a]];
    }
    loop {
        b = base[b];
        if seen[b] {
            return b;
        }
        b = parent[mate[b]];
    }
}

fn mark_path(
    blossom: &mut [bool],
    base: &[usize],
    mate: &[usize],
    parent: &mut [usize],
    mut v: usize,
    b: usize,
    mut child: usize,
) {
    while base[v] != b {
        blossom[base[v]] = true;
        blossom[base[mate[v]]] = true;
        parent[v] = child;
        child = mate[v];
        v = parent[mate[v]];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from_edges(n: usize, edges: &[(usize, usize)]) -> Vec<Vec<usize>> {
        let mut adjacency = vec![Vec::new(); n];
        for &(a, b) in edges {
            adjacency[a].push(b);
            adjacency[b].push(a);
        }
        adjacency
    }

    #[test]
    fn blossoms_are_contracted() {
        // A triangle 0-1-2 with tails 2-3 and 0-4 and 1-5: a perfect matching exists (0-4,
        // 1-5, 2-3) that a search must go through the odd cycle to find from some starts.
        let adjacency = from_edges(6, &[(0, 1), (1, 2), (2, 0), (2, 3), (0, 4), (1, 5)]);
        assert_eq!(maximum(&adjacency), 3);
        // A star has a matching of one edge only.
        assert_eq!(maximum(&from_edges(4, &[(0, 1), (0, 2), (0, 3)])), 1);
        // Two triangles joined by one edge: 3 edges.
        let two = from_edges(6, &[(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 3), (2, 3)]);
        assert_eq!(maximum(&two), 3);
    }

    /// Pairs the first free vertex with each free neighbour in turn.
    fn brute_force(used: &mut [bool; 6], edge: &impl Fn(usize, usize) -> bool) -> bool {
        let Some(a) = (0..6).find(|&v| !used[v]) else {
            return true;
        };
        used[a] = true;
        for b in a + 1..6 {
            if !used[b] && edge(a, b) {
                used[b] = true;
                let found = brute_force(used, edge);
                used[b] = false;
                if found {
                    used[a] = false;
                    return true;
                }
            }
        }
        used[a] = false;
        false
    }

    #[test]
    fn perfect_matches_brute_force_on_small_graphs() {
        // Every graph on 6 vertices given by the bits of its 15 possible edges.
        let pairs: Vec<(usize, usize)> = (0..6)
            .flat_map(|a| (a + 1..6).map(move |b| (a, b)))
            .collect();
        for bits in 0u32..(1 << 15) {
            let edge = |a: usize, b: usize| {
                let (a, b) = (a.min(b), a.max(b));
                let i = pairs.iter().position(|&p| p == (a, b)).unwrap();
                bits & (1 << i) != 0
            };
            let brute = brute_force(&mut [false; 6], &edge);
            let missing = |v: usize| (0..6).filter(|&w| w != v && !edge(v, w)).count();
            assert_eq!(perfect(6, missing, edge), brute, "edges {bits:#b}");
        }
    }
}
