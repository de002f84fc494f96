//! `plateau play <game>`: a game in the terminal between people at the keyboard and bots
//! (docs/architecture.md section 3), optionally written as a record (section 4). The game
//! advances through the engine's driver (section 2.3): who acts next, draw or ask, apply.
//!
//! The runner owns the match seed. Chance nodes draw from the seed's ChaCha stream 0 and nothing
//! else does, so `Record::replay` can redraw every outcome from the revealed seed; the bot of each
//! seat is made once per game (a searching bot keeps its tree between moves) and seeded from its
//! own stream (seat index + 1). With `--seed`, a game between bots that do not search against the
//! clock is the same game, and the same record byte for byte, every time. For that reason only
//! human actions carry a time (`at_ms`): a person's thinking time is part of the game, a bot's or
//! the dice's is not.
//!
//! In a game with hidden information, when a person is at the table, chance outcomes and the bots'
//! actions are printed as that person may see them (`DynGame::display_text`: a Chakart move in
//! full, the invisible queen's as `Q??`); those the person must not learn of are only counted
//! ("seat 2 played 1 hidden action"). The record holds them all. With a record file, the game so
//! far is written at every prompt to a person and when the game stops for any reason, so a game
//! interrupted at the keyboard keeps its record. People sharing a keyboard in such a game pass it
//! over a cleared screen, each pressing Enter alone before its board is drawn (at a terminal).
//!
//! A person types, at the prompt: an action in canonical notation; `?`, `help` or `moves` for the
//! legal actions; `resign`; or `quit`. Bad input is refused with the reason (the parse error names
//! the token, or the rule that forbids the action) and changes nothing. End of input quits.

mod listing;
mod table;

use std::fmt;
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;

use plateau_bots::BotSpec;
use plateau_engine::{Record, Seed};

use crate::common::{CliResult, START, find_game, load_state, parse_config};
use table::Table;

/// Arguments of `plateau play`.
#[derive(clap::Args)]
pub struct Args {
    /// Registry name of the game, e.g. `mad`.
    game: String,
    /// Seats at the table (default: the game's usual number).
    #[arg(long)]
    players: Option<usize>,
    /// Who plays a seat, as `N=human` or `N=<bot>` (a bot name such as `random`), seats counted
    /// from 1; repeat for several seats. By default seat 1 is human and the others are random bots.
    #[arg(long = "seat", value_name = "N=WHO", value_parser = parse_seat_arg)]
    seats: Vec<(usize, Player)>,
    /// Seed of the match's random generator, for a reproducible game: a number, or the 64 hex
    /// digits of a record's revealed seed (default: a fresh one).
    #[arg(long, value_parser = parse_seed)]
    seed: Option<Seed>,
    /// Write the game record (JSON) to this file when the game stops.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// The game's config as JSON (default: the standard game).
    #[arg(long, value_name = "JSON")]
    config: Option<String>,
    /// Draw without ANSI colours (also off when NO_COLOR is set or stdout is not a terminal).
    #[arg(long)]
    no_color: bool,
}

/// Who sits at a seat.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Player {
    /// A person at this keyboard.
    Human,
    /// A bot.
    Bot(BotSpec),
}

impl FromStr for Player {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s == "human" {
            return Ok(Player::Human);
        }
        s.parse()
            .map(Player::Bot)
            .map_err(|e| format!("{e}, or `human`"))
    }
}

impl fmt::Display for Player {
    /// The name used on the command line and in records: `human`, `random`, ...
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Player::Human => f.write_str("human"),
            Player::Bot(bot) => bot.fmt(f),
        }
    }
}

/// Reads one `--seat N=WHO` into a 1-based seat number and a player.
fn parse_seat_arg(text: &str) -> Result<(usize, Player), String> {
    let (number, who) = text
        .split_once('=')
        .ok_or_else(|| format!("`{text}`: expected N=WHO, e.g. 2=random"))?;
    let number: usize = number
        .parse()
        .ok()
        .filter(|n| *n >= 1)
        .ok_or_else(|| format!("`{number}`: a seat is a number from 1"))?;
    Ok((number, who.parse()?))
}

/// Reads `--seed`: a number (`Seed::from_u64`) or 64 hex digits.
fn parse_seed(text: &str) -> Result<Seed, String> {
    match text.parse::<u64>() {
        Ok(n) => Ok(Seed::from_u64(n)),
        Err(_) if text.len() == 64 => Seed::from_hex(text),
        Err(_) => Err(format!("`{text}`: expected a number or 64 hex digits")),
    }
}

/// Sets up the table and plays until the game ends or a person quits.
pub fn run(args: Args) -> CliResult {
    let entry = find_game(&args.game)?;
    let config = parse_config(args.config.as_deref())?;
    let state = load_state(entry, &config, START, args.players)?;
    let players = seat_players(state.seats(), &args.seats)?;
    let seed = args.seed.unwrap_or_else(Seed::random);
    let color = crate::common::use_color(args.no_color);
    let mut table = Table::new(
        entry,
        config,
        state,
        players,
        seed,
        color,
        args.record.clone(),
    )?;
    // Written now as well, so that a path that cannot be written fails before the game.
    table.save().map_err(|e| e.to_string())?;

    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let played = table
        .play(&mut stdin.lock(), &mut out)
        .and_then(|stop| table.finish(stop, &mut out));
    // The game so far is kept even when it stopped on an error (the output closed, say).
    table.save().map_err(|e| e.to_string())?;
    played.map_err(|e| match &args.record {
        Some(path) => format!("{e} (the game so far is in {})", path.display()),
        None => e.to_string(),
    })?;
    if let Some(path) = &args.record {
        writeln!(out, "Record written to {}.", path.display()).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Reads a line of input into `line` (replacing what it held), bytes that are not UTF-8 made
/// U+FFFD so the line is refused like any other bad input rather than ending the game. The
/// number of bytes read; 0 at the end of input.
fn read_line(input: &mut dyn BufRead, line: &mut String) -> io::Result<usize> {
    let mut bytes = Vec::new();
    let n = input.read_until(b'\n', &mut bytes)?;
    *line = String::from_utf8_lossy(&bytes).into_owned();
    Ok(n)
}

/// Writes `record` as pretty JSON.
fn save_record(record: &Record, path: &Path) -> CliResult {
    let json = serde_json::to_string_pretty(record).expect("records serialize to JSON");
    std::fs::write(path, json + "\n")
        .map_err(|e| format!("cannot write the record to {}: {e}", path.display()))
}

/// The player of every seat: the `--seat` choices over the default (seat 1 human, others random).
fn seat_players(seats: usize, chosen: &[(usize, Player)]) -> CliResult<Vec<Player>> {
    let mut players = vec![Player::Bot(BotSpec::Random); seats];
    if let Some(first) = players.first_mut() {
        *first = Player::Human;
    }
    for (k, (number, player)) in chosen.iter().enumerate() {
        if chosen[..k].iter().any(|(n, _)| n == number) {
            return Err(format!("--seat {number} is given twice"));
        }
        let slot = players.get_mut(number - 1).ok_or_else(|| {
            format!("--seat {number}: the table has seats 1 to {seats} (see --players)")
        })?;
        *slot = *player;
    }
    Ok(players)
}
