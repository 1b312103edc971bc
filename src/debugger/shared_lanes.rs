//! The timeline's lanes for the hot key's shared state: its cached value
//! (stampede) or order rows (ticket), its cache lock, and who holds its
//! critical section. Each is built from the trace fed event by event.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use rustc_hash::FxHashMap as HashMap;

use crate::config::{CacheStart, Config, Micros, ScenarioKind, StrategyKind};
use crate::debugger::narrate::format_ms;
use crate::sim::trace::{OpKind, Outcome, TraceKey};
use crate::sim::{TraceEvent, What};

/// A stretch of shared state (a cached value, a held lock, a holder).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Segment {
    pub start: Micros,
    pub start_step: u32,
    /// `None`: lasts past the end of the run.
    pub end: Option<Micros>,
    pub text: String,
    pub tone: Tone,
    /// Row within the lane, for overlapping holders.
    pub row: u32,
    /// In a count chart (too many holders for a row each): how many hold
    /// at once, drawn as the bar's height against the lane's peak; 0 in
    /// every other lane.
    pub level: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Tone {
    Live,
    Stale,
    /// A lock held in the cache.
    Held,
    /// One request inside a critical section (the critical-section colour).
    Inside,
    Conflict,
}

impl Tone {
    pub fn name(self) -> &'static str {
        match self {
            Tone::Live => "live",
            Tone::Stale => "stale",
            Tone::Held => "held",
            Tone::Inside => "inside",
            Tone::Conflict => "conflict",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SharedLane {
    pub label: String,
    pub rows: u32,
    pub segments: Vec<Segment>,
    /// A count chart's highest level (0: not a chart).
    pub peak: u32,
    /// When a count chart first reaches its peak.
    pub peak_at: Micros,
    /// Said at the peak, in the plot: "peak 20 at 1 ms".
    pub peak_note: String,
}

impl SharedLane {
    /// A lane of segments that is not a count chart.
    pub fn plain(label: String, rows: u32, segments: Vec<Segment>) -> SharedLane {
        SharedLane {
            label,
            rows,
            segments,
            peak: 0,
            peak_at: 0,
            peak_note: String::new(),
        }
    }

    /// The segments to draw in the window `[start, end]`: all of them when
    /// they are few, else at most one per `1 / buckets` of the window (the
    /// highest level, or the longest), so a lane with a segment per
    /// request draws in constant time.
    pub fn visible(&self, start: Micros, end: Micros, buckets: usize) -> Vec<usize> {
        let shown = |segment: &Segment| segment.end.unwrap_or(end) >= start && segment.start <= end;
        let inside: Vec<usize> = (0..self.segments.len())
            .filter(|&i| shown(&self.segments[i]))
            .collect();
        if inside.len() <= buckets {
            return inside;
        }
        let span = (end - start).max(1);
        let mut best: Vec<Option<usize>> = vec![None; buckets];
        for i in inside {
            let segment = &self.segments[i];
            let at = segment.start.clamp(start, end) - start;
            let bucket = ((u128::from(at) * buckets as u128) / u128::from(span + 1)) as usize;
            let weight = |s: &Segment| (s.level, s.end.unwrap_or(end).saturating_sub(s.start));
            let slot = &mut best[bucket.min(buckets - 1)];
            if slot.is_none_or(|j| weight(segment) > weight(&self.segments[j])) {
                *slot = Some(i);
            }
        }
        best.into_iter().flatten().collect()
    }
}

/// Most holder rows drawn one request per row; past it the lane is a count.
pub const MAX_HOLDER_ROWS: u32 = 4;

/// The key whose shared state the lanes show.
const HOT: u32 = 0;

pub struct SharedLanes {
    value: ValueLane,
    lock: Option<LockLane>,
    holders: HoldersLane,
}

enum ValueLane {
    Cache(CacheLane),
    Orders(OrdersLane),
}

impl SharedLanes {
    pub fn new(config: &Config, servers: Vec<u32>) -> SharedLanes {
        let name = TraceKey::Data(HOT).describe(config.scenario);
        let value = match config.scenario {
            ScenarioKind::Stampede => ValueLane::Cache(CacheLane::new(config, &name)),
            ScenarioKind::Ticket => ValueLane::Orders(OrdersLane::new(&name)),
        };
        let cache_lock = config.strategy.is_lock() && config.strategy != StrategyKind::KeyedMutex;
        SharedLanes {
            value,
            lock: cache_lock.then(|| LockLane::new(config)),
            holders: HoldersLane::new(&name, servers),
        }
    }

    pub fn feed(&mut self, event: &TraceEvent) {
        match event.key {
            TraceKey::Data(HOT) => {
                match &mut self.value {
                    ValueLane::Cache(lane) => lane.feed(event),
                    ValueLane::Orders(lane) => lane.feed(event),
                }
                self.holders.feed(event);
            }
            TraceKey::Lock(HOT) => {
                if let Some(lane) = &mut self.lock {
                    lane.feed(event);
                }
            }
            _ => {}
        }
    }

    pub fn finish(self) -> Vec<SharedLane> {
        let mut lanes = vec![match self.value {
            ValueLane::Cache(lane) => lane.finish(),
            ValueLane::Orders(lane) => lane.finish(),
        }];
        lanes.extend(self.lock.map(LockLane::finish));
        lanes.push(self.holders.finish());
        lanes
    }
}

fn expiry(start: Micros, ttl: Micros) -> Option<Micros> {
    (ttl > 0).then(|| start.saturating_add(ttl))
}

fn segment(
    start: Micros,
    start_step: u32,
    end: Option<Micros>,
    text: String,
    tone: Tone,
) -> Segment {
    Segment {
        start,
        start_step,
        end,
        text,
        tone,
        row: 0,
        level: 0,
    }
}

/// The hot key's cached value: live after each set (or warm), stale within
/// `grace`.
struct CacheLane {
    label: String,
    ttl: Micros,
    grace: Micros,
    /// Each set: (time, step, expiry, who).
    sets: Vec<(Micros, u32, Option<Micros>, Option<u32>)>,
}

impl CacheLane {
    fn new(config: &Config, name: &str) -> CacheLane {
        let mut sets = Vec::new();
        if config.cache == CacheStart::Warm {
            let expires = config.expire_at.or_else(|| expiry(0, config.ttl));
            sets.push((0, 0, expires, None));
        }
        CacheLane {
            label: format!("cache {name}"),
            ttl: config.ttl,
            grace: config.grace,
            sets,
        }
    }

    fn feed(&mut self, event: &TraceEvent) {
        if event.what == What::Complete(OpKind::CacheSet) {
            let expires = expiry(event.time, self.ttl);
            self.sets
                .push((event.time, event.step, expires, Some(event.request)));
        }
    }

    fn finish(self) -> SharedLane {
        let mut segments = Vec::new();
        for (i, &(start, step, expires, who)) in self.sets.iter().enumerate() {
            let next = self.sets.get(i + 1).map(|s| s.0);
            let cut = |end: Option<Micros>| match (end, next) {
                (Some(end), Some(next)) => Some(end.min(next)),
                (None, next) => next,
                (end, None) => end,
            };
            let text = match who {
                Some(request) => format!("live (set by #{request})"),
                None => "live (warm)".to_string(),
            };
            segments.push(segment(start, step, cut(expires), text, Tone::Live));
            if let (Some(expired), true) = (expires, self.grace > 0) {
                if next.is_none_or(|next| next > expired) {
                    let end = cut(Some(expired.saturating_add(self.grace)));
                    let text = "stale (grace)".to_string();
                    segments.push(segment(expired, step, end, text, Tone::Stale));
                }
            }
        }
        SharedLane::plain(self.label, 1, segments)
    }
}

/// The order rows of the hot user and event: a conflict from the second.
/// Rows that land at one instant share a segment (a zero-length one would
/// not show).
struct OrdersLane {
    label: String,
    rows: u32,
    segments: Vec<Segment>,
    /// The requests whose rows landed at the last segment's start.
    landed: Vec<u32>,
}

impl OrdersLane {
    fn new(name: &str) -> OrdersLane {
        OrdersLane {
            label: format!("orders of {name}"),
            rows: 0,
            segments: Vec::new(),
            landed: Vec::new(),
        }
    }

    fn feed(&mut self, event: &TraceEvent) {
        // A plain insert adds its row as it lands; a transaction's rows
        // appear when its COMMIT lands (`detail`: how many).
        let added = match event.what {
            What::Complete(OpKind::DbInsert) if event.outcome == Outcome::Inserted => 1,
            What::Complete(OpKind::DbCommit) => event.detail as u32,
            _ => 0,
        };
        if added == 0 {
            return;
        }
        self.rows += added;
        match self.segments.last_mut() {
            Some(last) if last.start == event.time => {
                self.segments.pop();
            }
            Some(last) => {
                last.end = Some(event.time);
                self.landed.clear();
            }
            None => {}
        }
        self.landed.push(event.request);
        let rows = self.rows;
        let who: Vec<String> = self.landed.iter().map(|r| format!("#{r}")).collect();
        let text = format!(
            "{rows} order row{} ({})",
            if rows == 1 { "" } else { "s" },
            who.join(", ")
        );
        let tone = if rows > 1 { Tone::Conflict } else { Tone::Live };
        self.segments
            .push(segment(event.time, event.step, None, text, tone));
    }

    fn finish(self) -> SharedLane {
        SharedLane::plain(self.label, 1, self.segments)
    }
}

/// The hot key's lock in the cache: held from a stored set or add until a
/// delete or its TTL.
struct LockLane {
    label: String,
    lock_ttl: Micros,
    segments: Vec<Segment>,
}

impl LockLane {
    fn new(config: &Config) -> LockLane {
        LockLane {
            label: "cache lock:".to_string() + &TraceKey::Data(HOT).describe(config.scenario),
            lock_ttl: config.lock_ttl,
            segments: Vec::new(),
        }
    }

    fn feed(&mut self, event: &TraceEvent) {
        let stored = matches!(
            event.what,
            What::Complete(OpKind::CacheSet | OpKind::CacheAdd)
        ) && event.outcome == Outcome::Stored;
        let deleted = event.what == What::Complete(OpKind::CacheDelete);
        if stored || deleted {
            if let Some(last) = self.segments.last_mut() {
                if last.end.is_none_or(|end| end > event.time) {
                    last.end = Some(event.time);
                }
            }
        }
        if stored {
            let text = format!("lock held by #{}", event.request);
            let end = expiry(event.time, self.lock_ttl);
            self.segments
                .push(segment(event.time, event.step, end, text, Tone::Held));
        }
    }

    fn finish(self) -> SharedLane {
        SharedLane::plain(self.label, 1, self.segments)
    }
}

/// Who holds the hot key's critical section: a row per simultaneous holder,
/// or, past [`MAX_HOLDER_ROWS`], a step chart of how many hold at once.
struct HoldersLane {
    name: String,
    servers: Vec<u32>,
    several_servers: bool,
    segments: Vec<Segment>,
    /// Open holder segments by request, and the rows they left free.
    inside: HashMap<u32, usize>,
    free_rows: BinaryHeap<Reverse<u32>>,
    rows: u32,
    /// The count after each enter or exit: (time, step, count).
    counts: Vec<(Micros, u32, u32)>,
}

impl HoldersLane {
    fn new(name: &str, servers: Vec<u32>) -> HoldersLane {
        HoldersLane {
            name: name.to_string(),
            several_servers: servers.iter().any(|&server| server != 0),
            servers,
            segments: Vec::new(),
            inside: HashMap::default(),
            free_rows: BinaryHeap::new(),
            rows: 1,
            counts: Vec::new(),
        }
    }

    fn feed(&mut self, event: &TraceEvent) {
        match event.what {
            What::Enter => {
                let row = match self.free_rows.pop() {
                    Some(Reverse(row)) => row,
                    None => self.inside.len() as u32,
                };
                self.rows = self.rows.max(row + 1);
                let tone = if self.inside.is_empty() {
                    Tone::Inside
                } else {
                    Tone::Conflict
                };
                // Past the rows drawn one by one, only the count is shown.
                let text = if self.rows <= MAX_HOLDER_ROWS {
                    self.holder_text(event.request)
                } else {
                    String::new()
                };
                let mut holder = segment(event.time, event.step, None, text, tone);
                holder.row = row;
                self.segments.push(holder);
                self.inside.insert(event.request, self.segments.len() - 1);
            }
            What::Exit => {
                if let Some(index) = self.inside.remove(&event.request) {
                    self.segments[index].end = Some(event.time);
                    self.free_rows.push(Reverse(self.segments[index].row));
                }
            }
            _ => return,
        }
        let count = self.inside.len() as u32;
        self.counts.push((event.time, event.step, count));
    }

    fn holder_text(&self, request: u32) -> String {
        let name = &self.name;
        if self.several_servers {
            let server = self.servers.get(request as usize).copied().unwrap_or(0);
            format!("#{request} holds {name} on server {server}")
        } else {
            format!("#{request} holds {name}")
        }
    }

    fn finish(self) -> SharedLane {
        if self.rows <= MAX_HOLDER_ROWS {
            return SharedLane::plain(
                format!("holders of {}", self.name),
                self.rows,
                self.segments,
            );
        }
        self.chart()
    }

    /// One segment per stretch of equal count, and a note at the peak.
    fn chart(self) -> SharedLane {
        let counts = &self.counts;
        let mut segments: Vec<Segment> = Vec::new();
        let (mut peak, mut peak_at) = (0, 0);
        let mut level = 0;
        for (i, &(time, step, count)) in counts.iter().enumerate() {
            // Several changes at one instant: only the last count lasts.
            if counts.get(i + 1).is_some_and(|next| next.0 == time) || count == level {
                continue;
            }
            if count > peak {
                (peak, peak_at) = (count, time);
            }
            if let Some(last) = segments.last_mut().filter(|last| last.end.is_none()) {
                last.end = Some(time);
            }
            level = count;
            if count > 0 {
                let tone = if count > 1 {
                    Tone::Conflict
                } else {
                    Tone::Held
                };
                let text = format!("{count} inside at once");
                let mut stretch = segment(time, step, None, text, tone);
                stretch.level = count;
                segments.push(stretch);
            }
        }
        SharedLane {
            label: format!("holders of {}", self.name),
            rows: 1,
            segments,
            peak,
            peak_at,
            peak_note: format!("peak {peak} at {} ms", format_ms(peak_at)),
        }
    }
}
