//! The table: a game in progress with the seed, the bots, the record and the screen it owns;
//! whose turn it is, a person's prompt or a bot's move, until the game stops.

use std::io::{self, BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::time::Instant;

use plateau_bots::DynBot;
use plateau_engine::driver::{Driver, Next};
use plateau_engine::{
    ActionError, Actor, DynGame, Ending, GameEntry, LogEntry, Record, Seat, Seed, ToAct, Viewer,
};
use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::RngCore;

use super::listing::{LISTING_WIDTH, listing};
use super::{Player, read_line, save_record};
use crate::common::{CliResult, describe_outcome};

/// Why the game loop stopped.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Stop {
    /// The game is over (by its rules or a resignation).
    Over,
    /// A person typed `quit`.
    Quit,
    /// Standard input ended.
    EndOfInput,
}

/// A game in progress with everything the runner owns.
pub(super) struct Table {
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
    pub(super) fn new(
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
    pub(super) fn save(&self) -> io::Result<()> {
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
    pub(super) fn play(
        &mut self,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
    ) -> io::Result<Stop> {
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
    pub(super) fn finish(&mut self, stop: Stop, out: &mut dyn Write) -> io::Result<()> {
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
