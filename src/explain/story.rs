//! The causal story of a violation (or of an incident: a refused write, a
//! stale answer, a timeout, a hung request), read from the trace.

use serde::Serialize;

use crate::config::{Micros, ScenarioKind, StrategyKind, TxMode};
use crate::debugger::{Recording, Violation, ViolationKind};
use crate::explain::narrate::{ms, servers_of};
use crate::sim::trace::{OpKind, Outcome, TraceKey};
use crate::sim::{Site, TraceEvent, What};
use crate::strategy::{self, Guard};

/// What went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StoryKind {
    /// A second order row for one user and event.
    DuplicateTicket,
    /// A script's row beyond the first of a uniqueness it expects.
    DuplicateRow,
    /// A DB load of a key that another request was loading, or had loaded.
    ExtraDbRead,
    /// Two requests in one critical section at once.
    TwoHolders,
    /// A write from a read another request's write had made stale.
    LostUpdate,
    /// An insert into what a count or search had matched, after another
    /// request's row changed that answer.
    WriteSkew,
    /// A statement ran in the transaction another request began.
    SharedTransaction,
    /// The DB refused a write with an older fencing token.
    FencedWrite,
    /// The DB refused a write for breaking the unique constraint.
    RefusedWrite,
    /// SERIALIZABLE refused a transaction (40001) and no retry was left.
    SerializationFailure,
    /// A request gave up waiting and answered with stale data.
    StaleAnswer,
    /// A request gave up waiting and failed.
    Timeout,
    /// A request never returned.
    Hung,
    /// A script's request failed, and the trace shows why: its write broke
    /// a unique constraint after another request's row landed, or its
    /// statement that waited for another transaction's row lock found
    /// nothing once it went on.
    FailedRequest,
}

impl StoryKind {
    pub fn name(self) -> &'static str {
        match self {
            StoryKind::DuplicateTicket => "duplicate ticket",
            StoryKind::DuplicateRow => "duplicate row",
            StoryKind::ExtraDbRead => "extra DB read",
            StoryKind::TwoHolders => "two holders",
            StoryKind::FencedWrite => "fenced write",
            StoryKind::RefusedWrite => "refused write",
            StoryKind::SerializationFailure => "serialization failure",
            StoryKind::StaleAnswer => "stale answer",
            StoryKind::Timeout => "timeout",
            StoryKind::Hung => "hung request",
            StoryKind::LostUpdate => "lost update",
            StoryKind::WriteSkew => "write skew",
            StoryKind::SharedTransaction => "shared transaction",
            StoryKind::FailedRequest => "failed request",
        }
    }

    /// Whether this is one of the debugger's violations (the others are
    /// incidents: what a defence did, or what a fault cost).
    pub fn is_violation(self) -> bool {
        matches!(
            self,
            StoryKind::DuplicateTicket
                | StoryKind::DuplicateRow
                | StoryKind::ExtraDbRead
                | StoryKind::TwoHolders
                | StoryKind::LostUpdate
                | StoryKind::WriteSkew
                | StoryKind::SharedTransaction
        )
    }
}

/// Why the requests were not kept apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Cause {
    /// No lock guards the check and the act.
    NoLock,
    /// The insert is not awaited: the lock is released before it lands.
    ForgottenAwait,
    /// An in-process mutex, one per server, and the requests on different servers.
    PerServerMutex,
    /// The holder's lease (lock_ttl) ran out while it was still inside.
    LeaseExpired,
    /// `get` then `set`: both read "no lock" before either set it.
    GetSetRace,
    /// The lock was taken without reading the cache again under it.
    NoDoubleCheck,
    /// READ COMMITTED lets both transactions read "no order".
    ReadCommitted,
    /// The DB's own defence: a unique constraint, fencing, SERIALIZABLE.
    DbDefence,
    /// Waiting for the lock took longer than wait_timeout.
    WaitTimeout,
    /// A holder crashed inside its critical section and never released.
    CrashedHolder,
    /// Transactions waited for each other's rows: PostgreSQL's deadlock
    /// check failed one.
    Deadlock,
    /// A transaction's statements sent through `pool.query`, each on
    /// whichever connection came back to the pool last.
    PoolQueryTransaction,
    /// None of the above could be read from the trace.
    Other,
}

/// One request at one instant: a check, or an act.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Moment {
    pub request: u32,
    /// Virtual time, in microseconds.
    pub time: Micros,
    /// The macrotask (0-based, as trace events count steps).
    pub step: u32,
}

impl Moment {
    fn of(event: &TraceEvent) -> Moment {
        Moment {
            request: event.request,
            time: event.time,
            step: event.step,
        }
    }
}

/// The causal story of one violation or incident.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Story {
    pub kind: StoryKind,
    pub cause: Cause,
    /// The data key (user for ticket, item for stampede).
    pub key: u32,
    /// The requests involved, the earlier one (who got there first) first.
    pub requests: Vec<u32>,
    /// The check the later request made (the read that let it through).
    pub check: Moment,
    /// What it then did (the write, the load, the entry, the refusal).
    pub act: Moment,
    /// The step at which the violation (or incident) happened.
    pub step: u32,
    /// The story in plain sentences.
    pub text: String,
}

/// The trace with the indices the stories need.
struct Reader<'a> {
    recording: &'a Recording,
    events: &'a [TraceEvent],
    servers: Vec<u32>,
    scenario: ScenarioKind,
}

impl<'a> Reader<'a> {
    fn new(recording: &'a Recording) -> Reader<'a> {
        Reader {
            recording,
            events: &recording.events,
            servers: servers_of(&recording.events),
            scenario: recording.config.scenario,
        }
    }

    fn last_before(
        &self,
        index: usize,
        pred: impl Fn(&TraceEvent) -> bool,
    ) -> Option<(usize, &'a TraceEvent)> {
        let events: &'a [TraceEvent] = self.events;
        events[..index.min(events.len())]
            .iter()
            .enumerate()
            .rev()
            .find(|(_, e)| pred(e))
    }

    fn first_after(
        &self,
        index: usize,
        pred: impl Fn(&TraceEvent) -> bool,
    ) -> Option<(usize, &'a TraceEvent)> {
        let events: &'a [TraceEvent] = self.events;
        events
            .iter()
            .enumerate()
            .skip(index + 1)
            .find(|(_, e)| pred(e))
    }

    fn server(&self, request: u32) -> u32 {
        self.servers.get(request as usize).copied().unwrap_or(0)
    }

    fn key_name(&self, key: u32) -> String {
        self.recording.keys.describe(TraceKey::Data(key))
    }

    /// The requests inside the critical section of `key` just before
    /// `index`, in the order they entered.
    fn holders_before(&self, index: usize, key: u32) -> Vec<(u32, usize)> {
        let mut inside: Vec<(u32, usize)> = Vec::new();
        for (i, event) in self.events[..index].iter().enumerate() {
            if event.key != TraceKey::Data(key) {
                continue;
            }
            match event.what {
                What::Enter => inside.push((event.request, i)),
                What::Exit | What::Crash => inside.retain(|&(r, _)| r != event.request),
                _ => {}
            }
        }
        inside
    }

    /// When `request` took the lock of `key` (the event that let it in),
    /// at or before `enter`.
    fn acquired(&self, request: u32, key: u32, enter: usize) -> Option<&'a TraceEvent> {
        self.last_before(enter + 1, |e| {
            e.request == request
                && e.key == TraceKey::Lock(key)
                && (matches!(e.what, What::MutexGrant | What::TakeTicket | What::Wake)
                    || matches!(e.what, What::Complete(_))
                        && matches!(e.outcome, Outcome::Stored | Outcome::Miss))
        })
        .map(|(_, e)| e)
    }

    /// Why `later` got into the critical section of `key` (at event index
    /// `enter`) although `earlier` was inside (or its work was unfinished).
    fn why_not_excluded(
        &self,
        earlier: u32,
        later: u32,
        key: u32,
        enter: usize,
    ) -> (Cause, String) {
        let config = &self.recording.config;
        let strategy = config.strategy;
        let guard = strategy::guard(strategy);
        // A script's critical sections are its own `guard`s, not a built-in
        // story's find and insert or load.
        let script = self.recording.program.is_script();
        if script && guard == Guard::Nothing {
            return (
                Cause::NoLock,
                format!(
                    "With `strategy={}`, `guard` takes no lock: nothing makes #{later} wait \
                     for #{earlier}.",
                    strategy.name()
                ),
            );
        }
        if guard == Guard::Nothing {
            let what = match self.scenario {
                ScenarioKind::Ticket => "the find and the insert",
                ScenarioKind::Stampede => "the load",
            };
            let text = match config.tx {
                TxMode::ReadCommitted => format!(
                    "No lock guards {what}, and READ COMMITTED lets both transactions read \
                     'no order' before either commits."
                ),
                _ => format!("No lock guards {what}: nothing makes #{later} wait for #{earlier}."),
            };
            let cause = match config.tx {
                TxMode::ReadCommitted => Cause::ReadCommitted,
                _ => Cause::NoLock,
            };
            return (cause, text);
        }
        let (a, b) = (self.server(earlier), self.server(later));
        if guard.per_server() && config.servers > 1 && a != b {
            let text = match guard {
                Guard::InProcess { noun, .. } => format!(
                    "#{earlier} holds server {a}'s {noun} and #{later} server {b}'s: the \
                     {noun} lives in each server's memory, so it does not exclude requests \
                     on different servers."
                ),
                _ => format!(
                    "#{earlier} runs on server {a} and #{later} on server {b}: single-flight \
                     shares a call only within one server's memory, so each server loads on \
                     its own."
                ),
            };
            return (Cause::PerServerMutex, text);
        }
        if guard == Guard::SharedCall {
            return (
                Cause::Other,
                format!(
                    "The single-flight call of #{earlier} had finished, so #{later} started its own."
                ),
            );
        }
        let paused = |request: u32| match config.pause {
            Some(pause) if pause.request == request => {
                format!(" while #{request} was paused for {}", ms(pause.duration))
            }
            _ => format!(" while #{request} was still inside"),
        };
        if let Guard::InProcess { lease: true, .. } = guard {
            let expired = self.last_before(enter + 1, |e| {
                e.what == What::LeaseExpired && e.key == TraceKey::Lock(key)
            });
            if let Some((_, expired)) = expired {
                return (
                    Cause::LeaseExpired,
                    format!(
                        "#{earlier}'s lease on ticket {} (lock_ttl {}) ran out{}: at the tick of \
                         {} the next ticket was served, so #{later} entered.",
                        expired.detail,
                        ms(config.lock_ttl),
                        paused(earlier),
                        ms(expired.time)
                    ),
                );
            }
        }
        let earlier_enter = self
            .last_before(enter, |e| {
                e.request == earlier && e.what == What::Enter && e.key == TraceKey::Data(key)
            })
            .map(|(i, _)| i);
        let later_took = self.acquired(later, key, enter);
        if let Some(earlier_enter) = earlier_enter {
            let earlier_took = self.acquired(earlier, key, earlier_enter);
            let ttl = config.lock_ttl;
            if let (Some(took), Some(later_took)) = (earlier_took, later_took) {
                if guard.has_lease() && later_took.time >= took.time.saturating_add(ttl) {
                    let paused = paused(earlier);
                    return (
                        Cause::LeaseExpired,
                        format!(
                            "#{earlier} took the lock at {} with a lock_ttl of {}; the lease \
                             expired at {}{paused}, so #{later} took the lock at {}.",
                            ms(took.time),
                            ms(ttl),
                            ms(took.time.saturating_add(ttl)),
                            ms(later_took.time)
                        ),
                    );
                }
            }
            if guard == (Guard::CacheLock { split: true }) {
                let read = |request: u32| {
                    self.last_before(enter + 1, |e| {
                        e.request == request
                            && e.site == Site::LockGet
                            && e.what == What::Complete(OpKind::CacheGet)
                            && e.outcome == Outcome::Miss
                    })
                    .map(|(_, e)| e.time)
                };
                let set = self
                    .first_after(0, |e| {
                        e.request == earlier
                            && e.site == Site::LockSet
                            && matches!(e.what, What::Complete(_))
                    })
                    .map(|(_, e)| e.time);
                if let (Some(ra), Some(rb), Some(set)) = (read(earlier), read(later), set) {
                    if rb <= set {
                        return (
                            Cause::GetSetRace,
                            format!(
                                "#{earlier} and #{later} both read 'no lock' (at {} and {}) \
                                 before #{earlier}'s cache.set of the lock landed at {}: get \
                                 then set is not atomic, so both took the lock.",
                                ms(ra),
                                ms(rb),
                                ms(set)
                            ),
                        );
                    }
                }
            }
        }
        if !config.await_insert && self.scenario == ScenarioKind::Ticket && !script {
            // Handled by the duplicate story; here the lock did exclude.
            return (
                Cause::ForgottenAwait,
                format!("#{earlier} left the critical section before its insert landed."),
            );
        }
        if let Some(crash) = config.crash {
            if crash == earlier {
                return (
                    Cause::CrashedHolder,
                    format!("#{earlier} crashed holding the lock."),
                );
            }
        }
        (
            Cause::Other,
            format!("#{later} entered the critical section while #{earlier} held it."),
        )
    }

    fn duplicate(&self, index: usize, violation: &Violation) -> Story {
        let later = violation.request;
        let key = violation.key;
        let data = TraceKey::Data(key);
        let act_event = &self.events[index];
        let is_order = |e: &TraceEvent| {
            e.key == data
                && (e.what == What::Complete(OpKind::DbInsert) && e.outcome == Outcome::Inserted
                    || e.what == What::Complete(OpKind::DbCommit) && e.detail > 0)
        };
        let earlier_landed = self.last_before(index, |e| is_order(e) && e.request != later);
        let check = self
            .last_before(index, |e| {
                e.request == later
                    && e.key == data
                    && e.what == What::Complete(OpKind::DbFindOrder)
                    && e.outcome == Outcome::NoOrder
            })
            .map(|(_, e)| *e)
            .unwrap_or(*act_event);
        let Some((landed_index, landed)) = earlier_landed else {
            return self.bare(StoryKind::DuplicateTicket, key, act_event, "a second order");
        };
        let earlier = landed.request;
        let sent = self
            .last_before(landed_index, |e| {
                e.request == earlier
                    && e.key == data
                    && matches!(e.what, What::Issue(OpKind::DbInsert | OpKind::DbCommit))
            })
            .map(|(_, e)| e.time)
            .unwrap_or(landed.time);
        let write = match landed.what {
            What::Complete(OpKind::DbCommit) => "commit",
            _ => "insert",
        };
        let mut text = if landed.time > check.time {
            format!(
                "#{later} read 'no order' at {} because #{earlier}'s {write}, sent at {}, lands at {}. Both inserted.",
                ms(check.time),
                ms(sent),
                ms(landed.time)
            )
        } else {
            format!(
                "#{later} read 'no order' at {}, and #{earlier}'s {write} (sent at {}) landed at {}. Both inserted.",
                ms(check.time),
                ms(sent),
                ms(landed.time)
            )
        };
        let config = &self.recording.config;
        let cause = if !config.await_insert && config.strategy != StrategyKind::None {
            let exit = self
                .last_before(landed_index, |e| {
                    e.request == earlier && e.what == What::Exit && e.key == data
                })
                .map(|(_, e)| e.time);
            let later_enter = self
                .last_before(index, |e| {
                    e.request == later && e.what == What::Enter && e.key == data
                })
                .map(|(_, e)| e.time);
            match (exit, later_enter) {
                (Some(exit), Some(enter)) if exit < landed.time => {
                    text.push_str(&format!(
                        " #{earlier}'s db.insert is not awaited: #{earlier} released the lock at {}, \
                         before its insert landed, and #{later} entered at {}.",
                        ms(exit),
                        ms(enter)
                    ));
                    Cause::ForgottenAwait
                }
                _ => self.push_cause(&mut text, earlier, later, key, index),
            }
        } else {
            self.push_cause(&mut text, earlier, later, key, index)
        };
        Story {
            kind: StoryKind::DuplicateTicket,
            cause,
            key,
            requests: vec![earlier, later],
            check: Moment::of(&check),
            act: Moment::of(act_event),
            step: act_event.step,
            text,
        }
    }

    fn push_cause(
        &self,
        text: &mut String,
        earlier: u32,
        later: u32,
        key: u32,
        index: usize,
    ) -> Cause {
        let enter_of = |request: u32| {
            self.last_before(index + 1, |e| {
                e.request == request && e.what == What::Enter && e.key == TraceKey::Data(key)
            })
            .map(|(i, _)| i)
        };
        // The lock's order is who entered first, not who wrote first.
        let (first, second, enter) = match (enter_of(earlier), enter_of(later)) {
            (Some(a), Some(b)) if b < a => (later, earlier, a),
            (_, Some(b)) => (earlier, later, b),
            (Some(a), None) => (later, earlier, a),
            (None, None) => (earlier, later, index),
        };
        let (cause, because) = self.why_not_excluded(first, second, key, enter);
        text.push(' ');
        text.push_str(&because);
        cause
    }

    fn extra_read(&self, index: usize, violation: &Violation) -> Story {
        let later = violation.request;
        let key = violation.key;
        let data = TraceKey::Data(key);
        let act_event = &self.events[index];
        let name = self.key_name(key);
        let first = self.last_before(index, |e| {
            e.key == data && e.what == What::Issue(OpKind::DbSelect) && e.request != later
        });
        let miss = self
            .last_before(index, |e| {
                e.request == later
                    && e.key == data
                    && e.what == What::Complete(OpKind::CacheGet)
                    && matches!(e.outcome, Outcome::Miss | Outcome::Stale)
            })
            .map(|(_, e)| *e)
            .unwrap_or(*act_event);
        let Some((first_index, first)) = first else {
            return self.bare(StoryKind::ExtraDbRead, key, act_event, "a second load");
        };
        let earlier = first.request;
        let set = self
            .first_after(first_index, |e| {
                e.request == earlier && e.key == data && e.what == What::Complete(OpKind::CacheSet)
            })
            .map(|(_, e)| e.time);
        let mut text = format!(
            "#{earlier} loaded {name} first: its db.select was sent at {}",
            ms(first.time)
        );
        match set {
            Some(set) => text.push_str(&format!(" and its cache.set lands at {}.", ms(set))),
            None => text.push('.'),
        }
        let in_flight = set.is_none_or(|set| set > miss.time);
        if in_flight {
            text.push_str(&format!(
                " #{later} missed the cache at {} while that load was in flight, and sent its \
                 own db.select at {}.",
                ms(miss.time),
                ms(act_event.time)
            ));
        } else {
            text.push_str(&format!(
                " #{later} missed the cache at {} and sent its own db.select at {}.",
                ms(miss.time),
                ms(act_event.time)
            ));
        }
        let config = &self.recording.config;
        let cause = if config.strategy.is_lock() && !config.double_check {
            let already = set.filter(|&set| set <= act_event.time);
            match already {
                Some(set) => text.push_str(&format!(
                    " By then #{earlier}'s value had been in the cache since {}, but #{later} \
                     did not read the cache again under the lock (double_check=false).",
                    ms(set)
                )),
                None => text.push_str(&format!(
                    " #{later} did not read the cache again under the lock (double_check=false)."
                )),
            }
            Cause::NoDoubleCheck
        } else {
            self.push_cause(&mut text, earlier, later, key, index)
        };
        Story {
            kind: StoryKind::ExtraDbRead,
            cause,
            key,
            requests: vec![earlier, later],
            check: Moment::of(&miss),
            act: Moment::of(act_event),
            step: act_event.step,
            text,
        }
    }

    fn two_holders(&self, index: usize, violation: &Violation) -> Story {
        let later = violation.request;
        let key = violation.key;
        let act_event = &self.events[index];
        let holders = self.holders_before(index, key);
        let Some(&(earlier, _)) = holders.iter().find(|(r, _)| *r != later) else {
            return self.bare(StoryKind::TwoHolders, key, act_event, "a second holder");
        };
        let check = self
            .acquired(later, key, index)
            .copied()
            .unwrap_or(*act_event);
        let mut text = format!(
            "#{later} entered the critical section of {} at {} while #{earlier} was still inside.",
            self.key_name(key),
            ms(act_event.time)
        );
        let (cause, because) = self.why_not_excluded(earlier, later, key, index);
        text.push(' ');
        text.push_str(&because);
        Story {
            kind: StoryKind::TwoHolders,
            cause,
            key,
            requests: vec![earlier, later],
            check: Moment::of(&check),
            act: Moment::of(act_event),
            step: act_event.step,
            text,
        }
    }

    /// A story with only the act known.
    fn bare(&self, kind: StoryKind, key: u32, event: &TraceEvent, what: &str) -> Story {
        Story {
            kind,
            cause: Cause::Other,
            key,
            requests: vec![event.request],
            check: Moment::of(event),
            act: Moment::of(event),
            step: event.step,
            text: format!(
                "#{} made {what} on {} at {}.",
                event.request,
                self.key_name(key),
                ms(event.time)
            ),
        }
    }

    /// " (line N)" for an event with a script position, else nothing.
    #[cfg(scripts)]
    fn line_of(&self, index: usize) -> String {
        self.recording
            .position_of(index)
            .map_or(String::new(), |(line, _)| format!(" (line {line})"))
    }

    /// See [`failed_request`].
    #[cfg(scripts)]
    fn failed_request(&self, request: u32, step: u32) -> Option<Story> {
        let returned = self
            .events
            .iter()
            .position(|e| e.step == step && e.request == request && e.what == What::Return)?;
        // Its last statement that broke a unique constraint or went on
        // after a row lock wait.
        let (gi, grant) = self.last_before(returned, |e| {
            e.request == request
                && (e.what == What::RowLockGrant
                    || matches!(e.what, What::Complete(_)) && e.outcome == Outcome::Conflict)
        })?;
        if grant.outcome == Outcome::Conflict {
            return self.refused_row(request, returned, gi);
        }
        if grant.outcome == Outcome::SerializationFailure {
            return self.deadlock(request, returned, gi);
        }
        if !matches!(grant.outcome, Outcome::NoOrder | Outcome::NotStored) {
            return None;
        }
        let (wi, wait) = self.last_before(gi, |e| {
            e.request == request && e.outcome == Outcome::LockWait
        })?;
        let op = wait.what.op()?;
        // The transaction whose end let it go on: it ended in the same
        // step, just before.
        let (_, ended) = self.last_before(gi, |e| {
            e.step == grant.step
                && e.request != request
                && matches!(
                    e.what,
                    What::Complete(OpKind::SqlCommit | OpKind::SqlRollback | OpKind::SqlRollbackTo)
                )
        })?;
        let ended_op = ended.what.op()?;
        let found = match grant.outcome {
            Outcome::NoOrder => "it returned no rows",
            _ => "it wrote no row",
        };
        let text = format!(
            "#{request}'s {}{} waited at {} for a row lock #{} held. #{}'s {} landed at {}, and \
             the statement went on with the snapshot it had taken before the wait, which has \
             none of #{}'s new rows: {found}. Then #{request} failed{}.",
            crate::explain::narrate::call(op, wait.key, &self.recording.keys),
            self.line_of(wi),
            ms(wait.time),
            ended.request,
            ended.request,
            crate::debugger::narrate::op_label(ended_op),
            ms(ended.time),
            ended.request,
            self.failure_message(request, returned)
                .map_or(String::new(), |message| format!(": {message}")),
        );
        Some(Story {
            kind: StoryKind::FailedRequest,
            cause: Cause::ReadCommitted,
            key: key_of(wait),
            requests: vec![ended.request, request],
            check: Moment::of(wait),
            act: Moment::of(grant),
            step: grant.step,
            text,
        })
    }

    /// A script's request failed because its write broke a unique
    /// constraint: it had read and found nothing, and another request's
    /// row landed after that read (the duplicate the constraint kept out).
    #[cfg(scripts)]
    fn refused_row(&self, request: u32, returned: usize, index: usize) -> Option<Story> {
        let act = &self.events[index];
        let line = |i: usize| self.line_of(i);
        let check = self.last_before(index, |e| {
            e.request == request
                && reads(e)
                && matches!(e.outcome, Outcome::NoOrder | Outcome::Miss)
        });
        let earlier = self.last_before(index, |e| {
            e.request != request && e.key == act.key && writes(e)
        });
        let landed =
            match (check, earlier) {
                (Some((ci, c)), Some((wi, w))) => {
                    format!(
                "#{request} read {}{} at {} and found nothing; #{}'s row{} landed at {}{}. ",
                self.recording.keys.describe(c.key),
                line(ci),
                ms(c.time),
                w.request,
                line(wi),
                ms(w.time),
                if w.time > c.time { ", after that read" } else { "" },
            )
                }
                (None, Some((wi, w))) => {
                    format!(
                        "#{}'s row{} landed at {}. ",
                        w.request,
                        line(wi),
                        ms(w.time)
                    )
                }
                _ => String::new(),
            };
        let text = format!(
            "{landed}#{request}'s {}{} at {} broke a unique constraint: the database kept the \
             second row out, and #{request} failed{}.",
            crate::explain::narrate::call(act.what.op()?, act.key, &self.recording.keys),
            line(index),
            ms(act.time),
            self.failure_message(request, returned)
                .map_or(String::new(), |message| format!(": {message}")),
        );
        let mut requests = vec![request];
        if let Some((_, w)) = earlier {
            requests.insert(0, w.request);
        }
        Some(Story {
            kind: StoryKind::FailedRequest,
            cause: Cause::DbDefence,
            key: key_of(act),
            requests,
            check: Moment::of(check.map_or(act, |(_, c)| c)),
            act: Moment::of(act),
            step: act.step,
            text,
        })
    }

    /// A script's request failed with a deadlock (40P01): its statement
    /// waited for a row, a wait closed a cycle of waits, and PostgreSQL's
    /// deadlock check for it, `deadlock_timeout` after its wait began,
    /// failed it (the grant at `index`).
    #[cfg(scripts)]
    fn deadlock(&self, request: u32, returned: usize, index: usize) -> Option<Story> {
        let grant = &self.events[index];
        let (ci, checked) = self.last_before(index + 1, |e| {
            e.request == request
                && e.site == Site::DeadlockTimeout
                && e.what == What::Complete(OpKind::Sleep)
        })?;
        let (ai, armed) = self.last_before(ci, |e| {
            e.request == request
                && e.site == Site::DeadlockTimeout
                && e.what == What::Issue(OpKind::Sleep)
        })?;
        let (wi, wait) = self.last_before(ai, |e| {
            e.request == request && e.outcome == Outcome::LockWait
        })?;
        // The wait that closed the cycle: the one in the step the check
        // was set in.
        let (li, closer) = self.last_before(ai, |e| {
            e.step == armed.step && e.outcome == Outcome::LockWait
        })?;
        let line = |i: usize| self.line_of(i);
        let call = |e: &TraceEvent| {
            crate::explain::narrate::call(
                e.what.op().unwrap_or(OpKind::SqlUpdate),
                e.key,
                &self.recording.keys,
            )
        };
        let cycle = match closer.request == request {
            true => format!(
                "#{request}'s {}{} waited at {} for a row another transaction had locked, and \
                 closed a cycle of waits: each waited for a row another had locked.",
                call(wait),
                line(wi),
                ms(wait.time)
            ),
            false => format!(
                "#{request}'s {}{} waited at {} for a row another transaction had locked; #{}'s \
                 {}{} at {} closed a cycle of waits: each waited for a row another had locked.",
                call(wait),
                line(wi),
                ms(wait.time),
                closer.request,
                call(closer),
                line(li),
                ms(closer.time)
            ),
        };
        let text = format!(
            "{cycle} PostgreSQL's deadlock check for #{request} ran at {}, deadlock_timeout after \
             its wait began, and failed its statement (40P01); the others went on. Then \
             #{request} failed{}.",
            ms(checked.time),
            self.failure_message(request, returned)
                .map_or(String::new(), |message| format!(": {message}")),
        );
        let mut requests = vec![request];
        if closer.request != request {
            requests.insert(0, closer.request);
        }
        Some(Story {
            kind: StoryKind::FailedRequest,
            cause: Cause::Deadlock,
            key: key_of(wait),
            requests,
            check: Moment::of(wait),
            act: Moment::of(grant),
            step: grant.step,
            text,
        })
    }

    /// The message a script's request logged last before `index`, in one
    /// line.
    #[cfg(scripts)]
    fn failure_message(&self, request: u32, index: usize) -> Option<String> {
        let (_, said) = self.last_before(index, |e| e.request == request && e.what == What::Log)?;
        let text = self.recording.keys.message(said.detail)?;
        Some(crate::script_links::in_one_line(text))
    }

    /// A script's duplicate row, found in its data: the request read and
    /// found nothing, another request's row landed, and it wrote a second.
    #[cfg(scripts)]
    fn script_duplicate(&self, violation: &Violation) -> Option<Story> {
        let (index, act) = self.events.iter().enumerate().find(|(_, e)| {
            e.step == violation.step
                && e.request == violation.request
                && matches!(e.what, What::Complete(_) | What::RowLockGrant)
        })?;
        let later = violation.request;
        let line = |i: usize| self.line_of(i);
        let check = self
            .last_before(index, |e| {
                e.request == later
                    && reads(e)
                    && matches!(e.outcome, Outcome::NoOrder | Outcome::Miss)
            })
            .or_else(|| self.last_before(index, |e| e.request == later && reads(e)));
        let earlier = self.last_before(index, |e| e.request != later && writes(e));
        let wrote = format!("#{later} wrote{} at {}", line(index), ms(act.time));
        let text = match (check, earlier) {
            (Some((ci, c)), Some((wi, w))) => {
                let when = if w.time > c.time {
                    format!("landed at {}, after that read", ms(w.time))
                } else {
                    format!("landed at {}, but not in what that read saw", ms(w.time))
                };
                format!(
                    "#{later} read {}{} at {} and found nothing; #{}'s row{} {when}. {wrote}: a second \
                     row where the code expects one (nothing made the read and the write one step).",
                    self.key_name(match c.key {
                        TraceKey::Data(k) | TraceKey::Lock(k) => k,
                        TraceKey::None => violation.key,
                    }),
                    line(ci),
                    ms(c.time),
                    w.request,
                    line(wi),
                )
            }
            _ => format!("{wrote}: a second row where the code expects one."),
        };
        let check = check.map(|(_, e)| e);
        let earlier = earlier.map(|(_, e)| e.request);
        Some(data_story(
            StoryKind::DuplicateRow,
            violation,
            act,
            check,
            earlier,
            text,
        ))
    }

    fn story(&self, violation: &Violation) -> Option<Story> {
        #[cfg(scripts)]
        if self.recording.program.is_script() {
            match violation.kind {
                ViolationKind::DuplicateRow => return self.script_duplicate(violation),
                ViolationKind::LostUpdate { in_place } => {
                    return self.lost_update(violation, in_place)
                }
                ViolationKind::WriteSkew => return self.write_skew(violation),
                ViolationKind::SharedTransaction { began_by } => {
                    return self.shared_transaction(violation, began_by)
                }
                _ => {}
            }
        }
        let data = TraceKey::Data(violation.key);
        let index = self.events.iter().position(|e| {
            e.step == violation.step
                && e.request == violation.request
                && e.key == data
                && match violation.kind {
                    ViolationKind::DuplicateTicket => {
                        e.what == What::Complete(OpKind::DbInsert) && e.outcome == Outcome::Inserted
                            || e.what == What::Complete(OpKind::DbCommit) && e.detail > 0
                    }
                    ViolationKind::ExtraDbRead => e.what == What::Issue(OpKind::DbSelect),
                    ViolationKind::SecondHolder => e.what == What::Enter,
                    ViolationKind::DuplicateRow
                    | ViolationKind::LostUpdate { .. }
                    | ViolationKind::WriteSkew
                    | ViolationKind::SharedTransaction { .. } => false,
                }
        })?;
        Some(match violation.kind {
            ViolationKind::DuplicateTicket => self.duplicate(index, violation),
            ViolationKind::ExtraDbRead => self.extra_read(index, violation),
            ViolationKind::SecondHolder => self.two_holders(index, violation),
            ViolationKind::DuplicateRow
            | ViolationKind::LostUpdate { .. }
            | ViolationKind::WriteSkew
            | ViolationKind::SharedTransaction { .. } => return None,
        })
    }

    /// A script's statement that ran in the transaction block another
    /// request began: `pool.query` took that request's connection, which
    /// came back to the pool with the block open.
    #[cfg(scripts)]
    fn shared_transaction(&self, violation: &Violation, began_by: u32) -> Option<Story> {
        let (index, act) = self.events.iter().enumerate().find(|(_, e)| {
            e.step == violation.step
                && e.request == violation.request
                && matches!(e.what, What::Complete(_))
                && e.key == TraceKey::Data(violation.key)
        })?;
        let request = violation.request;
        let op = crate::debugger::narrate::op_label(act.what.op()?);
        let begun = self.last_before(index, |e| {
            e.request == began_by && e.what == What::Complete(OpKind::SqlBegin)
        });
        let began = match begun {
            Some((bi, b)) => format!(
                "#{began_by} began with its BEGIN{} at {}",
                self.line_of(bi),
                ms(b.time)
            ),
            None => format!("#{began_by} began"),
        };
        let text = format!(
            "#{request}'s {op}{} at {} ran in the transaction {began}: `pool.query` sends each \
             query on whichever of the pool's connections came back last, and #{began_by}'s came \
             back with its transaction open. A transaction's queries need one connection: take a \
             client (`const c = await pool.connect()`), send them all on it, then `c.release()`.",
            self.line_of(index),
            ms(act.time),
        );
        let check = begun.map(|(_, e)| e);
        let mut story = data_story(
            StoryKind::SharedTransaction,
            violation,
            act,
            check,
            Some(began_by),
            text,
        );
        story.cause = Cause::PoolQueryTransaction;
        Some(story)
    }

    /// A script's lost update: it read a key, another request wrote it,
    /// and it wrote the key from what it had read (or, `in_place`, changed
    /// it on what it had read).
    #[cfg(scripts)]
    fn lost_update(&self, violation: &Violation, in_place: bool) -> Option<Story> {
        let (index, act) = self.data_act(violation)?;
        let wrote = match in_place {
            true => Wrote::InPlace,
            false => Wrote::Over,
        };
        self.stale_write(violation, wrote, index, act)
    }

    /// A script's write skew: it counted or searched a table, another
    /// request's write changed what that matched, and it wrote there on
    /// its answer. A transaction's is told at its last write before the
    /// COMMIT (where it was found), which that COMMIT published.
    #[cfg(scripts)]
    fn write_skew(&self, violation: &Violation) -> Option<Story> {
        let (index, act) = self.data_act(violation)?;
        if act.what != What::Complete(OpKind::SqlCommit) {
            return self.stale_write(violation, Wrote::Skew, index, act);
        }
        let later = violation.request;
        let (write, wrote) = self.last_before(index, |e| {
            e.request == later
                && matches!(
                    e.what,
                    What::Complete(OpKind::SqlInsert | OpKind::SqlUpdate | OpKind::SqlDelete)
                )
        })?;
        let TraceKey::Data(table) = wrote.key else {
            return None;
        };
        let at_write = Violation {
            key: table,
            ..*violation
        };
        let mut story = self.stale_write(&at_write, Wrote::Skew, write, wrote)?;
        let told = format!(
            "#{later} {} it{} at {}",
            skewed(wrote).0,
            self.line_of(write),
            ms(wrote.time)
        );
        let committed = format!(
            "{told}, committed{} at {}",
            self.line_of(index),
            ms(act.time)
        );
        story.text = story.text.replacen(&told, &committed, 1);
        Some(story)
    }

    /// The completion (or row lock grant) at which `violation` was found.
    #[cfg(scripts)]
    fn data_act(&self, violation: &Violation) -> Option<(usize, &TraceEvent)> {
        let data = TraceKey::Data(violation.key);
        self.events.iter().enumerate().find(|(_, e)| {
            e.step == violation.step
                && e.request == violation.request
                && e.key == data
                && matches!(e.what, What::Complete(_) | What::RowLockGrant)
        })
    }

    /// The story of a write (the event at `index`) from a read another
    /// request's write had made stale.
    #[cfg(scripts)]
    fn stale_write(
        &self,
        violation: &Violation,
        wrote: Wrote,
        index: usize,
        act: &TraceEvent,
    ) -> Option<Story> {
        let data = TraceKey::Data(violation.key);
        let later = violation.request;
        let line = |i: usize| self.line_of(i);
        let read = self.last_before(index, |e| {
            e.request == later
                && e.key == data
                && matches!(
                    e.what,
                    What::Complete(
                        OpKind::CacheGet
                            | OpKind::CacheGetStale
                            | OpKind::CacheHashGet
                            | OpKind::CacheSetRead
                            | OpKind::DbFind
                            | OpKind::DbFindOne
                            | OpKind::CacheZsetRead
                            | OpKind::CacheListRead
                            | OpKind::SqlSelect
                            | OpKind::SqlSelectForUpdate
                    )
                )
        });
        let other = self.last_before(index, |e| {
            e.request != later
                && e.key == data
                && matches!(e.what, What::Complete(_))
                && matches!(
                    e.outcome,
                    Outcome::Stored | Outcome::Inserted | Outcome::Buffered | Outcome::Deleted
                )
        });
        let name = self.key_name(violation.key);
        let text = match (read, other) {
            (Some((ri, r)), Some((oi, o))) => {
                // A change in place (a count, `$inc`, a sorted set's or a
                // list's) keeps every write: what is lost is the other's
                // write from the check this one acted on; an insert's, the
                // other's row.
                let (verb, ending) = match wrote {
                    Wrote::Over => (
                        "wrote",
                        format!(
                            "from what it had read, so #{}'s update is lost (the read and the \
                             write are two steps",
                            o.request
                        ),
                    ),
                    Wrote::InPlace => (
                        "changed",
                        format!(
                            "on what it had read, which missed #{}'s change (the check and the \
                             write are two steps",
                            o.request
                        ),
                    ),
                    Wrote::Skew => (
                        skewed(act).0,
                        format!(
                            "on what it had read, which missed #{}'s {} (the check and the \
                             {} are two steps",
                            o.request,
                            skewed(o).1,
                            skewed(act).2
                        ),
                    ),
                };
                let other_verb = match wrote {
                    Wrote::Skew => skewed(o).0,
                    Wrote::Over | Wrote::InPlace => verb,
                };
                format!(
                    "#{later} read {name}{} at {}; #{} {other_verb} it{} at {}; #{later} {verb} \
                     it{} at {} {ending}, and nothing keeps others out between them).",
                    line(ri),
                    ms(r.time),
                    o.request,
                    line(oi),
                    ms(o.time),
                    line(index),
                    ms(act.time),
                )
            }
            _ => format!(
                "#{later} wrote {name}{} at {} from a read another write had made stale.",
                line(index),
                ms(act.time)
            ),
        };
        let text = text + &self.shared_watch(index, later, data);
        let check = read.map(|(_, e)| e);
        let other = other.map(|(_, e)| e.request);
        let kind = match wrote {
            Wrote::Skew => StoryKind::WriteSkew,
            Wrote::Over | Wrote::InPlace => StoryKind::LostUpdate,
        };
        Some(data_story(kind, violation, act, check, other, text))
    }

    /// Why a lost update's `EXEC` (at `index`) ran although `later`
    /// watched the key: another request's `EXEC`, on the connection they
    /// share, had ended the watch (none: empty).
    #[cfg(scripts)]
    fn shared_watch(&self, index: usize, later: u32, data: TraceKey) -> String {
        if self.events[index].what != What::Complete(OpKind::CacheExec) {
            return String::new();
        }
        let watched = self.last_before(index, |e| {
            e.request == later && e.key == data && e.what == What::Complete(OpKind::CacheWatch)
        });
        let Some((watch, _)) = watched else {
            return String::new();
        };
        let ended = self.events[watch..index]
            .iter()
            .rev()
            .find(|e| e.request != later && e.what == What::Complete(OpKind::CacheExec));
        match ended {
            Some(e) => format!(
                " #{later}'s WATCH did not stop it: a watch belongs to the client's connection, \
                 which every request on its server shares, and #{}'s EXEC at {} ended it \
                 (duplicate() gives each request a connection of its own).",
                e.request,
                ms(e.time),
            ),
            None => String::new(),
        }
    }

    /// Who held the lock of `key` while `request` waited before `index`.
    fn holder_while_waiting(&self, request: u32, key: u32, index: usize) -> Option<(u32, Micros)> {
        self.holders_before(index, key)
            .into_iter()
            .find(|&(r, _)| r != request)
            .map(|(r, i)| (r, self.events[i].time))
    }

    fn incidents(&self) -> Vec<Story> {
        let config = &self.recording.config;
        let mut stories = Vec::new();
        for (index, event) in self.events.iter().enumerate() {
            let who = event.request;
            let key = match event.key {
                TraceKey::Data(key) | TraceKey::Lock(key) => key,
                TraceKey::None => 0,
            };
            let name = self.key_name(key);
            let story = |kind, cause, requests: Vec<u32>, check: Moment, text: String| Story {
                kind,
                cause,
                key,
                requests,
                check,
                act: Moment::of(event),
                step: event.step,
                text,
            };
            match (event.what, event.outcome) {
                (What::Complete(OpKind::DbInsert), Outcome::Fenced) => {
                    let newer = self.last_before(index, |e| {
                        e.key == TraceKey::Data(key)
                            && e.what == What::Enter
                            && e.detail > event.detail
                    });
                    let mut text = format!(
                        "#{who}'s insert was refused at {}: it carries fencing token {}, older \
                         than one the DB has seen",
                        ms(event.time),
                        event.detail
                    );
                    let mut requests = vec![who];
                    let mut check = Moment::of(event);
                    let mut cause = Cause::DbDefence;
                    if let Some((enter_index, newer)) = newer {
                        text.push_str(&format!(
                            " (#{} entered with token {} at {}).",
                            newer.request,
                            newer.detail,
                            ms(newer.time)
                        ));
                        requests = vec![who, newer.request];
                        check = Moment::of(newer);
                        let (why, because) =
                            self.why_not_excluded(who, newer.request, key, enter_index);
                        if why == Cause::LeaseExpired {
                            cause = why;
                            text.push(' ');
                            text.push_str(&because);
                        }
                    } else {
                        text.push('.');
                    }
                    text.push_str(&format!(" #{who} fails instead of writing a second order."));
                    stories.push(story(StoryKind::FencedWrite, cause, requests, check, text));
                }
                (What::Complete(OpKind::DbInsert), Outcome::Conflict) => {
                    let first = self.last_before(index, |e| {
                        e.key == TraceKey::Data(key)
                            && e.what == What::Complete(OpKind::DbInsert)
                            && e.outcome == Outcome::Inserted
                    });
                    let (requests, text) = match first {
                        Some((_, first)) => (
                            vec![first.request, who],
                            format!(
                                "#{who}'s insert broke the unique constraint on (user, event) at \
                                 {}: #{}'s order landed at {}. #{who} fails with an error instead \
                                 of a second ticket.",
                                ms(event.time),
                                first.request,
                                ms(first.time)
                            ),
                        ),
                        None => (
                            vec![who],
                            format!(
                                "#{who}'s insert broke the unique constraint at {}.",
                                ms(event.time)
                            ),
                        ),
                    };
                    let check = Moment::of(event);
                    stories.push(story(
                        StoryKind::RefusedWrite,
                        Cause::DbDefence,
                        requests,
                        check,
                        text,
                    ));
                }
                (What::Complete(_), Outcome::SerializationFailure) => {
                    let text = format!(
                        "#{who}'s transaction was refused at {} (SERIALIZABLE, 40001): another \
                         transaction that read the same rows committed first.",
                        ms(event.time)
                    );
                    let check = Moment::of(event);
                    stories.push(story(
                        StoryKind::SerializationFailure,
                        Cause::DbDefence,
                        vec![who],
                        check,
                        text,
                    ));
                }
                (What::Return, Outcome::ServedStale | Outcome::Failed) => {
                    let give_up =
                        self.last_before(index, |e| e.request == who && e.what == What::GiveUp);
                    let Some((give_index, give)) = give_up else {
                        continue;
                    };
                    let lock = key_of(give);
                    let holder = self
                        .holder_while_waiting(who, lock, give_index)
                        .or_else(|| {
                            let (_, crash) = self.last_before(give_index, |e| {
                                e.what == What::Crash && e.request != who && key_of(e) == lock
                            })?;
                            let since = self
                                .last_before(give_index, |e| {
                                    e.what == What::Enter && e.request == crash.request
                                })
                                .map_or(crash.time, |(_, e)| e.time);
                            Some((crash.request, since))
                        });
                    let stale = event.outcome == Outcome::ServedStale;
                    let mut text = format!(
                        "#{who} gave up waiting for the lock of {} at {} (wait_timeout {})",
                        self.key_name(key_of(give)),
                        ms(give.time),
                        ms(config.wait_timeout)
                    );
                    let mut requests = vec![who];
                    let mut cause = Cause::WaitTimeout;
                    if let Some((holder, since)) = holder {
                        text.push_str(&format!(": #{holder} had held it since {}", ms(since)));
                        if config.crash == Some(holder) {
                            text.push_str(" and crashed holding it, so it was never released");
                            cause = Cause::CrashedHolder;
                        } else if config.pause.is_some_and(|p| p.request == holder) {
                            text.push_str(" and was paused inside");
                        }
                        requests = vec![holder, who];
                    }
                    if stale {
                        text.push_str(&format!(
                            "; #{who} answered with the stale value of {name}."
                        ));
                    } else {
                        text.push_str(&format!("; #{who} failed."));
                    }
                    let kind = if stale {
                        StoryKind::StaleAnswer
                    } else {
                        StoryKind::Timeout
                    };
                    stories.push(story(kind, cause, requests, Moment::of(give), text));
                }
                _ => {}
            }
        }
        // Hung requests: they arrived and never returned.
        let returned: std::collections::HashSet<u32> = self
            .events
            .iter()
            .filter(|e| e.what == What::Return)
            .map(|e| e.request)
            .collect();
        for arrive in self.events.iter().filter(|e| e.what == What::Arrive) {
            let who = arrive.request;
            if returned.contains(&who) {
                continue;
            }
            let last = self
                .events
                .iter()
                .rev()
                .find(|e| e.request == who)
                .unwrap_or(arrive);
            let crash = self.events.iter().find(|e| e.what == What::Crash);
            let (requests, cause, text) = match crash {
                Some(crash) if crash.request != who => (
                    vec![crash.request, who],
                    Cause::CrashedHolder,
                    format!(
                        "#{who} never returns: #{} crashed at {} inside its critical section and \
                         never released the lock #{who} waits for.",
                        crash.request,
                        ms(crash.time)
                    ),
                ),
                _ => (
                    vec![who],
                    Cause::Other,
                    format!("#{who} never returns: nothing is left to wake it up."),
                ),
            };
            stories.push(Story {
                kind: StoryKind::Hung,
                cause,
                key: 0,
                requests,
                check: Moment::of(last),
                act: Moment::of(last),
                step: last.step,
                text,
            });
        }
        // By step; stories of one step keep their order.
        let order = crate::order::by_rank(stories.iter().map(|story| u64::from(story.step)));
        let mut stories: Vec<_> = stories.into_iter().map(Some).collect();
        order
            .into_iter()
            .filter_map(|i| stories[i as usize].take())
            .collect()
    }
}

fn key_of(event: &TraceEvent) -> u32 {
    match event.key {
        TraceKey::Data(key) | TraceKey::Lock(key) => key,
        TraceKey::None => 0,
    }
}

/// The causal story of one of `recording`'s violations.
pub fn story(recording: &Recording, violation: &Violation) -> Option<Story> {
    Reader::new(recording).story(violation)
}

/// The stories of every violation of `recording`, in trace order.
pub fn stories(recording: &Recording) -> Vec<Story> {
    let reader = Reader::new(recording);
    recording
        .violations
        .iter()
        .filter_map(|violation| reader.story(violation))
        .collect()
}

/// The incidents of `recording` that are no violation, in trace order: a
/// fenced or refused write, a serialization failure, a stale answer, a
/// timeout, a hung request, each with what caused it.
pub fn incidents(recording: &Recording) -> Vec<Story> {
    Reader::new(recording).incidents()
}

/// A script's read: a SELECT, a find, a cache get.
#[cfg(scripts)]
fn reads(e: &TraceEvent) -> bool {
    matches!(
        e.what,
        What::Complete(
            OpKind::SqlSelect
                | OpKind::SqlSelectForUpdate
                | OpKind::DbFind
                | OpKind::DbFindOne
                | OpKind::CacheGet
        )
    )
}

/// A script's row landing: an insert outside a transaction, or a commit
/// that wrote rows.
#[cfg(scripts)]
fn writes(e: &TraceEvent) -> bool {
    matches!(
        (e.what, e.outcome),
        (
            What::Complete(OpKind::SqlInsert | OpKind::DbInsert | OpKind::SqlCommit)
                | What::RowLockGrant,
            Outcome::Inserted | Outcome::Committed
        )
    )
}

/// Why a script's request failed, when the trace shows it. Before it
/// failed (its `Return` at `step`), either one of its writes broke a
/// unique constraint (23505), another request's row having landed after
/// its read found nothing; or one of its statements waited for a row lock
/// another transaction held, and once that one ended, the statement went
/// on and found nothing. Under READ COMMITTED a statement that waited
/// keeps the snapshot it started with, which has none of the other
/// transaction's new rows: PostgreSQL rechecks only the rows that snapshot
/// had (docs/sql.md).
#[cfg(scripts)]
pub fn failed_request(recording: &Recording, request: u32, step: u32) -> Option<Story> {
    Reader::new(recording).failed_request(request, step)
}

/// A story of harm found in a script's data: `other` wrote what `act`'s
/// request (which read at `check`) then harmed; no lock was there to stop it.
/// How a stale write wrote: over the key, in place, or into what a
/// count or a search had matched (write skew).
#[cfg(scripts)]
#[derive(Clone, Copy)]
enum Wrote {
    Over,
    InPlace,
    Skew,
}

/// A write-skew story's words for a write: its verb, what another
/// request's write of that kind is, and the statement.
#[cfg(scripts)]
fn skewed(e: &TraceEvent) -> (&'static str, &'static str, &'static str) {
    match e.what {
        What::Complete(OpKind::SqlInsert | OpKind::DbInsert) => ("inserted into", "row", "insert"),
        What::Complete(OpKind::SqlDelete) => ("deleted from", "delete", "delete"),
        _ => ("updated", "update", "update"),
    }
}

#[cfg(scripts)]
fn data_story(
    kind: StoryKind,
    violation: &Violation,
    act: &TraceEvent,
    check: Option<&TraceEvent>,
    other: Option<u32>,
    text: String,
) -> Story {
    let mut requests = vec![violation.request];
    if let Some(other) = other {
        requests.insert(0, other);
    }
    Story {
        kind,
        cause: Cause::NoLock,
        key: violation.key,
        requests,
        check: Moment::of(check.unwrap_or(act)),
        act: Moment::of(act),
        step: act.step,
        text,
    }
}
