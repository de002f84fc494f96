//! Replays the committed fuzz corpus (`fuzz/corpus/<target>/*`, docs/reliability.md "Fuzzing")
//! through the same checks the fuzzer runs, so every input it kept, crashes once found included,
//! is checked by a plain `cargo test` without the fuzzer.

use std::path::Path;

use plateau_fuzz_checks::{TARGETS, check};

#[test]
fn every_corpus_input_passes_its_targets_check() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus");
    for target in TARGETS {
        let dir = corpus.join(target);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|entry| entry.expect("a directory entry").path())
            .collect();
        files.sort();
        assert!(!files.is_empty(), "{target}: the corpus is empty");
        for file in files {
            let data = std::fs::read(&file).expect("a corpus file reads");
            // The file's name in the panic message says which input broke.
            let result = std::panic::catch_unwind(|| check(target, &data));
            assert!(
                result.is_ok(),
                "{target}: {} fails its check",
                file.display()
            );
        }
    }
}

#[test]
fn the_seed_inputs_pass_their_checks() {
    // The generator's own inputs, independent of what is committed.
    let seeds = plateau_fuzz_checks::seeds::seed_corpus();
    for target in TARGETS {
        assert!(
            seeds.iter().any(|(t, _, _)| t == target),
            "{target}: no seed input"
        );
    }
    for (target, name, bytes) in seeds {
        let result = std::panic::catch_unwind(|| check(target, &bytes));
        assert!(result.is_ok(), "{target}: seed {name} fails its check");
    }
}

/// Every registered game's position and action parsers have their targets (a new game adds its
/// two names to `TARGETS`, to `seeds.rs`, and to `fuzz/run.sh`; docs/adding-a-game.md).
#[test]
fn every_registered_game_is_fuzzed() {
    for g in plateau_registry::GAMES {
        for kind in ["position", "action"] {
            let target = format!("{kind}_{}", g.info.name);
            assert!(
                TARGETS.contains(&target.as_str()),
                "{}: no fuzz target `{target}`",
                g.info.name
            );
        }
    }
}
