//! The `plateau` binary run as a user runs it: `legal`, `perft`, `play` (scripted and interactive
//! on stdin) and `replay`, with MAD (rules/mad.md).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use plateau_engine::{Actor, Ending, LogEntry, Record, Seat, Seed};

const PLATEAU: &str = env!("CARGO_BIN_EXE_plateau");

/// The MAD start position (rules/mad.md section 9).
const MAD_START: &str =
    "B221B111B222B212/B121B122B211B112/4/4/R121R122R211R112/R221R111R222R212 r 0 0 -";

fn plateau(args: &[&str]) -> Output {
    Command::new(PLATEAU)
        .args(args)
        .output()
        .expect("the plateau binary runs")
}

fn plateau_with_input(args: &[&str], input: impl AsRef<[u8]>) -> Output {
    let mut child = Command::new(PLATEAU)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the plateau binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_ref())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("stderr is UTF-8")
}

fn last_line(text: &str) -> &str {
    text.lines().last().unwrap_or_default()
}

/// A scratch file for this test run.
fn scratch(name: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-{}-{name}", std::process::id()))
}

fn mad() -> &'static plateau_engine::GameEntry {
    plateau_registry::find("mad").unwrap()
}

#[test]
fn legal_mad_start_prints_the_15_opening_actions_sorted() {
    // rules/mad.md case 26, in the canonical notation of section 9.
    let expected = include_str!("data/mad-start-legal.txt");
    assert_eq!(expected.lines().count(), 15);
    for position in ["start", MAD_START] {
        let output = plateau(&["legal", "mad", position]);
        assert!(output.status.success(), "{}", stderr(&output));
        assert_eq!(stdout(&output), expected, "from `{position}`");
    }
}

#[test]
fn perft_mad_start_depth_1_is_15() {
    let output = plateau(&["perft", "mad", "start", "1"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(last_line(&stdout(&output)), "15");

    let output = plateau(&["perft", "mad", "start", "1", "--divide"]);
    let text = stdout(&output);
    let children: Vec<&str> = text.lines().take(15).collect();
    let expected: Vec<String> = include_str!("data/mad-start-legal.txt")
        .lines()
        .map(|a| format!("{a} 1"))
        .collect();
    assert_eq!(children, expected);
    assert_eq!(last_line(&text), "15");
}

/// `perft start 2` must equal the sum, over the 15 opening actions, of the number of replies
/// `plateau legal` lists from each resulting position: the same count reached through the
/// position notation and a different command.
#[test]
fn perft_depth_2_agrees_with_legal_from_each_child_position() {
    let start = mad().new_game(&serde_json::Value::Null, 2).unwrap();
    let mut sum = 0;
    for action in start.legal_texts(plateau_engine::Seat(0)) {
        let mut child = start.clone_box();
        child
            .apply_text(Actor::Seat(plateau_engine::Seat(0)), &action)
            .unwrap();
        let output = plateau(&["legal", "mad", &child.position_text()]);
        assert!(output.status.success(), "{}", stderr(&output));
        let replies = stdout(&output).lines().count();
        assert!(replies > 0, "no reply to {action}");
        sum += replies;
    }
    let output = plateau(&["perft", "mad", "start", "2"]);
    assert_eq!(last_line(&stdout(&output)), sum.to_string());
}

/// rules/mad.md case 28: 40 turns without an expulsion end the game (Blue's semi-victory).
#[test]
fn at_the_end_legal_prints_nothing_and_perft_counts_zero() {
    let over = MAD_START.replace(" r 0 0 -", " r 40 40 -");
    let state = mad()
        .from_position(&serde_json::Value::Null, &over)
        .unwrap();
    assert_eq!(state.outcome().map(|o| o.kind), Some("tiebreak".to_owned()));

    let output = plateau(&["legal", "mad", &over]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output), "");
    let output = plateau(&["perft", "mad", &over, "1"]);
    assert_eq!(stdout(&output), "0\n");
    let output = plateau(&["perft", "mad", &over, "0"]);
    assert_eq!(stdout(&output), "1\n");
}

/// The command counts through canonical text (every action formatted, parsed and applied); the
/// engine's typed `perft` on the same state must agree at every depth.
#[test]
fn perft_through_text_agrees_with_the_typed_perft() {
    let start = mad().new_game(&serde_json::Value::Null, 2).unwrap();
    let typed = start.as_any().downcast_ref::<plateau_mad::Mad>().unwrap();
    for depth in 0..=4 {
        let output = plateau(&["perft", "mad", "start", &depth.to_string()]);
        assert!(output.status.success(), "{}", stderr(&output));
        let expected = plateau_engine::perft::perft(typed, depth);
        assert_eq!(stdout(&output), format!("{expected}\n"), "depth {depth}");
    }
}

#[test]
fn a_bad_position_fails_and_names_the_token() {
    let bad = MAD_START.replace("R212", "R299");
    for args in [
        vec!["legal", "mad", bad.as_str()],
        vec!["perft", "mad", bad.as_str(), "1"],
    ] {
        let output = plateau(&args);
        assert!(!output.status.success());
        assert!(stdout(&output).is_empty());
        let err = stderr(&output);
        assert!(err.contains("`R299`"), "{err}");
    }
}

#[test]
fn legal_refuses_a_seat_the_game_does_not_have() {
    let output = plateau(&["legal", "mad", "start", "--seat", "3"]);
    assert!(!output.status.success(), "{}", stdout(&output));
    assert_eq!(stdout(&output), "");
    let err = stderr(&output);
    assert!(
        err.contains("--seat 3: no such seat, the game has 2 seats (1 to 2)"),
        "{err}"
    );
    // A four-seat Moon Leap table has a seat 4; a three-seat one does not.
    let moonleap = |players: &str| {
        let args = format!("legal moonleap start --players {players} --seat 4");
        plateau(&args.split(' ').collect::<Vec<_>>())
    };
    let four = moonleap("4");
    assert!(four.status.success(), "{}", stderr(&four));
    let err = stderr(&moonleap("3"));
    assert!(
        err.contains("--seat 4: no such seat, the game has 3 seats"),
        "{err}"
    );
    // Seat 2 of MAD is a real seat: not to act at the start, so it has no actions.
    let output = plateau(&["legal", "mad", "start", "--seat", "2"]);
    assert!(output.status.success(), "{}", stderr(&output));
}

#[test]
fn an_unknown_game_lists_the_known_ones() {
    let output = plateau(&["legal", "chess", "start"]);
    assert!(!output.status.success());
    let err = stderr(&output);
    assert!(err.contains("`chess`"), "{err}");
    for game in plateau_registry::GAMES {
        assert!(err.contains(game.info.name), "{err}");
    }
}

#[test]
fn bad_play_options_are_refused_before_the_game() {
    let output = plateau(&["play", "mad", "--seat", "3=random"]);
    assert!(!output.status.success());
    assert!(stderr(&output).contains("--seat 3"), "{}", stderr(&output));

    let output = plateau(&["play", "mad", "--seat", "2=genius"]);
    assert!(!output.status.success());
    assert!(stderr(&output).contains("genius"), "{}", stderr(&output));

    let output = plateau(&["play", "mad", "--record", "/nonexistent-dir/r.json"]);
    assert!(!output.status.success());
    assert!(stdout(&output).is_empty(), "the game did not start");
    assert!(stderr(&output).contains("/nonexistent-dir/r.json"));

    let output = plateau(&["perft", "mad", "start", "1", "--players", "5"]);
    assert!(!output.status.success());
    assert!(stderr(&output).contains('5'), "{}", stderr(&output));
}

/// Malformed and illegal lines are refused with their reason and change nothing: after them the
/// same 15 opening actions are listed, and `quit` leaves cleanly.
#[test]
fn a_scripted_session_refuses_bad_input_and_quits() {
    let script = "zz9\na1-a2\npass\n?\nquit\n";
    let output = plateau_with_input(
        &[
            "play", "mad", "--seat", "1=human", "--seat", "2=random", "--seed", "7",
        ],
        script,
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.contains("Refused `zz9`: cannot read the action: `zz9`"),
        "{text}"
    );
    assert!(text.contains("Refused `a1-a2`: "), "{text}");
    assert!(text.contains("Refused `pass`: "), "{text}");
    assert!(text.contains("Legal actions (15):"), "{text}");
    let listed = include_str!("data/mad-start-legal.txt")
        .lines()
        .collect::<Vec<_>>()
        .join(" ");
    // The listing wraps at 100 columns: the 15 actions in order, whatever the line breaks.
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains(&listed), "{text}");
    assert!(text.contains("Quit: the game is not finished."), "{text}");
    assert!(!text.contains("plays"), "nothing was played: {text}");
}

/// The parser accepts `C2-C4`; the game shows and records the canonical `c2-c4`. The game is not
/// over when input ends, so the record keeps its seed secret.
#[test]
fn end_of_input_quits_cleanly_and_records_canonical_text() {
    let path = scratch("eof.json");
    let output = plateau_with_input(
        &[
            "play",
            "mad",
            "--seed",
            "7",
            "--record",
            path.to_str().unwrap(),
        ],
        "C2-C4\n",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("seat 1 (human) plays c2-c4"), "{text}");
    assert!(text.contains("seat 2 (random) plays "), "{text}");
    assert!(text.contains("End of input"), "{text}");

    let record: Record = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(record.actions().count(), 2);
    assert_eq!(record.actions().next().unwrap().1, "c2-c4");
    assert!(record.log[0].at_ms.is_some(), "a person's move is timed");
    assert_eq!((record.seed, record.outcome), (None, None));
    assert_eq!(record.seed_hash, Seed::from_u64(7).hash_hex());
}

/// A line that is not UTF-8 is refused like any other bad input, and the game goes on to its
/// record.
#[test]
fn a_line_that_is_not_utf8_is_refused_and_the_game_goes_on() {
    let path = scratch("not-utf8.json");
    let output = plateau_with_input(
        &[
            "play",
            "mad",
            "--seed",
            "1",
            "--record",
            path.to_str().unwrap(),
        ],
        b"\xff\xfe\nc2-c3\nquit\n",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("Refused `\u{fffd}\u{fffd}`"), "{text}");
    let record: Record = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(
        record.actions().next(),
        Some((Actor::Seat(Seat(0)), "c2-c3"))
    );
}

/// In a game with hidden information, a person sees the chance outcomes and the bots' actions as
/// the game lets that seat see them (`display_text`: another seat's ship layout not at all, a
/// Chakart move in full), and only a count of those it must not learn of. Each game is played up
/// to the person's first prompt (as the second seat, so a bot acts first) and the printed lines
/// are checked against the engine's view of every entry of the record. Runs for every registered
/// game with hidden information (none is named here).
#[test]
fn a_person_sees_only_what_its_seat_may_of_chance_and_bots() {
    struct Shown(Vec<String>, usize);
    impl plateau_engine::Visitor for Shown {
        fn before(
            &mut self,
            _: usize,
            logged: &LogEntry,
            state: &dyn plateau_engine::DynGame,
        ) -> Result<(), String> {
            let plateau_engine::Event::Action { by: actor, action } = &logged.event else {
                return Ok(());
            };
            let actor = *actor;
            let seen = state
                .display_text(actor, action, plateau_engine::Viewer::Seat(Seat(1)))
                .map_err(|e| e.to_string())?;
            match (actor, seen) {
                (Actor::Chance, Some(s)) => self.0.push(format!("Chance: {s}")),
                (Actor::Seat(seat), Some(s)) => {
                    self.0.push(format!("seat {seat} (random) plays {s}"));
                }
                (Actor::Seat(_), None) => self.1 += 1,
                (Actor::Chance, None) => {}
            }
            Ok(())
        }
    }
    for game in plateau_registry::GAMES
        .iter()
        .filter(|g| g.info.hidden_information)
    {
        let name = game.info.name;
        let path = scratch(&format!("{name}-seen.json"));
        let args = [
            "play", name, "--seed", "3", "--seat", "1=random", "--seat", "2=human",
        ];
        let output = plateau_with_input(
            &[&args[..], &["--record", path.to_str().unwrap()]].concat(),
            "quit\n",
        );
        assert!(output.status.success(), "{}", stderr(&output));
        let text = stdout(&output);
        assert!(text.contains("seat 2> "), "{text}");
        let record: Record =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let mut shown = Shown(Vec::new(), 0);
        record.replay_with(game, &mut shown).unwrap();
        let printed: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("Chance: ") || l.contains(" plays "))
            .collect();
        assert_eq!(printed, shown.0, "{name}: {text}");
        assert!(
            !shown.0.is_empty(),
            "{name}: something is public before the first prompt"
        );
        let hidden: usize = text
            .lines()
            .filter_map(|l| {
                l.split(" played ")
                    .nth(1)?
                    .split(' ')
                    .next()?
                    .parse::<usize>()
                    .ok()
            })
            .sum();
        assert_eq!(hidden, shown.1, "{name}: {text}");
    }
}

/// `?` during Bataille Navale's placement lists the 1,600-odd moves by piece, one wrapped
/// paragraph per piece, not as one line.
#[test]
fn placement_moves_are_listed_by_piece() {
    let output = plateau_with_input(&["play", "naval", "--seed", "3"], "?\nquit\n");
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let listing = text
        .split("Legal actions")
        .nth(1)
        .and_then(|t| t.split("Also:").next())
        .unwrap_or_else(|| panic!("no listing in {text}"));
    assert!(listing.contains("\n  ready\n"), "{listing}");
    for piece in [
        "carrier",
        "cruiser",
        "battleship",
        "frigate",
        "submarine",
        "corvette",
    ] {
        assert_eq!(
            listing.matches(&format!("\n  {piece}@ (")).count(),
            1,
            "{piece}: {listing}"
        );
    }
    assert!(
        listing.lines().all(|l| l.chars().count() <= 100),
        "{listing}"
    );
}

/// A live session on pipes: reads the output up to each prompt and answers it.
struct Session {
    child: std::process::Child,
    input: std::process::ChildStdin,
    output: mpsc::Receiver<Vec<u8>>,
    /// Everything printed so far.
    transcript: String,
}

impl Session {
    fn start(args: &[&str]) -> Session {
        let mut child = Command::new(PLATEAU)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the plateau binary runs");
        let input = child.stdin.take().unwrap();
        let mut out = child.stdout.take().unwrap();
        let (send, output) = mpsc::channel();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = out.read(&mut buf) {
                if n == 0 || send.send(buf[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        Session {
            child,
            input,
            output,
            transcript: String::new(),
        }
    }

    /// The output printed until the next `prompt`, or `None` once the program has ended.
    fn until(&mut self, prompt: &str) -> Option<String> {
        let from = self.transcript.len();
        loop {
            if self.transcript[from..].ends_with(prompt) {
                return Some(self.transcript[from..].to_owned());
            }
            match self.output.recv_timeout(Duration::from_secs(60)) {
                Ok(bytes) => self.transcript.push_str(&String::from_utf8(bytes).unwrap()),
                Err(mpsc::RecvTimeoutError::Disconnected) => return None,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    panic!("no prompt for 60 s:\n{}", self.transcript)
                }
            }
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").unwrap();
    }
}

/// A person at seat 1 against the random bot, answering each prompt: first some malformed and
/// illegal lines (each refused with its reason, the listed actions unchanged), then legal actions
/// read from `?` (preferring an expulsion), until the game has a result.
#[test]
fn an_interactive_game_against_the_random_bot_reaches_a_result() {
    let mut session = Session::start(&[
        "play", "mad", "--seat", "1=human", "--seat", "2=random", "--seed", "7",
    ]);
    let prompt = "seat 1> ";
    let mut turns = 0;
    while session.until(prompt).is_some() {
        session.send("?");
        let listing = session.until(prompt).expect("the legal actions");
        let legal: Vec<String> = listing
            .lines()
            .skip_while(|l| !l.starts_with("Legal actions"))
            .nth(1)
            .expect("a line of actions")
            .split_whitespace()
            .map(str::to_owned)
            .collect();
        if turns % 5 == 0 {
            session.send("z9-z9");
            let refusal = session.until(prompt).unwrap();
            assert!(
                refusal.contains("Refused `z9-z9`: cannot read the action"),
                "{refusal}"
            );
            session.send("P(111,111)");
            let refusal = session.until(prompt).unwrap();
            assert!(refusal.contains("Refused `P(111,111)`"), "{refusal}");
            session.send("?");
            let again = session.until(prompt).unwrap();
            assert!(
                again.contains(&legal.join(" ")),
                "the state changed: {again}"
            );
        }
        let choice = legal
            .iter()
            .find(|a| a.contains('x'))
            .unwrap_or(&legal[0])
            .clone();
        session.send(&choice);
        turns += 1;
        assert!(turns < 200, "MAD's tie-break ends every game sooner");
    }
    let status = session.child.wait().unwrap();
    assert!(status.success());
    let text = &session.transcript;
    assert!(text.contains("Result: "), "{text}");
    assert!(text.contains("Winner: seat "), "{text}");
    assert!(
        text.contains("Seed: 0700000000"),
        "the seed is revealed: {text}"
    );
}

fn bot_game(seed: &str, record: &Path) -> Output {
    let record = record.to_str().unwrap();
    let output = plateau(&[
        "play", "mad", "--seat", "1=random", "--seat", "2=random", "--seed", seed, "--record",
        record,
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    output
}

#[test]
fn seeded_bot_games_are_identical_and_replay_with_the_seed_verified() {
    let (a, b, c) = (scratch("a.json"), scratch("b.json"), scratch("c.json"));
    let first = bot_game("7", &a);
    let second = bot_game("7", &b);
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    // The same game is shown; only the record's file name differs.
    let shown = |o: &Output| {
        stdout(o)
            .replace(a.to_str().unwrap(), "")
            .replace(b.to_str().unwrap(), "")
    };
    assert_eq!(shown(&first), shown(&second));
    bot_game("8", &c);
    assert_ne!(std::fs::read(&a).unwrap(), std::fs::read(&c).unwrap());
    // A revealed seed in hex is the same seed.
    bot_game(&Seed::from_u64(7).to_hex(), &c);
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&c).unwrap());

    let record: Record = serde_json::from_str(&std::fs::read_to_string(&a).unwrap()).unwrap();
    assert_eq!(record.game, "mad");
    assert_eq!(record.seats, ["random", "random"]);
    assert_eq!(record.seed, Some(Seed::from_u64(7)));
    assert_eq!(record.seed_hash, Seed::from_u64(7).hash_hex());
    let outcome = record.outcome.clone().expect("the game is over");
    assert!(
        record.log.iter().all(|a| a.at_ms.is_none()),
        "bot moves carry no time"
    );

    let output = plateau(&["replay", a.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.contains(&format!("Replayed {} actions", record.actions().count())),
        "{text}"
    );
    assert!(
        text.contains(&format!("Result: {}", outcome.kind.replace('_', " "))),
        "{text}"
    );
    assert!(text.contains("Seed: verified"), "{text}");
    // The final position printed is the one the rules reach.
    let end = record.replay(mad()).unwrap().state.position_text();
    assert!(text.contains(&format!("Position: {end}")), "{text}");

    for path in [a, b, c] {
        std::fs::remove_file(path).unwrap();
    }
}

/// The text a replay page exports replays as its JSON record does, and a changed move is refused
/// with the action's number.
#[test]
fn a_text_record_replays_as_its_json_does() {
    let (json, text) = (scratch("t.json"), scratch("t.txt"));
    bot_game("9", &json);
    let record: Record = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let written = record.to_text(&[("Event", "a test".to_owned())]);
    std::fs::write(&text, &written).unwrap();
    let report = |path: &std::path::Path| {
        let output = plateau(&["replay", path.to_str().unwrap()]);
        assert!(output.status.success(), "{}", stderr(&output));
        stdout(&output)
    };
    assert_eq!(report(&json), report(&text));
    assert!(report(&text).contains("Seed: verified"));
    let first = record.actions().next().unwrap().1.to_owned();
    let start = mad().new_game(&serde_json::Value::Null, 2).unwrap();
    let other = start
        .legal_texts(plateau_engine::Seat(0))
        .into_iter()
        .find(|a| *a != first)
        .unwrap();
    std::fs::write(
        &text,
        written.replacen(
            &format!("1. seat 1: {first}\n"),
            &format!("1. seat 1: {other}\n"),
            1,
        ),
    )
    .unwrap();
    let output = plateau(&["replay", text.to_str().unwrap()]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("does not replay"),
        "{}",
        stderr(&output)
    );
    for path in [json, text] {
        std::fs::remove_file(path).unwrap();
    }
}

/// Writes `record` to a scratch file, replays it, and returns stderr, asserting failure.
fn replay_fails(record: &Record, name: &str) -> String {
    let path = scratch(name);
    std::fs::write(&path, serde_json::to_string_pretty(record).unwrap()).unwrap();
    let output = plateau(&["replay", path.to_str().unwrap()]);
    std::fs::remove_file(&path).unwrap();
    assert!(
        !output.status.success(),
        "{name} replayed: {}",
        stdout(&output)
    );
    stderr(&output)
}

#[test]
fn replay_rejects_tampered_records() {
    let path = scratch("honest.json");
    bot_game("7", &path);
    let honest: Record = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    std::fs::remove_file(&path).unwrap();

    // An action changed to one that breaks the rules (a1 holds Red's own 221).
    let mut tampered = honest.clone();
    tampered.log[0] = LogEntry::action(Actor::Seat(Seat(0)), "a1-a2", None);
    let err = replay_fails(&tampered, "illegal.json");
    assert!(err.contains("action 1 (`a1-a2` by seat 1)"), "{err}");

    // The last action changed to another legal one that gives a different result.
    let mut tampered = honest.clone();
    let last = tampered.log.pop().unwrap();
    let before = Record {
        outcome: None,
        ..tampered.clone()
    }
    .replay(mad())
    .unwrap()
    .state;
    let Some(Actor::Seat(seat)) = last.by() else {
        panic!("MAD has no chance and this game no ending")
    };
    let other = before
        .legal_texts(seat)
        .into_iter()
        .find(|a| {
            let mut after = before.clone_box();
            after.apply_text(Actor::Seat(seat), a).unwrap();
            after.outcome() != honest.outcome
        })
        .expect("a move that does not end the game the same way");
    tampered.log.push(LogEntry::action(
        Actor::Seat(seat),
        other.clone(),
        last.at_ms,
    ));
    let err = replay_fails(&tampered, "changed.json");
    assert!(err.contains("outcome"), "{err}");

    // A seed that is not the one whose hash was published.
    let mut tampered = honest.clone();
    tampered.seed = Some(Seed::from_u64(8));
    let err = replay_fails(&tampered, "seed.json");
    assert!(err.contains("does not match seed_hash"), "{err}");

    // A file that is not a record.
    let path = scratch("junk.json");
    std::fs::write(&path, "{\"game\": \"mad\"}").unwrap();
    let output = plateau(&["replay", path.to_str().unwrap()]);
    std::fs::remove_file(&path).unwrap();
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("not a game record"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn replay_rejects_unknown_seats_and_a_finished_game_without_its_outcome() {
    let path = scratch("honest-seats.json");
    bot_game("7", &path);
    let honest: Record = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    std::fs::remove_file(&path).unwrap();

    // A seat that is neither `human` nor a bot: named with its 1-based number.
    let mut tampered = honest.clone();
    tampered.seats[1] = "grandmaster".into();
    let err = replay_fails(&tampered, "seat.json");
    assert!(err.contains("seat 2 is `grandmaster`"), "{err}");
    assert!(err.contains("unknown bot"), "{err}");

    // Every name the match service writes is accepted (here on an unfinished game: no outcome).
    let mut running = honest.clone();
    running.seats = vec!["human".into(), "expert".into()];
    running.log.truncate(4);
    running.outcome = None;
    running.seed = None;
    let path = scratch("running.json");
    std::fs::write(&path, serde_json::to_string(&running).unwrap()).unwrap();
    let output = plateau(&["replay", path.to_str().unwrap()]);
    std::fs::remove_file(&path).unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("the game is not over"));

    // The whole game without its outcome: the replay reaches the end, the record says nothing.
    let mut tampered = honest.clone();
    let kind = tampered.outcome.take().unwrap().kind;
    let err = replay_fails(&tampered, "no-outcome.json");
    assert!(
        err.contains(&format!(
            "the game is over after its {} actions ({kind}) but the record has no outcome",
            honest.actions().count()
        )),
        "{err}"
    );

    // A wrong outcome is named in JSON, not in Rust's debug form.
    let mut tampered = honest.clone();
    tampered.outcome.as_mut().unwrap().ranks.reverse();
    let err = replay_fails(&tampered, "wrong-outcome.json");
    assert!(err.contains("the record's outcome {\"ranks\":"), "{err}");
    assert!(!err.contains("Some("), "{err}");
}

#[test]
fn a_moon_leap_player_may_resign_and_the_record_replays() {
    let path = scratch("moonleap-resign.json");
    let output = plateau_with_input(
        &[
            "play",
            "moonleap",
            "--seed",
            "4",
            "--record",
            path.to_str().unwrap(),
        ],
        "resign\n",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("resigns."), "{text}");
    assert!(text.contains("Result: resign"), "{text}");
    assert!(text.contains("seat 1 (human): rank 2"), "{text}");
    let replayed = plateau(&["replay", path.to_str().unwrap()]);
    std::fs::remove_file(&path).unwrap();
    assert!(replayed.status.success(), "{}", stderr(&replayed));
    assert!(
        stdout(&replayed).contains("Seat 1 resigned after the last action (1)."),
        "{}",
        stdout(&replayed)
    );
}

/// `--decisions-only` does not count chance outcomes as levels. In Moon Leap every decision follows
/// exactly one roll, so n decisions from a roll are 2n levels of the full count.
#[test]
fn perft_decisions_only_skips_chance_levels() {
    for depth in 1..=3u32 {
        let full = plateau(&["perft", "moonleap", "start", &(2 * depth).to_string()]);
        let decisions = plateau(&[
            "perft",
            "moonleap",
            "start",
            &depth.to_string(),
            "--decisions-only",
        ]);
        assert!(decisions.status.success(), "{}", stderr(&decisions));
        assert_eq!(
            last_line(&stdout(&decisions)),
            last_line(&stdout(&full)),
            "depth {depth}"
        );
    }
    // Without chance nodes both counts agree: MAD's 222 replies at depth 2.
    let output = plateau(&["perft", "mad", "start", "2", "--decisions-only"]);
    assert_eq!(last_line(&stdout(&output)), "222");
}

/// Bataille Navale: a seat that resigns is eliminated and the others play on (rules/naval.md), so
/// the resignation has its place in the middle of the record, and the record replays.
#[test]
fn a_naval_seat_resigns_mid_game_the_others_play_on_and_the_record_replays() {
    let path = scratch("naval-resign.json");
    // A short game: two placement moves, six rounds. The person gets ready, then resigns at its
    // first battle turn.
    let output = plateau_with_input(
        &[
            "play",
            "naval",
            "--seed",
            "3",
            "--config",
            r#"{"max_rounds": 6, "placement_moves": 2}"#,
            "--record",
            path.to_str().unwrap(),
            "--no-color",
        ],
        "ready\nresign\n",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("seat 1 (human) resigns."), "{text}");
    assert!(text.contains("seat 1 (human): rank 4"), "{text}");

    let record: Record = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let endings: Vec<_> = record.endings().collect();
    let [(place, ending)] = endings[..] else {
        panic!("one ending: {endings:?}");
    };
    assert_eq!(ending, Ending::Resign(Seat(0)));
    let actions: Vec<_> = record.actions().collect();
    let (before, after) = actions.split_at(place);
    let first = Actor::Seat(Seat(0));
    assert!(
        before
            .iter()
            .any(|(by, action)| *by == first && *action == "ready"),
        "seat 1 got ready before it resigned"
    );
    assert!(
        after
            .iter()
            .filter(|(by, _)| matches!(by, Actor::Seat(_)))
            .count()
            > 10,
        "the other seats played on: {} actions after the resignation",
        after.len()
    );
    assert!(
        after.iter().all(|(by, _)| *by != first),
        "seat 1 does not act once out"
    );

    let replayed = plateau(&["replay", path.to_str().unwrap(), "--no-color"]);
    std::fs::remove_file(&path).unwrap();
    assert!(replayed.status.success(), "{}", stderr(&replayed));
    let report = stdout(&replayed);
    assert!(
        report.contains(&format!("Seat 1 resigned after action {place}.")),
        "{report}"
    );
    assert!(report.contains("Seed: verified"), "{report}");
}

/// `plateau analyse` marks with the game's thresholds or `--marks`, and refuses marks that are not
/// three rising losses from 0 to 1 with the text it was given, analysing nothing.
#[test]
fn analyse_marks_with_the_games_thresholds_or_the_ones_given() {
    let record = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../bots/tests/data/mad-expert-casual-seed3.json"
    );
    for bad in ["0.3,0.2,0.1", "0.1,0.2", "0.1,0.2,1.5"] {
        let out = plateau(&["analyse", record, "--quiet", "--marks", bad]);
        assert!(!out.status.success(), "--marks {bad}");
        assert!(stdout(&out).is_empty());
        assert!(stderr(&out).contains("--marks"), "{}", stderr(&out));
    }
    let out = plateau(&["analyse", record, "--quiet", "--iterations", "3000"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    // The casual seat's ply 12 is the game's worst move, a blunder at MAD's marks (10, 20, 30).
    assert!(
        text.contains("  ply 12 seat 2: c4-b3??"),
        "{}",
        text.lines().rev().take(8).collect::<Vec<_>>().join("\n")
    );
    // With marks from 50 points its 33-point loss is not marked.
    let out = plateau(&[
        "analyse",
        record,
        "--quiet",
        "--iterations",
        "3000",
        "--marks",
        "0.5,0.6,0.7",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stdout(&out).contains("c4-b3?"));
}

/// `plateau backup` copies a SQLite database into a new file, refuses to write over one, and
/// sends a PostgreSQL server's operator to its own tools.
#[test]
fn backup_copies_a_sqlite_database_to_a_new_file_only() {
    let dir = scratch("backup");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("plateau.sqlite");
    drop(plateau_server::store::sqlite::SqliteStore::open(&db).unwrap());
    let url = format!("sqlite://{}", db.display());
    let copy = dir.join("copy.sqlite");
    let copy_arg = copy.to_str().unwrap();
    let done = plateau(&["backup", "--database", &url, "--to", copy_arg]);
    assert!(done.status.success(), "{}", stderr(&done));
    assert!(stdout(&done).contains("copied to"), "{}", stdout(&done));
    assert!(copy.is_file());
    let again = plateau(&["backup", "--database", &url, "--to", copy_arg]);
    assert!(!again.status.success());
    assert!(
        stderr(&again).contains("exists already"),
        "{}",
        stderr(&again)
    );
    let postgres = plateau(&["backup", "--database", "postgres://u@h/db", "--to", "x"]);
    assert!(!postgres.status.success());
    assert!(
        stderr(&postgres).contains("pg_dump"),
        "{}",
        stderr(&postgres)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
