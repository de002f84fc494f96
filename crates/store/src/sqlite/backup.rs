//! A copy of a live database (`backup`), and a copy put back in place of one (`restore`).

use std::path::Path;

use rusqlite::Connection;

use super::schema::{self, connect, migrate};
use super::{db, players};
use crate::StoreError;
use crate::model::unix_ms;

/// Copies the database at `from` into a new file `to`, while servers may be writing to it:
/// SQLite's online backup, in one step, so the copy is the database as of one instant (a
/// transaction committed after it began is not in it; in WAL mode the writers are not held
/// meanwhile). The copy is written beside `to` and renamed once whole and checked
/// (`PRAGMA quick_check`), so `to` is never a half copy. `restore` puts such a copy back
/// (docs/deploy.md, "Backups" and "Restoring").
///
/// # Errors
/// `Invalid` if `from` is no SQLite database, `to` exists already or its folder does not;
/// `Database` if either file cannot be read or written.
pub fn backup(from: &Path, to: &Path) -> Result<(), StoreError> {
    use rusqlite::OpenFlags;
    if !from.is_file() {
        return Err(StoreError::Invalid(format!(
            "no database at {}",
            from.display()
        )));
    }
    if to.exists() {
        return Err(StoreError::Invalid(format!(
            "{} exists already: back up to a new file",
            to.display()
        )));
    }
    // The copy is first written beside `to`: a missing folder is named as `to`'s.
    let folder = match to.parent() {
        Some(p) if p.as_os_str().is_empty() => Path::new("."),
        Some(p) => p,
        None => Path::new("/"),
    };
    if !folder.is_dir() {
        return Err(StoreError::Invalid(format!(
            "no folder {} to write {} in",
            folder.display(),
            to.display()
        )));
    }
    // Read and write (though only read): a database in WAL mode needs its shared-memory file,
    // which a read-only connection cannot make when no server has it open. Never created.
    let source = Connection::open_with_flags(
        from,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(db)?;
    source
        .busy_timeout(std::time::Duration::from_secs(5))
        .map_err(db)?;
    // Not a database: refused before anything is written.
    let version: i64 = source
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .map_err(|e| StoreError::Invalid(format!("{}: {e}", from.display())))?;
    if version == 0 {
        return Err(StoreError::Invalid(format!(
            "{} is no Plateau database",
            from.display()
        )));
    }
    let mut partial = to.as_os_str().to_owned();
    partial.push(".partial");
    let partial = std::path::PathBuf::from(partial);
    let copied = (|| {
        let mut copy = Connection::open(&partial).map_err(db)?;
        copy_all(&source, &mut copy)?;
        let check: String = copy
            .pragma_query_value(None, "quick_check", |r| r.get(0))
            .map_err(db)?;
        if check != "ok" {
            return Err(StoreError::Invalid(format!(
                "the copy fails its check: {check}"
            )));
        }
        // One file: the copy's log folded into it before it is closed and renamed.
        copy.pragma_update(None, "journal_mode", "DELETE")
            .map_err(db)?;
        drop(copy);
        std::fs::rename(&partial, to)
            .map_err(|e| StoreError::Invalid(format!("{}: {e}", to.display())))
    })();
    if copied.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    copied
}

/// What `restore` put in place.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Restored {
    /// The schema version the backup was written at (`PRAGMA user_version`: the migrations it
    /// had); the restored database is migrated from it to this version's.
    pub schema: usize,
    /// The matches the backup holds.
    pub matches: u64,
    /// The players (guests, accounts and bots) it holds.
    pub players: u64,
    /// Where the database that was at the destination now is (with `force`), if there was one
    /// with data.
    pub replaced: Option<std::path::PathBuf>,
}

/// Puts the backup at `from` (a file `backup` wrote, or any Plateau SQLite database) in the place
/// of the database at `to`, migrated to this version's schema. Run while no server has `to`
/// open (docs/deploy.md, "Restoring").
///
/// Checked first, before anything changes: `from` must pass `PRAGMA quick_check` and be a
/// Plateau database of a schema this version knows (a newer one is refused). A database at `to`
/// that holds any match or player (or that is no Plateau database) is kept unless `force`; with
/// `force` it is moved aside, never deleted: renamed with its write-ahead log to
/// `TO.replaced-UNIXMS` (`Restored::replaced`). The copy is written beside `to` and renamed into
/// place, and a write-ahead log left beside `to` is moved away with the old file, so the restored
/// file is never read with another database's log.
///
/// # Errors
/// `Invalid`, changing nothing, for a `from` that is no Plateau database of a known schema or
/// fails its check, for a `to` another process has open (a running server; even with `force`)
/// and for a `to` with data without `force`; `Database` if a file cannot be
/// read or written.
pub fn restore(from: &Path, to: &Path, force: bool) -> Result<Restored, StoreError> {
    let (schema, matches, players) = plateau_contents(from)?
        .ok_or_else(|| StoreError::Invalid(format!("{} is no Plateau database", from.display())))?;
    let with = |suffix: &str| {
        let mut name = to.as_os_str().to_owned();
        name.push(suffix);
        std::path::PathBuf::from(name)
    };
    let occupied = match to.metadata() {
        Ok(meta) if meta.len() > 0 => !matches!(plateau_contents(to), Ok(Some((_, 0, 0)))),
        _ => false,
    };
    if in_use(to) {
        return Err(StoreError::Invalid(format!(
            "{} is in use: stop every plateau serve that has it open, then restore",
            to.display()
        )));
    }
    if occupied && !force {
        return Err(StoreError::Invalid(format!(
            "{} holds a database already: restore into a new path, or give --force to move it \
             aside (kept as {}.replaced-UNIXMS)",
            to.display(),
            to.display()
        )));
    }
    let restoring = with(".restoring");
    // Left by a restore that stopped midway: ours to remove.
    let _ = std::fs::remove_file(&restoring);
    backup(from, &restoring)?;
    let io = |e: std::io::Error| StoreError::Invalid(format!("{}: {e}", to.display()));
    let aside = format!(".replaced-{}", unix_ms());
    let mut replaced = None;
    let moved = (|| {
        for part in ["", "-wal", "-shm"] {
            let file = with(part);
            if !file.exists() {
                continue;
            }
            if occupied {
                std::fs::rename(&file, with(&format!("{aside}{part}"))).map_err(io)?;
            } else {
                std::fs::remove_file(&file).map_err(io)?;
            }
        }
        if occupied {
            replaced = Some(with(&aside));
        }
        std::fs::rename(&restoring, to).map_err(io)
    })();
    if let Err(e) = moved {
        let _ = std::fs::remove_file(&restoring);
        return Err(e);
    }
    let conn = connect(to)?;
    migrate(&conn)?;
    players::fill_similar_keys(&conn)?;
    Ok(Restored {
        schema,
        matches,
        players,
        replaced,
    })
}

/// Whether another process (a running server) has the SQLite database at `path` open: such a
/// process holds a shared lock on the file as long as it is open in write-ahead-log mode, so a
/// connection in exclusive locking mode cannot take the file. Any other failure (no file, no
/// SQLite database) is left to the checks that follow.
fn in_use(path: &Path) -> bool {
    use rusqlite::OpenFlags;
    if !path.is_file() {
        return false;
    }
    let Ok(conn) = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    ) else {
        return false;
    };
    if conn.busy_timeout(std::time::Duration::ZERO).is_err() {
        return false;
    }
    let taken = conn.execute_batch("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; COMMIT;");
    matches!(
        taken,
        Err(rusqlite::Error::SqliteFailure(e, _)) if e.code == rusqlite::ErrorCode::DatabaseBusy
    )
}

/// The schema version and the numbers of matches and players of the Plateau database at
/// `path`: `None` for a SQLite database that is no Plateau one (no schema version, or no
/// matches and log tables).
///
/// # Errors
/// `Invalid` for a file that is no SQLite database, fails `PRAGMA quick_check`, or has a schema
/// newer than this version knows.
fn plateau_contents(path: &Path) -> Result<Option<(usize, u64, u64)>, StoreError> {
    use rusqlite::OpenFlags;
    let shown = path.display();
    if !path.is_file() {
        return Err(StoreError::Invalid(format!("no database at {shown}")));
    }
    let invalid = |e: rusqlite::Error| StoreError::Invalid(format!("{shown}: {e}"));
    // Read and write (though only read), as `backup` opens its source; never created.
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(invalid)?;
    let check: String = conn
        .pragma_query_value(None, "quick_check", |r| r.get(0))
        .map_err(invalid)?;
    if check != "ok" {
        return Err(StoreError::Invalid(format!(
            "{shown} fails its check: {check}"
        )));
    }
    let version: i64 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .map_err(invalid)?;
    let known = schema::MIGRATIONS.len();
    let version = usize::try_from(version).unwrap_or(0);
    if version > known {
        return Err(StoreError::Invalid(format!(
            "{shown} has schema version {version}, from a newer Plateau (this one knows 1 to \
             {known})"
        )));
    }
    let table = |name: &str| -> Result<bool, StoreError> {
        conn.query_row(
            "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?1",
            [name],
            |r| r.get::<_, i64>(0),
        )
        .map(|n| n > 0)
        .map_err(invalid)
    };
    if version == 0 || !table("matches")? || !table("actions")? {
        return Ok(None);
    }
    let count = |name: &str| -> Result<u64, StoreError> {
        if !table(name)? {
            return Ok(0);
        }
        conn.query_row(&format!("SELECT COUNT(*) FROM {name}"), [], |r| {
            r.get::<_, i64>(0)
        })
        .map(|n| n.unsigned_abs())
        .map_err(invalid)
    };
    Ok(Some((version, count("matches")?, count("players")?)))
}

/// Copies every page of `source` into `copy` in one step of SQLite's backup (a step of all
/// pages reads them in one transaction), waiting out a writer's lock for at most 5 s.
fn copy_all(source: &Connection, copy: &mut Connection) -> Result<(), StoreError> {
    use rusqlite::backup::{Backup, StepResult};
    let backup = Backup::new(source, copy).map_err(db)?;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    loop {
        match backup.step(-1).map_err(db)? {
            StepResult::Done => return Ok(()),
            // `More` cannot follow a step of all pages, unless the source changed meanwhile
            // through this very connection (it is ours alone): step again all the same.
            StepResult::More => {}
            StepResult::Busy | StepResult::Locked if std::time::Instant::now() < deadline => {
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            StepResult::Busy | StepResult::Locked => {
                return Err(StoreError::Invalid(
                    "the database stayed locked for 5 s: try again".into(),
                ));
            }
            _ => {}
        }
    }
}
