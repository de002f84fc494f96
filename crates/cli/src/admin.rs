//! `plateau admin ...`: moderation from the server's shell (docs/deploy.md, "Moderation"), on
//! the database `plateau serve` uses, while it runs or not: the moderator role given or taken
//! back (the first moderator is made so), the open reports and the audit log listed, a player
//! warned, muted, renamed, banned or unbanned, a report handled, a match closed. Each action is
//! written with its audit entry as the "server" moderator
//! (`plateau_community::moderation::record`); a running server reads it from the audit log within
//! a second and applies it (a ban closes the player's sockets and resigns its live matches; a
//! close ends the match).

use std::time::Duration;

use clap::Subcommand;
use plateau_community::moderation::{ban_until, mute_until, neutral_name, record};
use plateau_lobby::model::Status;
use plateau_lobby::players::Player;
use plateau_server::store::Store;
use plateau_server::store::moderation::{Action, AuditEntry, AuditFrom};

use crate::common::CliResult;

/// Arguments of `plateau admin`.
#[derive(clap::Args)]
pub struct Args {
    /// `plateau serve`'s TOML file of settings: admin takes its `database` from it, as serve
    /// does (docs/deploy.md, "Configuration"); --database and PLATEAU_DATABASE override it.
    #[arg(long, env = "PLATEAU_CONFIG", value_name = "FILE")]
    pub config: Option<std::path::PathBuf>,
    /// The database, as `plateau serve --database` names it, under the same variable and in
    /// the same --config file.
    // The variable's value (a password, maybe) is not shown by --help, as serve's.
    #[arg(
        long,
        env = "PLATEAU_DATABASE",
        hide_env_values = true,
        default_value = "sqlite://plateau.sqlite"
    )]
    database: String,
    #[command(subcommand)]
    command: AdminCommand,
}

#[derive(Subcommand)]
enum AdminCommand {
    /// Make an account a moderator.
    Grant {
        /// The account's name.
        name: String,
        /// Why (kept in the audit log).
        #[arg(long, default_value = "")]
        reason: String,
    },
    /// Take the moderator role back.
    Revoke {
        /// The account's name.
        name: String,
        /// Why.
        #[arg(long, default_value = "")]
        reason: String,
    },
    /// The open reports, oldest first.
    Reports,
    /// Resolve an open report (acted upon).
    Resolve {
        /// The report's number.
        report: i64,
        /// Why.
        #[arg(long, default_value = "")]
        reason: String,
    },
    /// Dismiss an open report.
    Dismiss {
        /// The report's number.
        report: i64,
        /// Why.
        #[arg(long, default_value = "")]
        reason: String,
    },
    /// Warn a player: it reads the reason on its next page.
    Warn {
        /// The player's name.
        name: String,
        /// What the player reads.
        #[arg(long)]
        reason: String,
    },
    /// Mute a player in chat for a time.
    Mute {
        /// The player's name.
        name: String,
        /// How long, in minutes.
        #[arg(long, default_value_t = 60)]
        minutes: u64,
        /// Why.
        #[arg(long)]
        reason: String,
    },
    /// Let a muted player chat again.
    Unmute {
        /// The player's name.
        name: String,
        /// Why.
        #[arg(long, default_value = "")]
        reason: String,
    },
    /// Rename a player to a neutral name (`player-` and 6 hex digits).
    Rename {
        /// The player's name.
        name: String,
        /// Why.
        #[arg(long)]
        reason: String,
    },
    /// Ban a player: no play, no chat, no new matches; its live matches end by its resignation.
    Ban {
        /// The player's name.
        name: String,
        /// How long, in days [default: no end].
        #[arg(long)]
        days: Option<u64>,
        /// Why.
        #[arg(long)]
        reason: String,
    },
    /// Lift a ban.
    Unban {
        /// The player's name.
        name: String,
        /// Why.
        #[arg(long, default_value = "")]
        reason: String,
    },
    /// End a live match (it changes no rating); a running server ends it.
    Close {
        /// The match's id.
        id: String,
        /// Why.
        #[arg(long)]
        reason: String,
        /// Seconds to wait for a running server to end it; 0 to 3600.
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(0..=3600))]
        wait_seconds: u64,
    },
    /// The latest moderator actions, newest first.
    Audit {
        /// How many, from 1.
        #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..))]
        limit: u32,
    },
}

/// Runs one admin command on the database and says what it did.
pub fn run(args: Args) -> CliResult {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    // Opening a SQLite file creates it: a mistyped path would give a new, empty database.
    if let Some(path) = plateau_server::sqlite_path(&args.database)
        && !path.is_file()
    {
        return Err(format!(
            "no database at {}: plateau admin acts on the database plateau serve made (check \
             --database, PLATEAU_DATABASE or the --config file)",
            path.display()
        ));
    }
    runtime.block_on(async move {
        let store = plateau_server::open_store(&args.database)
            .await
            .map_err(|e| e.to_string())?;
        let result = admin(store.as_ref(), args.command).await;
        store.close().await;
        result
    })
}

async fn admin(store: &dyn Store, command: AdminCommand) -> CliResult {
    let on = |name: String, action: Action, reason: String| async move {
        let target = player(store, &name).await?;
        done(&record(store, None, Some(&target), action, &reason).await)
    };
    match command {
        AdminCommand::Grant { name, reason } => on(name, Action::Grant, reason).await,
        AdminCommand::Revoke { name, reason } => on(name, Action::Revoke, reason).await,
        AdminCommand::Warn { name, reason } => on(name, Action::Warn, reason).await,
        AdminCommand::Mute {
            name,
            minutes,
            reason,
        } => {
            let until = mute_until(minutes).map_err(|e| e.message)?;
            on(name, Action::Mute { until }, reason).await
        }
        AdminCommand::Unmute { name, reason } => on(name, Action::Unmute, reason).await,
        AdminCommand::Rename { name, reason } => {
            on(name, Action::Rename { to: neutral_name() }, reason).await
        }
        AdminCommand::Ban { name, days, reason } => {
            let until = ban_until(days).map_err(|e| e.message)?;
            on(name, Action::Ban { until }, reason).await
        }
        AdminCommand::Unban { name, reason } => on(name, Action::Unban, reason).await,
        AdminCommand::Resolve { report, reason } => {
            let action = Action::Handle {
                report,
                dismissed: false,
            };
            done(&record(store, None, None, action, &reason).await)
        }
        AdminCommand::Dismiss { report, reason } => {
            let action = Action::Handle {
                report,
                dismissed: true,
            };
            done(&record(store, None, None, action, &reason).await)
        }
        AdminCommand::Reports => reports(store).await,
        AdminCommand::Close {
            id,
            reason,
            wait_seconds,
        } => close(store, id, reason, wait_seconds).await,
        AdminCommand::Audit { limit } => {
            let entries = store
                .audit(AuditFrom::Latest, limit)
                .await
                .map_err(|e| e.to_string())?;
            if entries.is_empty() {
                println!("no moderator action yet");
            }
            for e in &entries {
                println!("{}", line(e));
            }
            Ok(())
        }
    }
}

/// The player named `name` (without regard to case).
async fn player(store: &dyn Store, name: &str) -> Result<Player, String> {
    store
        .player_by_name(name.to_owned())
        .await
        .map_err(|e| e.to_string())?
        .map(|(p, _)| p)
        .ok_or_else(|| format!("no player named {name:?}"))
}

/// Says what was done, or why nothing was.
fn done(result: &Result<AuditEntry, plateau_lobby::model::ApiError>) -> CliResult {
    match result {
        Ok(e) => {
            println!("{}", line(e));
            Ok(())
        }
        Err(e) => Err(format!("{} ({})", e.message, e.code.as_str())),
    }
}

/// The open reports, one a line, the chat line they name under them.
async fn reports(store: &dyn Store) -> CliResult {
    let reports = store.open_reports(200).await.map_err(|e| e.to_string())?;
    if reports.is_empty() {
        println!("no open report");
    }
    for r in reports {
        let about = r
            .match_id
            .map(|m| format!(" in match {m}"))
            .unwrap_or_default();
        println!(
            "#{} {} {} reports {} for {}{about}: {:?}",
            r.id,
            time(r.at),
            r.reporter,
            r.reported,
            r.reason.as_str(),
            r.text
        );
        if let Some((seq, text)) = r.chat {
            println!("    chat line {seq}: {text:?}");
        }
    }
    Ok(())
}

/// Closes live match `id`: written to the audit log, then ended by the running server that
/// drives it, which this waits for (at most `wait_seconds`).
async fn close(store: &dyn Store, id: String, reason: String, wait_seconds: u64) -> CliResult {
    let status = |m: Option<plateau_server::store::StoredMatch>| m.map(|m| m.status);
    match status(store.get(&id, false).await.map_err(|e| e.to_string())?) {
        None => return Err(format!("no match {id:?}")),
        Some(Status::Open) => {
            return Err("the match waits for its players: it is removed by itself".into());
        }
        Some(Status::Finished) => return Err("the match is over".into()),
        Some(Status::Live) => {}
    }
    let action = Action::Close {
        match_id: id.clone(),
    };
    done(&record(store, None, None, action, &reason).await)?;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(wait_seconds);
    loop {
        if status(store.get(&id, false).await.map_err(|e| e.to_string())?) == Some(Status::Finished)
        {
            println!("match {id} ended");
            return Ok(());
        }
        if tokio::time::Instant::now() >= deadline {
            return Err(format!(
                "match {id} is still live after {wait_seconds} s: the close is in the audit log, \
                 and a running `plateau serve` ends it when it reads it (is one running?)"
            ));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// One audit entry in words: `#12 <time> server banned Rude until <time>: why`.
fn line(e: &AuditEntry) -> String {
    let who = e.moderator.as_deref().unwrap_or("server");
    let whom = e
        .target
        .as_ref()
        .map(|(_, name)| format!(" {name}"))
        .unwrap_or_default();
    let what = match (e.action.as_str(), &e.until) {
        ("ban", None) => " (no end)".to_owned(),
        (_, Some(until)) => format!(" until {}", time(*until)),
        _ => String::new(),
    };
    let renamed = e
        .detail
        .as_ref()
        .map(|to| format!(" to {to}"))
        .unwrap_or_default();
    let object = match (&e.match_id, e.report) {
        (Some(m), _) => format!(" match {m}"),
        (None, Some(r)) => format!(" report #{r}"),
        _ => String::new(),
    };
    format!(
        "#{} {} {who} {}{whom}{object}{renamed}{what}: {:?}",
        e.id,
        time(e.at),
        e.action,
        e.reason
    )
}

/// A time as HTTP writes dates.
fn time(ms: i64) -> String {
    let at = std::time::UNIX_EPOCH + Duration::from_millis(u64::try_from(ms).unwrap_or(0));
    httpdate::fmt_http_date(at)
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    #[derive(Parser)]
    struct Admin {
        #[command(flatten)]
        args: super::Args,
    }

    /// A wait too long to add to the clock (which ended the command, the close already
    /// written) and an audit of no entries (which said there were none) are refused before the
    /// database is opened; the ends of the ranges are taken.
    #[test]
    fn a_wait_or_a_limit_out_of_range_is_refused() {
        let close = |wait: &str| {
            Admin::try_parse_from([
                "admin",
                "close",
                "3f9a0c12d4e5b678",
                "--reason",
                "stuck",
                "--wait-seconds",
                wait,
            ])
        };
        assert!(close("0").is_ok() && close("3600").is_ok());
        let Err(refused) = close(&u64::MAX.to_string()) else {
            panic!("a wait of u64::MAX seconds was taken");
        };
        assert!(refused.to_string().contains("0..=3600"), "{refused}");
        let audit = |limit: &str| Admin::try_parse_from(["admin", "audit", "--limit", limit]);
        assert!(audit("1").is_ok());
        let Err(refused) = audit("0") else {
            panic!("an audit of 0 entries was taken");
        };
        assert!(refused.to_string().contains("--limit"), "{refused}");
    }
}
