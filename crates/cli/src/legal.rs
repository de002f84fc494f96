//! `plateau legal <game> <position|start>`: the legal actions of the side to act, one per line in
//! canonical notation, sorted by byte order (docs/architecture.md section 3).
//!
//! At a chance node it prints the outcomes, each followed by a space and its probability. At a
//! simultaneous node it prints each acting seat's actions as `<seat> <action>` unless `--seat`
//! picks one seat. At the end of the game it prints nothing.

use plateau_engine::{Seat, ToAct};

use crate::common::{CliResult, emit, find_game, load_state, parse_config};

/// Arguments of `plateau legal`.
#[derive(clap::Args)]
pub struct Args {
    /// Registry name of the game, e.g. `mad`.
    game: String,
    /// A position in the game's notation, or `start`.
    position: String,
    /// Seats at the table, for `start` (default: the game's usual number).
    #[arg(long)]
    players: Option<usize>,
    /// Only this seat's actions (1-based, at most the number of seats); by default the seat or
    /// seats to act.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=8))]
    seat: Option<u8>,
    /// The game's config as JSON (default: the standard game).
    #[arg(long, value_name = "JSON")]
    config: Option<String>,
}

/// Prints the legal actions.
pub fn run(args: Args) -> CliResult {
    let entry = find_game(&args.game)?;
    let config = parse_config(args.config.as_deref())?;
    let state = load_state(entry, &config, &args.position, args.players)?;
    if let Some(seat) = args.seat.filter(|&s| usize::from(s) > state.seats()) {
        let seats = state.seats();
        return Err(format!(
            "--seat {seat}: no such seat, the game has {seats} seats (1 to {seats})"
        ));
    }
    let mut lines: Vec<String> = match (state.to_act(), args.seat) {
        (ToAct::Terminal, _) => Vec::new(),
        (ToAct::Chance, _) => state
            .chance_texts()
            .into_iter()
            .map(|(action, p)| format!("{action} {p}"))
            .collect(),
        (_, Some(seat)) => state.legal_texts(Seat(seat - 1)),
        (ToAct::Player(seat), None) => state.legal_texts(seat),
        (ToAct::Simultaneous(set), None) => set
            .iter()
            .flat_map(|seat| {
                state
                    .legal_texts(seat)
                    .into_iter()
                    .map(move |action| format!("{seat} {action}"))
            })
            .collect(),
    };
    lines.sort_unstable();
    let mut text = String::new();
    for line in &lines {
        text.push_str(line);
        text.push('\n');
    }
    emit(&text)
}
