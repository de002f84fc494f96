//! The terminal drawing `plateau play` shows: the track in rows of ten cells (number, value,
//! occupant), negative cells in brackets (and red), end cells starred, the milestone line for the
//! player count as a `|` between two cells, then each colour's astronauts, the die and the scores.

use std::fmt::Write;

use plateau_engine::Seat;

use crate::state::{ASTRONAUTS, Colour, MoonLeap};

const ROW: usize = 10;
const RESET: &str = "\x1b[0m";

fn paint(text: &str, code: &str, color: bool) -> String {
    if color {
        format!("\x1b[{code}m{text}{RESET}")
    } else {
        text.to_owned()
    }
}

fn colour_code(colour: Colour) -> &'static str {
    match colour.index() {
        0 => "1;34",
        1 => "1;32",
        2 => "1;33",
        3 => "1;35",
        _ => "1;36",
    }
}

/// Draws `game` as text; `color` adds ANSI colours.
pub(crate) fn render(game: &MoonLeap, color: bool) -> String {
    let board = game.board();
    let seats = usize::from(game.seats);
    let line_after = usize::from(board.milestone_after(seats));
    let track = game.track();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Moon Leap on board `{}`, {seats} players{}; milestone line after cell {line_after} ({})",
        board.desc().name,
        if game.mercenaries() {
            ", with mercenaries"
        } else {
            ""
        },
        if game.milestone_passed() {
            "passed: 3, 4 and 5 may split"
        } else {
            "not passed: no splits yet"
        },
    );
    for start in (0..board.len()).step_by(ROW) {
        let cells = start..(start + ROW).min(board.len());
        let (mut numbers, mut values, mut occupants) =
            ("cell ".to_owned(), "value".to_owned(), "     ".to_owned());
        for i in cells {
            let cell = i + 1;
            let sep = if cell == line_after + 1 && cell > 1 {
                '|'
            } else {
                ' '
            };
            let _ = write!(numbers, "{sep}{cell:>4} ");
            let v = board.value(cell as u8);
            let end = if board.is_end(cell as u8) { "*" } else { " " };
            let shown = if v < 0 {
                format!("[{v}]")
            } else {
                format!("{v}")
            };
            let shown = format!("{shown:>4}");
            let shown = if v < 0 {
                paint(&shown, "31", color)
            } else {
                shown
            };
            let _ = write!(values, "{sep}{shown}{end}");
            let who = match track[i] {
                None => "   .".to_owned(),
                Some((colour, n)) => {
                    let t = format!("  {}{n}", colour.letter());
                    paint(&t, colour_code(colour), color)
                }
            };
            let _ = write!(occupants, "{sep}{who} ");
        }
        let _ = writeln!(out, "{numbers}\n{values}\n{occupants}");
    }
    let _ = writeln!(
        out,
        "([-n] red cell, * end cell, | milestone line for {seats} players)"
    );
    let scores = game.scores();
    let colours = Seat::all(seats)
        .map(Colour::of)
        .chain(game.mercenaries().then_some(Colour::MERCENARIES));
    for colour in colours {
        let marker = if colour.seat() == Some(game.to_move()) {
            '>'
        } else {
            ' '
        };
        let name = match colour.seat() {
            None => "mercenaries ".to_owned(),
            Some(seat) => format!("seat {seat} ({})  ", colour.letter()),
        };
        let name = paint(&name, colour_code(colour), color);
        let mut line = format!("{marker} {name}");
        for n in 1..=ASTRONAUTS as u8 {
            match game.cell_of(colour, n) {
                Some(c) => {
                    let _ = write!(line, " {n}@{c:<2}");
                }
                None => {
                    let _ = write!(line, " {n}@off");
                }
            }
        }
        if let Some(seat) = colour.seat() {
            let _ = write!(line, "   score {}", scores[seat.index()]);
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    let mover = format!(
        "seat {} ({})",
        game.to_move(),
        Colour::of(game.to_move()).letter()
    );
    let status = if game.is_over() {
        // After a resignation the resigning seat cannot win (Game::end).
        let in_play = |s: &Seat| game.resigned() != Some(*s);
        let best = Seat::all(seats)
            .filter(in_play)
            .map(|s| scores[s.index()])
            .max()
            .unwrap_or(0);
        let winners: Vec<String> = Seat::all(seats)
            .filter(|s| in_play(s) && scores[s.index()] == best)
            .map(|s| format!("seat {s} ({})", Colour::of(s).letter()))
            .collect();
        let how = match game.resigned() {
            Some(s) => format!("seat {s} ({}) resigned", Colour::of(s).letter()),
            None => format!("the end cells are full ({mover} filled the last)"),
        };
        format!(
            "Game over: {how}. Winner{}: {} with {best}.",
            if winners.len() > 1 { "s (shared)" } else { "" },
            winners.join(", ")
        )
    } else {
        match game.roll() {
            None => format!("{mover} to roll the die."),
            Some(face) if face.is_star() => format!("{mover} rolled *: move any one astronaut."),
            Some(face) => format!("{mover} rolled {face}."),
        }
    };
    let _ = writeln!(out, "{status}");
    out
}
