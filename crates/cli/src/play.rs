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

use std::fmt;
use std::io::{self, BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Instant;

use plateau_bots::{BotSpec, DynBot};
use plateau_engine::driver::{Driver, Next};
use plateau_engine::{
    ActionError, Actor, DynGame, Ending, GameEntry, LogEntry, Record, Seat, Seed, ToAct, Viewer,
};
use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::RngCore;

use crate::common::{CliResult, START, describe_outcome, find_game, load_state, parse_config};

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

/// Why the game loop stopped.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stop {
    /// The game is over (by its rules or a resignation).
    Over,
    /// A person typed `quit`.
    Quit,
    /// Standard input ended.
    EndOfInput,
}

/// A game in progress with everything the runner owns.
struct Table {
    state: Box<dyn DynGame>,
    /// Advances the state: every action checked, chance drawn from `chance`.
    driver: Driver<String>,
    players: Vec<Player>,
    record: Record,
    /// Where the record is written (`--record`), if anywhere.
    record_path: Option<PathBuf>,
    seed: Seed,
    /// Stream 0 of the seed: chance nodes only.
    chance: ChaCha20Rng,
    /// The bot of each seat played by one.
    bots: Vec<Option<Box<dyn DynBot>>>,
    started: Instant,
    color: bool,
    /// Whether stdin is a terminal. If not (a scripted game), each input line is repeated after
    /// its prompt so that the output reads like a session, and nobody is asked to roll the dice.
    interactive: bool,
    /// Whether chance outcomes and the bots' actions are shown as the table's person may see them
    /// (`viewer`), some not at all: the game has hidden information and a person sits at the
    /// table.
    secret: bool,
    /// Per seat, the actions played out of sight since the last report (see `secret`).
    unseen: Vec<usize>,
    /// The person who had the keyboard last (see `hand_over`).
    at_keyboard: Option<Seat>,
}

impl Table {
    fn new(
        entry: &GameEntry,
        config: serde_json::Value,
        state: Box<dyn DynGame>,
        players: Vec<Player>,
        seed: Seed,
        color: bool,
        record_path: Option<PathBuf>,
    ) -> CliResult<Table> {
        let game = entry.info.name;
        let names = players.iter().map(Player::to_string).collect();
        let bots = Seat::all(players.len())
            .map(|seat| match players[seat.index()] {
                Player::Human => Ok(None),
                Player::Bot(spec) => {
                    let bot_seed = seed.rng_for_stream(seat.index() as u64 + 1).next_u64();
                    plateau_registry::new_bot(game, spec, bot_seed)
                        .map(Some)
                        .map_err(|e| format!("no bots for {game}: {e}"))
                }
            })
            .collect::<CliResult<_>>()?;
        Ok(Table {
            record: Record::new(entry.info.name, config, names, &seed),
            record_path,
            state,
            driver: Driver::checked(),
            seed,
            chance: seed.rng(),
            bots,
            started: Instant::now(),
            color,
            interactive: io::stdin().is_terminal(),
            secret: entry.info.hidden_information && players.contains(&Player::Human),
            unseen: vec![0; players.len()],
            at_keyboard: None,
            players,
        })
    }

    /// Who plays `seat`, for messages: `seat 2 (random)`.
    fn who(&self, seat: Seat) -> String {
        format!("seat {seat} ({})", self.players[seat.index()])
    }

    /// The point of view to draw from: the only person at the table, else the person to act
    /// (people sharing a keyboard), else a spectator's.
    fn viewer(&self, to_act: Option<Seat>) -> Viewer {
        let mut humans =
            Seat::all(self.players.len()).filter(|s| self.players[s.index()] == Player::Human);
        match (humans.next(), humans.next(), to_act) {
            (Some(only), None, _) => Viewer::Seat(only),
            (Some(_), Some(_), Some(seat)) => Viewer::Seat(seat),
            _ => Viewer::Spectator,
        }
    }

    /// Reports how many actions each seat played out of sight since the last report.
    fn report_unseen(&mut self, out: &mut dyn Write) -> io::Result<()> {
        for seat in Seat::all(self.players.len()) {
            self.report_unseen_of(seat, out)?;
        }
        Ok(())
    }

    /// Reports how many actions `seat` played out of sight since the last report, if any: before
    /// an action of that seat the person sees, so the lines keep the order of play.
    fn report_unseen_of(&mut self, seat: Seat, out: &mut dyn Write) -> io::Result<()> {
        let count = std::mem::take(&mut self.unseen[seat.index()]);
        if count > 0 {
            let plural = if count == 1 { "" } else { "s" };
            writeln!(
                out,
                "{} played {count} hidden action{plural}.",
                self.who(seat)
            )?;
        }
        Ok(())
    }

    /// Draws the board for the person to act (or the table's viewer), after the report of the
    /// hidden actions that led to it.
    fn draw(&mut self, out: &mut dyn Write, to_act: Option<Seat>) -> io::Result<()> {
        self.report_unseen(out)?;
        let board = self.state.render_text(self.viewer(to_act), self.color);
        writeln!(out, "\n{}", board.trim_end())
    }

    /// Milliseconds since the game started.
    fn elapsed_ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    /// Writes the record as it stands to the record file, if there is one.
    fn save(&self) -> io::Result<()> {
        match &self.record_path {
            Some(path) => save_record(&self.record, path).map_err(io::Error::other),
            None => Ok(()),
        }
    }

    /// Adds a played action to the record; `timed` (a person's action) stores when it was played.
    fn push(&mut self, by: Actor, action: String, timed: bool) {
        let at_ms = timed.then(|| self.elapsed_ms());
        self.record.log.push(LogEntry::action(by, action, at_ms));
    }

    /// Plays until the game is over, a person quits or input ends.
    fn play(&mut self, input: &mut dyn BufRead, out: &mut dyn Write) -> io::Result<Stop> {
        let info = self.state.info();
        let seats: Vec<String> = Seat::all(self.players.len()).map(|s| self.who(s)).collect();
        writeln!(out, "{}: {}.", info.title, seats.join(", "))?;
        writeln!(out, "Seed hash: {}", self.seed.hash_hex())?;
        if !self.players.contains(&Player::Human) {
            self.draw(out, None)?;
        }
        loop {
            // Bots of a simultaneous set act first, so that the people's turns come together.
            let players = &self.players;
            let next = self.driver.next(&*self.state, |_, seats| {
                seats
                    .iter()
                    .find(|s| players[s.index()] != Player::Human)
                    .or_else(|| seats.iter().next())
            });
            let seat = match next {
                Next::Over => return Ok(Stop::Over),
                Next::Chance => {
                    if self.interactive
                        && let Some(stop) = self.roll_prompt(input, out)?
                    {
                        return Ok(stop);
                    }
                    // What the table's person may see of the outcome, from the state before it.
                    let before = self.secret.then(|| self.state.clone_box());
                    let (_, drawn) = self
                        .driver
                        .draw(&mut *self.state, &mut self.chance)
                        .map_err(io::Error::other)?;
                    let shown = match &before {
                        Some(state) => state
                            .display_text(Actor::Chance, &drawn, self.viewer(None))
                            .ok()
                            .flatten(),
                        None => Some(drawn.clone()),
                    };
                    if let Some(shown) = shown {
                        writeln!(out, "Chance: {shown}")?;
                    }
                    self.push(Actor::Chance, drawn, false);
                    continue;
                }
                Next::Seat(seat) => seat,
            };
            if self.bots[seat.index()].is_some() {
                self.bot_turn(seat, out)?;
            } else if let Some(stop) = self.human_turn(seat, input, out)? {
                return Ok(stop);
            }
        }
    }

    /// Lets the person who acts right after this chance node press Enter to roll. Who that is
    /// is found by drawing on copies of the state and of the chance generator, so the real draw
    /// is unchanged. `Some(stop)` when the person quits or input ends.
    fn roll_prompt(
        &mut self,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
    ) -> io::Result<Option<Stop>> {
        let mut probe = self.state.clone_box();
        let mut driver = Driver::checked();
        if driver.draw(&mut *probe, &mut self.chance.clone()).is_err() {
            return Ok(None);
        }
        let ToAct::Player(seat) = probe.to_act() else {
            return Ok(None);
        };
        if self.players[seat.index()] != Player::Human {
            return Ok(None);
        }
        self.wait_for_enter(&format!("Seat {seat}: press Enter to roll"), input, out)
    }

    /// Shows `prompt` with "(or `quit`)" until the person presses Enter (`None`) or quits or
    /// input ends (`Some(stop)`); the record is written first, as at every prompt.
    fn wait_for_enter(
        &self,
        prompt: &str,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
    ) -> io::Result<Option<Stop>> {
        let mut line = String::new();
        loop {
            write!(out, "{prompt} (or `quit`). ")?;
            out.flush()?;
            self.save()?;
            if read_line(input, &mut line)? == 0 {
                writeln!(out)?;
                return Ok(Some(Stop::EndOfInput));
            }
            match line.trim() {
                "" => return Ok(None),
                "quit" => return Ok(Some(Stop::Quit)),
                _ => {}
            }
        }
    }

    /// Plays the bot of `seat` and shows its action.
    fn bot_turn(&mut self, seat: Seat, out: &mut dyn Write) -> io::Result<()> {
        let bot = self.bots[seat.index()]
            .as_mut()
            .expect("bot_turn is called for bot seats");
        let action = bot.act(&*self.state, seat).map_err(|e| {
            io::Error::other(format!(
                "{} ({}) in {}: {e}",
                self.who(seat),
                e.code(),
                self.state.position_text()
            ))
        })?;
        // At a table with secrets, what its person may see; else the actor's own view.
        let viewer = if self.secret {
            self.viewer(None)
        } else {
            Viewer::Seat(seat)
        };
        let shown = self
            .state
            .display_text(Actor::Seat(seat), &action, viewer)
            .ok()
            .flatten();
        self.driver
            .play(&mut *self.state, seat, &action)
            .map_err(|e| io::Error::other(format!("the bot's action: {e}")))?;
        let who = self.who(seat);
        match shown {
            None if self.secret => self.unseen[seat.index()] += 1,
            Some(shown) if self.secret => {
                self.report_unseen_of(seat, out)?;
                writeln!(out, "{who} plays {shown}")?;
            }
            Some(shown) if shown != action && !shown.is_empty() => {
                writeln!(out, "{who} plays {action} ({shown})")?;
            }
            _ => writeln!(out, "{who} plays {action}")?,
        }
        self.push(Actor::Seat(seat), action, false);
        Ok(())
    }

    /// Prompts `seat` until it plays, resigns or quits. `Some(stop)` ends the game loop.
    fn human_turn(
        &mut self,
        seat: Seat,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
    ) -> io::Result<Option<Stop>> {
        if let Some(stop) = self.hand_over(seat, input, out)? {
            return Ok(Some(stop));
        }
        let mut line = String::new();
        self.draw(out, Some(seat))?;
        writeln!(
            out,
            "Seat {seat} to play: an action, `?` for the legal actions, `resign` or `quit`."
        )?;
        loop {
            write!(out, "seat {seat}> ")?;
            out.flush()?;
            self.save()?;
            if read_line(input, &mut line)? == 0 {
                writeln!(out)?;
                return Ok(Some(Stop::EndOfInput));
            }
            if !self.interactive {
                writeln!(out, "{}", line.trim_end())?;
            }
            match line.trim() {
                "" => {}
                "?" | "help" | "moves" => {
                    let legal = self.state.legal_texts(seat);
                    writeln!(out, "Legal actions ({}):", legal.len())?;
                    write!(out, "{}", listing(&legal, LISTING_WIDTH))?;
                    writeln!(out, "Also: `resign`, `quit`.")?;
                }
                "quit" => return Ok(Some(Stop::Quit)),
                "resign" => match self.state.end(Ending::Resign(seat)) {
                    Ok(()) => {
                        writeln!(out, "{} resigns.", self.who(seat))?;
                        // At its place: in Bataille Navale the others play on.
                        let at_ms = self.elapsed_ms();
                        let end = LogEntry::end(Ending::Resign(seat), Some(at_ms));
                        self.record.log.push(end);
                        return Ok(None);
                    }
                    Err(e) => writeln!(out, "Cannot resign: {e}")?,
                },
                text => match self.canonical(seat, text) {
                    Ok(action) => {
                        self.driver
                            .play(&mut *self.state, seat, &action)
                            .map_err(io::Error::other)?;
                        writeln!(out, "{} plays {action}", self.who(seat))?;
                        self.push(Actor::Seat(seat), action, true);
                        return Ok(None);
                    }
                    Err(e) => writeln!(out, "Refused `{text}`: {e}")?,
                },
            }
        }
    }

    /// People sharing a keyboard in a game with hidden information: when the keyboard passes to
    /// `seat`, the screen is cleared (so the one before cannot read it, nor the other read what
    /// was there) and `seat` presses Enter once alone before its board is drawn. Only at a
    /// terminal. `Some(stop)` when the person quits or input ends.
    fn hand_over(
        &mut self,
        seat: Seat,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
    ) -> io::Result<Option<Stop>> {
        let before = self.at_keyboard.replace(seat);
        let people = self.players.iter().filter(|p| **p == Player::Human).count();
        if !self.secret || !self.interactive || people < 2 || before.is_none_or(|b| b == seat) {
            return Ok(None);
        }
        write!(out, "\x1b[2J\x1b[H")?;
        let prompt = format!("Pass the keyboard to seat {seat}, then press Enter");
        self.wait_for_enter(&prompt, input, out)
    }

    /// The canonical text of a legal action of `seat` typed as `text` (MAD reads `C2-C4` as
    /// `c2-c4`), or why it cannot be played; the state is unchanged either way. Records hold
    /// canonical text only.
    fn canonical(&self, seat: Seat, text: &str) -> Result<String, ActionError> {
        let mut probe = self.state.clone_box();
        probe.apply_text(Actor::Seat(seat), text)?;
        self.state.canonical_text(text).map_err(ActionError::Parse)
    }

    /// Shows the final board and result (or why the game stopped) and completes the record: the
    /// seed is revealed only when the game is over.
    fn finish(&mut self, stop: Stop, out: &mut dyn Write) -> io::Result<()> {
        match stop {
            Stop::Over => {
                let outcome = self.state.outcome();
                self.draw(out, None)?;
                let who: Vec<String> = self.players.iter().map(Player::to_string).collect();
                if let Some(outcome) = &outcome {
                    write!(out, "{}", describe_outcome(outcome, &who))?;
                }
                writeln!(out, "Seed: {}", self.seed.to_hex())?;
                self.record.outcome = outcome;
                self.record.seed = Some(self.seed);
            }
            Stop::Quit => writeln!(out, "Quit: the game is not finished.")?,
            Stop::EndOfInput => writeln!(out, "End of input: quitting, the game is not finished.")?,
        }
        Ok(())
    }
}

/// The width the legal list is wrapped to, in characters.
const LISTING_WIDTH: usize = 100;

/// The legal actions for people: those sharing a head (the text before `@` or the first space:
/// a piece being placed, `carrier@c3h`, or a ship's kind of order, `cruiser:fire 2:f7`) on one
/// line each, `head (count): rest rest ...`; the others together. Every line is indented by two
/// spaces and wrapped at `width`, so a list of 1,771 placements reads as nine lines of pieces,
/// not one line.
fn listing(texts: &[String], width: usize) -> String {
    let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
    for (h, rest) in texts.iter().filter_map(|t| head(t)) {
        match groups.iter_mut().find(|(g, _)| *g == h) {
            Some((_, items)) => items.push(rest),
            None => groups.push((h, vec![rest])),
        }
    }
    // A head with a single action reads best as that action, among the others.
    groups.retain(|(_, items)| items.len() > 1);
    let loose: Vec<&str> = texts
        .iter()
        .map(String::as_str)
        .filter(|t| head(t).is_none_or(|(h, _)| groups.iter().all(|(g, _)| *g != h)))
        .collect();
    let mut out = String::new();
    if !loose.is_empty() {
        wrap(&mut out, "", &loose, width);
    }
    for (h, items) in groups {
        wrap(&mut out, &format!("{h} ({}): ", items.len()), &items, width);
    }
    out
}

/// The head and the rest of an action's text, split at the first `@` (kept with the head, so
/// `carrier@ (2): a1h a1v` reads as `carrier@a1h`) or space (`cruiser:fire (40): 2:a1`).
fn head(text: &str) -> Option<(&str, &str)> {
    text.find(['@', ' ']).map(|i| {
        let cut = if text.as_bytes()[i] == b'@' { i + 1 } else { i };
        (&text[..cut], &text[i + 1..])
    })
}

/// Writes `lead` then `items` separated by spaces, two spaces in from the margin and wrapped at
/// `width` (continuation lines indented under the first item).
fn wrap(out: &mut String, lead: &str, items: &[&str], width: usize) {
    let indent = 2 + lead.chars().count();
    let mut line = format!("  {lead}");
    let mut empty = true;
    for item in items {
        if !empty && line.chars().count() + 1 + item.chars().count() > width {
            out.push_str(&line);
            out.push('\n');
            line = " ".repeat(indent);
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(item);
        empty = false;
    }
    out.push_str(&line);
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::listing;

    fn texts(list: &[&str]) -> Vec<String> {
        list.iter().map(|t| (*t).to_owned()).collect()
    }

    #[test]
    fn placements_are_listed_by_piece() {
        let legal = texts(&[
            "buoy1@a1",
            "buoy1@a2",
            "carrier@a1h",
            "carrier@a1v",
            "ready",
        ]);
        assert_eq!(
            listing(&legal, 100),
            "  ready\n  buoy1@ (2): a1 a2\n  carrier@ (2): a1h a1v\n"
        );
    }

    #[test]
    fn long_groups_wrap_under_their_first_item() {
        let many: Vec<String> = (1..=40).map(|i| format!("cruiser:fire 2:a{i}")).collect();
        let text = listing(&many, 60);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines.len() > 2, "{text}");
        assert!(
            lines[0].starts_with("  cruiser:fire (40): 2:a1 2:a2"),
            "{text}"
        );
        let indent = "  cruiser:fire (40): ".len();
        for line in &lines[1..] {
            assert!(line.len() <= 60, "{line}");
            assert_eq!(line.len() - line.trim_start().len(), indent, "{line}");
        }
        // Every action is there once.
        assert_eq!(text.matches("2:a").count(), 40);
    }

    #[test]
    fn actions_without_a_head_stay_together() {
        let legal = texts(&["c2-c3", "c2-c4", "P(111,222)", "carrier:pass"]);
        assert_eq!(
            listing(&legal, 100),
            "  c2-c3 c2-c4 P(111,222) carrier:pass\n"
        );
    }
}
