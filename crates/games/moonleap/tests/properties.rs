//! Properties of the notation (rules/moonleap.md, "Canonical notation"), checked on generated
//! inputs: every action reads back from its text, and a position that reads writes back as
//! itself.

use plateau_engine::Game;
use plateau_moonleap::{Action, Config, MoonLeap, parse_action};
use proptest::prelude::*;

proptest! {
    // A fixed seed: the same cases every run (a failure reproduces; nothing passes by luck).
    #![proptest_config(ProptestConfig {
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x4d4c50),
        ..ProptestConfig::default()
    })]

    #[test]
    fn any_action_text_is_read_or_refused(text in "[rmpas1-6*+]{0,6}", mercenaries in any::<bool>()) {
        if let Ok(a) = parse_action(&text, mercenaries) {
            let back: Result<Action, _> = parse_action(&a.to_string(), mercenaries);
            prop_assert_eq!(back, Ok(a));
        }
    }

    #[test]
    fn a_position_that_reads_writes_back_as_itself(
        track in prop::collection::vec(prop_oneof![Just(".".to_owned()), "[ab][1-5]"], 37),
        to_move in "[ab]",
        roll in "[-1-5*]",
    ) {
        let text = format!("{} 2 {to_move} {roll}", track.concat());
        if let Ok(state) = MoonLeap::parse_position(&Config::default(), &text) {
            prop_assert_eq!(state.format_position(), text);
        }
    }
}
