//! A record as text people read and paste, in the manner of chess's PGN (docs/architecture.md
//! section 4): tag pairs, then the log, one entry a line, each action in the game's canonical
//! notation. `Record::from_text` reads it back into the same record, so `plateau replay` checks an
//! exported game as it checks a JSON record (its seed included).
//!
//! ```text
//! [Event "Plateau casual game"]
//! [Player1 "Alice"]
//! [Player2 "club-bot"]
//! [Game "mad"]
//! [Seat1 "human"]
//! [Seat2 "club"]
//! [SeedHash "66687aad…"]
//! [Seed "0c1f…"]
//! [Result "1-2"]
//! [Scores "1 0"]
//! [Termination "corvette"]
//!
//! 1. seat 1: c2-c3
//! 2. seat 2: f7-f6
//! 3. chance: r3
//! end: resign seat 2
//! ```
//!
//! The record's own tags are `Game`, `Seat1`..`SeatN` (what sat there: `human` or a bot's name),
//! `Config` (the game's config as JSON, when not the default), `Start` (a position text, when the
//! game did not start from the beginning), `SeedHash`, `Seed` (once revealed), and for a finished
//! game `Result` (each seat's rank, 1 the best, joined by `-`), `Scores` and `Termination` (the
//! outcome's kind). Other tags (the players' names, the date, the clock) are for people and are
//! not read back. A tag's value is written between double quotes, a quote or a backslash in it
//! escaped with a backslash. The log's times are not kept.

use thiserror::Error;

use crate::chance::Seed;
use crate::game::Ending;
use crate::log::{Event, LogEntry};
use crate::outcome::Outcome;
use crate::record::Record;
use crate::seat::{Actor, Seat};

/// Why a text does not read as a record: the line (from 1) and what is wrong there.
#[derive(Debug, Error, PartialEq, Eq)]
#[error("line {line}: {why}")]
pub struct TextError {
    /// The line, counted from 1 (0 for what the whole text lacks).
    pub line: usize,
    /// What is wrong.
    pub why: String,
}

impl Record {
    /// The record as text (the module's format): the caller's `tags` first (the players' names,
    /// the date...), then the record's own, then the log.
    #[must_use]
    pub fn to_text(&self, tags: &[(&str, String)]) -> String {
        let mut out = String::new();
        let mut tag = |name: &str, value: &str| {
            out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
        };
        for (name, value) in tags {
            tag(name, value);
        }
        tag("Game", &self.game);
        for (i, seat) in self.seats.iter().enumerate() {
            tag(&format!("Seat{}", i + 1), seat);
        }
        if !self.config.is_null() {
            tag("Config", &self.config.to_string());
        }
        if let Some(start) = &self.start {
            tag("Start", start);
        }
        tag("SeedHash", &self.seed_hash);
        if let Some(seed) = &self.seed {
            tag("Seed", &seed.to_hex());
        }
        if let Some(outcome) = &self.outcome {
            let ranks: Vec<String> = outcome.ranks.iter().map(u8::to_string).collect();
            let scores: Vec<String> = outcome.scores.iter().map(f64::to_string).collect();
            tag("Result", &ranks.join("-"));
            tag("Scores", &scores.join(" "));
            tag("Termination", &outcome.kind);
        }
        out.push('\n');
        let mut actions = 0;
        for entry in &self.log {
            match &entry.event {
                Event::Action { by, action } => {
                    actions += 1;
                    out.push_str(&format!("{actions}. {by}: {action}\n"));
                }
                Event::End(ending) => {
                    let words = match ending {
                        Ending::Timeout(s) => format!("timeout seat {s}"),
                        Ending::Resign(s) => format!("resign seat {s}"),
                        Ending::Agreement => "agreement".to_owned(),
                    };
                    out.push_str(&format!("end: {words}\n"));
                }
            }
        }
        out
    }

    /// Reads a record written by `to_text` (tags in any order, unknown tags ignored, blank lines
    /// anywhere). The actions are read as written: `Record::replay` checks them.
    ///
    /// # Errors
    /// `TextError` naming the first line that does not read, or a required tag that is missing
    /// (`Game`, `Seat1`, `SeedHash`).
    pub fn from_text(text: &str) -> Result<Record, TextError> {
        let mut tags: Vec<(String, String, usize)> = Vec::new();
        let mut log = Vec::new();
        let mut actions = 0;
        for (i, line) in text.lines().enumerate() {
            let n = i + 1;
            let bad = |why: String| TextError { line: n, why };
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            if line.starts_with('[') {
                if !log.is_empty() {
                    return Err(bad("a tag after the moves".to_owned()));
                }
                let (name, value) = tag_pair(line).map_err(bad)?;
                tags.push((name, value, n));
            } else if let Some(words) = line.strip_prefix("end:") {
                log.push(LogEntry::end(ending(words.trim()).map_err(bad)?, None));
            } else {
                actions += 1;
                let (by, action) = action_line(line, actions).map_err(bad)?;
                log.push(LogEntry::action(by, action, None));
            }
        }
        let get = |name: &str| tags.iter().find(|(t, _, _)| t == name);
        let need = |name: &str| {
            get(name)
                .map(|(_, v, _)| v.clone())
                .ok_or_else(|| TextError {
                    line: 0,
                    why: format!("no `{name}` tag"),
                })
        };
        let at = |name: &str, why: String| TextError {
            line: get(name).map_or(0, |(_, _, line)| *line),
            why,
        };
        let mut seats = Vec::new();
        while let Some((_, seat, _)) = get(&format!("Seat{}", seats.len() + 1)) {
            seats.push(seat.clone());
        }
        if seats.is_empty() {
            return Err(TextError {
                line: 0,
                why: "no `Seat1` tag: the seats are `Seat1`, `Seat2`, ...".to_owned(),
            });
        }
        let config = match get("Config") {
            Some((_, json, _)) => serde_json::from_str(json)
                .map_err(|e| at("Config", format!("`Config` is not JSON: {e}")))?,
            None => serde_json::Value::Null,
        };
        let seed = get("Seed")
            .map(|(_, hex, _)| Seed::from_hex(hex).map_err(|e| at("Seed", format!("`Seed`: {e}"))))
            .transpose()?;
        let outcome = match get("Result") {
            None => None,
            Some((_, ranks, _)) => Some(Outcome {
                ranks: numbers(ranks, '-').map_err(|e| at("Result", format!("`Result`: {e}")))?,
                scores: numbers(&need("Scores")?, ' ')
                    .map_err(|e| at("Scores", format!("`Scores`: {e}")))?,
                kind: need("Termination")?,
            }),
        };
        Ok(Record {
            game: need("Game")?,
            config,
            seats,
            start: get("Start").map(|(_, v, _)| v.clone()),
            seed_hash: need("SeedHash")?,
            seed,
            log,
            outcome,
        })
    }
}

/// A tag's value with `"` and `\` escaped.
fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// `[Name "value"]` as its name and unescaped value.
fn tag_pair(line: &str) -> Result<(String, String), String> {
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or("a tag is `[Name \"value\"]`")?;
    let (name, quoted) = inner.split_once(' ').ok_or("a tag is `[Name \"value\"]`")?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(format!("`{name}` is no tag name (letters and digits)"));
    }
    let quoted = quoted.trim();
    let body = quoted
        .strip_prefix('"')
        .and_then(|q| q.strip_suffix('"'))
        .ok_or_else(|| format!("the value of `{name}` is not between double quotes"))?;
    let mut value = String::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.push(
                chars
                    .next()
                    .ok_or_else(|| format!("the value of `{name}` ends with a lone `\\`"))?,
            ),
            '"' => return Err(format!("an unescaped `\"` in the value of `{name}`")),
            c => value.push(c),
        }
    }
    Ok((name.to_owned(), value))
}

/// `N. seat K: action` or `N. chance: outcome`, the `expected`-th action.
fn action_line(line: &str, expected: usize) -> Result<(Actor, String), String> {
    let (number, rest) = line
        .split_once(". ")
        .ok_or("a move is `N. seat K: action` or `N. chance: outcome`")?;
    if number.parse::<usize>() != Ok(expected) {
        return Err(format!("move `{number}` where move {expected} comes"));
    }
    let (who, action) = rest
        .split_once(": ")
        .ok_or("a move is `N. seat K: action` or `N. chance: outcome`")?;
    let by = match who {
        "chance" => Actor::Chance,
        seat => Actor::Seat(seat_of(seat)?),
    };
    let action = action.trim();
    if action.is_empty() {
        return Err(format!("move {expected} has no action"));
    }
    Ok((by, action.to_owned()))
}

/// `seat K` (K from 1) as a seat.
fn seat_of(words: &str) -> Result<Seat, String> {
    words
        .strip_prefix("seat ")
        .and_then(|k| k.parse::<u8>().ok())
        .filter(|k| *k >= 1)
        .map(|k| Seat(k - 1))
        .ok_or_else(|| format!("`{words}` is not `seat K` or `chance`"))
}

/// `timeout seat K`, `resign seat K` or `agreement`.
fn ending(words: &str) -> Result<Ending, String> {
    if words == "agreement" {
        return Ok(Ending::Agreement);
    }
    let (kind, seat) = words
        .split_once(' ')
        .ok_or_else(|| format!("`{words}` is not an ending"))?;
    let seat = seat_of(seat)?;
    match kind {
        "timeout" => Ok(Ending::Timeout(seat)),
        "resign" => Ok(Ending::Resign(seat)),
        other => Err(format!(
            "`{other}` is not an ending (timeout, resign, agreement)"
        )),
    }
}

/// Numbers separated by `sep`.
fn numbers<T: std::str::FromStr>(text: &str, sep: char) -> Result<Vec<T>, String> {
    text.split(sep)
        .map(|n| {
            n.trim()
                .parse()
                .map_err(|_| format!("`{n}` is not a number"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Record {
        Record {
            game: "mad".into(),
            config: serde_json::json!({"tiebreak_limit": 16, "name": "a \"quoted\" \\ word"}),
            seats: vec!["human".into(), "club".into()],
            start: None,
            seed_hash: "ab".repeat(32),
            seed: Some(Seed([7; 32])),
            log: vec![
                LogEntry::action(Actor::Seat(Seat(0)), "c2-c3", Some(5)),
                LogEntry::action(Actor::Chance, "rocket f7 shot", Some(6)),
                LogEntry::action(Actor::Seat(Seat(1)), "frigate:rockets 3:f7", None),
                LogEntry::end(Ending::Resign(Seat(1)), Some(9)),
                LogEntry::action(Actor::Seat(Seat(0)), "pass", None),
                LogEntry::end(Ending::Timeout(Seat(0)), None),
            ],
            outcome: Some(Outcome {
                ranks: vec![2, 1],
                scores: vec![0.0, 0.5],
                kind: "timeout".into(),
            }),
        }
    }

    #[test]
    fn a_record_reads_back_from_its_text_without_its_times() {
        let record = sample();
        let text = record.to_text(&[("Player1", "Ann".into()), ("Date", "2025.11.30".into())]);
        assert!(text.starts_with("[Player1 \"Ann\"]\n[Date \"2025.11.30\"]\n[Game \"mad\"]\n"));
        assert!(text.contains("[Result \"2-1\"]\n[Scores \"0 0.5\"]\n[Termination \"timeout\"]\n"));
        assert!(text.contains(
            "\n1. seat 1: c2-c3\n2. chance: rocket f7 shot\n3. seat 2: frigate:rockets 3:f7\n\
             end: resign seat 2\n4. seat 1: pass\nend: timeout seat 1\n"
        ));
        let back = Record::from_text(&text).unwrap();
        let mut untimed = record;
        for e in &mut untimed.log {
            e.at_ms = None;
        }
        assert_eq!(back, untimed);
        // A game not over, from a position, with its default config and no seed yet.
        let open = Record {
            start: Some("some position".into()),
            config: serde_json::Value::Null,
            seed: None,
            outcome: None,
            log: Vec::new(),
            ..untimed
        };
        assert_eq!(Record::from_text(&open.to_text(&[])).unwrap(), open);
    }

    #[test]
    fn a_bad_line_is_named() {
        let text = sample().to_text(&[]);
        let broken =
            |from: &str, to: &str| Record::from_text(&text.replacen(from, to, 1)).unwrap_err();
        let line_of = |needle: &str| text.lines().position(|l| l.contains(needle)).unwrap() + 1;
        assert_eq!(
            broken("2. chance", "3. chance"),
            TextError {
                line: line_of("2. chance"),
                why: "move `3` where move 2 comes".into()
            }
        );
        assert_eq!(
            broken("seat 2: frigate", "seat 0: frigate").why,
            "`seat 0` is not `seat K` or `chance`"
        );
        assert_eq!(
            broken("end: resign", "end: forfeit").why,
            "`forfeit` is not an ending (timeout, resign, agreement)"
        );
        assert_eq!(broken("[Game \"mad\"]\n", "").why, "no `Game` tag");
        assert_eq!(broken("[Seed \"", "[Seed \"zz").line, line_of("[Seed \""));
        assert_eq!(
            broken("[Result \"2-1\"]", "[Result \"2-x\"]").why,
            "`Result`: `x` is not a number"
        );
        assert_eq!(
            Record::from_text(&format!("{text}[Late \"tag\"]\n"))
                .unwrap_err()
                .why,
            "a tag after the moves"
        );
        assert_eq!(
            broken("[Game \"mad\"]", "[Game mad]").why,
            "the value of `Game` is not between double quotes"
        );
    }
}
