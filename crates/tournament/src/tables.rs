//! Rounds of tables (docs/tournaments.md section 5): players seated by score into tables of the
//! game's size, the short seats given to bots or left empty.

use std::cmp::Reverse;

use crate::sheet::{Entry, sheets};
use crate::{Fill, PlayerId, Seat, Tournament, TournamentError};

/// The number of players at each table, top table first, for `players` players and tables of
/// `seats` (section 5.1): as few tables as hold everyone, the players spread so that table
/// sizes differ by one at most, the fuller tables on top. Ten players at tables of four sit
/// 4 + 3 + 3.
pub fn table_sizes(players: usize, seats: usize) -> Vec<usize> {
    if players == 0 || seats == 0 {
        return Vec::new();
    }
    let tables = players.div_ceil(seats);
    let (each, more) = (players / tables, players % tables);
    (0..tables).map(|t| each + usize::from(t < more)).collect()
}

/// Seats a round: the active players ranked by points (then rating, then who joined first)
/// are dealt into the tables of [`table_sizes`], top table first; with [`Fill::Bots`] a bot
/// takes each seat left over, with [`Fill::ShortTables`] the tables play short, at most one
/// seat short. Within a table, the player who has sat furthest from the first seat so far
/// sits first (section 5.2).
pub(crate) fn seat(tournament: &Tournament, fill: Fill) -> Result<Vec<Vec<Seat>>, TournamentError> {
    let seats = usize::from(tournament.settings.seats);
    let sheets = sheets(tournament);
    let mut players: Vec<(usize, &crate::Player)> = tournament
        .players
        .iter()
        .enumerate()
        .filter(|(_, p)| p.active)
        .collect();
    let needed = match fill {
        Fill::Bots => 2,
        Fill::ShortTables => seats - 1,
    };
    if players.len() < needed {
        return Err(TournamentError::NotEnoughPlayers {
            needed,
            active: players.len(),
        });
    }
    let sizes = table_sizes(players.len(), seats);
    if fill == Fill::ShortTables && sizes.iter().any(|&size| size + 1 < seats) {
        return Err(TournamentError::NoTables {
            players: players.len(),
            seats,
        });
    }
    let points = |id: PlayerId| sheets[&id].iter().map(Entry::points).sum::<u32>();
    let seat_sum = |id: PlayerId| -> usize {
        sheets[&id]
            .iter()
            .map(|e| match e {
                Entry::Played { seat, .. } => *seat,
                _ => 0,
            })
            .sum()
    };
    players.sort_by_key(|(joined, p)| (Reverse(points(p.id)), Reverse(p.rating), *joined));
    let mut tables = Vec::with_capacity(sizes.len());
    let mut next = players.iter();
    for size in sizes {
        let mut table: Vec<PlayerId> = next.by_ref().take(size).map(|(_, p)| p.id).collect();
        // A stable sort: equal sums keep the rank order.
        table.sort_by_key(|&id| Reverse(seat_sum(id)));
        let mut table: Vec<Seat> = table.into_iter().map(Seat::Player).collect();
        if fill == Fill::Bots {
            table.resize(seats, Seat::Bot);
        }
        tables.push(table);
    }
    Ok(tables)
}
