//! Moderation in PostgreSQL (as `sqlite::moderation`; the steps in `crate::moderation`, the
//! texts in `sql`).

use deadpool_postgres::{GenericClient, Transaction};
use tokio_postgres::Row;
use tokio_postgres::types::ToSql;

use super::query::{col, exec, row, rows};
use crate::moderation::{
    AuditEntry, AuditFrom, FiledReport, Moderation, NewReport, Record, Report, ReportReason, Role,
    Standing, Value, audit_entry, audit_values, steps,
};
use crate::players::PlayerId;
use crate::{Sanctioned, StoreError, sql};

fn bind(values: &[Value]) -> Vec<Box<dyn ToSql + Sync + Send>> {
    values
        .iter()
        .map(|v| -> Box<dyn ToSql + Sync + Send> {
            match v {
                Value::Int(i) => Box::new(*i),
                Value::Text(t) => Box::new(t.clone()),
            }
        })
        .collect()
}

fn refs(values: &[Box<dyn ToSql + Sync + Send>]) -> Vec<&(dyn ToSql + Sync)> {
    values
        .iter()
        .map(|v| v.as_ref() as &(dyn ToSql + Sync))
        .collect()
}

fn read_entry(r: &Row) -> Result<AuditEntry, StoreError> {
    let target_id: Option<i64> = col(r, 4)?;
    let target_name: Option<String> = col(r, 5)?;
    Ok(audit_entry(
        col(r, 0)?,
        col(r, 1)?,
        col(r, 2)?,
        col(r, 3)?,
        target_id.map(|id| (id, target_name.unwrap_or_default())),
        col(r, 6)?,
        col(r, 7)?,
        col(r, 8)?,
        col(r, 9)?,
        col(r, 10)?,
    ))
}

pub(super) async fn moderate(
    tx: &Transaction<'_>,
    m: &Moderation,
) -> Result<AuditEntry, StoreError> {
    let values = bind(&audit_values(m));
    let id: i64 = match row(tx, sql::INSERT_AUDIT, &refs(&values)).await? {
        Some(r) => col(&r, 0)?,
        None => {
            return Err(StoreError::Corrupt(
                "INSERT ... RETURNING gave no row".into(),
            ));
        }
    };
    for step in steps(m) {
        let values = bind(&step.values);
        let changed = exec(tx, step.sql, &refs(&values)).await?;
        if changed == 0
            && let Some(e) = step.must_change
        {
            return Err(e);
        }
    }
    match row(tx, sql::AUDIT_ENTRY, &[&id]).await? {
        Some(r) => read_entry(&r),
        None => Err(StoreError::NotFound(format!("audit entry {id}"))),
    }
}

pub(super) async fn audit(
    tx: &impl GenericClient,
    from: AuditFrom,
    limit: u32,
) -> Result<Vec<AuditEntry>, StoreError> {
    let limit = i64::from(limit);
    let found = match from {
        AuditFrom::Latest => rows(tx, sql::AUDIT_LATEST, &[&limit]).await?,
        AuditFrom::After(id) => rows(tx, sql::AUDIT_AFTER, &[&id, &limit]).await?,
    };
    found.iter().map(read_entry).collect()
}

pub(super) async fn file_report(tx: &impl GenericClient, r: &NewReport) -> Result<i64, StoreError> {
    let seq =
        r.chat_seq.map(i64::try_from).transpose().map_err(|_| {
            StoreError::Invalid(format!("chat line {:?} is out of range", r.chat_seq))
        })?;
    let found = row(
        tx,
        sql::INSERT_REPORT,
        &[
            &r.at,
            &r.reporter.0,
            &r.reported.0,
            &r.reason.as_str(),
            &r.text,
            &r.match_id,
            &seq,
        ],
    )
    .await?;
    match found {
        Some(row) => col(&row, 0),
        None => Err(StoreError::Corrupt(
            "INSERT ... RETURNING gave no row".into(),
        )),
    }
}

pub(super) async fn open_reports(
    tx: &impl GenericClient,
    limit: u32,
) -> Result<Vec<Report>, StoreError> {
    rows(tx, sql::OPEN_REPORTS, &[&i64::from(limit)])
        .await?
        .iter()
        .map(|r| {
            let reason: String = col(r, 5)?;
            let seq: Option<i64> = col(r, 8)?;
            let line: Option<String> = col(r, 9)?;
            Ok(Report {
                id: col(r, 0)?,
                at: col(r, 1)?,
                reporter: col(r, 2)?,
                reported_id: PlayerId(col(r, 3)?),
                reported: col(r, 4)?,
                reason: ReportReason::parse(&reason)
                    .ok_or_else(|| StoreError::Corrupt(format!("report reason `{reason}`")))?,
                text: col(r, 6)?,
                match_id: col(r, 7)?,
                chat: seq
                    .zip(line)
                    .map(|(s, l)| (u64::try_from(s).unwrap_or(0), l)),
            })
        })
        .collect()
}

pub(super) async fn standing(
    tx: &impl GenericClient,
    player: PlayerId,
) -> Result<Standing, StoreError> {
    standing_from(tx, player, false).await
}

/// `player`'s standing with the warnings it has not read (`all`: every warning).
async fn standing_from(
    tx: &impl GenericClient,
    player: PlayerId,
    all: bool,
) -> Result<Standing, StoreError> {
    let Some(r) = row(tx, sql::MODERATION_STANDING, &[&player.0]).await? else {
        return Err(StoreError::NotFound(format!("player {}", player.0)));
    };
    let role: Option<String> = col(&r, 0)?;
    let seen: i64 = if all { 0 } else { col(&r, 3)? };
    let warnings = rows(tx, sql::WARNINGS, &[&player.0, &seen])
        .await?
        .iter()
        .map(read_entry)
        .collect::<Result<_, _>>()?;
    Ok(Standing {
        role: role.as_deref().and_then(Role::parse),
        muted_until: col(&r, 1)?,
        banned_until: col(&r, 2)?,
        warnings,
    })
}

pub(super) async fn record(
    tx: &impl GenericClient,
    player: PlayerId,
) -> Result<Record, StoreError> {
    let standing = standing_from(tx, player, true).await?;
    let reports = rows(tx, sql::FILED_REPORTS, &[&player.0])
        .await?
        .iter()
        .map(|r| {
            let reason: String = col(r, 3)?;
            let seq: Option<i64> = col(r, 6)?;
            Ok(FiledReport {
                id: col(r, 0)?,
                at: col(r, 1)?,
                reported: col(r, 2)?,
                reason: ReportReason::parse(&reason)
                    .ok_or_else(|| StoreError::Corrupt(format!("report reason `{reason}`")))?,
                text: col(r, 4)?,
                match_id: col(r, 5)?,
                chat_seq: seq.map(|s| u64::try_from(s).unwrap_or(0)),
                status: col(r, 7)?,
            })
        })
        .collect::<Result<_, StoreError>>()?;
    Ok(Record { standing, reports })
}

pub(super) async fn ack_warnings(
    tx: &impl GenericClient,
    player: PlayerId,
    up_to: i64,
) -> Result<(), StoreError> {
    exec(tx, sql::ACK_WARNINGS, &[&up_to, &player.0]).await?;
    Ok(())
}

pub(super) async fn sanctioned(
    tx: &impl GenericClient,
    now: i64,
) -> Result<Vec<Sanctioned>, StoreError> {
    rows(tx, sql::SANCTIONED, &[&now])
        .await?
        .iter()
        .map(|r| Ok((PlayerId(col(r, 0)?), col(r, 1)?, col(r, 2)?)))
        .collect()
}
