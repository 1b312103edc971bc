//! The fix that would close a story's violation: one changed key, its
//! outcome computed by running it, offered only if the harm is gone.

use serde::Serialize;

use crate::config::url::{format_duration, to_fragment, with_param};
use crate::config::{Config, ScenarioKind, Schedule, StrategyKind};
use crate::explain::story::{Cause, Story, StoryKind};
use crate::explore::Observation;
use crate::run::replay;
use crate::sim::Metrics;

/// One changed key and what the run does with it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Fix {
    /// The changed key, as in the fragment (`db_unique`).
    pub key: String,
    /// Its new value, as in the fragment (`true`).
    pub value: String,
    /// What the change means, such as "a lock in the shared cache".
    pub meaning: String,
    /// The fragment of the fixed scenario (without `#`).
    pub fragment: String,
    /// Whether the fixed run kept the original schedule (else it is the
    /// normal run: the schedule did not fit the changed scenario).
    pub same_schedule: bool,
    /// The fixed run's counters.
    pub metrics: Metrics,
    /// The outcome in words: `0 duplicates, 1 error`.
    pub outcome: String,
    /// `with `db_unique=true` (a unique constraint ...): 0 duplicates, 1 error`.
    pub text: String,
}

/// Whether a finished run still shows the harm of a story of `kind`.
pub fn shows(kind: StoryKind, seen: &Observation) -> bool {
    let m = &seen.metrics;
    match kind {
        StoryKind::DuplicateTicket | StoryKind::DuplicateRow => m.duplicate_tickets > 0,
        StoryKind::ExtraDbRead => seen.redundant_db_reads > 0,
        StoryKind::TwoHolders => m.max_in_critical_section > 1,
        StoryKind::FencedWrite => m.rejected_writes > 0,
        StoryKind::RefusedWrite | StoryKind::SerializationFailure | StoryKind::FailedRequest => {
            m.errors > 0
        }
        StoryKind::StaleAnswer => m.stale_served > 0,
        StoryKind::Timeout => m.timeouts > 0,
        StoryKind::Hung => m.hung > 0,
        StoryKind::LostUpdate | StoryKind::WriteSkew => seen.lost_updates > 0,
        StoryKind::SharedTransaction => seen.shared_transactions > 0,
    }
}

/// Runs `config` to the end; `None` if its schedule does not fit.
pub(crate) fn observe(config: &Config) -> Option<Observation> {
    let sim = replay(config, false).ok()?;
    Some(Observation::of(&sim))
}

fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A run's outcome in the words of the story's harm.
pub fn outcome_text(kind: StoryKind, scenario: ScenarioKind, seen: &Observation) -> String {
    let m = &seen.metrics;
    let mut parts = Vec::new();
    match (kind, scenario) {
        (StoryKind::ExtraDbRead, _) | (_, ScenarioKind::Stampede) => {
            parts.push(plural(
                seen.redundant_db_reads,
                "extra DB read",
                "extra DB reads",
            ));
            parts.push(plural(m.db_reads, "DB read", "DB reads"));
            if m.stale_served > 0 || kind == StoryKind::StaleAnswer {
                parts.push(format!("{} stale served", m.stale_served));
            }
        }
        (_, ScenarioKind::Ticket) => {
            parts.push(plural(m.duplicate_tickets, "duplicate", "duplicates"));
            if m.errors > 0 || kind != StoryKind::DuplicateTicket {
                parts.push(plural(m.errors, "error", "errors"));
            }
        }
    }
    if kind == StoryKind::TwoHolders {
        parts.push(format!(
            "at most {} in the critical section",
            m.max_in_critical_section
        ));
    }
    if m.hung > 0 || kind == StoryKind::Hung {
        parts.push(format!("{} hung", m.hung));
    }
    if m.rejected_writes > 0 {
        parts.push(plural(m.rejected_writes, "fenced write", "fenced writes"));
    }
    parts.join(", ")
}

/// The changes worth trying for a cause, best first: (key, value, meaning).
fn candidates(story: &Story, config: &Config) -> Vec<(String, String, &'static str)> {
    let ticket = config.scenario == ScenarioKind::Ticket;
    let one_server = config.servers <= 1;
    let mut list: Vec<(String, String, &'static str)> = Vec::new();
    let mut push = |key: &str, value: String, meaning: &'static str| {
        list.push((key.to_string(), value, meaning));
    };
    let longer_ttl = || {
        let pause = config.pause.map_or(0, |p| p.duration);
        format_duration((pause + config.lock_ttl).max(config.lock_ttl) * 2)
    };
    match (story.kind, story.cause) {
        (StoryKind::StaleAnswer | StoryKind::Timeout | StoryKind::Hung, Cause::CrashedHolder)
            if matches!(config.strategy, StrategyKind::Add | StrategyKind::GetSet) =>
        {
            push(
                "lock_ttl",
                format_duration((config.wait_timeout / 2).max(1_000)),
                "a lease that runs out before the waiters give up",
            );
        }
        (StoryKind::StaleAnswer | StoryKind::Timeout, _) => {
            push(
                "wait_timeout",
                format_duration(config.wait_timeout.saturating_mul(10).max(1_000_000)),
                "wait long enough for the load",
            );
            if config.strategy != StrategyKind::SingleFlight {
                push(
                    "strategy",
                    "single-flight".into(),
                    "join the running load instead of polling",
                );
            }
        }
        (StoryKind::Hung, _) => {
            push(
                "strategy",
                "add".into(),
                "a lock in the shared cache, whose lease expires",
            );
        }
        (StoryKind::FencedWrite, _) => {
            push("lock_ttl", longer_ttl(), "a lease longer than the pause");
        }
        (_, Cause::ForgottenAwait) => {
            push(
                "await_insert",
                "true".into(),
                "await the insert inside the lock",
            );
            if ticket {
                push(
                    "db_unique",
                    "true".into(),
                    "a unique constraint on (user, event)",
                );
            }
        }
        (_, Cause::PerServerMutex) => {
            push("strategy", "add".into(), "a lock in the shared cache");
            if ticket {
                push(
                    "db_unique",
                    "true".into(),
                    "a unique constraint on (user, event)",
                );
                push(
                    "tx",
                    "for-update".into(),
                    "a row lock in the DB, shared by every server",
                );
            }
            if config.strategy == StrategyKind::SingleFlight && !ticket {
                push(
                    "strategy",
                    "add".into(),
                    "a lock in the shared cache, with a second cache read under it",
                );
            }
            push("servers", "1".into(), "one server, one mutex");
        }
        (_, Cause::LeaseExpired) => {
            if ticket && !config.fencing {
                push(
                    "fencing",
                    "true".into(),
                    "the DB refuses the write of a lock whose lease expired",
                );
            }
            if config.release != crate::config::ReleaseMode::Owner {
                push("release", "owner".into(), "release only one's own lock");
            }
            if config.pause.is_some() {
                push("lock_ttl", longer_ttl(), "a lease longer than the pause");
            }
            push(
                "lock_ttl",
                format_duration(10 * crate::config::SECOND),
                "a lease longer than the critical section",
            );
        }
        (_, Cause::GetSetRace) => {
            push(
                "strategy",
                "add".into(),
                "an atomic lock in the shared cache",
            );
        }
        (_, Cause::NoDoubleCheck) => {
            push(
                "double_check",
                "true".into(),
                "read the cache again under the lock",
            );
        }
        (_, Cause::ReadCommitted) => {
            push(
                "tx",
                "serializable".into(),
                "SERIALIZABLE refuses the second commit",
            );
            push("tx", "for-update".into(), "a row lock in the DB");
            push(
                "db_unique",
                "true".into(),
                "a unique constraint on (user, event)",
            );
        }
        _ => {}
    }
    // Whatever the cause, the general fixes follow.
    if ticket {
        if one_server {
            push(
                "strategy",
                "keyed-mutex".into(),
                "a mutex in the server's memory",
            );
        }
        push(
            "db_unique",
            "true".into(),
            "a unique constraint on (user, event)",
        );
        push("strategy", "add".into(), "a lock in the shared cache");
        push(
            "tx",
            "for-update".into(),
            "a row lock in the DB, shared by every server",
        );
    } else {
        if one_server {
            push(
                "strategy",
                "keyed-mutex".into(),
                "a mutex in the server's memory, with a second cache read under it",
            );
        }
        push(
            "strategy",
            "single-flight".into(),
            "one load per key per server, shared by its waiters",
        );
        push(
            "strategy",
            "add".into(),
            "a lock in the shared cache, with a second cache read under it",
        );
        push(
            "double_check",
            "true".into(),
            "read the cache again under the lock",
        );
    }
    list
}

/// What a fix costs beside the run it fixes (`before`): the p99 latency,
/// and the lock wake-ups and timeouts where the fixed run has some.
pub fn cost_text(before: &Metrics, after: &Metrics) -> String {
    let ms = crate::debugger::narrate::format_ms;
    let mut parts = vec![format!(
        "p99 {} ms (was {} ms)",
        ms(after.latency_us.p99),
        ms(before.latency_us.p99)
    )];
    let mut count = |now: u64, then: u64, what: &str| {
        if now > 0 {
            parts.push(match now == then {
                true => format!("{now} {what}"),
                false => format!("{now} {what} (was {then})"),
            });
        }
    };
    count(after.lock_wakeups, before.lock_wakeups, "lock wake-ups");
    count(after.timeouts, before.timeouts, "timeouts");
    parts.join(", ")
}

/// Whether fix `a` costs clearly less than fix `b`: no more timeouts,
/// errors or hung requests, and a p99 latency at least a fifth lower.
fn cheaper(a: &Metrics, b: &Metrics) -> bool {
    let trouble = |m: &Metrics| (m.timeouts + m.hung, m.errors);
    trouble(a) <= trouble(b) && a.latency_us.p99 * 5 < b.latency_us.p99 * 4
}

/// The changes of one key that remove `story`'s harm from the run of
/// `config` (whose counters are `before`), verified by running each: the
/// one to offer first, then the others, the cheapest first. The first is
/// the first candidate (the cause's own fix before the general ones)
/// unless a later one costs clearly less ([`cheaper`]).
pub fn fixes_for(config: &Config, story: &Story, before: &Metrics) -> Vec<Fix> {
    let mut fixes = verified(config, story, before);
    if fixes.is_empty() {
        return fixes;
    }
    let best = (0..fixes.len()).fold(0, |best, index| {
        match cheaper(&fixes[index].metrics, &fixes[best].metrics) {
            true => index,
            false => best,
        }
    });
    let offered = fixes.remove(best);
    // The others, the cheapest first.
    fixes.sort_by_key(|fix| {
        let m = &fix.metrics;
        (m.timeouts + m.hung, m.errors, m.latency_us.p99)
    });
    fixes.insert(0, offered);
    fixes
}

/// Every candidate change that removes the harm, in the order tried.
fn verified(config: &Config, story: &Story, before: &Metrics) -> Vec<Fix> {
    let mut fixes = Vec::new();
    let mut tried = Vec::new();
    for (key, value, meaning) in candidates(story, config) {
        if tried.contains(&(key.clone(), value.clone())) {
            continue;
        }
        tried.push((key.clone(), value.clone()));
        let Ok(changed) = with_param(config, &key, &value) else {
            continue;
        };
        if changed == *config {
            continue;
        }
        let (changed, seen, same_schedule) = match observe(&changed) {
            Some(seen) => (changed, seen, true),
            None => {
                let normal = Config {
                    schedule: Schedule::default(),
                    ..changed
                };
                match observe(&normal) {
                    Some(seen) => (normal, seen, false),
                    None => continue,
                }
            }
        };
        // The harm must be gone, and no request left hanging.
        if shows(story.kind, &seen) || seen.metrics.hung > 0 {
            continue;
        }
        if story.kind.is_violation()
            && story.kind != StoryKind::DuplicateTicket
            && config.scenario == ScenarioKind::Ticket
            && seen.metrics.duplicate_tickets > 0
        {
            continue;
        }
        let outcome = format!(
            "{}, {}",
            outcome_text(story.kind, config.scenario, &seen),
            cost_text(before, &seen.metrics)
        );
        let text = format!("with `{key}={value}` ({meaning}): {outcome}");
        fixes.push(Fix {
            fragment: to_fragment(&changed),
            key,
            value,
            meaning: meaning.to_string(),
            same_schedule,
            metrics: seen.metrics,
            outcome,
            text,
        });
    }
    fixes
}
