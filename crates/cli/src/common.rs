//! What the subcommands share: finding a game by name, reading a config and a position, colour
//! choice, printing results, and writing to a stdout that may be a closed pipe.

use std::io::{self, IsTerminal, Write};

use plateau_engine::{DynGame, GameEntry, Outcome, Seat, SetupError};

/// A subcommand's result: on error, a message for stderr (the process then exits with status 1).
pub type CliResult<T = ()> = Result<T, String>;

/// The word that stands for a game's initial position (docs/architecture.md section 3).
pub const START: &str = "start";

/// The game record in `file`: the JSON of `plateau play --record` or the match service, or the
/// text a match page exports (`Record::from_text`).
///
/// # Errors
/// The file cannot be read, or is not a record.
pub fn read_record(file: &std::path::Path) -> CliResult<plateau_engine::Record> {
    let path = file.display();
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {path}: {e}"))?;
    // The text form (tag pairs, then the moves) starts with a tag; JSON with a brace.
    if text.trim_start().starts_with('[') {
        return plateau_engine::Record::from_text(&text)
            .map_err(|e| format!("{path} is not a game record: {e}"));
    }
    serde_json::from_str(&text).map_err(|e| format!("{path} is not a game record: {e}"))
}

/// The largest settings file read (a configuration file, a deny list), in bytes: such files
/// are a few kilobytes, and a path to something else (a device, a log) must not fill the memory.
pub const SETTINGS_FILE_MAX: u64 = 1 << 20;

/// The text of the settings file at `path`, read up to `SETTINGS_FILE_MAX` bytes.
///
/// # Errors
/// The file cannot be read (a directory, no such file, no permission), is not UTF-8, or holds
/// more than `SETTINGS_FILE_MAX` bytes; the message names the path.
pub fn read_settings_file(path: &std::path::Path) -> CliResult<String> {
    use std::io::Read as _;
    let name = path.display();
    let mut text = String::new();
    std::fs::File::open(path)
        .and_then(|file| file.take(SETTINGS_FILE_MAX + 1).read_to_string(&mut text))
        .map_err(|e| format!("{name}: cannot read it: {e}"))?;
    if text.len() as u64 > SETTINGS_FILE_MAX {
        return Err(format!(
            "{name} holds more than {SETTINGS_FILE_MAX} bytes: not a settings file"
        ));
    }
    Ok(text)
}

/// The registered game called `name`; the error lists the known games.
pub fn find_game(name: &str) -> CliResult<&'static GameEntry> {
    plateau_registry::find(name).map_err(|e| e.to_string())
}

/// Reads `--config JSON`; no flag means `null`, the game's default config.
pub fn parse_config(text: Option<&str>) -> CliResult<serde_json::Value> {
    match text {
        None => Ok(serde_json::Value::Null),
        Some(text) => {
            serde_json::from_str(text).map_err(|e| format!("--config is not valid JSON: {e}"))
        }
    }
}

/// The state a command starts from: `start` (with `players` seats, default the game's own) or a
/// position text in the game's notation. A bad position's error names the offending token.
pub fn load_state(
    entry: &GameEntry,
    config: &serde_json::Value,
    position: &str,
    players: Option<usize>,
) -> CliResult<Box<dyn DynGame>> {
    if position == START {
        let seats = players.unwrap_or(entry.info.default_seats);
        entry
            .new_game(config, seats)
            .map_err(|e| format!("cannot set up {}: {e}", entry.info.name))
    } else {
        if players.is_some() {
            return Err(format!(
                "--players applies to `{START}` only: a position text already fixes the seats"
            ));
        }
        let name = entry.info.name;
        entry.from_position(config, position).map_err(|e| match &e {
            SetupError::Position(reason) => format!("bad {name} position: {reason}"),
            SetupError::Impossible(reason) => format!("impossible {name} position: {reason}"),
            _ => format!("cannot set up {name}: {e}"),
        })
    }
}

/// Whether to draw with ANSI colours: not when asked not to, not when `NO_COLOR` is set, and only
/// when stdout is a terminal.
pub fn use_color(no_color: bool) -> bool {
    !no_color && std::env::var_os("NO_COLOR").is_none() && io::stdout().is_terminal()
}

/// The result as lines for people: how the game ended, then each seat's rank and score, e.g.
/// `seat 1 (human): rank 1, score 1`. `who` names the player at each seat, when known.
pub fn describe_outcome(outcome: &Outcome, who: &[String]) -> String {
    // The kind as words (`king_captured` reads "king captured").
    let mut text = format!("Result: {}\n", outcome.kind.replace('_', " "));
    for seat in Seat::all(outcome.seats()) {
        let i = seat.index();
        let name = who.get(i).map(|w| format!(" ({w})")).unwrap_or_default();
        text.push_str(&format!(
            "  seat {seat}{name}: rank {}, score {}\n",
            outcome.ranks[i], outcome.scores[i]
        ));
    }
    let winners: Vec<String> = outcome
        .winners()
        .iter()
        .map(|s| format!("seat {s}"))
        .collect();
    let label = if winners.len() == 1 {
        "Winner"
    } else {
        "Winners"
    };
    text.push_str(&format!("{label}: {}\n", winners.join(", ")));
    text
}

/// Fails, naming `path`, when a file cannot be written there: checked before long work whose
/// result goes there (`--out`), so the work is not lost at the end. Creates the file if missing.
pub fn check_writable(path: &std::path::Path) -> CliResult {
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map(drop)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The words of a store's error for the command line: a refused value's reason alone (the
/// store's `invalid: ` is for logs), any other error whole.
pub fn store_error(e: plateau_server::store::StoreError) -> String {
    match e {
        plateau_server::store::StoreError::Invalid(why) => why,
        e => e.to_string(),
    }
}

/// Writes `text` to stdout. A closed pipe (`plateau legal ... | head -1`) is not an error.
pub fn emit(text: &str) -> CliResult {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(format!("cannot write: {e}")),
        _ => Ok(()),
    }
}
