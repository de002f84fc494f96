//! The terminal drawing of a seat's observation (`plateau play`): each board as the viewer knows
//! it, then the statuses.

use super::*;

impl Naval {
    /// The terminal drawing for `viewer`: each board as that viewer knows it, then statuses.
    /// Own board and pieces a satellite found: the letters of `piece_letter`, lower case when
    /// hit on the own board. Other boards: `.` unknown, `X` hit, `~` miss,
    /// `#` sunk ship, `@` sunk buoy, `+` blocked, `*` deflected, `?` detection contact.
    #[must_use]
    pub fn draw(&self, viewer: Viewer, color: bool) -> String {
        let obs = self.observation(viewer);
        let mut grids = Vec::new();
        for t in 0..4 {
            grids.push(self.grid(t, &obs));
        }
        let mut out = String::new();
        let title = |t: usize| {
            let v = &obs.boards[t];
            let mut s = format!("seat {}", t + 1);
            if obs.viewer == Some(Seat(t as u8)) {
                s.push_str(" (you)");
            }
            if v.eliminated {
                s.push_str(" OUT");
            }
            if v.emp_turns_left > 0 {
                s.push_str(&format!(" EMP{}", v.emp_turns_left));
            }
            if v.shield_up {
                s.push_str(" shield");
            }
            s
        };
        let header = "   a b c d e f g h i j k l m n";
        // The 2x2 layout of section 3: seats 1 and 2 on top, 4 and 3 below.
        for (left, right) in [(0usize, 1usize), (3, 2)] {
            out.push_str(&format!("{:<34}{}\n", title(left), title(right)));
            out.push_str(&format!("{header:<34}{header}\n"));
            for r in 0..14 {
                let line = |t: usize| {
                    let cells: String = grids[t]
                        .get(r)
                        .into_iter()
                        .flatten()
                        .map(|c| format!("{c} "))
                        .collect();
                    format!("{:>2} {}", r + 1, cells)
                };
                out.push_str(&format!("{:<34}{}\n", line(left), line(right)));
            }
            out.push('\n');
        }
        // The symbols, as the other games' drawings give theirs.
        let pieces: Vec<String> = Ship::ALL
            .iter()
            .map(|k| format!("{} {}", piece_letter(k.piece()), k.name()))
            .chain([format!("{} buoy", piece_letter(Piece::Buoy1))])
            .collect();
        out.push_str(&format!(
            "pieces: {} (lower case: hit)\nmarks: . unknown, X hit, ~ miss, # sunk ship, @ sunk \
             buoy, + blocked, * deflected, ? detection contact\n",
            pieces.join(", ")
        ));
        if let Some(v) = obs.viewer {
            if let Some(e) = &obs.boards[v.index()].energy {
                let parts: Vec<String> = Ship::ALL
                    .iter()
                    .map(|k| format!("{} {}", k.name(), e[k.index()]))
                    .collect();
                out.push_str(&format!("energy: {}\n", parts.join(", ")));
            }
            if let Some(ship) = &obs.next_ship {
                out.push_str(&format!("your turn: order for the {ship}"));
                if !obs.plan.is_empty() {
                    out.push_str(&format!(" (given: {})", obs.plan.join("; ")));
                }
                out.push('\n');
                let k = Piece::from_name(ship)
                    .and_then(Piece::ship)
                    .unwrap_or(Ship::Carrier);
                let specials: Vec<String> = Ability::of_ship(k)
                    .iter()
                    .map(|a| format!("{} {}", a.name(), self.config.costs.of(*a)))
                    .collect();
                out.push_str(&format!("specials (cost): {}\n", specials.join(", ")));
            }
        }
        if !obs.last_turn.is_empty() {
            out.push_str("last turn:");
            for a in &obs.last_turn {
                out.push_str(&format!(" [{}] {} ({});", a.seat, a.order, a.result));
            }
            out.push('\n');
        }
        if let Some(o) = &obs.outcome {
            out.push_str(&format!("game over ({}), ranks {:?}\n", o.kind, o.ranks));
        }
        if color {
            out = out.replace(" X ", " \x1b[31mX\x1b[0m ");
        }
        out
    }

    fn grid(&self, t: usize, obs: &Observation) -> Vec<Vec<char>> {
        let v = &obs.boards[t];
        let mut g = vec![vec!['.'; 14]; 14];
        let mut put = |cells: &[String], ch: char| {
            for c in cells.iter().filter_map(|name| Cell::parse(name)) {
                g[usize::from(c.row())][usize::from(c.col())] = ch;
            }
        };
        let letter = |name: &str| Piece::from_name(name).map_or('?', piece_letter);
        for blk in &v.blocks {
            put(&blk.cells, '+');
        }
        if let Some(intel) = &v.intel {
            put(&intel.sonar, '?');
            put(&intel.radar, '?');
            for p in &intel.found {
                put(&p.cells, letter(&p.piece));
            }
        }
        if let Some(f) = &v.revealed_frigate {
            put(&f.cells, piece_letter(Piece::Frigate));
        }
        if let Some(fleet) = &v.fleet {
            for p in fleet {
                put(&p.cells, letter(&p.piece));
            }
            put(&v.misses, '~');
            put(&v.deflected, '*');
            for c in self.boards[t].hit.iter() {
                let ch = &mut g[usize::from(c.row())][usize::from(c.col())];
                *ch = ch.to_ascii_lowercase();
            }
            return g;
        }
        put(&v.misses, '~');
        put(&v.deflected, '*');
        put(&v.hits, 'X');
        for p in &v.sunk {
            put(&p.cells, '#');
        }
        put(&v.sunk_buoys, '@');
        g
    }
}
