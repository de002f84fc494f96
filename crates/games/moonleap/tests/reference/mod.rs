//! An independent, deliberately plain model of rules/moonleap.md, used only to cross-check the
//! crate: it works on position text and action text alone, keeps the track as a vector of
//! `Option<(colour letter, number)>`, reads the board file with `serde_json::Value`, finds the next
//! empty cell by scanning, derives splits from "two different astronauts whose numbers add up to
//! the face" (not from a table) and finds runs by walking left and right from each moved
//! astronaut. It shares no code with the crate beyond the rules text.
#![allow(dead_code)]

use std::collections::BTreeSet;

/// Board facts the rules need, read from a board file.
#[derive(Clone, Debug)]
pub struct RefBoard {
    pub cells: usize,
    /// Per player count 2, 3, 4.
    pub line_after: [usize; 3],
    pub end_cells: Vec<usize>,
}

impl RefBoard {
    pub fn from_json(text: &str) -> RefBoard {
        let v: serde_json::Value = serde_json::from_str(text).expect("board JSON");
        let cells = v["track_values"].as_array().expect("track_values").len();
        let line = |p: &str| v["milestone_after"][p].as_u64().expect("milestone") as usize;
        let end_cells = v["end_cells"]
            .as_array()
            .expect("end_cells")
            .iter()
            .map(|c| c.as_u64().unwrap() as usize)
            .collect();
        RefBoard {
            cells,
            line_after: [line("2"), line("3"), line("4")],
            end_cells,
        }
    }

    pub fn standard() -> RefBoard {
        RefBoard::from_json(
            &std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/boards/default.json"))
                .unwrap(),
        )
    }
}

/// A position: track, players, seat to move (0-based), roll (`None` = must roll).
#[derive(Clone, Debug)]
pub struct RefState<'b> {
    pub board: &'b RefBoard,
    pub mercenaries: bool,
    pub track: Vec<Option<(char, u8)>>,
    pub players: usize,
    pub to_move: usize,
    pub roll: Option<char>,
}

impl<'b> RefState<'b> {
    pub fn parse(board: &'b RefBoard, mercenaries: bool, text: &str) -> RefState<'b> {
        let fields: Vec<&str> = text.split(' ').collect();
        assert_eq!(fields.len(), 4, "{text}");
        let chars: Vec<char> = fields[0].chars().collect();
        let mut track = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            if chars[i] == '.' {
                track.push(None);
                i += 1;
            } else {
                track.push(Some((chars[i], chars[i + 1].to_digit(10).unwrap() as u8)));
                i += 2;
            }
        }
        assert_eq!(track.len(), board.cells);
        RefState {
            board,
            mercenaries,
            track,
            players: fields[1].parse().unwrap(),
            to_move: (fields[2].as_bytes()[0] - b'a') as usize,
            roll: if fields[3] == "-" {
                None
            } else {
                fields[3].chars().next()
            },
        }
    }

    pub fn text(&self) -> String {
        let mut s = String::new();
        for c in &self.track {
            match c {
                None => s.push('.'),
                Some((l, n)) => {
                    s.push(*l);
                    s.push(char::from(b'0' + n));
                }
            }
        }
        let roll = self.roll.map_or("-".to_owned(), |c| c.to_string());
        format!(
            "{s} {} {} {roll}",
            self.players,
            (b'a' + self.to_move as u8) as char
        )
    }

    pub fn over(&self) -> bool {
        self.board
            .end_cells
            .iter()
            .all(|c| self.track[c - 1].is_some())
    }

    fn line_passed(&self) -> bool {
        let line = self.board.line_after[self.players - 2];
        self.track
            .iter()
            .enumerate()
            .any(|(i, c)| c.is_some() && i + 1 > line)
    }

    fn find(track: &[Option<(char, u8)>], colour: char, n: u8) -> Option<usize> {
        track.iter().position(|c| *c == Some((colour, n)))
    }

    /// Index of the cell where astronaut (colour, n) would land, if any.
    fn landing(track: &[Option<(char, u8)>], colour: char, n: u8) -> Option<usize> {
        let from = match Self::find(track, colour, n) {
            Some(i) => i + 1,
            None => 0,
        };
        (from..track.len()).find(|&i| track[i].is_none())
    }

    fn shift(track: &mut [Option<(char, u8)>], colour: char, n: u8) -> usize {
        let to = Self::landing(track, colour, n).expect("movable");
        if let Some(i) = Self::find(track, colour, n) {
            track[i] = None;
        }
        track[to] = Some((colour, n));
        to
    }

    /// The actions available now, as text: chance faces, or decisions.
    pub fn actions(&self) -> Vec<String> {
        if self.over() {
            return vec![];
        }
        let Some(face) = self.roll else {
            return ["r1", "r2", "r3", "r4", "r5", "r*"]
                .iter()
                .map(|s| s.to_string())
                .collect();
        };
        let own = (b'a' + self.to_move as u8) as char;
        let mut groups = vec![(own, "")];
        if self.mercenaries {
            groups.push(('m', "m"));
        }
        let mut out = BTreeSet::new();
        for (colour, prefix) in groups {
            if face == '*' {
                for n in 1..=5u8 {
                    if Self::landing(&self.track, colour, n).is_some() {
                        out.insert(format!("{prefix}{n}"));
                    }
                }
                continue;
            }
            let f = face.to_digit(10).unwrap() as u8;
            if Self::landing(&self.track, colour, f).is_some() {
                out.insert(format!("{prefix}{f}"));
            }
            if self.line_passed() && f >= 3 {
                for x in 1..=5u8 {
                    for y in 1..=5u8 {
                        if x == y || x + y != f {
                            continue;
                        }
                        if Self::landing(&self.track, colour, x).is_none() {
                            continue;
                        }
                        let mut t = self.track.clone();
                        Self::shift(&mut t, colour, x);
                        if Self::landing(&t, colour, y).is_some() {
                            out.insert(format!("{prefix}{x}+{prefix}{y}"));
                        }
                    }
                }
            }
        }
        if out.is_empty() {
            out.insert("pass".to_owned());
        }
        out.into_iter().collect()
    }

    /// The state after `action` (assumed to be in `actions()`).
    pub fn after(&self, action: &str) -> RefState<'b> {
        let mut next = self.clone();
        if let Some(face) = action.strip_prefix('r') {
            next.roll = face.chars().next();
            return next;
        }
        next.roll = None;
        let own = (b'a' + self.to_move as u8) as char;
        let mut landed = Vec::new();
        if action != "pass" {
            for part in action.split('+') {
                let (colour, digits) = match part.strip_prefix('m') {
                    Some(d) => ('m', d),
                    None => (own, part),
                };
                let to = Self::shift(&mut next.track, colour, digits.parse().unwrap());
                if colour == own {
                    landed.push(to);
                }
                if next.over() {
                    return next;
                }
            }
        }
        let run = landed.iter().any(|&i| {
            let mine = |j: usize| next.track[j].is_some_and(|(l, _)| l == own);
            let mut len = 1;
            let mut j = i;
            while j > 0 && mine(j - 1) {
                len += 1;
                j -= 1;
            }
            let mut j = i;
            while j + 1 < next.track.len() && mine(j + 1) {
                len += 1;
                j += 1;
            }
            len >= 3
        });
        if !run {
            next.to_move = (self.to_move + 1) % self.players;
        }
        next
    }

    /// Nodes exactly `depth` levels below.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.actions()
            .iter()
            .map(|a| {
                if depth == 1 {
                    1
                } else {
                    self.after(a).perft(depth - 1)
                }
            })
            .sum()
    }

    /// Each seat's score, counted from the track: `values` per cell, `offboard` per number of an
    /// astronaut that never entered.
    pub fn scores(&self, values: &[i64], offboard: i64) -> Vec<i64> {
        (0..self.players)
            .map(|s| {
                let colour = (b'a' + s as u8) as char;
                (1..=5u8)
                    .map(|n| match Self::find(&self.track, colour, n) {
                        Some(i) => i64::from(n) * values[i],
                        None => offboard * i64::from(n),
                    })
                    .sum()
            })
            .collect()
    }
}
