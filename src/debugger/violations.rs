//! The moments a run goes wrong, found in its trace: what the debugger's
//! "first violation" button jumps to and the timeline marks.

use std::collections::HashMap;

use crate::scenario::config::{Config, Micros, ScenarioKind};
use crate::sim::trace::{OpKind, Outcome, TraceKey};
use crate::sim::{TraceEvent, What};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ViolationKind {
    /// A second (or later) order row for one user and event landed.
    DuplicateTicket,
    /// A DB read of a key that was already live in the cache or already
    /// being loaded by another request.
    ExtraDbRead,
    /// A request entered a critical section that another one holds.
    SecondHolder,
}

impl ViolationKind {
    pub fn describe(self) -> &'static str {
        match self {
            ViolationKind::DuplicateTicket => "duplicate ticket",
            ViolationKind::ExtraDbRead => "extra DB read",
            ViolationKind::SecondHolder => "two holders",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    let mut finder = Finder::new(config);
    events
        .iter()
        .filter_map(|event| finder.check(event))
        .collect()
}

/// What the search keeps per key while reading the trace.
#[derive(Default)]
struct KeyState {
    orders: u32,
    holders: u32,
    /// Selects sent and not yet followed by a `set` of the key.
    loading: u32,
    /// When the cached value stops being live (`None`: never cached).
    live_until: Option<Micros>,
}

struct Finder {
    scenario: ScenarioKind,
    ttl: Micros,
    keys: HashMap<u32, KeyState>,
}

impl Finder {
    fn new(config: &Config) -> Finder {
        let mut keys: HashMap<u32, KeyState> = HashMap::new();
        if config.scenario == ScenarioKind::Stampede
            && config.cache == crate::scenario::config::CacheStart::Warm
        {
            let until = config.expire_at.unwrap_or(if config.ttl == 0 {
                Micros::MAX
            } else {
                config.ttl
            });
            for key in 0..config.keys.min(1 << 16) {
                keys.entry(key).or_default().live_until = Some(until);
            }
        }
        Finder {
            scenario: config.scenario,
            ttl: config.ttl,
            keys,
        }
    }

    fn check(&mut self, event: &TraceEvent) -> Option<Violation> {
        let TraceKey::Data(key) = event.key else {
            return None;
        };
        let state = self.keys.entry(key).or_default();
        let kind = match event.what {
            What::Complete(OpKind::DbInsert) if event.outcome == Outcome::Inserted => {
                state.orders += 1;
                (state.orders > 1).then_some(ViolationKind::DuplicateTicket)
            }
            What::Issue(OpKind::DbSelect) if self.scenario == ScenarioKind::Stampede => {
                let live = state.live_until.is_some_and(|until| event.time < until);
                let extra = live || state.loading > 0;
                state.loading += 1;
                extra.then_some(ViolationKind::ExtraDbRead)
            }
            What::Complete(OpKind::CacheSet) => {
                state.loading = state.loading.saturating_sub(1);
                let ttl = if self.ttl == 0 { Micros::MAX } else { self.ttl };
                state.live_until = Some(event.time.saturating_add(ttl));
                None
            }
            What::Enter => {
                state.holders += 1;
                (state.holders > 1).then_some(ViolationKind::SecondHolder)
            }
            What::Exit => {
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
