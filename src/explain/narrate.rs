//! One step in words: the macrotask that ran and what its microtasks did,
//! in the vocabulary of the code pane.

use crate::config::{Micros, ScenarioKind};
use crate::debugger::narrate::{describe_event, format_ms, op_label, outcome_name, outcome_of};
use crate::debugger::Recording;
use crate::sim::trace::{OpKind, Outcome, TraceKey};
use crate::sim::{KeyNames, Site, TraceEvent, What};

/// `20 ms`, `0.5 ms`.
pub fn ms(us: Micros) -> String {
    format!("{} ms", format_ms(us))
}

/// The server each request arrived at (index = request), from the trace's
/// `Arrive` events (0 for a request not seen).
pub fn servers_of(events: &[TraceEvent]) -> Vec<u32> {
    let mut servers = Vec::new();
    for event in events.iter().filter(|e| e.what == What::Arrive) {
        let index = event.request as usize;
        if servers.len() <= index {
            servers.resize(index + 1, 0);
        }
        servers[index] = event.detail as u32;
    }
    servers
}

/// An operation as the code pane calls it: `db.findOrder(0, event)`,
/// `cache.get(item:0)`, `cache.add(lock:user:0:event)`; a script's SQL
/// statement as its SQL names it: `UPDATE jobs`, `COMMIT`.
pub fn call(op: OpKind, key: TraceKey, keys: &KeyNames) -> String {
    match op {
        OpKind::Immediate
        | OpKind::Sleep
        | OpKind::SqlBegin
        | OpKind::SqlCommit
        | OpKind::SqlRollback => return op_label(op).to_string(),
        OpKind::SqlSelect
        | OpKind::SqlSelectForUpdate
        | OpKind::SqlInsert
        | OpKind::SqlUpdate
        | OpKind::SqlDelete
        | OpKind::SqlLock
        | OpKind::SqlSavepoint
        | OpKind::SqlRelease
        | OpKind::SqlRollbackTo
        | OpKind::SqlSet
        | OpKind::SqlShow => return format!("{} {}", op_label(op), keys.describe(key)),
        _ => {}
    }
    let args = match (key, keys) {
        (TraceKey::None, _) => String::new(),
        (TraceKey::Data(user), KeyNames::Story(ScenarioKind::Ticket)) => format!("{user}, event"),
        #[cfg(scripts)]
        (key, KeyNames::Script { .. }) => format!("{:?}", keys.describe(key)),
        (key, _) => keys.describe(key),
    };
    format!("{}({args})", op_label(op))
}

/// What an operation's landing meant, in words: the ticket story's in
/// its orders, a script's in its rows.
fn landed(event: &TraceEvent, story: bool) -> String {
    let lock = matches!(event.key, TraceKey::Lock(_));
    let op = event.what.op();
    match (event.outcome, op) {
        (Outcome::NoOrder, _) if story => "no order yet".to_string(),
        (Outcome::Found, Some(OpKind::DbFindOrder)) => "an order exists".to_string(),
        (Outcome::Inserted, _) if story => "an order is written".to_string(),
        (Outcome::Inserted, _) => "a row is written".to_string(),
        (Outcome::Miss, _) if lock => "no lock".to_string(),
        (Outcome::Hit, _) if lock => "the lock is held".to_string(),
        (Outcome::Stored, Some(OpKind::CacheAdd | OpKind::CacheSet)) if lock => {
            "stored: it holds the lock".to_string()
        }
        (Outcome::NotStored, Some(OpKind::CacheAdd)) => "not stored: the lock is taken".to_string(),
        (Outcome::Miss, _) => "miss".to_string(),
        (Outcome::Hit, _) => "hit".to_string(),
        (Outcome::Fenced, _) => format!(
            "refused: its fencing token {} is older than one the DB has seen",
            event.detail
        ),
        (Outcome::Conflict, _) => "refused: it breaks the unique constraint".to_string(),
        (Outcome::None, _) => "done".to_string(),
        (outcome, op) => outcome_of(outcome, op).to_string(),
    }
}

/// One trace event as a clause.
fn clause(event: &TraceEvent, keys: &KeyNames, servers: &[u32], several: bool) -> String {
    let who = format!("#{}", event.request);
    let mutex = || {
        let server = servers.get(event.request as usize).copied().unwrap_or(0);
        if several {
            format!("server {server}'s mutex")
        } else {
            "the mutex".to_string()
        }
    };
    let key = keys.describe(event.key);
    match event.what {
        What::Arrive if several => format!("{who} arrives at server {}", event.detail),
        What::Arrive => format!("{who} arrives"),
        What::Issue(OpKind::Sleep) => match event.site {
            Site::Pause => format!("{who} pauses for {}", ms(event.detail)),
            Site::DeadlockTimeout => format!(
                "{who} waits in a cycle of waits: PostgreSQL checks it for a deadlock in {}",
                ms(event.detail)
            ),
            Site::LockPoll => format!(
                "{who} sleeps {} before trying the lock again",
                ms(event.detail)
            ),
            Site::LockTimeout | Site::StatementTimeout => format!(
                "{who}'s statement waits for a lock: PostgreSQL cancels it in {} unless it gets it ({})",
                ms(event.detail),
                crate::debugger::narrate::timeout_name(event.site)
            ),
            _ => format!("{who} sleeps {}", ms(event.detail)),
        },
        What::Complete(OpKind::Sleep) => match event.site {
            Site::Pause => format!("{who}'s pause ends"),
            Site::DeadlockTimeout => format!("PostgreSQL's deadlock check for {who} runs"),
            Site::LockTimeout | Site::StatementTimeout => format!(
                "{who}'s {} runs out: PostgreSQL cancels its statement",
                crate::debugger::narrate::timeout_name(event.site)
            ),
            _ => format!("{who}'s sleep ends"),
        },
        What::Issue(op) => format!("{who} sends {}", call(op, event.key, keys)),
        What::Complete(op) => format!(
            "{who}'s {} lands: {}",
            call(op, event.key, keys),
            landed(event, matches!(keys, KeyNames::Story(_)))
        ),
        What::MutexWait => format!("{who} waits for {} on {key}", mutex()),
        What::MutexGrant => format!("{who} takes {} on {key}", mutex()),
        What::Enter if event.detail > 0 => format!(
            "{who} enters the critical section (fencing token {})",
            event.detail
        ),
        What::Enter => format!("{who} enters the critical section"),
        What::Exit => format!("{who} leaves the critical section"),
        What::Return => match event.outcome {
            Outcome::Ok => format!("{who} returns after {}", ms(event.detail)),
            outcome => format!(
                "{who} returns {} after {}",
                outcome_name(outcome),
                ms(event.detail)
            ),
        },
        // A story is sentences: a message of several lines says its first.
        What::Log => crate::script_links::in_one_line(&describe_event(event, keys)),
        _ => describe_event(event, keys),
    }
}

/// One or two plain sentences for the macrotask that ran at `step` (0-based,
/// as trace events count) and what its microtasks did, such as
/// `At 20 ms, #1's db.findOrder(0, event) lands: no order yet; #1 sends
/// db.insert(0, event).` With more than one server a mutex is named by its
/// server ("server 1's mutex"). Empty for a step the run never took.
pub fn narrate_step(recording: &Recording, step: u32) -> String {
    let events = recording.events_of_step(step);
    let Some(first) = events.first() else {
        return String::new();
    };
    let servers = servers_of(&recording.events);
    let several = recording.config.servers > 1;
    let clauses: Vec<String> = events
        .iter()
        .map(|event| clause(event, &recording.keys, &servers, several))
        .collect();
    format!("At {}, {}.", ms(first.time), clauses.join("; "))
}
