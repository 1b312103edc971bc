//! Words for what the engine did: times in ms, outcomes, the macrotask a
//! step ran and the events it caused, in the vocabulary of the code pane.

use crate::scenario::listing::Listing;
use crate::sim::queue::Macrotask;
use crate::sim::trace::{OpKind, Outcome};
use crate::sim::{KeyNames, Site, StepReport, TaskInfo, TraceEvent, What};

/// Microseconds as milliseconds, with no trailing zeros: `20`, `0.5`.
pub fn format_ms(us: u64) -> String {
    let (whole, fraction) = (us / 1_000, us % 1_000);
    if fraction == 0 {
        whole.to_string()
    } else {
        let text = format!("{whole}.{fraction:03}");
        text.trim_end_matches('0').to_string()
    }
}

/// An outcome as the timeline's tooltips and the event-loop pane say it.
pub fn outcome_name(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::None => "",
        Outcome::Hit => "hit",
        Outcome::Stale => "stale",
        Outcome::Miss => "miss",
        Outcome::Stored => "stored",
        Outcome::NotStored => "not stored",
        Outcome::Unchanged => "unchanged",
        Outcome::Deleted => "deleted",
        Outcome::NotFound => "not found",
        Outcome::Row => "row",
        Outcome::Found => "found",
        Outcome::NoOrder => "no order",
        Outcome::Inserted => "inserted",
        Outcome::Woke => "woke",
        Outcome::Ok => "ok",
        Outcome::ServedStale => "served stale",
        Outcome::Failed => "failed",
        Outcome::NotOwner => "not owner",
        Outcome::Conflict => "conflict",
        Outcome::Fenced => "fenced",
        Outcome::Buffered => "written, visible at commit",
        Outcome::Locked => "row locked",
        Outcome::LockWait => "waits for the row lock",
        Outcome::Committed => "committed",
        Outcome::SerializationFailure => "serialization failure",
        Outcome::Crashed => "crashed",
    }
}

/// The event-loop pane's "Ran" line: the step counted from 1, as the
/// transport's step index counts macrotasks run, and its macrotask as the
/// step's own first trace event names it.
pub fn ran_line(report: &StepReport, info: &TaskInfo, keys: &KeyNames) -> String {
    format!(
        "step {} at {} ms: {}",
        report.index + 1,
        format_ms(report.time),
        describe_task(report.task, info, keys)
    )
}

/// Manual mode's label for an enabled event, in the code pane's words:
/// "#1 (user 0 click 1), line 3: const order = await db.findOrder(user,
/// event); lands". `who` says which user, click or item the request is.
pub fn choice_label(task: Macrotask, info: &TaskInfo, who: &str, listing: &Listing) -> String {
    let request = info.request;
    let code = listing
        .line_of(info.site)
        .and_then(|line| Some((line, listing.text_of(line)?)));
    match (task, code) {
        (Macrotask::Arrival(_), _) => format!("#{request} ({who}) arrives and starts the handler"),
        (Macrotask::Timer(_), Some((line, code))) => {
            format!("#{request} ({who}), line {line}: {code} wakes up")
        }
        (Macrotask::Complete(_), Some((line, code))) => {
            format!("#{request} ({who}), line {line}: {code} lands")
        }
        (Macrotask::Timer(_), None) => format!("#{request} ({who}): its timer fires"),
        (Macrotask::Cohort(_), _) => format!("#{request} ({who}): its lock poll runs"),
        (Macrotask::Complete(_), None) => {
            let what = info.op.map_or("operation", op_label);
            format!("#{request} ({who}): its {what} lands")
        }
    }
}

/// A queued or just-run macrotask.
pub fn describe_task(task: Macrotask, info: &TaskInfo, keys: &KeyNames) -> String {
    let key = keys.describe(info.key);
    match (task, info.op) {
        (Macrotask::Arrival(request), _) => format!("#{request} arrives"),
        (Macrotask::Timer(_), Some(OpKind::Sleep) | None) => {
            format!("#{}'s timer fires", info.request)
        }
        (Macrotask::Timer(_), Some(op)) => format!("#{} {} {key} runs", info.request, op_label(op)),
        (Macrotask::Complete(_), Some(op)) => {
            format!("#{} {} {key} completes", info.request, op_label(op))
        }
        (Macrotask::Complete(_), None) => format!("#{} completes", info.request),
        (Macrotask::Cohort(_), _) => format!("#{}'s lock poll runs", info.request),
    }
}

/// An operation's outcome in the words of its kind: a read that found
/// nothing is "no order" for the ticket story's `db.findOrder`, "no rows"
/// for a SQL statement and "none found" for a script's other reads.
pub fn outcome_of(outcome: Outcome, op: Option<OpKind>) -> &'static str {
    match (outcome, op) {
        // A MULTI's EXEC (or a client's batch, as the memcached package's
        // getMulti) runs its commands, or is aborted by a WATCHed key.
        (Outcome::Stored, Some(OpKind::CacheExec)) => "ran",
        (Outcome::NotStored, Some(OpKind::CacheExec)) => "aborted: a watched key changed",
        (Outcome::NoOrder, Some(op)) if is_sql(op) => "no rows",
        (Outcome::NoOrder, Some(op)) if op != OpKind::DbFindOrder => "none found",
        _ => outcome_name(outcome),
    }
}

/// A script's `pg` statement.
pub fn is_sql(op: OpKind) -> bool {
    matches!(
        op,
        OpKind::SqlSelect
            | OpKind::SqlSelectForUpdate
            | OpKind::SqlInsert
            | OpKind::SqlUpdate
            | OpKind::SqlDelete
            | OpKind::SqlBegin
            | OpKind::SqlCommit
            | OpKind::SqlRollback
            | OpKind::SqlLock
            | OpKind::SqlSavepoint
            | OpKind::SqlRelease
            | OpKind::SqlRollbackTo
            | OpKind::SqlSet
            | OpKind::SqlShow
    )
}

/// The setting behind a timeout's timer.
pub fn timeout_name(site: Site) -> &'static str {
    match site {
        Site::StatementTimeout => "statement_timeout",
        _ => "lock_timeout",
    }
}

pub fn describe_event(event: &TraceEvent, keys: &KeyNames) -> String {
    let who = format!("#{}", event.request);
    let key = keys.describe(event.key);
    let result = match event.outcome {
        Outcome::None => String::new(),
        outcome => format!(" → {}", outcome_of(outcome, event.what.op())),
    };
    match event.what {
        What::Issue(_) if event.site == Site::DeadlockTimeout => format!(
            "{who} waits in a cycle of waits: PostgreSQL's deadlock check for it runs in {} ms (deadlock_timeout)",
            format_ms(event.detail)
        ),
        What::Complete(_) if event.site == Site::DeadlockTimeout => {
            format!("PostgreSQL's deadlock check for {who} runs")
        }
        What::Issue(_) if matches!(event.site, Site::LockTimeout | Site::StatementTimeout) => {
            format!(
                "{who}'s statement waits for a lock: PostgreSQL cancels it in {} ms unless it gets it ({})",
                format_ms(event.detail),
                timeout_name(event.site)
            )
        }
        What::Complete(_) if matches!(event.site, Site::LockTimeout | Site::StatementTimeout) => {
            format!(
                "{who}'s {} runs out: PostgreSQL cancels its statement",
                timeout_name(event.site)
            )
        }
        What::Arrive => format!("{who} arrives at server {}", event.detail),
        What::Issue(op) => format!(
            "{who} sends {} {key} ({} ms)",
            op_label(op),
            format_ms(event.detail)
        ),
        What::Complete(op) => format!("{who}: {} {key} lands{result}", op_label(op)),
        What::PoolWait => format!("{who} queues for a DB connection"),
        What::PoolStart => format!("{who} gets a DB connection"),
        What::MutexWait => format!("{who} waits for the mutex on {key}"),
        What::MutexGrant => format!("{who} is granted the mutex on {key}"),
        What::FlightJoin => format!("{who} joins the single-flight for {key}"),
        What::FlightShare => format!("{who} gets the single-flight result"),
        What::Enter => format!("{who} enters the critical section of {key}"),
        What::Exit => format!("{who} leaves the critical section of {key}"),
        What::GiveUp => format!("{who} gives up waiting for {key}"),
        What::Return => format!("{who} returns{result} after {} ms", format_ms(event.detail)),
        What::Listen => format!("{who} listens for the release of {key}"),
        What::Wake => format!("{who} wakes up to retry {key}"),
        What::TakeTicket => format!("{who} takes ticket {} for {key}", event.detail),
        What::LeaseExpired => format!("the lease of ticket {} on {key} expires", event.detail),
        What::Crash => format!("{who} crashes holding {key}"),
        What::ServeStale => format!("{who} serves the stale {key} at once"),
        What::EarlyRefresh => format!("{who} refreshes {key} early (XFetch)"),
        What::Log => match keys.message(event.detail) {
            Some(text) => format!("{who} logs: {text}"),
            None => format!("{who} logs"),
        },
        // The story's FOR UPDATE is granted its row; a script's statement
        // that waited for a row lock goes on once the lock is released,
        // and lands with its outcome.
        What::RowLockGrant => match event.outcome {
            Outcome::None | Outcome::Locked => {
                format!("{who} gets the row lock on {key} (FOR UPDATE)")
            }
            outcome => format!(
                "{who}'s statement on {key} goes on once the row lock it waited for is released → {}",
                outcome_of(outcome, Some(OpKind::SqlSelect))
            ),
        },
    }
}

/// An operation as the code pane spells it: `cache.get`, `db.findOrder`.
pub fn op_label(op: OpKind) -> &'static str {
    match op {
        OpKind::CacheGet => "cache.get",
        OpKind::CacheSet => "cache.set",
        OpKind::CacheAdd => "cache.add",
        OpKind::CacheDelete => "cache.delete",
        OpKind::DbSelect => "db.select",
        OpKind::DbFindOrder => "db.findOrder",
        OpKind::DbInsert => "db.insert",
        OpKind::Sleep => "sleep",
        OpKind::CacheDeleteIfOwner => "cache.deleteIfOwner",
        OpKind::Immediate => "setImmediate(emit)",
        OpKind::CacheGetStale => "cache.getStale",
        OpKind::CacheDeleteIf => "cache.deleteIf",
        OpKind::CacheIncr => "cache.incr",
        OpKind::CacheReplace => "cache.replace",
        OpKind::CacheExpire => "cache.expire",
        OpKind::CacheLockScript => "cache.eval",
        OpKind::CacheWatch => "cache.watch",
        OpKind::CacheExec => "cache.exec",
        OpKind::CacheHashGet => "cache.hget",
        OpKind::CacheHashSet => "cache.hset",
        OpKind::CacheHashIncr => "cache.hincrby",
        OpKind::CacheSetRead => "cache.smembers",
        OpKind::CacheSetWrite => "cache.sadd",
        OpKind::CacheListRead => "cache.lrange",
        OpKind::CacheListWrite => "cache.lpush",
        OpKind::CacheZsetRead => "cache.zrange",
        OpKind::CacheZsetWrite => "cache.zadd",
        OpKind::CacheTtl => "cache.pttl",
        OpKind::CachePersist => "cache.persist",
        OpKind::CacheGetDelete => "cache.getdel",
        OpKind::CacheGetEx => "cache.getex",
        OpKind::CacheListMove => "cache.lmove",
        OpKind::CachePublish => "cache.publish",
        OpKind::CacheGetSet => "cache.getset",
        OpKind::CacheKeys => "cache.keys",
        OpKind::CacheScan => "cache.scan",
        OpKind::CacheType => "cache.type",
        OpKind::CacheStrlen => "cache.strlen",
        OpKind::CacheAppend => "cache.append",
        OpKind::CacheCas => "cache.cas",
        OpKind::CacheRename => "cache.rename",
        OpKind::DbFind => "db.find",
        OpKind::DbFindOne => "db.findOne",
        OpKind::DbUpdate => "db.update",
        OpKind::DbDelete => "db.delete",
        OpKind::DbLockRow => "db.selectForUpdate",
        OpKind::DbCommit => "db.commit",
        OpKind::SqlSelect => "SELECT",
        OpKind::SqlSelectForUpdate => "SELECT … FOR UPDATE",
        OpKind::SqlInsert => "INSERT",
        OpKind::SqlUpdate => "UPDATE",
        OpKind::SqlDelete => "DELETE",
        OpKind::SqlBegin => "BEGIN",
        OpKind::SqlCommit => "COMMIT",
        OpKind::SqlRollback => "ROLLBACK",
        OpKind::SqlLock => "LOCK TABLE",
        OpKind::SqlSavepoint => "SAVEPOINT",
        OpKind::SqlRelease => "RELEASE SAVEPOINT",
        OpKind::SqlRollbackTo => "ROLLBACK TO SAVEPOINT",
        OpKind::SqlSet => "SET",
        OpKind::SqlShow => "SHOW",
    }
}
