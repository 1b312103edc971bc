//! The moments a run goes wrong, found in its trace: what the debugger's
//! "first violation" button jumps to and the timeline marks.

use rustc_hash::FxHashMap as HashMap;

use crate::config::{CacheStart, Config, Micros, ScenarioKind};
use crate::run::DataHarm;
use crate::sim::loads::LoadLog;
use crate::sim::trace::{OpKind, Outcome, TraceKey};
use crate::sim::{TraceEvent, What};

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ViolationKind {
    /// A second (or later) order row for one user and event landed.
    DuplicateTicket,
    /// A script's row beyond the first of a uniqueness it expects landed
    /// (found in its data).
    DuplicateRow,
    /// A DB read of a key read before within one expiry of its cache
    /// entry: two loads at once, or a load of a value already set (the
    /// explorer's `db-reads` rule, `sim::loads`).
    ExtraDbRead,
    /// A request entered a critical section that another one holds.
    SecondHolder,
    /// A script wrote a key from a read another request's write had made
    /// stale (found in its data); `in_place`: it changed the key in place
    /// (a count, `$inc`), acting on the stale read.
    LostUpdate { in_place: bool },
    /// A script inserted into what its count or search of a table had
    /// matched, after another request's row changed that answer (found in
    /// its data): two requests each checked, then each inserted.
    WriteSkew,
    /// A script's statement ran in the transaction block request
    /// `began_by` began (found as it landed: a `pool.query` took that
    /// request's connection with its block open).
    SharedTransaction { began_by: u32 },
}

impl ViolationKind {
    pub fn describe(self) -> &'static str {
        match self {
            ViolationKind::DuplicateTicket => "duplicate ticket",
            ViolationKind::DuplicateRow => "duplicate row",
            ViolationKind::ExtraDbRead => "extra DB read",
            ViolationKind::SecondHolder => "two holders",
            ViolationKind::LostUpdate { .. } => "lost update",
            ViolationKind::WriteSkew => "write skew",
            ViolationKind::SharedTransaction { .. } => "shared transaction",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Violation {
    pub kind: ViolationKind,
    /// The macrotask during which it happened.
    pub step: u32,
    pub time: Micros,
    pub request: u32,
    pub key: u32,
}

/// Every violation in `events`, in trace order.
pub fn find_violations(config: &Config, events: &[TraceEvent]) -> Vec<Violation> {
    let mut finder = ViolationFinder::new(config);
    finder.feed(events);
    finder.finish()
}

/// Finds violations in a trace fed in consecutive slices.
pub struct ViolationFinder {
    finder: Finder,
    found: Vec<Violation>,
    /// Events fed so far.
    fed: usize,
    /// A script's harm found in its data (`Run::data_harm`), by trace
    /// index, ascending.
    harm: Vec<(usize, DataHarm)>,
}

impl ViolationFinder {
    pub fn new(config: &Config) -> ViolationFinder {
        ViolationFinder {
            finder: Finder::new(config),
            found: Vec::new(),
            fed: 0,
            harm: Vec::new(),
        }
    }

    /// For a script: only two holders of one critical section. Its trace
    /// keys are its own strings (a DB event's key is the table, not a
    /// user), so rows and loads per key say nothing; its duplicate rows
    /// are counted from the tables (`duplicate_tickets`).
    pub fn critical_sections_only(mut self) -> ViolationFinder {
        self.finder.sections_only = true;
        self
    }

    /// A script's harm found in its data (`Run::data_harm`): each event
    /// (by trace index) did it.
    pub fn with_data_harm(mut self, mut harm: Vec<(usize, DataHarm)>) -> ViolationFinder {
        harm.sort_unstable_by_key(|&(index, _)| index);
        self.harm = harm;
        self
    }

    pub fn feed(&mut self, events: &[TraceEvent]) {
        for event in events {
            let index = self.fed;
            self.fed += 1;
            let first = self.harm.partition_point(|&(at, _)| at < index);
            for &(_, harm) in self.harm[first..]
                .iter()
                .take_while(|&&(at, _)| at == index)
            {
                let key = match event.key {
                    TraceKey::Data(key) | TraceKey::Lock(key) => key,
                    TraceKey::None => 0,
                };
                self.found.push(Violation {
                    kind: match harm {
                        DataHarm::DuplicateRow => ViolationKind::DuplicateRow,
                        DataHarm::LostUpdate { in_place } => ViolationKind::LostUpdate { in_place },
                        DataHarm::WriteSkew => ViolationKind::WriteSkew,
                        DataHarm::SharedTransaction { began_by } => {
                            ViolationKind::SharedTransaction { began_by }
                        }
                    },
                    step: event.step,
                    time: event.time,
                    request: event.request,
                    key,
                });
            }
            if let Some(found) = self.finder.check(event) {
                self.found.push(found);
            }
        }
    }

    pub fn finish(self) -> Vec<Violation> {
        self.found
    }
}

/// What the search keeps per key while reading the trace.
#[derive(Default)]
struct KeyState {
    orders: u32,
    holders: u32,
    /// Whether a select of the key was seen (its warm expiry is noted
    /// before the first one).
    selected: bool,
}

struct Finder {
    scenario: ScenarioKind,
    ttl: Micros,
    /// A warm cache's expiry for every key, if it has one.
    warm_expiry: Option<Micros>,
    keys: HashMap<u32, KeyState>,
    /// The explorer's rule for a redundant select (`sim::loads`), so the
    /// debugger marks what the `db-reads` check counts.
    loads: LoadLog,
    /// Only `SecondHolder` (a script's trace).
    sections_only: bool,
}

impl Finder {
    fn new(config: &Config) -> Finder {
        let warm = config.scenario == ScenarioKind::Stampede && config.cache == CacheStart::Warm;
        let ttl_expiry = (config.ttl > 0).then_some(config.ttl);
        Finder {
            scenario: config.scenario,
            ttl: config.ttl,
            warm_expiry: warm.then(|| config.expire_at.or(ttl_expiry)).flatten(),
            keys: HashMap::default(),
            loads: LoadLog::default(),
            sections_only: false,
        }
    }

    fn check(&mut self, event: &TraceEvent) -> Option<Violation> {
        let TraceKey::Data(key) = event.key else {
            return None;
        };
        let state = self.keys.entry(key).or_default();
        let story = !self.sections_only;
        let kind = match event.what {
            What::Complete(OpKind::DbInsert) if story && event.outcome == Outcome::Inserted => {
                state.orders += 1;
                (state.orders > 1).then_some(ViolationKind::DuplicateTicket)
            }
            // A transaction's rows appear when its COMMIT lands.
            What::Complete(OpKind::DbCommit) if story && event.detail > 0 => {
                state.orders += event.detail as u32;
                (state.orders > 1).then_some(ViolationKind::DuplicateTicket)
            }
            What::Issue(OpKind::DbSelect) if story && self.scenario == ScenarioKind::Stampede => {
                if !std::mem::replace(&mut state.selected, true) {
                    if let Some(at) = self.warm_expiry {
                        self.loads.expires(key, at);
                    }
                }
                let before = self.loads.redundant();
                self.loads.select_issued(key, event.time);
                (self.loads.redundant() > before).then_some(ViolationKind::ExtraDbRead)
            }
            What::Complete(OpKind::CacheSet) if self.ttl > 0 => {
                self.loads.expires(key, event.time.saturating_add(self.ttl));
                None
            }
            What::Enter => {
                state.holders += 1;
                (state.holders > 1).then_some(ViolationKind::SecondHolder)
            }
            What::Exit | What::Crash => {
                state.holders = state.holders.saturating_sub(1);
                None
            }
            _ => None,
        }?;
        Some(Violation {
            kind,
            step: event.step,
            time: event.time,
            request: event.request,
            key,
        })
    }
}
