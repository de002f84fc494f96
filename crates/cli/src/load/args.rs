//! The flags of `plateau load`.

use std::net::SocketAddr;

/// Arguments of `plateau load`.
#[derive(clap::Args)]
pub struct Args {
    /// A running server on loopback; without it one is started here on a fresh SQLite file.
    #[arg(long)]
    pub(super) addr: Option<SocketAddr>,
    /// The server's process id, to read its memory (a spawned server's is known).
    #[arg(long)]
    pub(super) server_pid: Option<u32>,
    /// A second node of the same database (`plateau serve --node`, on loopback): each match is
    /// created through the first (which places it on a live node: docs/architecture.md section
    /// 5.3), and its seat `k` connects through node `k % 2`.
    #[arg(long, requires = "addr")]
    pub(super) node: Option<SocketAddr>,
    /// Live matches at once.
    #[arg(long, default_value_t = 100)]
    pub(super) matches: usize,
    /// The game (registry name).
    #[arg(long, default_value = "moonleap")]
    pub(super) game: String,
    /// Seats per match (people, no bots).
    #[arg(long, default_value_t = 2)]
    pub(super) seats: usize,
    /// Seconds of the measured window (at most 3600).
    #[arg(long, default_value_t = 20)]
    pub(super) seconds: u64,
    /// Also flood the server from another client address: matches and sockets as fast as it can.
    #[arg(long)]
    pub(super) flood: bool,
    /// Also hold this many lobby sockets that ping every 20 s, as idle pages do.
    #[arg(long, default_value_t = 0)]
    pub(super) idle: usize,
    /// Also open this many sockets that never send anything (half bare TCP, half WebSockets),
    /// from many client addresses; the report says when the server closed them. Make
    /// `--seconds` longer than the WebSocket idle timeout (60 s) to see those close.
    #[arg(long, default_value_t = 0)]
    pub(super) silent: usize,
    /// Also run this many matches of bots alone meanwhile (two seats of `--bot` at
    /// `--bot-game`), after asking for as many from one stranger's address.
    #[arg(long, default_value_t = 0)]
    pub(super) bots: usize,
    /// The bot of `--bots` matches (a catalogue name: random, greedy, beginner, club, expert).
    #[arg(long, default_value = "expert")]
    pub(super) bot: String,
    /// The game of `--bots` matches.
    #[arg(long, default_value = "chakart")]
    pub(super) bot_game: String,
    /// Instead of playing: create this many matches, leave them unjoined, then restart the
    /// (spawned) server and time its start.
    #[arg(long)]
    pub(super) abandon: Option<usize>,
    /// Instead of playing matches: this many players join one Swiss of `--game` and play its
    /// rounds through the server; the report times the results reaching the standings and the
    /// next round's pairing.
    #[arg(long, value_parser = clap::value_parser!(u64).range(2..=100_000))]
    pub(super) tournament_players: Option<u64>,
    /// Rounds of the `--tournament-players` Swiss.
    #[arg(long, default_value_t = 3)]
    pub(super) tournament_rounds: u32,
    /// Seed of the clients' random choices (and of the think times).
    #[arg(long, default_value_t = 1)]
    pub(super) seed: u64,
    /// How the seats play: `closed`, each match acts again the instant it is acknowledged;
    /// `human`, each seat thinks first (the flags below); the other loads are closed-loop only.
    #[arg(long, value_enum, default_value_t = PaceKind::Closed)]
    pub(super) pace: PaceKind,
    /// Human pace: the shortest think before an action, seconds (uniform up to `--think-max`).
    #[arg(long, default_value_t = 2.0)]
    pub(super) think_min: f64,
    /// Human pace: the longest think, seconds.
    #[arg(long, default_value_t = 20.0)]
    pub(super) think_max: f64,
    /// Human pace: seconds between two `ping` messages of each socket (the pages' 4 s).
    #[arg(long, default_value_t = 4.0)]
    pub(super) ping_every: f64,
    /// Human pace: lobby sockets per live match (each pings, and reads the lobby's counts).
    #[arg(long, default_value_t = 0.25)]
    pub(super) lobby_per_match: f64,
    /// Human pace: spectators' sockets per live match.
    #[arg(long, default_value_t = 0.1)]
    pub(super) spectators_per_match: f64,
    /// Human pace: matches opened per second during the ramp.
    #[arg(long, default_value_t = 200.0)]
    pub(super) ramp_rate: f64,
    /// Human pace: the client addresses 127.0.2.1 to 127.0.2.N the sockets come from (a
    /// spawned server exempts them from the limits per address; give a server of `--addr` an
    /// `--exempt-address` for each).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u8).range(1..=250))]
    pub(super) sources: u8,
    /// Human pace: match creations asked for at once from a stranger's address (127.0.3.1)
    /// before the ramp: the limits per address refuse most, which `--check-metrics` counts.
    #[arg(long, default_value_t = 0)]
    pub(super) strangers: usize,
    /// Human pace: after the load, the same load against this binary of the `null_server`
    /// example (a server doing no work), spawned here, for the ratio of CPU per decision.
    #[arg(long)]
    pub(super) null_server: Option<std::path::PathBuf>,
    /// Human pace: the `/metrics` address of the server at `--addr` (a spawned server gets one).
    #[arg(long, requires = "addr")]
    pub(super) metrics_addr: Option<SocketAddr>,
    /// Human pace: at the window's end, with every socket still open and no action in flight,
    /// read the server's `/metrics` and compare its counters with the client's own counts;
    /// a difference fails the command.
    #[arg(long)]
    pub(super) check_metrics: bool,
}

/// How the seats of `plateau load` play.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(super) enum PaceKind {
    /// Each match acts again the instant its action is acknowledged.
    Closed,
    /// Each seat thinks a random time first.
    Human,
}
