//! Moderation in SQLite (as `postgres::moderation`; the steps in `crate::moderation`, the texts
//! in `sql`).

use rusqlite::{Connection, OptionalExtension, params};

use super::db;
use crate::moderation::{
    AuditEntry, AuditFrom, FiledReport, Moderation, NewReport, Record, Report, ReportReason, Role,
    Standing, Value, audit_entry, audit_values, steps,
};
use crate::players::PlayerId;
use crate::{Sanctioned, StoreError, sql};

fn bind(values: &[Value]) -> Vec<Box<dyn rusqlite::ToSql>> {
    values
        .iter()
        .map(|v| -> Box<dyn rusqlite::ToSql> {
            match v {
                Value::Int(i) => Box::new(*i),
                Value::Text(t) => Box::new(t.clone()),
            }
        })
        .collect()
}

fn read_entry(r: &rusqlite::Row<'_>) -> rusqlite::Result<AuditEntry> {
    let target_id: Option<i64> = r.get(4)?;
    let target_name: Option<String> = r.get(5)?;
    Ok(audit_entry(
        r.get(0)?,
        r.get(1)?,
        r.get(2)?,
        r.get(3)?,
        target_id.map(|id| (id, target_name.unwrap_or_default())),
        r.get(6)?,
        r.get(7)?,
        r.get(8)?,
        r.get(9)?,
        r.get(10)?,
    ))
}

pub(super) fn moderate(c: &Connection, m: &Moderation) -> Result<AuditEntry, StoreError> {
    let values = bind(&audit_values(m));
    let id: i64 = c
        .prepare_cached(sql::INSERT_AUDIT)
        .map_err(db)?
        .query_row(rusqlite::params_from_iter(values.iter()), |r| r.get(0))
        .map_err(db)?;
    for step in steps(m) {
        let values = bind(&step.values);
        let changed = c
            .prepare_cached(step.sql)
            .map_err(db)?
            .execute(rusqlite::params_from_iter(values.iter()))
            .map_err(db)?;
        if changed == 0
            && let Some(e) = step.must_change
        {
            return Err(e);
        }
    }
    c.prepare_cached(sql::AUDIT_ENTRY)
        .map_err(db)?
        .query_row([id], read_entry)
        .map_err(db)
}

pub(super) fn audit(
    c: &Connection,
    from: AuditFrom,
    limit: u32,
) -> Result<Vec<AuditEntry>, StoreError> {
    let rows = match from {
        AuditFrom::Latest => c
            .prepare_cached(sql::AUDIT_LATEST)
            .map_err(db)?
            .query_map([limit], read_entry)
            .map_err(db)?
            .collect::<Result<Vec<_>, _>>(),
        AuditFrom::After(id) => c
            .prepare_cached(sql::AUDIT_AFTER)
            .map_err(db)?
            .query_map(params![id, limit], read_entry)
            .map_err(db)?
            .collect::<Result<Vec<_>, _>>(),
    };
    rows.map_err(db)
}

pub(super) fn file_report(c: &Connection, r: &NewReport) -> Result<i64, StoreError> {
    let seq =
        r.chat_seq.map(i64::try_from).transpose().map_err(|_| {
            StoreError::Invalid(format!("chat line {:?} is out of range", r.chat_seq))
        })?;
    c.prepare_cached(sql::INSERT_REPORT)
        .map_err(db)?
        .query_row(
            params![
                r.at,
                r.reporter.0,
                r.reported.0,
                r.reason.as_str(),
                r.text,
                r.match_id,
                seq
            ],
            |row| row.get(0),
        )
        .map_err(db)
}

pub(super) fn open_reports(c: &Connection, limit: u32) -> Result<Vec<Report>, StoreError> {
    let mut stmt = c.prepare_cached(sql::OPEN_REPORTS).map_err(db)?;
    let rows = stmt
        .query_map([limit], |r| {
            let reason: String = r.get(5)?;
            let seq: Option<i64> = r.get(8)?;
            let line: Option<String> = r.get(9)?;
            Ok((
                Report {
                    id: r.get(0)?,
                    at: r.get(1)?,
                    reporter: r.get(2)?,
                    reported_id: PlayerId(r.get(3)?),
                    reported: r.get(4)?,
                    reason: ReportReason::Other,
                    text: r.get(6)?,
                    match_id: r.get(7)?,
                    chat: seq
                        .zip(line)
                        .map(|(s, l)| (u64::try_from(s).unwrap_or(0), l)),
                },
                reason,
            ))
        })
        .map_err(db)?;
    rows.map(|row| {
        let (mut report, reason) = row.map_err(db)?;
        report.reason = ReportReason::parse(&reason)
            .ok_or_else(|| StoreError::Corrupt(format!("report reason `{reason}`")))?;
        Ok(report)
    })
    .collect()
}

/// A player's role, muted until, banned until, and the last warning it read.
type StandingRow = (Option<String>, Option<i64>, Option<i64>, i64);

pub(super) fn standing(c: &Connection, player: PlayerId) -> Result<Standing, StoreError> {
    standing_from(c, player, false)
}

/// `player`'s standing with the warnings it has not read (`all`: every warning).
fn standing_from(c: &Connection, player: PlayerId, all: bool) -> Result<Standing, StoreError> {
    let row: Option<StandingRow> = c
        .prepare_cached(sql::MODERATION_STANDING)
        .map_err(db)?
        .query_row([player.0], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
        })
        .optional()
        .map_err(db)?;
    let Some((role, muted_until, banned_until, seen)) = row else {
        return Err(StoreError::NotFound(format!("player {}", player.0)));
    };
    let seen = if all { 0 } else { seen };
    let warnings = c
        .prepare_cached(sql::WARNINGS)
        .map_err(db)?
        .query_map([player.0, seen], read_entry)
        .map_err(db)?
        .collect::<Result<Vec<_>, _>>()
        .map_err(db)?;
    Ok(Standing {
        role: role.as_deref().and_then(Role::parse),
        muted_until,
        banned_until,
        warnings,
    })
}

pub(super) fn record(c: &Connection, player: PlayerId) -> Result<Record, StoreError> {
    let standing = standing_from(c, player, true)?;
    let mut stmt = c.prepare_cached(sql::FILED_REPORTS).map_err(db)?;
    let rows = stmt
        .query_map([player.0], |r| {
            let seq: Option<i64> = r.get(6)?;
            Ok((
                FiledReport {
                    id: r.get(0)?,
                    at: r.get(1)?,
                    reported: r.get(2)?,
                    reason: ReportReason::Other,
                    text: r.get(4)?,
                    match_id: r.get(5)?,
                    chat_seq: seq.map(|s| u64::try_from(s).unwrap_or(0)),
                    status: r.get(7)?,
                },
                r.get::<_, String>(3)?,
            ))
        })
        .map_err(db)?;
    let reports = rows
        .map(|row| {
            let (mut report, reason) = row.map_err(db)?;
            report.reason = ReportReason::parse(&reason)
                .ok_or_else(|| StoreError::Corrupt(format!("report reason `{reason}`")))?;
            Ok(report)
        })
        .collect::<Result<_, StoreError>>()?;
    Ok(Record { standing, reports })
}

pub(super) fn ack_warnings(c: &Connection, player: PlayerId, up_to: i64) -> Result<(), StoreError> {
    c.prepare_cached(sql::ACK_WARNINGS)
        .map_err(db)?
        .execute([up_to, player.0])
        .map_err(db)?;
    Ok(())
}

pub(super) fn sanctioned(c: &Connection, now: i64) -> Result<Vec<Sanctioned>, StoreError> {
    c.prepare_cached(sql::SANCTIONED)
        .map_err(db)?
        .query_map([now], |r| Ok((PlayerId(r.get(0)?), r.get(1)?, r.get(2)?)))
        .map_err(db)?
        .collect::<Result<Vec<_>, _>>()
        .map_err(db)
}
