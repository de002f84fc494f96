//! One AFL++ harness for every fuzz target: `plateau-fuzz <target>` runs the check of `<target>`
//! (`plateau_fuzz_checks::TARGETS`) on each input the fuzzer gives it, in AFL's persistent mode.
//! A broken property panics, which afl.rs turns into an abort that AFL records as a crash.

fn main() {
    let target = std::env::args().nth(1).unwrap_or_default();
    if !plateau_fuzz_checks::TARGETS.contains(&target.as_str()) {
        eprintln!(
            "usage: plateau-fuzz <target>, one of: {}",
            plateau_fuzz_checks::TARGETS.join(", ")
        );
        std::process::exit(2);
    }
    afl::fuzz!(|data: &[u8]| {
        plateau_fuzz_checks::check(&target, data);
    });
}
