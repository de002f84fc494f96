//! The options of a game (rules/naval.md; every figure marked `[ruling: ours]` there is a field
//! here): costs of the specials (section 9), energy gains (section 8), shields, EMPs, the round
//! limit, the placement move cap and the two clocks the match runner keeps.

use plateau_engine::SetupError;
use serde::{Deserialize, Serialize};

use crate::ability::{ABILITIES, Ability};

/// Energy cost of each special (section 9 table; every figure is `[ruling: ours]`). In JSON each
/// field is optional (absent: the default); an unknown field is refused.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Costs {
    /// Shield (default 350).
    pub shield: u16,
    /// Satellite (default 250).
    pub satellite: u16,
    /// Torpedo (default 450).
    pub torpedo: u16,
    /// Sonar (default 250).
    pub sonar: u16,
    /// Rockets (default 500).
    pub rockets: u16,
    /// Missile (default 700).
    pub missile: u16,
    /// Charges (default 300).
    pub charges: u16,
    /// Radar (default 300).
    pub radar: u16,
    /// Artillery (default 200).
    pub artillery: u16,
    /// Heavy (default 450).
    pub heavy: u16,
    /// Bombing (default 400).
    pub bombing: u16,
    /// Emp (default 1000).
    pub emp: u16,
}

impl Default for Costs {
    fn default() -> Costs {
        Costs {
            shield: 350,
            satellite: 250,
            torpedo: 450,
            sonar: 250,
            rockets: 500,
            missile: 700,
            charges: 300,
            radar: 300,
            artillery: 200,
            heavy: 450,
            bombing: 400,
            emp: 1000,
        }
    }
}

impl Costs {
    /// The cost of `ability`.
    #[must_use]
    pub const fn of(&self, ability: Ability) -> u16 {
        match ability {
            Ability::Shield => self.shield,
            Ability::Satellite => self.satellite,
            Ability::Torpedo => self.torpedo,
            Ability::Sonar => self.sonar,
            Ability::Rockets => self.rockets,
            Ability::Missile => self.missile,
            Ability::Charges => self.charges,
            Ability::Radar => self.radar,
            Ability::Artillery => self.artillery,
            Ability::Heavy => self.heavy,
            Ability::Bombing => self.bombing,
            Ability::Emp => self.emp,
        }
    }
}

/// Energy gains of section 8 (E1-E4; E5 is `floor(1000 / size)`, a seed figure, not configurable).
/// In JSON each field is optional (absent: the default); an unknown field is refused.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Gains {
    /// E1: a ship that passes (75).
    pub pass: u16,
    /// E2: a normal shot's first hit on a fresh object (200, seed figure).
    pub first_hit: u16,
    /// E3: a normal shot's later hit on a ship (75).
    pub hit: u16,
    /// E3: a normal shot's sinking hit (100).
    pub sink: u16,
    /// E4: per ship cell among the 8 cells around an enemy miss (25).
    pub miss_per_cell: u16,
    /// E4: cap per ship per enemy action (100).
    pub miss_cap: u16,
}

impl Default for Gains {
    fn default() -> Gains {
        Gains {
            pass: 75,
            first_hit: 200,
            hit: 75,
            sink: 100,
            miss_per_cell: 25,
            miss_cap: 100,
        }
    }
}

/// Options of the game. `Default` is the game of rules/naval.md; the figures marked
/// `[ruling: ours]` there are fields here. In JSON each field is optional; an unknown field is
/// refused (its name is in the error).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Round limit (section 12.6), default 200.
    pub max_rounds: u16,
    /// Placement moves per seat before only `ready` is legal (section 4.5a), default 40.
    pub placement_moves: u8,
    /// Placement clock in seconds, kept by the match runner (section 4.6), default 90.
    pub placement_seconds: u32,
    /// Turn clock in seconds, kept by the match runner (section 5.10), default 60.
    pub turn_seconds: u32,
    /// Costs of the specials (section 9).
    pub costs: Costs,
    /// Energy gains (section 8).
    pub gains: Gains,
    /// Shield charges (section 10.3, seed figure), default 5.
    pub shield_charges: u8,
    /// Turns lost to an EMP (section 9 rule 5, seed figure), default 2.
    pub emp_turns: u8,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            max_rounds: 200,
            placement_moves: 40,
            placement_seconds: 90,
            turn_seconds: 60,
            costs: Costs::default(),
            gains: Gains::default(),
            shield_charges: 5,
            emp_turns: 2,
        }
    }
}

impl Config {
    /// Checks the figures.
    ///
    /// # Errors
    /// `SetupError::Config` naming the field out of range.
    pub fn validate(&self) -> Result<(), SetupError> {
        let bad = |what: &str| Err(SetupError::Config(what.to_owned()));
        if self.max_rounds == 0 {
            return bad("max_rounds must be at least 1");
        }
        if let Some(a) = ABILITIES.iter().find(|a| self.costs.of(**a) > 1000) {
            return bad(&format!(
                "costs.{} must be at most 1000 (the energy meter's top), not {}",
                a.name(),
                self.costs.of(*a)
            ));
        }
        for (name, value) in [
            ("shield_charges", self.shield_charges),
            ("emp_turns", self.emp_turns),
        ] {
            if value == 0 {
                return bad(&format!("{name} must be at least 1"));
            }
        }
        // A clock of 0 s would have the match runner pass every turn at once, as fast as it can.
        for (name, seconds) in [
            ("placement_seconds", self.placement_seconds),
            ("turn_seconds", self.turn_seconds),
        ] {
            if !(1..=86_400).contains(&seconds) {
                return bad(&format!(
                    "{name} must be between 1 and 86400, not {seconds}"
                ));
            }
        }
        Ok(())
    }
}
