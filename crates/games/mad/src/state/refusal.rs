//! Why an action is not legal, in one sentence citing the rule (rules/mad.md sections 5 to 7).

use super::*;

impl Mad {
    /// Why `action` is not legal for the side to move (called only when it is not in the legal
    /// list): one sentence starting with the action's text and citing the rule.
    pub(crate) fn why_illegal(&self, action: Action) -> String {
        let text = action.text();
        let reason = self.reason(action);
        format!("{text}: {reason}")
    }

    fn reason(&self, action: Action) -> String {
        let side = self.side;
        if self.positioning_now() && matches!(action, Action::Move(_) | Action::Bonus(..)) {
            return "no movement in the positioning turn: permute, rotate or pass \
                    (rules/mad.md section 7)"
                .into();
        }
        match action {
            Action::Pass => "passing is allowed only in the positioning turn (rules/mad.md \
                             sections 4 and 7)"
                .into(),
            Action::Shift(shift) => Self::shift_reason(shift),
            Action::Move(step) => self
                .step_reason(step)
                .unwrap_or_else(|| "not a legal movement here".into()),
            Action::Bonus(step, shift) => {
                if let Some(r) = self.step_reason(step) {
                    return r;
                }
                let (from, to) = (step.from.index(), step.to.index());
                let (fc, fr) = (from % 4, from / 4);
                let (tc, tr) = (to % 4, to / 4);
                if fc.abs_diff(tc) + fr.abs_diff(tr) != 1 {
                    return "a bonus follows only a 1-cell movement (rules/mad.md section 6)"
                        .into();
                }
                let row = Self::last_row(side) + 1;
                if tr + 1 != row {
                    return format!(
                        "a bonus needs a movement onto your last row, row {row} (rules/mad.md \
                         section 6)"
                    );
                }
                if step.capture && self.cells[to as usize] == token(side.other(), CORVETTE) {
                    return "expelling the enemy corvette ends the game: no bonus follows \
                            (rules/mad.md section 6)"
                        .into();
                }
                let kind = (self.cells[from as usize] - 1) & 7;
                if !shift.involves(kind) {
                    return format!(
                        "the bonus shift must involve the ship that moved ({}) (rules/mad.md \
                         section 6)",
                        kind_code(kind)
                    );
                }
                // The moved ship is on the board, so only a rotation lacking a second ship of
                // its pool can fail here.
                Self::shift_reason(shift)
            }
        }
    }

    fn shift_reason(shift: Shift) -> String {
        match shift {
            Shift::Permute(_) => {
                "both ships of the pair are in exile; a permutation needs one on the board \
                 (rules/mad.md section 5.2)"
                    .into()
            }
            Shift::Rotate(_) => {
                "a rotation needs at least two of its three ships on the board (rules/mad.md \
                 section 5.3)"
                    .into()
            }
        }
    }

    /// Why a movement is illegal, if the movement rules (section 5.1) say so.
    fn step_reason(&self, step: Step) -> Option<String> {
        let side = self.side;
        let (from, to) = (step.from.index(), step.to.index());
        let Some((owner, kind)) = untoken(self.cells[from as usize]) else {
            return Some(format!("there is no ship on {}", cell_name(from)));
        };
        if owner != side {
            return Some(format!(
                "the ship on {} is not yours (rules/mad.md section 5.1)",
                cell_name(from)
            ));
        }
        if from == to {
            return Some(
                "a movement must end on a different cell (rules/mad.md section 5.1)".into(),
            );
        }
        let (fc, fr) = (from % 4, from / 4);
        let (tc, tr) = (to % 4, to / 4);
        let dist = fc.abs_diff(tc) + fr.abs_diff(tr);
        let s = sails(kind);
        if dist > s {
            let unit = if s == 1 { "cell" } else { "cells" };
            let sail = if s == 1 { "sail" } else { "sails" };
            return Some(format!(
                "a ship with {s} {sail} moves at most {s} {unit} (rules/mad.md section 5.1)"
            ));
        }
        let code = kind_code(kind);
        match untoken(self.cells[to as usize]) {
            Some((o, _)) if o == side => {
                return Some(format!(
                    "{} holds your own ship (rules/mad.md section 5.1)",
                    cell_name(to)
                ));
            }
            Some((_, target)) if shields(target) > cannons(kind) => {
                return Some(format!(
                    "{code} has {} cannon(s) and cannot expel {} with {} shields (rules/mad.md \
                     section 2)",
                    cannons(kind),
                    kind_code(target),
                    shields(target)
                ));
            }
            Some((_, target)) if !step.capture => {
                return Some(format!(
                    "the movement expels {} on {}: write {}x{}",
                    kind_code(target),
                    cell_name(to),
                    cell_name(from),
                    cell_name(to)
                ));
            }
            None if step.capture => {
                return Some(format!(
                    "{} is empty, nothing to expel: write {}-{}",
                    cell_name(to),
                    cell_name(from),
                    cell_name(to)
                ));
            }
            _ => {}
        }
        if dist == 2 {
            let free = |c: u8| self.cells[c as usize] == 0;
            if fc == tc || fr == tr {
                let mid = (from + to) / 2;
                if !free(mid) {
                    return Some(format!(
                        "the path through {} is blocked (rules/mad.md section 5.1)",
                        cell_name(mid)
                    ));
                }
            } else {
                let a = fr * 4 + tc;
                let b = tr * 4 + fc;
                if !free(a) && !free(b) {
                    return Some(format!(
                        "both paths, through {} and through {}, are blocked (rules/mad.md \
                         section 5.1)",
                        cell_name(a),
                        cell_name(b)
                    ));
                }
            }
        }
        None
    }
}
