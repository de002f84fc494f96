//! Position text and the serialized state (docs/architecture.md section 2.2; rules/chakart.md
//! ruling 10): a FEN between decisions; at a chance node `<fen> moves <action> …`, the FEN of
//! the last decision and the actions since, replayed through the rules when read; `random1` or
//! `random2` as the FEN before the random setup of options 1 and 2.
//!
//! A state serializes as its config, its position text and what the text does not hold: where
//! the opponent of a hidden queen may believe it stands and where its stealth move began (ruling
//! 17), the result of a finished game and its last move (for the observation's `last_move`).
//! Reading it runs the same checked parser.

use plateau_engine::{Actor, Game, SetupError, ToAct};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::action::Action;
use crate::board::{HIDDEN, Square, looks_empty, side_of};
use crate::fen;
use crate::rules::{EndKind, GameResult, Phase, Pos};
use crate::view::LastMove;
use crate::{Chakart, Config};

/// The actions played since the last decision node: what the position text needs at a chance
/// node. Its size is fixed by the rules (docs/architecture.md section 2.2): after a decision
/// come at most 61 redirects (each uses one of the bananas and bombs, of which the 64 squares hold
/// at most 61 beside two kings and the moving piece), then an egg and a flip target or an item
/// drop; before the first decision, 14 setup draws. So 64 never overflows; a push past it is a
/// defect of the rules code and panics rather than lose an action.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Line {
    len: u8,
    items: [Action; Line::CAPACITY],
}

impl Line {
    const CAPACITY: usize = 64;

    pub(crate) const EMPTY: Line = Line {
        len: 0,
        items: [Action::Setup(0); Line::CAPACITY],
    };

    pub(crate) fn push(&mut self, a: Action) {
        let len = usize::from(self.len);
        assert!(
            len < Line::CAPACITY,
            "more than {} chance actions after one decision: the rules allow at most {}",
            Line::CAPACITY,
            Line::CAPACITY
        );
        self.items[len] = a;
        self.len += 1;
    }

    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    pub(crate) fn as_slice(&self) -> &[Action] {
        &self.items[..usize::from(self.len)]
    }
}

/// Where the opponent of a hidden queen may believe it stands, and where its stealth move began:
/// the knowledge a position text does not hold.
#[derive(Clone, Default, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Knowledge {
    squares: Vec<Square>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    from: Option<Square>,
}

/// The serialized state (module doc).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Stored {
    config: Config,
    position: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    hidden_queen: Option<Knowledge>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    result: Option<GameResult>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    last_move: Option<LastMove>,
}

impl Chakart {
    /// The base of a position text: the FEN, or `random1`/`random2` before the random setup.
    fn base_text(pos: &Pos) -> String {
        match pos.phase {
            Phase::Setup { .. } => format!("random{}", pos.option),
            _ => fen::format(pos),
        }
    }

    /// The canonical position text (module doc).
    pub(crate) fn position_text(&self) -> String {
        if self.pos.is_chance() {
            let mut s = Chakart::base_text(&self.anchor);
            s.push_str(" moves");
            for a in self.line.as_slice() {
                s.push(' ');
                s.push_str(&a.text());
            }
            s
        } else {
            fen::format(&self.pos)
        }
    }

    /// Reads a position text under `config`; with `result`, the text of a game that ended so
    /// (its board may lack the captured king, or hold a pawn on its last rank if it was resigned
    /// half-way through a turn).
    pub(crate) fn read(
        config: &Config,
        text: &str,
        result: Option<GameResult>,
    ) -> Result<Chakart, SetupError> {
        config.check()?;
        let (base, moves) = match text.split_once(" moves") {
            Some((b, m)) => (b.trim(), Some(m)),
            None => (text.trim(), None),
        };
        let mut pos = match base {
            "start" => {
                let mut c = *config;
                c.randomness = 0;
                Chakart::setup_pos(&c)
            }
            "random1" | "random2" => {
                let mut c = *config;
                c.randomness = base.as_bytes()[6] - b'0';
                Chakart::setup_pos(&c)
            }
            _ => {
                let mut pos = if result.is_some() && moves.is_none() {
                    fen::parse_finished(base)?
                } else {
                    fen::parse(base)?
                };
                pos.turn_limit = config.turn_limit();
                // Nothing is known of a hidden queen but that it looks like an empty square.
                if let Some(q) = Square::all().find(|&s| pos.at(s) & HIDDEN != 0) {
                    let opponent = side_of(pos.at(q)).other();
                    pos.hidden = Square::all()
                        .filter(|&s| looks_empty(pos.at(s), opponent))
                        .fold(0u64, |m, s| m | s.bit());
                }
                match pos.phase {
                    Phase::Move => {
                        let kings = pos.kings();
                        pos.check_end(kings);
                    }
                    _ if !pos.has_legal() => pos.end_turn(),
                    _ => {}
                }
                pos
            }
        };
        pos.option = match base {
            "random1" => 1,
            "random2" => 2,
            _ => config.randomness,
        };
        let mut state = Chakart::from_pos(pos, *config);
        if let Some(moves) = moves {
            for token in moves.split_whitespace() {
                let action = Action::parse(token).map_err(SetupError::Position)?;
                let actor = match state.to_act() {
                    ToAct::Chance => Actor::Chance,
                    ToAct::Player(s) => Actor::Seat(s),
                    _ => {
                        return Err(SetupError::impossible(
                            token,
                            "moves: the game is already over",
                        ));
                    }
                };
                state
                    .apply(actor, &action)
                    .map_err(|e| SetupError::impossible(token, format!("moves: {e}")))?;
            }
        }
        if let Some(stored) = result {
            state.check_result(stored)?;
        }
        Ok(state)
    }

    /// A stored result against the position read: the rules' own end must be the one stored; an
    /// ending by the players (resignation, timeout, agreed stop) ends the game as stored, even
    /// where the position would end it by the rules: it may come in the middle of a turn whose
    /// first part took the last enemy king, which only the turn's end decides (rules/chakart.md
    /// section 10).
    fn check_result(&mut self, stored: GameResult) -> Result<(), SetupError> {
        let by_players = matches!(
            stored.kind,
            EndKind::Resign | EndKind::Timeout | EndKind::Agreement
        );
        match self.pos.result {
            Some(shown) if shown == stored => Ok(()),
            _ if by_players => {
                if (stored.kind == EndKind::Agreement) != stored.winner.is_none() {
                    return Err(SetupError::impossible(
                        "result",
                        "an agreed stop is a draw; a resignation or a timeout has a winner",
                    ));
                }
                self.pos.finish(stored.winner, stored.kind);
                Ok(())
            }
            shown => Err(SetupError::impossible(
                "result",
                format!(
                    "the stored end ({}) is not what the position shows ({})",
                    stored.kind.text(),
                    shown.map_or("a game in play", |r| r.kind.text())
                ),
            )),
        }
    }

    /// Sets what the opponent of the hidden queen knows, checked against the board.
    fn set_knowledge(&mut self, knowledge: Option<Knowledge>) -> Result<(), SetupError> {
        let queen = Square::all().find(|&s| self.pos.at(s) & HIDDEN != 0);
        match (queen, knowledge) {
            (None, None) => Ok(()),
            (None, Some(_)) => Err(SetupError::impossible(
                "hidden_queen",
                "no queen is hidden, so nobody can wonder where it is",
            )),
            (Some(_), None) => Err(SetupError::impossible(
                "hidden_queen",
                "a queen is hidden: where its opponent may believe it stands is missing",
            )),
            (Some(_), Some(k)) => {
                // Any set of squares is a belief the rules can hold: `determinize` draws only
                // among those that look empty now, and the queen's own square is always one.
                self.pos.hidden = k.squares.iter().fold(0, |m, s| m | s.bit());
                self.pos.stealth_from = k.from;
                Ok(())
            }
        }
    }
}

impl Serialize for Chakart {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let hidden = Square::all().any(|sq| self.pos.at(sq) & HIDDEN != 0);
        Stored {
            config: self.config,
            position: self.position_text(),
            hidden_queen: hidden.then(|| Knowledge {
                squares: Square::all()
                    .filter(|sq| self.pos.hidden & sq.bit() != 0)
                    .collect(),
                from: self.pos.stealth_from,
            }),
            result: self.pos.result,
            last_move: self.last,
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Chakart {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let stored = Stored::deserialize(d)?;
        let mut state = Chakart::read(&stored.config, &stored.position, stored.result)
            .map_err(serde::de::Error::custom)?;
        state
            .set_knowledge(stored.hidden_queen)
            .map_err(serde::de::Error::custom)?;
        state.last = stored.last_move;
        Ok(state)
    }
}

#[cfg(test)]
mod tests {
    use plateau_engine::{Ending, Game, Seat, Viewer};

    use crate::{Chakart, Config};

    fn state(text: &str) -> Chakart {
        Chakart::parse_position(&Config::default(), text).unwrap()
    }

    fn round_trip(g: &Chakart) -> Chakart {
        let json = serde_json::to_string(g).unwrap();
        let back: Chakart = serde_json::from_str(&json).unwrap();
        assert_eq!(serde_json::to_string(&back).unwrap(), json);
        back
    }

    #[test]
    fn what_the_text_does_not_hold_survives_serde() {
        // A hidden queen: its opponent's belief and the square it left.
        let g = state("4k3/8/2n5/8/3d4/8/8/2Q1K3 w 0 1111 000000000000 moves c1c5s");
        let back = round_trip(&g);
        assert_eq!(back.pos().hidden, g.pos().hidden);
        assert_eq!(
            back.observe(Viewer::Seat(Seat(1))),
            g.observe(Viewer::Seat(Seat(1)))
        );
        // A resignation half-way through a turn: the pawn still waits on its last rank.
        let mut g = state("k3P3/8/4m3/8/8/8/8/K7 w 0 1111 000000000000 =:e8,D");
        g.end(Ending::Resign(Seat(0))).unwrap();
        let back = round_trip(&g);
        assert_eq!(back.outcome(), g.outcome());
        // A captured king ends the game: the board shows one king, the result says so.
        let mut g = state("4k3/8/8/8/8/3n4/8/4K3 b 1 1111 000000000000");
        let capture = g.parse_action("d3e1").unwrap();
        g.apply(plateau_engine::Actor::Seat(Seat(1)), &capture)
            .unwrap();
        assert_eq!(g.outcome().unwrap().kind, "king_captured");
        assert_eq!(round_trip(&g).outcome(), g.outcome());
    }

    #[test]
    fn stored_states_that_contradict_themselves_are_refused() {
        let refused = |json: &str, fragment: &str| {
            let e = serde_json::from_str::<Chakart>(json)
                .unwrap_err()
                .to_string();
            assert!(e.contains(fragment), "{json}: {e}");
        };
        let config = r#""config":{"randomness":0,"turn_limit":0}"#;
        refused(
            &format!(
                r#"{{{config},"position":"4k3/8/8/8/8/8/8/4K3 w 0 1111 000000000000","hidden_queen":{{"squares":[1]}}}}"#
            ),
            "no queen is hidden",
        );
        refused(
            &format!(
                r#"{{{config},"position":"4k3/8/8/8/8/8/8/4K3 w 0 1111 000000000000","result":{{"winner":"white","kind":"king_captured"}}}}"#
            ),
            "is not what the position shows",
        );
        refused(
            &format!(
                r#"{{{config},"position":"4k3/8/8/8/8/8/8/4K3 w 0 1111 000000000000","x":1}}"#
            ),
            "unknown field",
        );
        refused(
            r#"{"config":{"randomness":7,"turn_limit":0},"position":"start"}"#,
            "randomness must be 0, 1 or 2",
        );
    }
}
