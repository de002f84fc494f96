//! The specials' values: each affordable ability at its best aim on the odds (area sums, the
//! torpedo's lane walked cell by cell, the shield, the EMP, the detections).

use plateau_engine::Seat;

use super::{
    EMP_PER_SHIP, HIT_IS_SHIP, KNOWN, MISSILE_REVEAL, SCAN_VALUE, SHIELD_VALUE, Scored, Style,
    Target, better,
};
use crate::ability::{Ability, Dir};
use crate::action::Order;
use crate::bits::{Bits, Cell, SIDE};
use crate::piece::Ship;
use crate::state::Naval;

impl Naval {
    /// The best use of `ability` for `seat`, or `None` when it has no use worth valuing (the
    /// detections outside the thorough style, a shield with nothing to protect).
    pub(super) fn best_special(
        &self,
        seat: Seat,
        ability: Ability,
        targets: &[Target],
        style: Style,
        jitter: &dyn Fn(Cell) -> f32,
    ) -> Option<Scored> {
        let mut best: Option<Scored> = None;
        match ability {
            Ability::Satellite | Ability::Sonar | Ability::Radar => {
                if style != Style::Thorough {
                    return None;
                }
                for t in targets {
                    for aim in ability.aims(false).iter() {
                        let unknown: f32 = ability
                            .area(aim, false)
                            .iter()
                            .map(|c| t.at(c))
                            .filter(|&p| p < KNOWN)
                            .sum();
                        let value = SCAN_VALUE * t.weight * unknown + jitter(aim);
                        best = better(best, area_order(ability, t.seat, aim, false, value));
                    }
                }
            }
            Ability::Shield => {
                if !self.needs_shield(seat) {
                    return None;
                }
                let b = self.board(seat);
                let unhit = Ship::ALL
                    .into_iter()
                    .filter(|&k| k != Ship::Corvette && !b.is_sunk(k))
                    .fold(Bits::EMPTY, |a, k| a | b.mask(k.piece()))
                    & !b.hit;
                for c in self.shield_centres(seat).iter() {
                    let covered = (Ability::Shield.area(c, false) & unhit).count() as f32;
                    let value = SHIELD_VALUE * (covered / 5.0).min(1.0);
                    best = better(
                        best,
                        Scored {
                            order: Order::Special {
                                ability,
                                target: seat,
                                cell: c,
                                vertical: false,
                            },
                            value,
                        },
                    );
                }
            }
            Ability::Emp => {
                for t in targets {
                    let b = self.board(t.seat);
                    if b.emp_left > 0 || b.immune {
                        continue;
                    }
                    let afloat = Ship::ALL.iter().filter(|&&k| !b.is_sunk(k));
                    // Ties go to the larger fleet afloat: which ships are sunk is public, where
                    // the hits fell on the others (a ship or a buoy) is not.
                    let cells: f32 = afloat.clone().map(|k| f32::from(k.piece().size())).sum();
                    best = better(
                        best,
                        Scored {
                            order: Order::Emp { target: t.seat },
                            value: EMP_PER_SHIP * afloat.count() as f32 + cells / 100.0,
                        },
                    );
                }
            }
            Ability::Torpedo => {
                for t in targets {
                    for dir in self.torpedo_dirs(seat, t.seat) {
                        for lane in 0..SIDE {
                            let value = t.weight * self.torpedo_value(t, dir, lane);
                            best = better(
                                best,
                                Scored {
                                    order: Order::Torpedo {
                                        target: t.seat,
                                        dir,
                                        lane,
                                    },
                                    value,
                                },
                            );
                        }
                    }
                }
            }
            Ability::Charges => {
                if style == Style::Quick {
                    return None;
                }
                for t in targets {
                    for aim in ability.aims(false).iter() {
                        let value = t.weight * t.sub_sum(ability.area(aim, false));
                        best = better(best, area_order(ability, t.seat, aim, false, value));
                    }
                }
            }
            _ => {
                let (scale, cost) = match ability {
                    Ability::Rockets => (0.5, 0.0),
                    Ability::Missile => (1.0, MISSILE_REVEAL),
                    _ => (1.0, 0.0),
                };
                for t in targets {
                    for &v in ability.orientations() {
                        // The quick style tries only the aims on the hits nobody explained.
                        let aims = match style {
                            Style::Thorough | Style::Greedy => ability.aims(v),
                            Style::Quick => t
                                .open_hits()
                                .iter()
                                .fold(Bits::EMPTY, |a, c| a | Bits::cell(ability.normalise(c, v))),
                        };
                        for aim in aims.iter() {
                            let value =
                                t.weight * scale * t.area_sum(ability, aim, v) - cost + jitter(aim);
                            best = better(best, area_order(ability, t.seat, aim, v, value));
                        }
                    }
                }
            }
        }
        best
    }

    /// Expected cells hit by a torpedo along `lane` moving `dir` on `t`'s board: the lane is
    /// walked in travel order, each cell triggering with the chance that it holds a ship still
    /// afloat, and a trigger shoots the odds of its 3x3 (shields ignored, section 9).
    fn torpedo_value(&self, t: &Target, dir: Dir, lane: u8) -> f32 {
        let b = self.board(t.seat);
        let resolved = b.resolved();
        let mut not_yet = 1f32;
        let mut value = 0f32;
        for c in dir.lane(lane) {
            let live = if t.open_hits().has(c) {
                HIT_IS_SHIP
            } else if resolved.has(c) {
                0.0
            } else {
                t.at(c)
            };
            if live > 0.0 {
                let aim = Ability::Torpedo.normalise(c, false);
                value += not_yet * live * t.area_sum(Ability::Torpedo, aim, false);
                not_yet *= 1.0 - live;
                if not_yet < 0.02 {
                    break;
                }
            }
        }
        value
    }
}

fn area_order(ability: Ability, target: Seat, aim: Cell, vertical: bool, value: f32) -> Scored {
    Scored {
        order: Order::Special {
            ability,
            target,
            cell: aim,
            vertical,
        },
        value,
    }
}
