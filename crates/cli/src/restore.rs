//! `plateau restore --from FILE --database sqlite://FILE [--force]`: a backup `plateau backup`
//! made put in the place of a SQLite database, while no server runs on it (docs/deploy.md,
//! "Restoring").

use std::path::PathBuf;

use crate::common::{CliResult, store_error};

/// Arguments of `plateau restore`.
#[derive(clap::Args)]
pub struct Args {
    /// The backup: a file `plateau backup` wrote (any Plateau SQLite database of this version
    /// or an older one).
    #[arg(long)]
    from: PathBuf,
    /// The database to restore into, as `plateau serve --database` names it: `sqlite://FILE`.
    /// A PostgreSQL server is restored with its own tools (docs/deploy.md, "Restoring").
    #[arg(long, default_value = "sqlite://plateau.sqlite")]
    database: String,
    /// Replace a database that holds matches or players: it is moved aside (renamed
    /// `FILE.replaced-UNIXMS` with its write-ahead log), never deleted. Without it such a
    /// database is left as it is and nothing is restored.
    #[arg(long)]
    force: bool,
}

/// Restores (`plateau_store::sqlite::backup::restore`) and says what.
pub fn run(args: Args) -> CliResult {
    let Some(to) = plateau_server::sqlite_path(&args.database) else {
        return Err(
            "--database: a PostgreSQL server is restored from its own dump with pg_restore, or \
             to a point in time from its archived log (docs/deploy.md, \"Restoring\"); plateau \
             restore writes SQLite files"
                .into(),
        );
    };
    let restored = plateau_server::store::sqlite::backup::restore(&args.from, &to, args.force)
        .map_err(store_error)?;
    let mut said = format!(
        "{} restored to {}: {} matches, {} players (written at schema version {}, now this \
         version's)\n",
        args.from.display(),
        to.display(),
        restored.matches,
        restored.players,
        restored.schema
    );
    if let Some(old) = &restored.replaced {
        said.push_str(&format!(
            "The database that was there is kept as {}\n",
            old.display()
        ));
    }
    crate::common::emit(&said)
}
