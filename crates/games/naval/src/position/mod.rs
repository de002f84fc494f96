//! The position format `naval/1` (docs/naval-position.md): a JSON document that holds a whole
//! state with named fields in notation (pieces `carrier@c3h`, cells `f7`, orders
//! `cruiser:fire 2:f7`, seats written 1 to 4), versioned and independent of how `Naval` is laid
//! out in memory. It is the position text and the serialized state; reading it checks every
//! field against the rules and names the one that cannot be (docs/architecture.md section 2.2).
//!
//! What the rules derive is not stored: sunk ships follow from the hits, eliminated seats from
//! the elimination order, a shield's area from its centre, the next layout node from the pieces
//! placed, the ship to order next from the orders given.

use plateau_engine::{Seat, SetupError};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::action::{format_order, format_placement};
use crate::bits::Bits;
use crate::board::{Board, Scan};
use crate::config::Config;
use crate::piece::{SHIPS, Ship};
use crate::state::{Announcement, Naval, Phase};

/// The version this module writes and reads.
pub const FORMAT: &str = "naval/1";

/// The document.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Doc {
    format: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    config: Option<Config>,
    phase: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    first: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    current: Option<u8>,
    #[serde(default)]
    rounds: u16,
    boards: Vec<BoardDoc>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    blocks: Vec<BlockDoc>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    scans: Vec<ScanDoc>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    turn: Option<TurnDoc>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    eliminated: Vec<u8>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    last_turn: Vec<AnnouncementDoc>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    earlier_turns: Vec<Vec<AnnouncementDoc>>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct BoardDoc {
    fleet: Vec<String>,
    #[serde(default)]
    ready: bool,
    #[serde(default)]
    moves: u8,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    hits: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    misses: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    deflected: String,
    energy: [u16; SHIPS],
    #[serde(default, skip_serializing_if = "is_zero")]
    emp: u8,
    #[serde(default, skip_serializing_if = "is_false")]
    immune: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    shield: Option<ShieldDoc>,
    #[serde(default, skip_serializing_if = "is_false")]
    frigate_shown: bool,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    torpedo_clear: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    torpedo_triggers: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    charges_hit: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    charges_clear: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    first_hits: String,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ShieldDoc {
    centre: String,
    charges: u8,
    #[serde(default, skip_serializing_if = "is_false")]
    public: bool,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    cast_resolved: String,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct BlockDoc {
    board: u8,
    owner: u8,
    cells: String,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ScanDoc {
    caster: u8,
    board: u8,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    satellite: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    sonar: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    radar: String,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TurnDoc {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    orders: Vec<String>,
    #[serde(default, skip_serializing_if = "is_false")]
    resolving: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    cursor: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    rocket: Option<String>,
    #[serde(default, skip_serializing_if = "is_zeros")]
    miss_gain: [u16; SHIPS],
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct AnnouncementDoc {
    seat: u8,
    order: String,
    result: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    hits: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    misses: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    deflected: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    sunk: Vec<String>,
}

impl AnnouncementDoc {
    fn of(a: &Announcement) -> AnnouncementDoc {
        AnnouncementDoc {
            seat: seat_number(a.seat),
            order: format_order(a.ship, &a.order, true),
            result: a.result.text(),
            hits: cells_text(a.effect.hits),
            misses: cells_text(a.effect.misses),
            deflected: cells_text(a.effect.deflected),
            sunk: a.effect.sunk_names(),
        }
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

fn is_zeros(a: &[u16; SHIPS]) -> bool {
    a.iter().all(|&n| n == 0)
}

/// Cells as written in the format: names in row-major order, separated by spaces.
fn cells_text(b: Bits) -> String {
    b.iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A written seat, 1 to 4.
fn seat_number(s: Seat) -> u8 {
    s.0 + 1
}

fn impossible(part: impl Into<String>, reason: impl Into<String>) -> SetupError {
    SetupError::impossible(part, reason)
}

fn bad(part: impl Into<String>, reason: impl Into<String>) -> SetupError {
    SetupError::position(part, reason)
}

impl Naval {
    /// The state as a `naval/1` document.
    fn to_doc(&self) -> Doc {
        let battle = matches!(self.phase, Phase::Battle | Phase::Over { .. });
        let mut blocks = Vec::new();
        let mut scans = Vec::new();
        for t in Seat::all(4) {
            for o in Seat::all(4) {
                let cells = self.blocks[t.index()][o.index()];
                if !cells.is_empty() {
                    blocks.push(BlockDoc {
                        board: seat_number(t),
                        owner: seat_number(o),
                        cells: cells_text(cells),
                    });
                }
                let scan = self.scans[t.index()][o.index()];
                if scan != Scan::default() {
                    scans.push(ScanDoc {
                        caster: seat_number(t),
                        board: seat_number(o),
                        satellite: cells_text(scan.satellite),
                        sonar: cells_text(scan.sonar),
                        radar: cells_text(scan.radar),
                    });
                }
            }
        }
        Doc {
            format: FORMAT.to_owned(),
            config: Some(self.config),
            phase: match self.phase {
                Phase::Layout { .. } => "layout",
                Phase::Placement => "placement",
                Phase::FirstPlayer => "first_player",
                Phase::Battle => "battle",
                Phase::Over { limit: false } => "over",
                Phase::Over { limit: true } => "over_round_limit",
            }
            .to_owned(),
            first: battle.then(|| seat_number(self.first)),
            current: battle.then(|| seat_number(self.current)),
            rounds: self.rounds,
            boards: self.boards.iter().map(board_doc).collect(),
            blocks,
            scans,
            turn: battle.then(|| TurnDoc {
                orders: Ship::ALL
                    .into_iter()
                    .filter(|&k| self.turn.has_order(k))
                    .map(|k| format_order(k, &self.turn.order(k), true))
                    .collect(),
                resolving: self.turn.resolving,
                cursor: self
                    .turn
                    .cursor
                    .filter(|_| self.turn.resolving)
                    .map(|k| k.name().to_owned()),
                rocket: self.turn.rocket.map(|c| c.to_string()),
                miss_gain: self.turn.miss_gain,
            }),
            eliminated: self.out_order.iter().map(|&s| seat_number(s)).collect(),
            last_turn: self.last_turn.iter().map(AnnouncementDoc::of).collect(),
            earlier_turns: self
                .earlier_turns
                .iter()
                .map(|turn| turn.iter().map(AnnouncementDoc::of).collect())
                .collect(),
        }
    }

    /// The canonical position text: the `naval/1` document as compact JSON.
    pub(crate) fn position_text(&self) -> String {
        serde_json::to_string(&self.to_doc()).unwrap_or_default()
    }

    /// Reads a position text; `config` is used when the document names none.
    pub(crate) fn read_position(config: &Config, text: &str) -> Result<Naval, SetupError> {
        let doc: Doc = serde_json::from_str(text).map_err(|e| {
            let token: String = text.chars().take(40).collect();
            bad(
                token,
                format!("not a Bataille Navale position (naval/1): {e}"),
            )
        })?;
        Naval::from_doc(doc, config)
    }
}

fn board_doc(b: &Board) -> BoardDoc {
    BoardDoc {
        fleet: b
            .placed_pieces()
            .map(|p| format_placement(p, b.at[p.index()], b.is_vertical(p)))
            .collect(),
        ready: b.ready,
        moves: b.moves,
        hits: cells_text(b.hit),
        misses: cells_text(b.miss),
        deflected: cells_text(b.deflected),
        energy: b.energy,
        emp: b.emp_left,
        immune: b.immune,
        shield: b.shield.active.then(|| ShieldDoc {
            centre: b.shield.centre.to_string(),
            charges: b.shield.charges,
            public: b.shield.public,
            cast_resolved: cells_text(b.shield.cast_resolved),
        }),
        frigate_shown: b.frigate_shown,
        torpedo_clear: cells_text(b.lane_clear),
        torpedo_triggers: cells_text(b.ship_known),
        charges_hit: cells_text(b.sub_known),
        charges_clear: cells_text(b.sub_clear),
        first_hits: cells_text(b.first_hits),
    }
}

impl Serialize for Naval {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_doc().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Naval {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let doc = Doc::deserialize(d)?;
        Naval::from_doc(doc, &Config::default()).map_err(serde::de::Error::custom)
    }
}

mod read;
