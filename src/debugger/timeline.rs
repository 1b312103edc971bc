//! The timeline's model: one lane of spans per request, and lanes for the
//! shared state of the hot key. Built once per run from its trace; the view
//! draws the part up to the current step.

use rustc_hash::FxHashMap as HashMap;

use crate::config::{Config, Micros};
use crate::debugger::narrate::op_label;
use crate::debugger::shared_lanes::{SharedLane, SharedLanes};
use crate::sim::trace::{OpKind, Outcome, ServerKind, Site, TraceKey};
use crate::sim::{RequestSpec, Requests, Target, TraceEvent, What};

/// Not yet happened by the end of the run.
pub const NEVER: u32 = u32::MAX;

/// The `open` key of a statement's wait for a row lock, beside its
/// requests' operations (no `OpKind` is this large).
const ROW_WAIT: u8 = u8::MAX;

/// What a span on a request's lane is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum SpanKind {
    Cache,
    DbRead,
    DbWrite,
    LockWait,
    Critical,
    Sleep,
}

impl SpanKind {
    pub const ALL: [SpanKind; 6] = [
        SpanKind::Cache,
        SpanKind::DbRead,
        SpanKind::DbWrite,
        SpanKind::LockWait,
        SpanKind::Critical,
        SpanKind::Sleep,
    ];

    /// The CSS class suffix and legend text.
    pub fn name(self) -> &'static str {
        match self {
            SpanKind::Cache => "cache",
            SpanKind::DbRead => "db-read",
            SpanKind::DbWrite => "db-write",
            SpanKind::LockWait => "lock-wait",
            SpanKind::Critical => "critical",
            SpanKind::Sleep => "sleep",
        }
    }

    /// Bands drawn behind the operations.
    pub fn is_band(self) -> bool {
        matches!(self, SpanKind::LockWait | SpanKind::Critical)
    }
}

/// One await (or a lock wait, or a critical section) of one request.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Span {
    pub kind: SpanKind,
    #[serde(deserialize_with = "crate::interned::static_str")]
    pub label: crate::interned::Name,
    pub key: TraceKey,
    pub start: Micros,
    pub start_step: u32,
    /// `None` while still open at the end of the run.
    pub end: Option<Micros>,
    pub end_step: u32,
    pub outcome: Outcome,
}

/// A request's lane.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Lane {
    pub request: u32,
    pub server: u32,
    /// What it asks for: its label names it (see [`Timeline::label`]).
    pub target: Target,
    pub arrival: Micros,
    pub returned: Option<(Micros, u32, Outcome)>,
    /// The detail of the request's last `Log` event (a script's: the
    /// message of its failure, when it failed; see `KeyNames::message`).
    pub said: Option<u64>,
    pub spans: Vec<Span>,
}

/// How request lanes are ordered and labelled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Grouping {
    #[default]
    Owner,
    Server,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Timeline {
    pub lanes: Vec<Lane>,
    pub shared: Vec<SharedLane>,
    pub end: Micros,
    /// Whether the run has several servers: lane labels then name theirs.
    pub several_servers: bool,
}

impl Timeline {
    /// The timeline of a whole trace at once (native callers and tests).
    pub fn build(config: &Config, requests: &Requests, events: &[TraceEvent]) -> Timeline {
        let mut builder = TimelineBuilder::new(config, requests);
        builder.feed(events);
        builder.finish()
    }

    /// Lane indexes in display order.
    pub fn order(&self, grouping: Grouping) -> Vec<usize> {
        let rank = |lane: &Lane| match grouping {
            Grouping::Owner => u64::from(lane.owner()),
            Grouping::Server => u64::from(lane.server),
        };
        let order = crate::order::by_rank(self.lanes.iter().map(rank));
        order.into_iter().map(|i| i as usize).collect()
    }

    /// A lane's label, `#3 item:0`, naming its server when there are
    /// several. Made when drawn: a run of 20,000 requests would format
    /// 40,000 strings at once, in one task of the page, for the few lanes
    /// in view.
    pub fn label(&self, lane: &Lane) -> String {
        let request = lane.request;
        let what = match lane.target {
            Target::Item(key) => format!("item:{key}"),
            Target::Click { user, click } => format!("user {user} click {click}"),
        };
        if self.several_servers {
            format!("#{request} {what} · server {}", lane.server)
        } else {
            format!("#{request} {what}")
        }
    }
}

/// Builds a timeline from a trace fed in consecutive slices, so the browser
/// can build a 20,000-request run's timeline between redraws.
pub struct TimelineBuilder {
    lanes: Vec<Lane>,
    several_servers: bool,
    /// Open operation spans by (request, op), lock waits and critical
    /// sections by request.
    open: HashMap<(u32, u8), usize>,
    waiting: HashMap<u32, usize>,
    critical: HashMap<u32, usize>,
    end: Micros,
    shared: SharedLanes,
}

impl TimelineBuilder {
    pub fn new(config: &Config, requests: &Requests) -> TimelineBuilder {
        let servers: Vec<u32> = requests.iter().map(|spec| spec.server).collect();
        let several_servers = servers.iter().any(|&server| server != 0);
        TimelineBuilder {
            lanes: requests
                .iter()
                .enumerate()
                .map(|(i, spec)| lane_for(i as u32, &spec))
                .collect(),
            several_servers,
            open: HashMap::default(),
            waiting: HashMap::default(),
            critical: HashMap::default(),
            end: 0,
            shared: SharedLanes::new(config, servers),
        }
    }

    /// The next events of the trace, in order.
    pub fn feed(&mut self, events: &[TraceEvent]) {
        for event in events {
            self.shared.feed(event);
            self.request_event(event);
        }
    }

    pub fn finish(self) -> Timeline {
        Timeline {
            shared: self.shared.finish(),
            lanes: self.lanes,
            end: self.end,
            several_servers: self.several_servers,
        }
    }

    fn request_event(&mut self, event: &TraceEvent) {
        let (open, waiting, critical) = (&mut self.open, &mut self.waiting, &mut self.critical);
        self.end = self.end.max(event.time);
        let Some(lane) = self.lanes.get_mut(event.request as usize) else {
            return;
        };
        let at = (event.time, event.step);
        match event.what {
            // A deadlock's victim: its row wait ends at PostgreSQL's check.
            What::Issue(op) if event.site == Site::DeadlockTimeout => {
                let label = "waits for a row lock, until PostgreSQL's deadlock check";
                match open.get(&(event.request, ROW_WAIT)) {
                    Some(&index) => lane.spans[index].label = label,
                    None => {
                        let index = push(lane, SpanKind::LockWait, label, event.key, at);
                        open.insert((event.request, op as u8), index);
                    }
                }
            }
            // A timeout's timer is no bar of its own: it only ends a wait.
            What::Issue(_) if matches!(event.site, Site::LockTimeout | Site::StatementTimeout) => {}
            // A statement cancelled by its timeout: its row wait ends there.
            What::Complete(_)
                if matches!(event.site, Site::LockTimeout | Site::StatementTimeout) =>
            {
                if let Some(&index) = open.get(&(event.request, ROW_WAIT)) {
                    lane.spans[index].label = match event.site {
                        Site::LockTimeout => "waits for a row lock, until its lock_timeout",
                        _ => "waits for a row lock, until its statement_timeout",
                    };
                }
            }
            What::Issue(op) => {
                let starts_wait = matches!(event.site, Site::LockGet | Site::LockAdd);
                if starts_wait && !waiting.contains_key(&event.request) {
                    let index = push(lane, SpanKind::LockWait, "lock wait", event.key, at);
                    waiting.insert(event.request, index);
                }
                let index = push(lane, op_kind(op), op_label(op), event.key, at);
                open.insert((event.request, op as u8), index);
            }
            What::Complete(op) => {
                if let Some(index) = open.remove(&(event.request, op as u8)) {
                    close(&mut lane.spans[index], at, event.outcome);
                }
                // The statement waits for a row another transaction locked,
                // until that one ends (or a deadlock check fails it).
                if event.outcome == Outcome::LockWait {
                    let label = "waits for a row lock";
                    let index = push(lane, SpanKind::LockWait, label, event.key, at);
                    open.insert((event.request, ROW_WAIT), index);
                }
            }
            What::RowLockGrant => {
                if let Some(index) = open.remove(&(event.request, ROW_WAIT)) {
                    close(&mut lane.spans[index], at, event.outcome);
                }
            }
            What::MutexWait | What::FlightJoin | What::Listen | What::TakeTicket
                if !waiting.contains_key(&event.request) =>
            {
                let label = match event.what {
                    What::FlightJoin => "waits for the single-flight leader",
                    What::Listen => "waits for the lock's release event",
                    What::TakeTicket => "waits for its ticket to be served",
                    _ => "waits for the mutex",
                };
                let index = push(lane, SpanKind::LockWait, label, event.key, at);
                waiting.insert(event.request, index);
            }
            What::Enter => {
                if let Some(index) = waiting.remove(&event.request) {
                    close(&mut lane.spans[index], at, Outcome::None);
                }
                let index = push(lane, SpanKind::Critical, "critical section", event.key, at);
                critical.insert(event.request, index);
            }
            What::Exit => {
                if let Some(index) = critical.remove(&event.request) {
                    close(&mut lane.spans[index], at, Outcome::None);
                }
            }
            What::GiveUp | What::FlightShare | What::Return => {
                if let Some(index) = waiting.remove(&event.request) {
                    let outcome = match event.what {
                        What::GiveUp => Outcome::Failed,
                        _ => Outcome::None,
                    };
                    close(&mut lane.spans[index], at, outcome);
                }
                if event.what == What::Return {
                    lane.returned = Some((event.time, event.step, event.outcome));
                }
            }
            What::Log => lane.said = Some(event.detail),
            _ => {}
        }
    }
}

/// A request's lane.
fn lane_for(request: u32, spec: &RequestSpec) -> Lane {
    Lane {
        request,
        server: spec.server,
        target: spec.target,
        arrival: spec.arrival,
        returned: None,
        said: None,
        spans: Vec::new(),
    }
}

impl Lane {
    /// The user (ticket) or key (stampede) it works for.
    pub fn owner(&self) -> u32 {
        match self.target {
            Target::Item(key) => key,
            Target::Click { user, .. } => user,
        }
    }
}

fn push(
    lane: &mut Lane,
    kind: SpanKind,
    label: &'static str,
    key: TraceKey,
    (start, start_step): (Micros, u32),
) -> usize {
    lane.spans.push(Span {
        kind,
        label,
        key,
        start,
        start_step,
        end: None,
        end_step: NEVER,
        outcome: Outcome::None,
    });
    lane.spans.len() - 1
}

fn close(span: &mut Span, (end, end_step): (Micros, u32), outcome: Outcome) {
    span.end = Some(end);
    span.end_step = end_step;
    span.outcome = outcome;
}

/// How an operation's span draws: by the server it goes to (none: a
/// timer).
fn op_kind(op: OpKind) -> SpanKind {
    match op.server() {
        Some(ServerKind::Cache) => SpanKind::Cache,
        Some(ServerKind::DbRead) => SpanKind::DbRead,
        Some(ServerKind::DbWrite) => SpanKind::DbWrite,
        None => SpanKind::Sleep,
    }
}
