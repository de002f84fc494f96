//! The `plateau` command (docs/architecture.md section 3): one binary, one module per subcommand.
//!
//! This file only parses the command line and dispatches. To add a subcommand (`serve`, `arena`,
//! `bench`), write a module with `pub struct Args` (clap `Args`) and `pub fn run(args) -> CliResult`,
//! then add one variant to `Command` and one arm to `main`.

mod admin;
mod analyse;
mod arena;
mod backup;
mod bench;
mod chart;
mod common;
mod config;
mod legal;
mod load;
mod perft;
mod play;
mod replay;
mod restore;
mod serve;

use std::io::Write;
use std::process::ExitCode;

use clap::{ArgMatches, CommandFactory, FromArgMatches, Parser, Subcommand};

/// The process's allocator: mimalloc (v3, the crate's default), not glibc's malloc. The server's
/// three busy threads (two tokio workers and the SQLite writer) free what another allocated (the
/// writer's jobs, its replies): glibc, once the freeing thread's cache of that size is full, frees
/// into the other thread's arena under its lock; mimalloc onto the page's own lock-free list. At
/// human pace with 8,000 matches it took 4-6% less CPU per decision than glibc in interleaved
/// runs, for 0.8 KiB more per socket and about 10 MiB at rest (docs/performance.md section 9.5).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Plateau: board games with exact rules.
#[derive(Parser)]
#[command(name = "plateau", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Moderation from the server's shell: roles, reports, warnings, mutes, renames, bans,
    /// closing a match, the audit log.
    Admin(admin::Args),
    /// Post-game analysis: each seat's chance after every move, the moves that lost the most.
    Analyse(analyse::Args),
    /// Bot tournament: win rates with 95% intervals and ratings.
    Arena(arena::Args),
    /// Copy a SQLite database while servers run on it.
    Backup(backup::Args),
    /// Single-thread random playouts and MCTS iterations per second.
    Bench(bench::Args),
    /// Legal actions of the side to act, one per line, sorted by byte order.
    Legal(legal::Args),
    /// Load a match service on loopback: live matches, decisions per second, latency, memory.
    Load(load::Args),
    /// Number of nodes at exactly a given depth of the game tree.
    Perft(perft::Args),
    /// Play a game in the terminal, against bots or other people at the same keyboard.
    Play(play::Args),
    /// Re-play a game record, checking every action, the seed and the result.
    Replay(replay::Args),
    /// Put a backup in the place of a SQLite database, while no server runs on it.
    Restore(restore::Args),
    /// The match service: lobby, matches, web UI and bots over HTTP and WebSocket.
    // Boxed: its many flags would make every command as large.
    Serve(Box<serve::Args>),
}

/// The command line, parsed as `Cli` and as matches; with `plateau serve --config FILE`, the
/// file's settings are the defaults of its flags (`config::with_file`), and with `plateau admin
/// --config FILE` those of the flags admin shares with serve (`config::shared`).
fn parse() -> Result<(Cli, ArgMatches), String> {
    let mut command = Cli::command();
    let mut matches = command.clone().get_matches();
    if let Some((name @ ("serve" | "admin"), sub)) = matches.subcommand()
        && let Some(file) = sub.get_one::<std::path::PathBuf>("config")
        && let Some(serve) = command.find_subcommand("serve")
        && let Some(definition) = command.find_subcommand(name)
    {
        let with_file = if name == "serve" {
            config::with_file(serve.clone(), file)?
        } else {
            config::shared(serve.clone(), file, definition.clone())?
        };
        command = command.mut_subcommand(name, |_| with_file);
        matches = command.get_matches();
    }
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    Ok((cli, matches))
}

fn main() -> ExitCode {
    let (cli, matches) = match parse() {
        Ok(parsed) => parsed,
        Err(message) => return fail(&message),
    };
    let result = match cli.command {
        Command::Admin(args) => admin::run(args),
        Command::Analyse(args) => analyse::run(args),
        Command::Arena(args) => arena::run(args),
        Command::Backup(args) => backup::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Legal(args) => legal::run(args),
        Command::Load(args) => load::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Play(args) => play::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Restore(args) => restore::run(args),
        Command::Serve(args) => match matches.subcommand_matches("serve") {
            Some(serve) => serve::run(*args, serve),
            None => Err("the serve command's arguments are missing".into()),
        },
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => fail(&message),
    }
}

/// Says `message` on stderr; the exit status of a failure.
fn fail(message: &str) -> ExitCode {
    // Not eprintln!: it panics when stderr is a closed pipe.
    let _ = writeln!(std::io::stderr(), "error: {message}");
    ExitCode::FAILURE
}
