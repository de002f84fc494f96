//! Writes the seed inputs of every fuzz target (`plateau_fuzz_checks::seeds`) to
//! `fuzz/corpus/<target>/seed-<name>`, beside what the fuzzer found. Run from anywhere:
//! `cargo run -p plateau-fuzz-checks --example seed_corpus`.

use std::path::Path;

fn main() -> std::io::Result<()> {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus");
    let seeds = plateau_fuzz_checks::seeds::seed_corpus();
    for (target, name, bytes) in &seeds {
        let dir = corpus.join(target);
        std::fs::create_dir_all(&dir)?;
        std::fs::write(dir.join(format!("seed-{name}")), bytes)?;
    }
    println!(
        "{} seed inputs written under {}",
        seeds.len(),
        corpus.display()
    );
    Ok(())
}
