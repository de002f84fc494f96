//! Why an order may not be given, as the player reads it (rules/naval.md sections 5 to 10).

use std::fmt;

use plateau_engine::Seat;

use crate::ability::{Ability, DIRS, Dir};
use crate::bits::Cell;
use crate::piece::Ship;

/// Why an order may not be given: the first rule it breaks. `Display` gives the sentence a
/// player reads, citing the rule.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Refusal {
    /// The ability belongs to another ship (section 9).
    NotItsAbility {
        /// The ship ordered.
        ship: Ship,
        /// The ability asked for.
        ability: Ability,
    },
    /// Not enough energy for the special (section 5.4).
    Energy {
        /// The ship ordered.
        ship: Ship,
        /// Its energy.
        has: u16,
        /// The special.
        ability: Ability,
        /// Its cost.
        cost: u16,
    },
    /// No such seat at the table.
    NoSeat(Seat),
    /// A shot at the shooter's own board (section 6.2).
    OwnBoard,
    /// The target seat is out (section 12.2).
    Eliminated(Seat),
    /// The cell was hit or missed already (section 6.1).
    Resolved(Seat, Cell),
    /// The cell is blocked for the shooter (section 7); the owners of the blocks.
    Blocked(Seat, Cell, [bool; 4]),
    /// A higher-ranked ship already picked the cell for its normal shot (section 5.5).
    Picked(Seat, Cell),
    /// A shield goes on the owner's own board (section 10.1).
    ShieldElsewhere,
    /// A shield has no orientation.
    ShieldOrientation,
    /// A shield is not centred on the corvette (section 10.1).
    ShieldOnCorvette,
    /// A shield is centred on a cell of an unsunk ship (section 10.1).
    ShieldOffShips(Cell),
    /// The ability is not aimed at a cell.
    NotAimed(Ability),
    /// Only the bombing line has an orientation.
    NoOrientation(Ability),
    /// The aim is not the normalised one (section 6.5a).
    NotNormalised(Cell, Cell),
    /// A torpedo lane is 0 to 13.
    NoLane,
    /// Torpedoes reach the two adjacent boards only (section 9).
    Opposite(Seat),
    /// A torpedo from this seat enters that board in another direction (section 3).
    Direction(Seat, Seat),
    /// The seat is already disabled by an EMP (section 9 rule 5).
    Disabled(Seat),
    /// The seat is immune to EMP until it plays an active turn (section 9 rule 5).
    Immune(Seat),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Refusal::NotItsAbility { ship, ability } => {
                let [a, b] = Ability::of_ship(ship);
                write!(
                    f,
                    "the {} has no {} (its specials: {}, {})",
                    ship.name(),
                    ability.name(),
                    a.name(),
                    b.name()
                )
            }
            Refusal::Energy {
                ship,
                has,
                ability,
                cost,
            } => write!(
                f,
                "the {} has {has} energy; {} costs {cost} (section 5.4)",
                ship.name(),
                ability.name()
            ),
            Refusal::NoSeat(t) => write!(f, "there is no seat {t}"),
            Refusal::OwnBoard => f.write_str("you cannot shoot at your own board (section 6.2)"),
            Refusal::Eliminated(t) => write!(
                f,
                "seat {t} is eliminated; its board cannot be targeted (section 12.2)"
            ),
            Refusal::Resolved(t, c) => write!(f, "{t}:{c} is already resolved (section 6.1)"),
            Refusal::Blocked(t, c, owners) => {
                let owners: Vec<String> = Seat::all(4)
                    .filter(|o| owners[o.index()])
                    .map(|o| o.to_string())
                    .collect();
                write!(
                    f,
                    "{t}:{c} is blocked by seat {} until its next turn (section 7)",
                    owners.join(" and ")
                )
            }
            Refusal::Picked(t, c) => write!(
                f,
                "{t}:{c} is already the target of a normal shot of a higher-ranked ship (section 5.5)"
            ),
            Refusal::ShieldElsewhere => {
                f.write_str("the shield goes on your own board (section 10.1)")
            }
            Refusal::ShieldOrientation => {
                f.write_str("a shield is centred on one cell, without orientation")
            }
            Refusal::ShieldOnCorvette => {
                f.write_str("a shield cannot be centred on the corvette (section 10.1)")
            }
            Refusal::ShieldOffShips(c) => write!(
                f,
                "{c}: the shield's centre must be a cell of one of your unsunk ships (section 10.1)"
            ),
            Refusal::NotAimed(a) => write!(f, "{} is not aimed at a cell", a.name()),
            Refusal::NoOrientation(a) => write!(f, "{} takes no orientation", a.name()),
            Refusal::NotNormalised(c, n) => {
                write!(f, "aim {c} is not normalised; write {n} (section 6.5a)")
            }
            Refusal::NoLane => f.write_str("no such lane"),
            Refusal::Opposite(t) => write!(
                f,
                "seat {t} sits opposite; torpedoes reach only the two adjacent boards (section 9)"
            ),
            Refusal::Direction(s, t) => {
                let want: Vec<&str> = DIRS
                    .into_iter()
                    .filter(|d| Dir::between(s, t).is_none_or(|one| one == *d))
                    .map(Dir::name)
                    .collect();
                write!(
                    f,
                    "a torpedo from seat {s} enters seat {t}'s board moving {} (section 3)",
                    want.join("/")
                )
            }
            Refusal::Disabled(t) => {
                write!(f, "seat {t} is already disabled (section 9 rule 5)")
            }
            Refusal::Immune(t) => write!(
                f,
                "seat {t} is immune to EMP until it plays an active turn (section 9 rule 5)"
            ),
        }
    }
}
