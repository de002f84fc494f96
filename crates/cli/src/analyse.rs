//! `plateau analyse <record.json>`: the post-game analysis of a recorded game (the library is
//! `plateau_bots::analysis`, reached through `plateau_registry::analyse`). The judge is the game's
//! expert level unless `--iterations` says otherwise; a progress bar counts the judged decisions
//! on stderr. The terminal table has one line per seat decision: each seat's expected score after
//! it (its chance to win in two seats; with more, the share of the others it ends ahead of), the
//! loss against the judge's choice and its mark (`?!`, `?`, `??` from the game's thresholds,
//! set above the judge's own noise: docs/bots.md, "Analysis"; `--marks` overrides them).
//! `--json` prints the analysis in its documented shape (docs/bots.md, "Analysis") instead;
//! `--out` writes that JSON to a file as well.

use std::fmt::Write as _;
use std::path::PathBuf;

use indicatif::{ProgressBar, ProgressStyle};
use plateau_bots::{Analysis, AnalysisOptions, Budget, Marks};
use plateau_engine::Record;

use crate::common::{CliResult, check_writable, emit, find_game, read_record};

/// Arguments of `plateau analyse`.
#[derive(clap::Args)]
pub struct Args {
    /// The record: a JSON file written by `plateau play --record` or the match service, or the
    /// text record a replay page exports.
    file: PathBuf,
    /// Search iterations per judged decision (default: the game's expert level, at least 1000).
    #[arg(long)]
    iterations: Option<u64>,
    /// Seed of the judge's searches.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// How many of the biggest marked losses to list.
    #[arg(long, default_value_t = 5)]
    biggest: usize,
    /// The least losses (in chance, 0 to 1) marked `?!`, `?` and `??`, comma-separated and
    /// rising (default: the game's, above the judge's measured noise).
    #[arg(long, value_delimiter = ',')]
    marks: Option<Vec<f64>>,
    /// Print the analysis as JSON instead of the table.
    #[arg(long)]
    json: bool,
    /// Also write the JSON here.
    #[arg(long)]
    out: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Analyses and prints.
pub fn run(args: Args) -> CliResult {
    let path = args.file.display();
    let record = read_record(&args.file)?;
    find_game(&record.game)?;
    let marks = match &args.marks {
        Some(m) => marks(m)?,
        None => plateau_registry::judge_marks(&record.game).map_err(|e| e.to_string())?,
    };
    if let Some(out) = &args.out {
        check_writable(out)?;
    }
    let judge = match args.iterations {
        Some(0) => return Err("--iterations must be at least 1".into()),
        Some(n) => Budget::Iterations(n),
        None => plateau_registry::expert_judge(&record.game).map_err(|e| e.to_string())?,
    };
    let options = AnalysisOptions {
        judge,
        seed: args.seed,
        biggest: args.biggest,
        marks,
    };
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(0)
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:40} {pos}/{len} decisions  {elapsed_precise}  eta {eta}",
        )
        .map_err(|e| e.to_string())?,
    );
    let analysis = plateau_registry::analyse(&record, &options, &mut |done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    })
    .map_err(|e| format!("{path} cannot be analysed: {e}"))?;
    bar.finish_and_clear();

    let json = serde_json::to_string_pretty(&analysis).map_err(|e| e.to_string())?;
    if args.json {
        emit(&format!("{json}\n"))?;
    } else {
        emit(&table(&analysis, &record))?;
    }
    match &args.out {
        Some(out) => std::fs::write(out, format!("{json}\n"))
            .map_err(|e| format!("cannot write {}: {e}", out.display())),
        None => Ok(()),
    }
}

/// `--marks`: three losses in [0, 1], rising.
fn marks(m: &[f64]) -> Result<Marks, String> {
    let ok = m.len() == 3
        && m.iter().all(|v| (0.0..=1.0).contains(v))
        && m.windows(2).all(|w| w[0] <= w[1]);
    if !ok {
        return Err(format!(
            "--marks wants three losses from 0 to 1, rising (`0.1,0.2,0.3`), not {m:?}"
        ));
    }
    Ok(Marks {
        dubious: m[0],
        mistake: m[1],
        blunder: m[2],
    })
}

/// Each seat's chance of winning, as percentages in columns.
fn percents(values: &[f64]) -> String {
    let cells: Vec<String> = values
        .iter()
        .map(|v| format!("{:>5.1}%", 100.0 * v))
        .collect();
    cells.join("  ")
}

/// The terminal table (module documentation).
fn table(a: &Analysis, record: &Record) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}: {} seats ({}), judged by mcts:{} per decision",
        a.game,
        a.seats,
        record.seats.join(", "),
        a.judge
    );
    // What the columns are, since they need not add up to 100% (docs/bots.md section 3).
    let _ = writeln!(
        out,
        "p1..p{}: each seat's expected score after the move: its chance to win in two seats, with \
         more the share of the other seats it ends ahead of{}",
        a.seats,
        if find_game(&a.game).is_ok_and(|g| g.info.hidden_information) {
            "; each judged from what that seat knew, so a seat's value moves only at its own moves"
        } else {
            ""
        }
    );
    let mut head = format!("{:>6}  {:>4}  {:<28}", "ply", "seat", "action");
    for s in 1..=a.seats {
        let _ = write!(head, "  {:>6}", format!("p{s}"));
    }
    let _ = writeln!(out, "{head}  {:>7}  best", "loss");
    let _ = writeln!(
        out,
        "{:>6}  {:>4}  {:<28}  {}",
        0,
        "",
        "(start)",
        percents(&a.start)
    );
    for p in &a.plies {
        let (Some(seat), Some(j)) = (p.seat, &p.judgement) else {
            continue;
        };
        let mark = j.mark.map_or("", |m| m.symbol());
        let best = if j.best == p.action {
            ""
        } else {
            j.best.as_str()
        };
        let _ = writeln!(
            out,
            "{:>6}  {:>4}  {:<28}  {}  {:>5.1}{:<3} {best}",
            p.index,
            seat + 1,
            p.action,
            percents(&p.values),
            100.0 * j.loss,
            mark,
        );
    }
    if let Some(last) = a.plies.last() {
        let _ = writeln!(
            out,
            "{:>6}  {:>4}  {:<28}  {}",
            "end",
            "",
            "",
            percents(&last.values)
        );
    }
    let _ = writeln!(out, "biggest marked losses:");
    if a.biggest_losses.is_empty() {
        let _ = writeln!(out, "  none");
    }
    for l in &a.biggest_losses {
        let action = a
            .plies
            .iter()
            .find(|p| p.index == l.index)
            .map_or("", |p| p.action.as_str());
        let _ = writeln!(
            out,
            "  ply {} seat {}: {action}{} lost {:.1} points of chance",
            l.index,
            l.seat + 1,
            l.mark.symbol(),
            100.0 * l.loss
        );
    }
    out
}
