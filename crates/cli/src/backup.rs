//! `plateau backup --database sqlite://FILE --to FILE`: a copy of a SQLite database, taken while
//! servers run on it (docs/deploy.md, "Backups").

use std::path::PathBuf;

use crate::common::{CliResult, store_error};

/// Arguments of `plateau backup`.
#[derive(clap::Args)]
pub struct Args {
    /// The database to copy, as `plateau serve --database` names it: `sqlite://FILE`. A
    /// PostgreSQL server is backed up with its own tools (docs/deploy.md, "Backups").
    #[arg(long, default_value = "sqlite://plateau.sqlite")]
    database: String,
    /// The file to write the copy to; it must not exist yet.
    #[arg(long)]
    to: PathBuf,
}

/// Copies the database (`plateau_store::sqlite::backup::backup`) and says where.
pub fn run(args: Args) -> CliResult {
    let Some(from) = plateau_server::sqlite_path(&args.database) else {
        return Err(
            "--database: a PostgreSQL server is backed up with pg_dump, or continuously with \
             WAL archiving (docs/deploy.md, \"Backups\"); plateau backup copies SQLite files"
                .into(),
        );
    };
    plateau_server::store::sqlite::backup::backup(&from, &args.to).map_err(store_error)?;
    println!("{} copied to {}", from.display(), args.to.display());
    Ok(())
}
