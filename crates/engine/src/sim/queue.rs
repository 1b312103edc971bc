//! The macrotask queue, ordered by (due time, sequence number): equal due
//! times run in the order they were scheduled.
//!
//! Tasks scheduled with the same delay arrive in (due, seq) order, because
//! the clock never goes back; so the queue keeps one FIFO lane per recent
//! delay (and one for absolute times, such as the arrivals) and pops the
//! least head among them. A task that would break its lane's order, or
//! finds no free lane (many distinct random delays), goes to an ordered
//! map. The order is exactly that of one map over (due, seq); lanes only
//! make the common case (constant latencies, bursts) cheap. Each source's
//! head is kept as one number (due above seq) as the source changes, so
//! finding the least head, which arrivals spaced by a gap ask for at
//! almost every pop, is one pass over a few numbers.
//!
//! The arrivals, known before the run, are not queued one by one: request
//! `i` arrives at `arrival_time(i)` with sequence number `i` (they are
//! scheduled first, in request order), and a cursor points at the next.

use std::collections::{BTreeMap, VecDeque};

use crate::config::Micros;
use crate::sim::requests::Arrivals;
use crate::world::locks::SlotId;

/// A unit of work the event loop runs, after which microtasks drain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Macrotask {
    /// Request `n` arrives and its handler starts.
    Arrival(u32),
    /// The cache or DB operation parked in this slot completes.
    Complete(SlotId),
    /// A timer (sleep, poll interval) fires.
    Timer(SlotId),
    /// The next member of a cohort of polling-lock waiters whose
    /// macrotasks are due together, one after another (`sim::poll`): its
    /// attempt lands, or its poll timer fires. One queue entry stands for
    /// the whole run of them.
    Cohort(u32),
}

/// A queued macrotask, as the event-loop pane shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Pending {
    pub due: Micros,
    pub seq: u64,
    pub task: Macrotask,
}

/// A drained lane up to this capacity is kept for reuse when the queue
/// empties; a bigger one is freed.
const KEPT_LANE_CAPACITY: usize = 1024;

/// Most lanes; past it, tasks with yet another delay go to the map.
const MAX_LANES: usize = 8;

/// What a lane holds: tasks of one delay, or tasks given an absolute time.
#[derive(Clone, Copy, PartialEq, Eq)]
enum LaneKey {
    Delay(Micros),
    Absolute,
}

struct Lane {
    key: LaneKey,
    /// In (due, seq) order.
    tasks: VecDeque<Packed>,
}

/// A `Pending` in 24 bytes instead of 32: the task's kind in the top two
/// bits of one word, its id below (a cohort's: its id in the low 32 bits,
/// and how many members the entry stands for above them).
#[derive(Clone, Copy)]
struct Packed {
    due: Micros,
    seq: u64,
    task: u64,
}

const KIND_SHIFT: u32 = 62;
const ID_MASK: u64 = (1 << KIND_SHIFT) - 1;
const COHORT: u64 = 3 << KIND_SHIFT;
const COUNT_SHIFT: u32 = 32;
const COHORT_ID: u64 = (1 << COUNT_SHIFT) - 1;

impl Packed {
    /// A cohort's id and members, if this entry is one.
    #[inline(always)]
    fn cohort(&self) -> Option<(u32, u64)> {
        (self.task >> KIND_SHIFT == 3).then(|| {
            let id = (self.task & COHORT_ID) as u32;
            (id, (self.task & ID_MASK) >> COUNT_SHIFT)
        })
    }

    fn cohort_of(due: Micros, seq: u64, id: u32, count: u64) -> Packed {
        Packed {
            due,
            seq,
            task: COHORT | count << COUNT_SHIFT | u64::from(id),
        }
    }
}

/// A place in the order, as one number: the due time above the sequence
/// number, so comparing two is one comparison. `Head::NONE` stands for an
/// empty source (after every real place).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Head(u128);

impl Head {
    const NONE: Head = Head(u128::MAX);

    #[inline(always)]
    fn of(due: Micros, seq: u64) -> Head {
        Head(u128::from(due) << 64 | u128::from(seq))
    }

    #[inline(always)]
    fn front(tasks: &VecDeque<Packed>) -> Head {
        tasks
            .front()
            .map_or(Head::NONE, |front| Head::of(front.due, front.seq))
    }
}

impl Default for Head {
    fn default() -> Self {
        Head::NONE
    }
}

impl From<Pending> for Packed {
    fn from(pending: Pending) -> Self {
        let (kind, id) = match pending.task {
            Macrotask::Arrival(request) => (0, u64::from(request)),
            Macrotask::Complete(slot) => (1, slot as u64),
            Macrotask::Timer(slot) => (2, slot as u64),
            Macrotask::Cohort(id) => (3, 1 << COUNT_SHIFT | u64::from(id)),
        };
        assert!(id <= ID_MASK, "a task id fits in 62 bits");
        Packed {
            due: pending.due,
            seq: pending.seq,
            task: kind << KIND_SHIFT | id,
        }
    }
}

impl From<Packed> for Pending {
    fn from(packed: Packed) -> Self {
        let id = packed.task & ID_MASK;
        let task = match packed.task >> KIND_SHIFT {
            0 => Macrotask::Arrival(id as u32),
            1 => Macrotask::Complete(id as SlotId),
            2 => Macrotask::Timer(id as SlotId),
            _ => Macrotask::Cohort((id & COHORT_ID) as u32),
        };
        Pending {
            due: packed.due,
            seq: packed.seq,
            task,
        }
    }
}

#[derive(Default)]
pub struct MacrotaskQueue {
    lanes: Vec<Lane>,
    /// Each lane's front (`heads[i]` for `lanes[i]`), kept as the lanes
    /// change, so choosing the least of them reads one array.
    heads: Vec<Head>,
    /// The tasks no lane could take, by (due, seq).
    others: BTreeMap<(Micros, u64), Macrotask>,
    /// The first of `others`.
    others_head: Head,
    len: usize,
    next_seq: u64,
    /// Arrival time per request, in request order (nondecreasing).
    arrivals: Arrivals,
    /// The next request to arrive: arrivals before it have run.
    next_arrival: usize,
    /// The next arrival's place in the order (`Head::NONE` once every
    /// request has arrived), kept as `next_arrival` moves.
    arrival_head: Head,
    /// A new lane's first buffer: room for the largest burst of arrivals
    /// (requests arriving at one instant park their operations in one lane
    /// together), so a burst's lanes do not grow by doubling, copying and
    /// faulting in each old size again.
    lane_capacity: usize,
    /// The source the last pop took from, and a bound below which its
    /// head is the least of all: the least head of every other source when
    /// it was chosen, lowered by every push since. While its head stays
    /// under the bound (a lane of a burst's tasks, one after another), a
    /// pop compares one pair instead of every source's head.
    hot: Option<(Source, Head)>,
    /// The lane the last push went to (pushes come in runs of one delay).
    last_lane: usize,
    /// The cohort entry the last push made or grew (its id, lane and due
    /// time): the only one a member can join, its seq being the next.
    open: Option<(u32, usize, Micros)>,
}

/// Where a queued task waits.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Source {
    Lane(usize),
    Others,
    Arrival,
}

/// The tasks a queue entry stands for: itself, or each of a cohort's
/// members.
fn members(packed: Packed) -> impl Iterator<Item = Pending> {
    let (id, count) = packed.cohort().unwrap_or((0, 1));
    let task = Pending::from(packed).task;
    (0..count).map(move |i| Pending {
        due: packed.due,
        seq: packed.seq + i,
        task: match task {
            Macrotask::Cohort(_) => Macrotask::Cohort(id),
            task => task,
        },
    })
}

/// The most a new lane reserves (24 MB).
const MAX_LANE_CAPACITY: usize = 1 << 20;

impl MacrotaskQueue {
    /// Queues every request's arrival, before anything else: request `i`
    /// arrives at `times[i]` with sequence number `i`. The times are in
    /// request order, so nondecreasing (requests are numbered by arrival).
    pub fn set_arrivals(&mut self, times: Arrivals) {
        assert!(
            self.next_seq == 0 && self.arrivals.is_empty(),
            "arrivals are scheduled first"
        );
        assert!(times.is_sorted(), "requests are numbered in arrival order");
        self.next_seq = times.len() as u64;
        self.len += times.len();
        self.hot = None;
        self.lane_capacity = times.largest_burst().min(MAX_LANE_CAPACITY);
        self.arrivals = times;
        self.sync_arrival();
    }

    /// Moves on to the next arrival.
    #[inline(always)]
    fn sync_arrival(&mut self) {
        self.arrival_head = self
            .next_arrival()
            .map_or(Head::NONE, |(due, seq)| Head::of(due, seq));
    }

    /// Moves every arrival still to come `by` later.
    pub fn delay_arrivals(&mut self, by: Micros) {
        self.arrivals.delay_from(self.next_arrival, by);
        self.sync_arrival();
        self.hot = None;
    }

    /// When request `request` arrives (arrived).
    pub fn arrival_time(&self, request: usize) -> Micros {
        self.arrivals.at(request)
    }

    /// The next arrival's (due, seq), if any request is still to arrive.
    fn next_arrival(&self) -> Option<(Micros, u64)> {
        let index = self.next_arrival;
        self.arrivals.get(index).map(|due| (due, index as u64))
    }

    fn arrival_pending(index: usize, due: Micros) -> Pending {
        Pending {
            due,
            seq: index as u64,
            task: Macrotask::Arrival(index as u32),
        }
    }

    /// Queues `task` at the absolute time `due`.
    pub fn schedule(&mut self, due: Micros, task: Macrotask) {
        self.push(LaneKey::Absolute, due, task);
    }

    /// Queues `task` `delay` after `now` (saturating).
    pub fn schedule_after(&mut self, now: Micros, delay: Micros, task: Macrotask) {
        self.push(LaneKey::Delay(delay), now.saturating_add(delay), task);
    }

    /// Queues `count` members of cohort `id`, `delay` after `now`; false
    /// if no lane can take them (the caller queues them on their own).
    pub fn schedule_cohort(&mut self, now: Micros, delay: Micros, id: u32, count: u64) -> bool {
        let due = now.saturating_add(delay);
        let seq = self.next_seq;
        self.push(LaneKey::Delay(delay), due, Macrotask::Cohort(id));
        let lane = self.last_lane;
        let queued = self
            .lanes
            .get_mut(lane)
            .and_then(|lane| lane.tasks.back_mut());
        if let Some(back) = queued.filter(|back| back.seq == seq) {
            *back = Packed::cohort_of(due, seq, id, count);
            self.next_seq += count - 1;
            self.len += count as usize - 1;
            self.open = Some((id, lane, due));
            return true;
        }
        // It went to the map: take it back out.
        self.others.remove(&(due, seq));
        self.sync_others();
        self.len -= 1;
        false
    }

    /// Takes `count` more members of cohort `id` (the member just taken
    /// was the one before them), if its entry is still the queue's least.
    pub fn consume_cohort(&mut self, id: u32, count: u64) -> bool {
        let Some((Source::Lane(index), bound)) = self.hot else {
            return false;
        };
        let Some(front) = self
            .lanes
            .get_mut(index)
            .and_then(|lane| lane.tasks.front_mut())
        else {
            return false;
        };
        match front.cohort() {
            Some((front_id, members)) if front_id == id && members >= count => {
                if Head::of(front.due, front.seq) >= bound {
                    return false;
                }
                if members == count {
                    self.lanes[index].tasks.pop_front();
                    if self.open.is_some_and(|(open, _, _)| open == id) {
                        self.open = None;
                    }
                } else {
                    *front = Packed::cohort_of(front.due, front.seq + count, id, members - count);
                }
                self.sync_lane(index);
                self.len -= count as usize;
                true
            }
            _ => count == 0,
        }
    }

    /// Adds a member to cohort `id`, due at `due`, if its entry is the
    /// last thing queued (so the member's seq follows its last one).
    pub fn grow_cohort(&mut self, id: u32, due: Micros) -> bool {
        let Some((open, lane, open_due)) = self.open else {
            return false;
        };
        if open != id || open_due != due {
            return false;
        }
        let Some(back) = self.lanes[lane].tasks.back_mut() else {
            return false;
        };
        let Some((back_id, count)) = back.cohort() else {
            return false;
        };
        if back_id != id || back.due != due {
            return false;
        }
        *back = Packed::cohort_of(back.due, back.seq, id, count + 1);
        self.next_seq += 1;
        self.len += 1;
        true
    }

    /// The front task of lane `index`; a cohort's next member leaves the
    /// rest of its entry in place.
    #[inline(always)]
    fn pop_lane(&mut self, index: usize) -> Option<Pending> {
        let next = self.take_front(index);
        self.sync_lane(index);
        next
    }

    #[inline(always)]
    fn take_front(&mut self, index: usize) -> Option<Pending> {
        let tasks = &mut self.lanes[index].tasks;
        let front = tasks.front_mut()?;
        if let Some((id, count)) = front.cohort() {
            let pending = Pending {
                due: front.due,
                seq: front.seq,
                task: Macrotask::Cohort(id),
            };
            if count > 1 {
                *front = Packed::cohort_of(front.due, front.seq + 1, id, count - 1);
                return Some(pending);
            }
            if self.open.is_some_and(|(_, lane, _)| lane == index) && tasks.len() == 1 {
                self.open = None;
            }
            tasks.pop_front();
            return Some(pending);
        }
        tasks.pop_front().map(Pending::from)
    }

    fn push(&mut self, key: LaneKey, due: Micros, task: Macrotask) {
        let pending = Pending {
            due,
            seq: self.next_seq,
            task,
        };
        self.next_seq += 1;
        self.len += 1;
        self.open = None;
        let in_order = |lane: &Lane| lane.tasks.back().is_none_or(|last| last.due <= due);
        let last = self.last_lane;
        let found = match self.lanes.get(last) {
            Some(lane) if lane.key == key => Some(last),
            _ => self.lanes.iter().position(|lane| lane.key == key),
        };
        let lane = match found {
            Some(index) => Some(index).filter(|&index| in_order(&self.lanes[index])),
            None => self.free_lane(key),
        };
        let source = match lane {
            Some(index) => {
                self.last_lane = index;
                let tasks = &mut self.lanes[index].tasks;
                tasks.push_back(pending.into());
                if tasks.len() == 1 {
                    self.heads[index] = Head::of(due, pending.seq);
                }
                Source::Lane(index)
            }
            None => {
                self.others.insert((due, pending.seq), task);
                self.others_head = self.others_head.min(Head::of(due, pending.seq));
                Source::Others
            }
        };
        // A task in another source may be that source's new head.
        if let Some((hot, bound)) = &mut self.hot {
            if *hot != source {
                *bound = (*bound).min(Head::of(due, pending.seq));
            }
        }
    }

    /// A lane for `key`: an empty one taken over, or a new one while fewer
    /// than `MAX_LANES` exist.
    fn free_lane(&mut self, key: LaneKey) -> Option<usize> {
        if let Some(index) = self.lanes.iter().position(|lane| lane.tasks.is_empty()) {
            self.lanes[index].key = key;
            return Some(index);
        }
        if self.lanes.len() < MAX_LANES {
            self.lanes.push(Lane {
                key,
                tasks: VecDeque::with_capacity(self.lane_capacity),
            });
            self.heads.push(Head::NONE);
            return Some(self.lanes.len() - 1);
        }
        None
    }

    /// The head of `source` (`Head::NONE` if it holds no task).
    #[inline(always)]
    fn head(&self, source: Source) -> Head {
        match source {
            Source::Lane(index) => self.heads[index],
            Source::Others => self.others_head,
            Source::Arrival => self.arrival_head(),
        }
    }

    #[inline(always)]
    fn arrival_head(&self) -> Head {
        self.arrival_head
    }

    fn sync_lane(&mut self, index: usize) {
        self.heads[index] = Head::front(&self.lanes[index].tasks);
    }

    fn sync_others(&mut self) {
        self.others_head = self
            .others
            .first_key_value()
            .map_or(Head::NONE, |(&(due, seq), _)| Head::of(due, seq));
    }

    /// The source holding the least head, and the least head of the
    /// others (`Head::NONE` if none has one).
    fn least(&self) -> Option<(Source, Head)> {
        let mut best = (Source::Arrival, self.arrival_head());
        let mut bound = Head::NONE;
        let mut consider = |source: Source, head: Head| {
            if head < best.1 {
                bound = best.1;
                best = (source, head);
            } else {
                bound = bound.min(head);
            }
        };
        consider(Source::Others, self.others_head);
        for (index, &head) in self.heads.iter().enumerate() {
            consider(Source::Lane(index), head);
        }
        (best.1 != Head::NONE).then_some((best.0, bound))
    }

    /// The next macrotask in (due, seq) order: the least of the lanes'
    /// heads, the map's first and the next arrival.
    #[inline(always)]
    pub fn pop(&mut self) -> Option<Pending> {
        let hot = self
            .hot
            .filter(|&(source, bound)| self.head(source) < bound);
        let (source, bound) = match hot {
            Some(hot) => hot,
            None => self.least()?,
        };
        self.hot = Some((source, bound));
        let next = match source {
            Source::Lane(index) => self.pop_lane(index)?,
            Source::Others => {
                let ((due, seq), task) = self.others.pop_first()?;
                self.sync_others();
                Pending { due, seq, task }
            }
            Source::Arrival => {
                let index = self.next_arrival;
                let Head(head) = self.arrival_head;
                self.next_arrival += 1;
                self.sync_arrival();
                Self::arrival_pending(index, (head >> 64) as Micros)
            }
        };
        self.len -= 1;
        if self.len == 0 {
            // Give back the buffers that grew past their first size; keep
            // the others, as a serial phase (one task at a time, as behind a
            // mutex) empties the queue on every pop.
            let kept = KEPT_LANE_CAPACITY.max(self.lane_capacity);
            if self.lanes.iter().any(|lane| lane.tasks.capacity() > kept) {
                self.lanes.retain(|lane| lane.tasks.capacity() <= kept);
                self.heads = vec![Head::NONE; self.lanes.len()];
                self.hot = None;
                self.last_lane = 0;
                self.open = None;
            }
        }
        Some(next)
    }

    /// Removes the pending task (`due`, `seq`), wherever it is in the order
    /// (for delivering a chosen event rather than the earliest).
    ///
    /// Arrivals leave in order: of them, only the next one can be taken
    /// (explore mode only ever offers the earliest arrival or timer).
    pub fn take(&mut self, due: Micros, seq: u64) -> Option<Pending> {
        self.hot = None;
        if seq < self.arrivals.len() as u64 {
            if self.next_arrival() != Some((due, seq)) {
                return None;
            }
            self.next_arrival += 1;
            self.sync_arrival();
            self.len -= 1;
            return Some(Self::arrival_pending(seq as usize, due));
        }
        let order = (due, seq);
        let found = self
            .lanes
            .iter_mut()
            .enumerate()
            .find_map(|(lane, queued)| {
                let index = queued
                    .tasks
                    .binary_search_by_key(&order, |p| (p.due, p.seq))
                    .ok()?;
                Some((lane, queued.tasks.remove(index).map(Pending::from)?))
            });
        let taken = match found {
            Some((lane, taken)) => {
                self.sync_lane(lane);
                taken
            }
            None => {
                let task = self.others.remove(&order)?;
                self.sync_others();
                Pending { due, seq, task }
            }
        };
        self.len -= 1;
        Some(taken)
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// Everything pending, in the order it would run.
    /// Explore mode's enabled events (`Core::enabled_pending`): every
    /// queued completion, and the earliest timer or arrival, in (due, seq)
    /// order.
    pub fn enabled(&self) -> Vec<Pending> {
        let mut enabled = Vec::with_capacity(self.len.min(16));
        let mut clock: Option<Pending> = (self.next_arrival < self.arrivals.len())
            .then(|| Self::arrival_pending(self.next_arrival, self.arrivals.at(self.next_arrival)));
        let mut consider = |pending: Pending| match pending.task {
            Macrotask::Complete(_) => enabled.push(pending),
            Macrotask::Arrival(_) | Macrotask::Timer(_) => {
                if clock.is_none_or(|c| (pending.due, pending.seq) < (c.due, c.seq)) {
                    clock = Some(pending);
                }
            }
            Macrotask::Cohort(_) => {}
        };
        // Plain loops (a cohort's entry stands for members that are never
        // enabled one by one): explore asks at every step of every run.
        for lane in &self.lanes {
            for &packed in &lane.tasks {
                if packed.cohort().is_none() {
                    consider(Pending::from(packed));
                }
            }
        }
        for (&(due, seq), &task) in &self.others {
            consider(Pending { due, seq, task });
        }
        enabled.extend(clock);
        enabled.sort_unstable_by_key(|pending| (pending.due, pending.seq));
        enabled
    }

    /// Whether an arrival, a timer or a cohort member is queued at or
    /// before `due` (explore's footprint of a new timer: it changes which
    /// clock event is enabled only when none is due by then).
    pub fn clock_due_by(&self, due: Micros) -> bool {
        if self.next_arrival().is_some_and(|(at, _)| at <= due) {
            return true;
        }
        let in_lanes = self.lanes.iter().any(|lane| {
            lane.tasks
                .iter()
                .take_while(|packed| packed.due <= due)
                .any(|packed| !matches!(Pending::from(*packed).task, Macrotask::Complete(_)))
        });
        in_lanes
            || self
                .others
                .range(..=(due, u64::MAX))
                .any(|(_, task)| !matches!(task, Macrotask::Complete(_)))
    }

    pub fn iter(&self) -> impl Iterator<Item = Pending> + '_ {
        let mut all: Vec<Pending> = self
            .lanes
            .iter()
            .flat_map(|lane| lane.tasks.iter().flat_map(|&packed| members(packed)))
            .chain(
                self.others
                    .iter()
                    .map(|(&(due, seq), &task)| Pending { due, seq, task }),
            )
            .chain(
                (self.next_arrival..self.arrivals.len())
                    .map(|index| Self::arrival_pending(index, self.arrivals.at(index))),
            )
            .collect();
        all.sort_unstable_by_key(|pending| (pending.due, pending.seq));
        all.into_iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_due_times_run_in_scheduling_order() {
        let mut queue = MacrotaskQueue::default();
        queue.schedule(5, Macrotask::Timer(1));
        queue.schedule(3, Macrotask::Timer(2));
        queue.schedule(5, Macrotask::Timer(3));
        queue.schedule(3, Macrotask::Timer(4));
        let order: Vec<_> = std::iter::from_fn(|| queue.pop()).map(|p| p.task).collect();
        assert_eq!(
            order,
            [2, 4, 1, 3].map(Macrotask::Timer).to_vec(),
            "ordered by due, then FIFO"
        );
    }

    /// A plain (due, seq) map, the order the lanes must reproduce.
    #[derive(Default)]
    struct Reference {
        entries: BTreeMap<(Micros, u64), Macrotask>,
        next_seq: u64,
    }

    impl Reference {
        fn schedule(&mut self, due: Micros, task: Macrotask) {
            self.entries.insert((due, self.next_seq), task);
            self.next_seq += 1;
        }

        fn pop(&mut self) -> Option<Pending> {
            let ((due, seq), task) = self.entries.pop_first()?;
            Some(Pending { due, seq, task })
        }

        /// Everything pending, in order.
        fn pending(&self) -> Vec<Pending> {
            self.entries
                .iter()
                .map(|(&(due, seq), &task)| Pending { due, seq, task })
                .collect()
        }
    }

    /// Arrivals held as a list pop, take and list exactly as if each had
    /// been scheduled first, in request order.
    #[test]
    fn arrivals_run_as_if_scheduled_first() {
        let times = vec![0, 0, 3, 5, 5, 9];
        let mut queue = MacrotaskQueue::default();
        let mut reference = Reference::default();
        queue.set_arrivals(times.clone().into());
        for (index, &due) in times.iter().enumerate() {
            reference.schedule(due, Macrotask::Arrival(index as u32));
        }
        queue.schedule(5, Macrotask::Timer(1));
        reference.schedule(5, Macrotask::Timer(1));
        queue.schedule_after(0, 3, Macrotask::Complete(2));
        reference.schedule(3, Macrotask::Complete(2));
        assert_eq!(queue.len(), 8);
        assert_eq!(queue.iter().collect::<Vec<_>>(), reference.pending());
        // Only the next arrival can be taken out of order.
        assert_eq!(queue.take(3, 2), None, "arrival 2 is not next");
        let first = queue.take(0, 0).unwrap();
        assert_eq!(first.task, Macrotask::Arrival(0));
        reference.entries.remove(&(0, 0));
        assert_eq!(queue.take(0, 0), None, "taken already");
        while let Some(expected) = reference.pop() {
            assert_eq!(queue.pop(), Some(expected));
        }
        assert!(queue.is_empty() && queue.pop().is_none());
        assert_eq!(queue.arrival_time(4), 5);
    }

    #[test]
    fn new_lanes_have_room_for_the_largest_burst() {
        let largest_burst = |times: &[Micros]| Arrivals::from(times.to_vec()).largest_burst();
        assert_eq!(largest_burst(&[]), 0);
        assert_eq!(largest_burst(&[0, 0, 0, 5, 7, 7]), 3);
        assert_eq!(largest_burst(&[1, 2, 2, 2, 2, 9]), 4);
        let mut queue = MacrotaskQueue::default();
        queue.set_arrivals(vec![0; 5000].into());
        queue.schedule_after(0, 1_000, Macrotask::Timer(1));
        assert!(queue.lanes[0].tasks.capacity() >= 5000);
        let mut queue = MacrotaskQueue::default();
        queue.set_arrivals(Arrivals::from((0..5000).collect::<Vec<_>>()));
        queue.schedule_after(0, 1_000, Macrotask::Timer(1));
        assert!(
            queue.lanes[0].tasks.capacity() < 16,
            "a gap's lanes start small"
        );
    }

    #[test]
    fn packing_keeps_every_task() {
        for task in [
            Macrotask::Arrival(0),
            Macrotask::Arrival(u32::MAX),
            Macrotask::Complete(0),
            Macrotask::Complete(ID_MASK as SlotId),
            Macrotask::Timer(7),
            Macrotask::Timer(ID_MASK as SlotId),
        ] {
            let pending = Pending {
                due: u64::MAX,
                seq: 3,
                task,
            };
            assert_eq!(Pending::from(Packed::from(pending)), pending);
        }
        assert_eq!(std::mem::size_of::<Packed>(), 24);
    }

    #[test]
    fn lanes_pop_in_the_order_of_one_map() {
        // A small generator, so the test needs no crate: many delays (more
        // than the lanes), repeats, zero delays, absolute times in and out
        // of order, and pops interleaved with pushes.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = |bound: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % bound
        };
        for round in 0..50 {
            let delays = 1 + round % 20;
            let mut queue = MacrotaskQueue::default();
            let mut reference = Reference::default();
            // Half the rounds have arrivals too, known before the run.
            if round % 2 == 1 {
                let mut times: Vec<Micros> = (0..200).map(|_| next(3_000)).collect();
                times.sort_unstable();
                for (index, &due) in times.iter().enumerate() {
                    reference.schedule(due, Macrotask::Arrival(index as u32));
                }
                queue.set_arrivals(times.into());
            }
            let mut now = 0;
            for id in 0..2_000 {
                let task = Macrotask::Timer(id);
                if next(10) == 0 {
                    let due = now + next(50);
                    queue.schedule(due, task);
                    reference.schedule(due, task);
                } else {
                    let delay = next(delays) * 7;
                    queue.schedule_after(now, delay, task);
                    reference.schedule(now + delay, task);
                }
                assert_eq!(queue.len(), reference.entries.len());
                if next(40) == 0 {
                    // Deliver some pending task out of order.
                    let all: Vec<_> = queue.iter().collect();
                    // Of the arrivals, only the next one can be taken.
                    let first_arrival = all
                        .iter()
                        .position(|pending| matches!(pending.task, Macrotask::Arrival(_)));
                    let all: Vec<_> = all
                        .iter()
                        .enumerate()
                        .filter(|&(index, pending)| {
                            !matches!(pending.task, Macrotask::Arrival(_))
                                || Some(index) == first_arrival
                        })
                        .map(|(_, &pending)| pending)
                        .collect();
                    if !all.is_empty() {
                        let chosen = all[next(all.len() as u64) as usize];
                        assert_eq!(queue.take(chosen.due, chosen.seq), Some(chosen));
                        reference.entries.remove(&(chosen.due, chosen.seq));
                        assert_eq!(queue.take(chosen.due, chosen.seq), None);
                        now = now.max(chosen.due);
                    }
                }
                if next(3) == 0 {
                    let popped = queue.pop();
                    assert_eq!(popped, reference.pop());
                    now = now.max(popped.map_or(0, |p| p.due));
                }
                if id % 500 == 0 {
                    assert_eq!(queue.iter().collect::<Vec<_>>(), reference.pending());
                }
            }
            while let Some(expected) = reference.pop() {
                assert_eq!(queue.pop(), Some(expected));
            }
            assert!(queue.is_empty() && queue.pop().is_none());
        }
    }
}
