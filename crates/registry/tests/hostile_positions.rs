//! Hostile positions (docs/architecture.md section 2.2): for every registered game, the data file
//! `tests/data/hostile/<game>.txt` lists at least 30 malformed or impossible positions, each with
//! words its error must contain. Every one is refused through the registry, as the command line
//! and the match service read positions, with a setup error that names the problem.

use plateau_engine::SetupError;
use serde_json::Value;

#[test]
fn every_hostile_position_is_refused_naming_its_problem() {
    for entry in plateau_registry::GAMES {
        let name = entry.info.name;
        let path = format!(
            "{}/tests/data/hostile/{name}.txt",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{name}: no hostile positions at {path}: {e}"));
        let mut count = 0;
        for (n, line) in text.lines().enumerate() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let (words, position) = line
                .split_once('\t')
                .unwrap_or_else(|| panic!("{path}:{}: expected `words<TAB>position`", n + 1));
            let err = match entry.from_position(&Value::Null, position) {
                Ok(_) => panic!("{path}:{}: accepted `{position}`", n + 1),
                Err(e) => e,
            };
            assert!(
                matches!(
                    err,
                    SetupError::Position(_) | SetupError::Impossible(_) | SetupError::Config(_)
                ),
                "{path}:{}: {err:?}",
                n + 1
            );
            let message = err.to_string();
            assert!(
                message.contains(words),
                "{path}:{}: `{message}` does not say `{words}`",
                n + 1
            );
            count += 1;
        }
        assert!(count >= 30, "{name}: only {count} hostile positions");
    }
}

/// The files hold both kinds: positions that do not read and positions the rules cannot reach.
#[test]
fn each_file_holds_impossible_positions_too() {
    for entry in plateau_registry::GAMES {
        let name = entry.info.name;
        let path = format!(
            "{}/tests/data/hostile/{name}.txt",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{name}: no hostile positions at {path}: {e}"));
        let impossible = text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .filter_map(|l| l.split_once('\t'))
            .filter(|(_, p)| {
                matches!(
                    entry.from_position(&Value::Null, p),
                    Err(SetupError::Impossible(_))
                )
            })
            .count();
        assert!(impossible >= 4, "{name}: {impossible} impossible positions");
    }
}
