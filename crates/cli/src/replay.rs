//! `plateau replay <record>`: re-plays a game record (JSON, or the exported text form) with
//! `Record::replay`, which checks every action against the rules, the revealed seed against
//! `seed_hash` and every chance outcome against the seed, each early ending at its place, and the
//! recorded result (docs/architecture.md section 4). Prints the final position, the board, each
//! early ending with its place, the result and whether the seed was verified. Any mismatch is an
//! error naming the action (1-based) or the ending, and the reason. Beyond what the engine checks,
//! a seat must be `human` or a bot name `play --seat` accepts, and a record whose game is over
//! must say its outcome (a running game's record, with no outcome, replays as unfinished).

use std::path::PathBuf;

use plateau_engine::{Ending, Viewer};

use crate::common::{CliResult, describe_outcome, emit, find_game, read_record, use_color};
use crate::play::Player;

/// Arguments of `plateau replay`.
#[derive(clap::Args)]
pub struct Args {
    /// The record: a JSON file written by `plateau play --record` or the match service, or the
    /// text record a replay page exports.
    file: PathBuf,
    /// Draw without ANSI colours (also off when NO_COLOR is set or stdout is not a terminal).
    #[arg(long)]
    no_color: bool,
}

/// Replays and reports.
pub fn run(args: Args) -> CliResult {
    let path = args.file.display();
    let record = read_record(&args.file)?;
    let entry = find_game(&record.game)?;
    for (i, name) in record.seats.iter().enumerate() {
        name.parse::<Player>()
            .map_err(|e| format!("{path}: seat {} is `{name}`: {e}", i + 1))?;
    }
    let replay = record
        .replay(entry)
        .map_err(|e| format!("{path} does not replay: {e}"))?;

    let state = &replay.state;
    let actions = record.actions().count();
    if let (Some(outcome), None) = (state.outcome(), &record.outcome) {
        return Err(format!(
            "{path} does not replay: the game is over after its {} actions ({}) but the record \
             has no outcome",
            actions, outcome.kind
        ));
    }
    let mut report = format!(
        "Replayed {actions} actions of {}: every action is legal.\nPosition: {}\n",
        entry.info.title,
        state.position_text()
    );
    let board = state.render_text(Viewer::Spectator, use_color(args.no_color));
    report.push_str(&format!("\n{}\n\n", board.trim_end()));
    for (after, ending) in record.endings() {
        let what = match ending {
            Ending::Resign(seat) => format!("Seat {seat} resigned"),
            Ending::Timeout(seat) => format!("Seat {seat} ran out of time"),
            Ending::Agreement => "The players agreed to stop".to_owned(),
        };
        let place = match after {
            0 => "before the first action".to_owned(),
            n if n == actions => format!("after the last action ({n})"),
            n => format!("after action {n}"),
        };
        report.push_str(&format!("{what} {place}.\n"));
    }
    match state.outcome() {
        Some(outcome) => report.push_str(&describe_outcome(&outcome, &record.seats)),
        None => report.push_str("Result: none yet, the game is not over.\n"),
    }
    report.push_str(if replay.seed_verified {
        "Seed: verified (it matches seed_hash and redraws every chance outcome).\n"
    } else {
        "Seed: not revealed, so the chance outcomes are checked for legality only.\n"
    });
    emit(&report)
}
