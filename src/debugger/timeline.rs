//! The timeline's model: one lane of spans per request, and lanes for the
//! shared state of the hot key. Built once per run from its trace; the view
//! draws the part up to the current step.

use std::collections::HashMap;

use crate::config::{CacheStart, Config, Micros, ScenarioKind};
use crate::sim::trace::{OpKind, Outcome, Site, TraceKey};
use crate::sim::{RequestSpec, Target, TraceEvent, What};

/// Not yet happened by the end of the run.
pub const NEVER: u32 = u32::MAX;

/// What a span on a request's lane is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    pub kind: SpanKind,
    pub label: &'static str,
    pub key: TraceKey,
    pub start: Micros,
    pub start_step: u32,
    /// `None` while still open at the end of the run.
    pub end: Option<Micros>,
    pub end_step: u32,
    pub outcome: Outcome,
}

/// A request's lane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lane {
    pub request: u32,
    pub server: u32,
    /// The user (ticket) or key (stampede) it works for.
    pub owner: u32,
    pub label: String,
    pub arrival: Micros,
    pub returned: Option<(Micros, u32, Outcome)>,
    pub spans: Vec<Span>,
}

/// A stretch of shared state (a cached value, a held lock, a holder).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    pub start: Micros,
    pub start_step: u32,
    /// `None`: lasts past the end of the run.
    pub end: Option<Micros>,
    pub text: String,
    pub tone: Tone,
    /// Row within the lane, for overlapping holders.
    pub row: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    Live,
    Stale,
    Held,
    Conflict,
}

impl Tone {
    pub fn name(self) -> &'static str {
        match self {
            Tone::Live => "live",
            Tone::Stale => "stale",
            Tone::Held => "held",
            Tone::Conflict => "conflict",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedLane {
    pub label: String,
    pub rows: u32,
    pub segments: Vec<Segment>,
}

/// How request lanes are ordered and labelled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Grouping {
    #[default]
    Owner,
    Server,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Timeline {
    pub lanes: Vec<Lane>,
    pub shared: Vec<SharedLane>,
    pub end: Micros,
}

impl Timeline {
    pub fn build(config: &Config, requests: &[RequestSpec], events: &[TraceEvent]) -> Timeline {
        let mut lanes: Vec<Lane> = requests
            .iter()
            .enumerate()
            .map(|(i, spec)| lane_for(i as u32, spec))
            .collect();
        let mut open: HashMap<(u32, u8), usize> = HashMap::new();
        let mut waiting: HashMap<u32, usize> = HashMap::new();
        let mut critical: HashMap<u32, usize> = HashMap::new();
        let mut end = 0;
        for event in events {
            end = end.max(event.time);
            let Some(lane) = lanes.get_mut(event.request as usize) else {
                continue;
            };
            let at = (event.time, event.step);
            match event.what {
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
                _ => {}
            }
        }
        Timeline {
            shared: shared_lanes(config, events),
            lanes,
            end,
        }
    }

    /// Lane indexes in display order.
    pub fn order(&self, grouping: Grouping) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.lanes.len()).collect();
        match grouping {
            Grouping::Owner => order.sort_by_key(|&i| (self.lanes[i].owner, i)),
            Grouping::Server => order.sort_by_key(|&i| (self.lanes[i].server, i)),
        }
        order
    }
}

fn lane_for(request: u32, spec: &RequestSpec) -> Lane {
    let (owner, what) = match spec.target {
        Target::Item(key) => (key, format!("item:{key}")),
        Target::Click { user, click } => (user, format!("user {user} click {click}")),
    };
    Lane {
        request,
        server: spec.server,
        owner,
        label: format!("#{request} {what} @s{}", spec.server),
        arrival: spec.arrival,
        returned: None,
        spans: Vec::new(),
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

fn op_kind(op: OpKind) -> SpanKind {
    match op {
        OpKind::CacheGet
        | OpKind::CacheSet
        | OpKind::CacheAdd
        | OpKind::CacheDelete
        | OpKind::CacheDeleteIfOwner => SpanKind::Cache,
        OpKind::DbSelect | OpKind::DbFindOrder => SpanKind::DbRead,
        OpKind::DbLockRow => SpanKind::DbRead,
        OpKind::DbInsert | OpKind::DbCommit => SpanKind::DbWrite,
        OpKind::Sleep | OpKind::Immediate => SpanKind::Sleep,
    }
}

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
        OpKind::DbLockRow => "db.selectForUpdate",
        OpKind::DbCommit => "db.commit",
    }
}

/// The hot key's shared state: its cached value (stampede) or order rows
/// (ticket), its cache lock, and who holds its critical section.
fn shared_lanes(config: &Config, events: &[TraceEvent]) -> Vec<SharedLane> {
    const HOT: u32 = 0;
    let name = TraceKey::Data(HOT).describe(config.scenario);
    let mut lanes = Vec::new();
    match config.scenario {
        ScenarioKind::Stampede => lanes.push(cache_value_lane(config, events, &name)),
        ScenarioKind::Ticket => lanes.push(order_rows_lane(events, &name)),
    }
    if config.strategy.is_lock() && config.strategy != crate::config::StrategyKind::KeyedMutex {
        lanes.push(lock_key_lane(config, events));
    }
    lanes.push(holders_lane(events, &name));
    lanes
}

fn expiry(start: Micros, ttl: Micros) -> Option<Micros> {
    (ttl > 0).then(|| start.saturating_add(ttl))
}

fn cache_value_lane(config: &Config, events: &[TraceEvent], name: &str) -> SharedLane {
    let mut sets: Vec<(Micros, u32, Option<Micros>, String)> = Vec::new();
    if config.cache == CacheStart::Warm {
        let expires = config.expire_at.or_else(|| expiry(0, config.ttl));
        sets.push((0, 0, expires, "warm".to_string()));
    }
    for event in events {
        if event.what == What::Complete(OpKind::CacheSet) && event.key == TraceKey::Data(0) {
            let text = format!("set by #{}", event.request);
            sets.push((event.time, event.step, expiry(event.time, config.ttl), text));
        }
    }
    let mut segments = Vec::new();
    for (i, (start, step, expires, text)) in sets.iter().enumerate() {
        let next = sets.get(i + 1).map(|s| s.0);
        let cut = |end: Option<Micros>| match (end, next) {
            (Some(end), Some(next)) => Some(end.min(next)),
            (None, next) => next,
            (end, None) => end,
        };
        let live_end = cut(*expires);
        segments.push(Segment {
            start: *start,
            start_step: *step,
            end: live_end,
            text: format!("live ({text})"),
            tone: Tone::Live,
            row: 0,
        });
        if let (Some(expired), true) = (*expires, config.grace > 0) {
            if next.is_none_or(|next| next > expired) {
                segments.push(Segment {
                    start: expired,
                    start_step: *step,
                    end: cut(Some(expired.saturating_add(config.grace))),
                    text: "stale (grace)".to_string(),
                    tone: Tone::Stale,
                    row: 0,
                });
            }
        }
    }
    SharedLane {
        label: format!("cache {name}"),
        rows: 1,
        segments,
    }
}

fn order_rows_lane(events: &[TraceEvent], name: &str) -> SharedLane {
    let mut segments: Vec<Segment> = Vec::new();
    let mut rows = 0;
    for event in events {
        if event.what == What::Complete(OpKind::DbInsert) && event.key == TraceKey::Data(0) {
            rows += 1;
            if let Some(last) = segments.last_mut() {
                last.end = Some(event.time);
            }
            segments.push(Segment {
                start: event.time,
                start_step: event.step,
                end: None,
                text: format!(
                    "{rows} order row{} (#{})",
                    if rows == 1 { "" } else { "s" },
                    event.request
                ),
                tone: if rows > 1 { Tone::Conflict } else { Tone::Live },
                row: 0,
            });
        }
    }
    SharedLane {
        label: format!("orders of {name}"),
        rows: 1,
        segments,
    }
}

fn lock_key_lane(config: &Config, events: &[TraceEvent]) -> SharedLane {
    let mut segments: Vec<Segment> = Vec::new();
    for event in events {
        if event.key != TraceKey::Lock(0) {
            continue;
        }
        let stored = matches!(
            event.what,
            What::Complete(OpKind::CacheSet | OpKind::CacheAdd)
        ) && event.outcome == Outcome::Stored;
        let deleted = event.what == What::Complete(OpKind::CacheDelete);
        if stored || deleted {
            if let Some(last) = segments.last_mut() {
                if last.end.is_none_or(|end| end > event.time) {
                    last.end = Some(event.time);
                }
            }
        }
        if stored {
            segments.push(Segment {
                start: event.time,
                start_step: event.step,
                end: expiry(event.time, config.lock_ttl),
                text: format!("lock held by #{}", event.request),
                tone: Tone::Held,
                row: 0,
            });
        }
    }
    SharedLane {
        label: "cache lock:".to_string() + &TraceKey::Data(0).describe(config.scenario),
        rows: 1,
        segments,
    }
}

fn holders_lane(events: &[TraceEvent], name: &str) -> SharedLane {
    let mut segments: Vec<Segment> = Vec::new();
    // Open holder segments: (request, segment index, row).
    let mut inside: Vec<(u32, usize)> = Vec::new();
    let mut rows = 1;
    for event in events {
        if event.key != TraceKey::Data(0) {
            continue;
        }
        match event.what {
            What::Enter => {
                let row = (0..)
                    .find(|row| inside.iter().all(|&(_, i)| segments[i].row != *row))
                    .unwrap_or(0);
                rows = rows.max(row + 1);
                let tone = if inside.is_empty() {
                    Tone::Held
                } else {
                    Tone::Conflict
                };
                segments.push(Segment {
                    start: event.time,
                    start_step: event.step,
                    end: None,
                    text: format!("#{} holds {name}", event.request),
                    tone,
                    row,
                });
                inside.push((event.request, segments.len() - 1));
            }
            What::Exit => {
                if let Some(at) = inside.iter().position(|&(r, _)| r == event.request) {
                    let (_, index) = inside.remove(at);
                    segments[index].end = Some(event.time);
                }
            }
            _ => {}
        }
    }
    SharedLane {
        label: format!("holders of {name}"),
        rows,
        segments,
    }
}
