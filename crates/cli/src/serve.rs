//! `plateau serve [--addr 127.0.0.1:8080] [--database sqlite://plateau.sqlite | postgres://...]`: the match service
//! (crate `plateau-server`, docs/protocol.md) with the web UI, until Ctrl-C or SIGTERM.

use std::net::SocketAddr;
use std::time::Duration;

use clap::builder::TypedValueParser as _;
use plateau_lobby::limits::Limits;
use plateau_server::{Options, ServeConfig};

use crate::common::CliResult;

/// Arguments of `plateau serve`. Each setting may also be given in the environment (its flag's
/// name in capitals after `PLATEAU_`, `-` as `_`: `PLATEAU_BOT_DELAY_MS`) or in the `--config`
/// file (`crate::config`); the command line overrides the environment, which overrides the file.
#[derive(clap::Args)]
pub struct Args {
    /// A TOML file of settings, each a flag's name with `_` for `-` (`bot_delay_ms = 0`); the
    /// environment and the command line override it (docs/deploy.md, "Configuration").
    #[arg(long, env = "PLATEAU_CONFIG", value_name = "FILE")]
    pub config: Option<std::path::PathBuf>,
    /// Print the settings in effect (the command line's, the environment's, the file's and the
    /// defaults) as a TOML file `--config` reads, passwords masked, and stop.
    #[arg(long)]
    print_config: bool,
    /// Address to listen on.
    #[arg(long, env = "PLATEAU_ADDR", default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Database URL: `sqlite://FILE` (created if missing), or a PostgreSQL server:
    /// `postgres://USER:PASSWORD@HOST:PORT/DB` (`postgresql://` too; a Unix socket as
    /// `postgres://USER@/DB?host=/run/postgresql`). The schema is created or migrated at start.
    // The variable's value (a password, maybe) is not shown by --help.
    #[arg(
        long,
        env = "PLATEAU_DATABASE",
        hide_env_values = true,
        default_value = "sqlite://plateau.sqlite"
    )]
    database: String,
    /// Most connections this node opens to a PostgreSQL server at once (at least 2: one is
    /// the appends' writer's), besides one to listen on: with N nodes PostgreSQL needs
    /// N x (this + 1) connections below its `max_connections` (docs/deploy.md). SQLite ignores
    /// it.
    #[arg(
        long,
        env = "PLATEAU_DATABASE_POOL",
        default_value_t = plateau_server::store::postgres::DEFAULT_POOL,
        value_parser = clap::value_parser!(u16).range(2..=1000).map(usize::from)
    )]
    database_pool: usize,
    /// Milliseconds a bot waits before playing, so people can follow its moves (not at a
    /// simultaneous node, such as Bataille Navale's placement, whose moves are secret); 0 to
    /// 60000.
    #[arg(
        long,
        env = "PLATEAU_BOT_DELAY_MS",
        default_value_t = 250,
        value_parser = clap::value_parser!(u64).range(0..=60_000)
    )]
    bot_delay_ms: u64,
    /// For tests only: accept a fixed `seed` when a match is created, and derive the seed of every
    /// other match from its creation order, so a test plays the same games every run. The dice
    /// are then known in advance: never use it on a public server.
    #[arg(long, env = "PLATEAU_TEST_SEEDS")]
    test_seeds: bool,
    /// Seconds a person may be away (no open socket) from a live match with a clock before
    /// resigning by the game's rule; 0 to 86400.
    #[arg(
        long,
        env = "PLATEAU_ABANDON_SECONDS",
        default_value_t = 90,
        value_parser = clap::value_parser!(u64).range(0..=DAY)
    )]
    abandon_seconds: u64,
    /// Seconds a seat's per-move or Fischer clock waits for the seat's first move before it runs
    /// anyway (0: clocks run from the first instant); 0 to 86400.
    #[arg(
        long,
        env = "PLATEAU_FIRST_MOVE_SECONDS",
        default_value_t = 30,
        value_parser = clap::value_parser!(u64).range(0..=DAY)
    )]
    first_move_seconds: u64,
    /// Search iterations per judged decision of a post-game analysis [default: each game's
    /// expert level, at least 1000].
    #[arg(long, env = "PLATEAU_ANALYSIS_ITERATIONS", value_parser = clap::value_parser!(u64).range(1..))]
    analysis_iterations: Option<u64>,
    /// This node's name among the `plateau serve` processes sharing one PostgreSQL database
    /// (docs/deploy.md); unique among them [default: its --advertise address].
    #[arg(long, env = "PLATEAU_NODE")]
    node: Option<String>,
    /// `HOST:PORT` the other nodes reach this one at (no scheme, not 0.0.0.0), to forward the
    /// connections of the matches it drives [default: the address it listens on].
    #[arg(long, env = "PLATEAU_ADVERTISE")]
    advertise: Option<String>,
    /// The server is reached only over TLS (a proxy in front terminates it): every answer
    /// carries HSTS and its cookies `Secure`. Without it, so are the answers to requests that a
    /// proxy given as --trusted-proxy marks `X-Forwarded-Proto: https`.
    #[arg(long, env = "PLATEAU_SECURE_COOKIES")]
    secure_cookies: bool,
    /// Keep the server's own tournaments scheduled: an hourly arena for every game of two and
    /// daily tables for every game of more (docs/protocol.md section 7.9). Several nodes of one
    /// database make each once. `--scheduled-tournaments false` turns it off.
    #[arg(
        long,
        env = "PLATEAU_SCHEDULED_TOURNAMENTS",
        default_value_t = true,
        action = clap::ArgAction::Set
    )]
    scheduled_tournaments: bool,
    /// Serve the operator's figures in Prometheus's text format at `GET /metrics` on this
    /// address, apart from the public one (keep it on a private network); off by default
    /// (docs/deploy.md, "Metrics").
    #[arg(long, env = "PLATEAU_METRICS_LISTEN")]
    metrics_listen: Option<SocketAddr>,
    /// How log lines are written to stderr: `text`, or `json` (one object a line, for a log
    /// collector: the time, level, message and fields, and the spans the line is under with
    /// theirs: a request's id and client, a socket's match).
    #[arg(long, env = "PLATEAU_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,
    /// A file of words no chosen name may hold (one a line; blank lines and lines starting
    /// with `#` left out), compared without regard to case or look-alike letters
    /// (docs/deploy.md, "Moderation").
    #[arg(long, env = "PLATEAU_NAME_DENY_LIST")]
    name_deny_list: Option<std::path::PathBuf>,
    /// Threads that run the service's tasks (tokio's workers: the sockets, the matches, the
    /// routes) [default: one per core but one, at least one].
    #[arg(long, env = "PLATEAU_WORKER_THREADS", value_parser = clap::value_parser!(u16).range(1..=1024).map(usize::from))]
    worker_threads: Option<usize>,
    #[command(flatten)]
    limits: LimitArgs,
}

/// The limits of docs/protocol.md section 6; each left out keeps its default.
#[derive(clap::Args)]
struct LimitArgs {
    /// Open connections (WebSockets included) from one address [default: 64].
    #[arg(long, env = "PLATEAU_MAX_CONNECTIONS_PER_ADDRESS")]
    max_connections_per_address: Option<usize>,
    /// Open connections in all [default: 4000].
    #[arg(long, env = "PLATEAU_MAX_CONNECTIONS")]
    max_connections: Option<usize>,
    /// Seconds a connection has to send a request's headers, and then as many for its body;
    /// 1 to 3600 [default: 10].
    #[arg(long, env = "PLATEAU_HEADER_TIMEOUT_SECONDS", value_parser = clap::value_parser!(u64).range(1..=3600))]
    header_timeout_seconds: Option<u64>,
    /// Seconds a silent WebSocket stays open; 1 to 86400 [default: 60].
    #[arg(long, env = "PLATEAU_SOCKET_IDLE_SECONDS", value_parser = clap::value_parser!(u64).range(1..=DAY))]
    socket_idle_seconds: Option<u64>,
    /// Messages a WebSocket may send per second, after a burst of four times as many; more
    /// than 0, at most 1000000 [default: 10].
    #[arg(long, env = "PLATEAU_MESSAGES_PER_SECOND", value_parser = message_rate)]
    messages_per_second: Option<f64>,
    /// Minutes an open match may wait for its players before it is removed; 1 to 10080 (a
    /// week) [default: 120].
    #[arg(long, env = "PLATEAU_OPEN_MATCH_MINUTES", value_parser = clap::value_parser!(u64).range(1..=7 * 24 * 60))]
    open_match_minutes: Option<u64>,
    /// Seconds a match nobody watches, in which nothing runs by itself, stays in memory (a
    /// finished one with no offer pending: at most 5); 0 to 86400 [default: 60].
    #[arg(long, env = "PLATEAU_IDLE_UNLOAD_SECONDS", value_parser = clap::value_parser!(u64).range(0..=DAY))]
    idle_unload_seconds: Option<u64>,
    /// Matches one address may create per minute [default: 20].
    #[arg(long, env = "PLATEAU_MATCHES_PER_MINUTE")]
    matches_per_minute: Option<usize>,
    /// Open matches (not started) one address may hold [default: 10].
    #[arg(long, env = "PLATEAU_OPEN_MATCHES_PER_ADDRESS")]
    open_matches_per_address: Option<usize>,
    /// Live matches of bots alone one address may have started [default: 2].
    #[arg(long, env = "PLATEAU_BOT_MATCHES_PER_ADDRESS")]
    bot_matches_per_address: Option<usize>,
    /// Unfinished matches of people and bots one address may have made, rematches included
    /// [default: 8].
    #[arg(long, env = "PLATEAU_BOT_TABLES_PER_ADDRESS")]
    bot_tables_per_address: Option<usize>,
    /// Password hashes (sign-ins, new accounts) computed at once, 19 MiB of memory each; more
    /// wait in a line of 16, and past it are refused `limit/busy` [default: all cores but one,
    /// at most 3].
    #[arg(long, env = "PLATEAU_PASSWORD_HASHES", value_parser = clap::value_parser!(u64).range(1..=64))]
    password_hashes: Option<u64>,
    /// New players (guests) one address may make per minute [default: 20].
    #[arg(long, env = "PLATEAU_GUESTS_PER_MINUTE")]
    guests_per_minute: Option<usize>,
    /// Sign-in attempts per minute from one address, and for one name [default: 10].
    #[arg(long, env = "PLATEAU_SIGN_INS_PER_MINUTE")]
    sign_ins_per_minute: Option<usize>,
    /// Seconds a challenge to a named player waits for its answer before it expires; 1 to
    /// 86400 [default: 300].
    #[arg(long, env = "PLATEAU_CHALLENGE_SECONDS", value_parser = clap::value_parser!(u64).range(1..=DAY))]
    challenge_seconds: Option<u64>,
    /// Seconds a paired match (quick pairing, a tournament's) waits for all its players to open
    /// it: then it is called off, or lost by those who did not come; 1 to 86400 [default: 30].
    #[arg(long, env = "PLATEAU_NO_SHOW_SECONDS", value_parser = clap::value_parser!(u64).range(1..=DAY))]
    no_show_seconds: Option<u64>,
    /// Threads bots think on, shared by every match; people's matches go first
    /// [default: all cores but one].
    #[arg(long, env = "PLATEAU_BOT_THREADS")]
    bot_threads: Option<usize>,
    /// Players one tournament may hold [default: 500].
    #[arg(long, env = "PLATEAU_TOURNAMENT_PLAYERS", value_parser = clap::value_parser!(u64).range(2..=100_000))]
    tournament_players: Option<u64>,
    /// An address the limits per address do not apply to (a load generator, the other nodes
    /// of the database); may be given several times (in the environment, separated by
    /// commas). Not for a reverse proxy: see --trusted-proxy.
    #[arg(
        long = "exempt-address",
        env = "PLATEAU_EXEMPT_ADDRESS",
        value_delimiter = ','
    )]
    exempt: Vec<std::net::IpAddr>,
    /// A reverse proxy or load balancer in front (an address or a network, `10.0.0.10`,
    /// `10.0.0.0/24`, `fd00::/64`): on its connections the client is the address it names in
    /// --forwarded-header (the right-most one that is no trusted proxy), and every limit per
    /// address applies to that client; anyone else's header is ignored. May be given several
    /// times (in the environment, separated by commas).
    #[arg(
        long = "trusted-proxy",
        env = "PLATEAU_TRUSTED_PROXY",
        value_delimiter = ',',
        value_parser = network
    )]
    trusted_proxies: Vec<ipnet::IpNet>,
    /// The header the trusted proxies name their clients in: `x-forwarded-for` (nginx's
    /// `$proxy_add_x_forwarded_for`, HAProxy's `option forwardfor`) or `forwarded` (RFC 7239,
    /// HAProxy's `option forwarded`). Only this one is read: the proxies pass the other on as
    /// the client wrote it.
    #[arg(
        long,
        env = "PLATEAU_FORWARDED_HEADER",
        value_enum,
        default_value_t = Header::XForwardedFor
    )]
    forwarded_header: Header,
}

/// The longest most time settings may be: a day, in seconds. Each is added to the clock's
/// instants, and a setting too large for that (`u64::MAX` seconds) would end the server at the
/// first socket or request it times, or wrap round to a short time.
const DAY: u64 = 24 * 3600;

/// `--messages-per-second`: a rate above 0 and at most a million (a rate of 0, below 0 or not a
/// number would let a socket send one message in all; an infinite one, any number).
fn message_rate(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(rate) if rate > 0.0 && rate <= 1_000_000.0 => Ok(rate),
        Ok(_) => Err(format!(
            "`{text}` messages a second: give a rate above 0 and at most 1000000"
        )),
        Err(_) => Err(format!("`{text}` is not a number of messages a second")),
    }
}

/// The tokio workers by default: one per core but one, at least one. The service has busy
/// threads of its own besides them (SQLite's writer, which commits every decision, and its
/// checkpointer; the bots' and the password hashes' threads), so a worker per core would share
/// a core with them. With two workers or more, a worker that is woken and finds a task wakes
/// another if one is parked (tokio keeps one searching), and a task that wakes two others hands
/// one to a parked worker: at human pace on two cores, with the workers mostly idle, that is
/// where most of the context switches beyond the null server's went (docs/performance.md
/// section 9.6).
fn default_workers() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1).max(1))
}

/// `--log-format`.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum LogFormat {
    /// Lines of text, coloured on a terminal.
    Text,
    /// One JSON object a line.
    Json,
}

/// `--forwarded-header`.
#[derive(Clone, Copy, clap::ValueEnum)]
enum Header {
    /// `X-Forwarded-For`.
    XForwardedFor,
    /// `Forwarded`.
    Forwarded,
}

/// A `--trusted-proxy`: a network (`10.0.0.0/24`), or one address (its /32 or /128).
fn network(text: &str) -> Result<ipnet::IpNet, String> {
    text.parse::<ipnet::IpNet>()
        .or_else(|_| text.parse::<std::net::IpAddr>().map(ipnet::IpNet::from))
        .map_err(|_| {
            format!(
                "`{text}` is neither an address nor a network (10.0.0.10, 10.0.0.0/24, fd00::/64)"
            )
        })
}

impl LimitArgs {
    fn limits(&self) -> Limits {
        let d = Limits::default();
        let rate = self.messages_per_second.unwrap_or(d.messages_per_second);
        Limits {
            connections_per_address: self
                .max_connections_per_address
                .unwrap_or(d.connections_per_address),
            connections: self.max_connections.unwrap_or(d.connections),
            header_timeout: self
                .header_timeout_seconds
                .map_or(d.header_timeout, Duration::from_secs),
            socket_idle: self
                .socket_idle_seconds
                .map_or(d.socket_idle, Duration::from_secs),
            messages_per_second: rate,
            message_burst: rate * 4.0,
            open_expiry: self
                .open_match_minutes
                .map_or(d.open_expiry, |m| Duration::from_secs(m * 60)),
            idle_unload: self
                .idle_unload_seconds
                .map_or(d.idle_unload, Duration::from_secs),
            matches_per_minute: self.matches_per_minute.unwrap_or(d.matches_per_minute),
            open_matches: self.open_matches_per_address.unwrap_or(d.open_matches),
            bot_matches: self.bot_matches_per_address.unwrap_or(d.bot_matches),
            bot_tables: self.bot_tables_per_address.unwrap_or(d.bot_tables),
            password_hashes: self
                .password_hashes
                .map_or(d.password_hashes, |n| n as usize),
            guests_per_minute: self.guests_per_minute.unwrap_or(d.guests_per_minute),
            sign_ins_per_minute: self.sign_ins_per_minute.unwrap_or(d.sign_ins_per_minute),
            bot_threads: self.bot_threads.unwrap_or(d.bot_threads).max(1),
            challenge_life: self
                .challenge_seconds
                .map_or(d.challenge_life, Duration::from_secs),
            no_show: self.no_show_seconds.map_or(d.no_show, Duration::from_secs),
            tournament_players: self
                .tournament_players
                .map_or(d.tournament_players, |n| n as usize),
            exempt: self.exempt.clone(),
            proxies: plateau_lobby::proxy::TrustedProxies {
                networks: self.trusted_proxies.clone(),
                header: match self.forwarded_header {
                    Header::XForwardedFor => plateau_lobby::proxy::ForwardedHeader::XForwardedFor,
                    Header::Forwarded => plateau_lobby::proxy::ForwardedHeader::Forwarded,
                },
            },
            ..d
        }
    }
}

/// The node's identity from `--node` and `--advertise` (either may be left out: the server then
/// uses the address it binds, a port 0 resolved).
fn node(
    name: Option<String>,
    advertise: Option<String>,
) -> Result<Option<plateau_server::store::Node>, String> {
    if let Some(a) = &advertise
        && a.rsplit_once(':').is_none_or(|(host, port)| {
            let unspecified = host
                .trim_matches(['[', ']'])
                .parse::<std::net::IpAddr>()
                .is_ok_and(|ip| ip.is_unspecified());
            host.is_empty() || host.contains('/') || unspecified || port.parse::<u16>().is_err()
        })
    {
        return Err(format!(
            "--advertise `{a}`: expected HOST:PORT that other nodes can reach (no scheme, \
             not 0.0.0.0), e.g. 10.0.0.2:8080"
        ));
    }
    if name.as_deref().is_some_and(|n| n.trim().is_empty()) {
        return Err("--node: give the node a name (unique among the nodes of its database)".into());
    }
    if name.is_none() && advertise.is_none() {
        return Ok(None);
    }
    Ok(Some(plateau_server::store::Node {
        name: name.unwrap_or_default(),
        address: advertise.unwrap_or_default(),
    }))
}

/// Runs the service; logs go to stderr (filter with `RUST_LOG`, default `info`): text coloured
/// only on a terminal, so a log file holds plain text, or JSON (`--log-format json`). With
/// `--print-config`, prints the settings of `matches` (what `args` was parsed from) instead.
pub fn run(args: Args, matches: &clap::ArgMatches) -> CliResult {
    use std::io::IsTerminal;
    let log_format = args.log_format;
    let name_deny_list = match &args.name_deny_list {
        Some(path) => plateau_lobby::players::read_deny_list(
            &crate::common::read_settings_file(path)
                .map_err(|e| format!("--name-deny-list {e}"))?,
        ),
        None => Vec::new(),
    };
    let config = ServeConfig {
        addr: args.addr,
        database: args.database,
        database_pool: args.database_pool,
        options: Options {
            bot_delay: Duration::from_millis(args.bot_delay_ms),
            test_seeds: args.test_seeds,
            abandon_after: Duration::from_secs(args.abandon_seconds),
            first_move: Duration::from_secs(args.first_move_seconds),
            limits: args.limits.limits(),
            analysis_iterations: args.analysis_iterations,
            secure_cookies: args.secure_cookies,
            scheduled_tournaments: args.scheduled_tournaments,
            node: node(args.node, args.advertise)?,
            name_deny_list,
            ..Options::default()
        },
        metrics_listen: args.metrics_listen,
    };
    if args.print_config {
        let serve = <Args as clap::Args>::augment_args(clap::Command::new("serve"));
        let text = crate::config::print(&serve, matches);
        return std::io::Write::write_all(&mut std::io::stdout(), text.as_bytes())
            .map_err(|e| format!("cannot print the settings: {e}"));
    }
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    let _ = match log_format {
        LogFormat::Text => logs
            .with_ansi(std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none())
            .try_init(),
        // Every span the line is under, each with its fields; the innermost is among them.
        LogFormat::Json => logs
            .json()
            .with_current_span(false)
            .with_span_list(true)
            .try_init(),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .worker_threads(args.worker_threads.unwrap_or_else(default_workers))
        .build()
        .map_err(|e| format!("cannot start tokio: {e}"))?;
    runtime
        .block_on(plateau_server::run(config))
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Serve {
        #[command(flatten)]
        args: Args,
    }

    /// Every flag can be given in the environment, as `PLATEAU_` and its name (docs/deploy.md,
    /// "Configuration").
    #[test]
    fn every_flag_has_its_variable() {
        let serve = <Args as clap::Args>::augment_args(clap::Command::new("serve"));
        let mut flags = 0;
        for arg in serve.get_arguments() {
            let Some(long) = arg.get_long() else { continue };
            if long == "print-config" {
                continue;
            }
            let env = format!("PLATEAU_{}", long.to_uppercase().replace('-', "_"));
            assert_eq!(arg.get_env(), Some(std::ffi::OsStr::new(&env)), "--{long}");
            flags += 1;
        }
        assert!(flags >= 35, "{flags} flags");
    }

    /// `--worker-threads` takes 1 to 1024 threads; without it, the default is one per core but
    /// one, and never none.
    #[test]
    fn worker_threads_are_counted_from_one() {
        let given = Serve::try_parse_from(["serve", "--worker-threads", "3"]).unwrap();
        assert_eq!(given.args.worker_threads, Some(3));
        assert!(Serve::try_parse_from(["serve", "--worker-threads", "0"]).is_err());
        assert_eq!(
            Serve::try_parse_from(["serve"])
                .unwrap()
                .args
                .worker_threads,
            None
        );
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        assert_eq!(default_workers(), if cores > 1 { cores - 1 } else { 1 });
    }

    /// A time too large to add to the clock's instants, or a rate that is no rate, is refused
    /// with the flag and the range it takes, before the server starts; the ends of the ranges
    /// are taken.
    #[test]
    fn settings_out_of_their_range_are_refused() {
        let huge = u64::MAX.to_string();
        let ranges = [
            ("--socket-idle-seconds", "1", "86400"),
            ("--header-timeout-seconds", "1", "3600"),
            ("--idle-unload-seconds", "0", "86400"),
            ("--open-match-minutes", "1", "10080"),
            ("--abandon-seconds", "0", "86400"),
            ("--first-move-seconds", "0", "86400"),
            ("--challenge-seconds", "1", "86400"),
            ("--no-show-seconds", "1", "86400"),
            ("--bot-delay-ms", "0", "60000"),
        ];
        for (flag, low, high) in ranges {
            for fine in [low, high] {
                assert!(
                    Serve::try_parse_from(["serve", flag, fine]).is_ok(),
                    "{flag} {fine}"
                );
            }
            let Err(refused) = Serve::try_parse_from(["serve", flag, &huge]) else {
                panic!("{flag} {huge} was taken");
            };
            let message = refused.to_string();
            assert!(message.contains(flag), "{message}");
            assert!(message.contains(&format!("{low}..={high}")), "{message}");
        }
        for bad in ["0", "-5", "NaN", "inf", "1000001", "ten"] {
            let given = format!("--messages-per-second={bad}");
            let Err(refused) = Serve::try_parse_from(["serve", &given]) else {
                panic!("--messages-per-second {bad} was taken");
            };
            assert!(
                refused.to_string().contains("messages a second"),
                "{refused}"
            );
        }
        let rate = Serve::try_parse_from(["serve", "--messages-per-second", "0.5"]).unwrap();
        assert_eq!(rate.args.limits.limits().messages_per_second, 0.5);
        assert_eq!(rate.args.limits.limits().message_burst, 2.0);
    }

    #[test]
    fn trusted_proxies_are_addresses_or_networks() {
        let serve = Serve::try_parse_from([
            "serve",
            "--trusted-proxy",
            "10.0.0.10",
            "--trusted-proxy",
            "fd00::/64",
            "--forwarded-header",
            "forwarded",
        ])
        .unwrap();
        let proxies = serve.args.limits.limits().proxies;
        assert_eq!(
            proxies.networks,
            ["10.0.0.10/32", "fd00::/64"].map(|n| n.parse::<ipnet::IpNet>().unwrap())
        );
        assert_eq!(
            proxies.header,
            plateau_lobby::proxy::ForwardedHeader::Forwarded
        );
        let default = Serve::try_parse_from(["serve"]).unwrap();
        let proxies = default.args.limits.limits().proxies;
        assert!(proxies.networks.is_empty());
        assert_eq!(
            proxies.header,
            plateau_lobby::proxy::ForwardedHeader::XForwardedFor
        );
        let Err(refused) = Serve::try_parse_from(["serve", "--trusted-proxy", "10.0.0.300"]) else {
            panic!("not an address");
        };
        assert!(
            refused
                .to_string()
                .contains("neither an address nor a network"),
            "{refused}"
        );
    }
}
