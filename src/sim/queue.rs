//! The macrotask queue, ordered by (due time, sequence number): equal due
//! times run in the order they were scheduled.

use std::collections::BTreeMap;

use crate::scenario::config::Micros;
use crate::world::locks::SlotId;

/// A unit of work the event loop runs, after which microtasks drain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Macrotask {
    /// Request `n` arrives and its handler starts.
    Arrival(u32),
    /// The cache or DB operation parked in this slot completes.
    Complete(SlotId),
    /// A timer (sleep, poll interval) fires.
    Timer(SlotId),
}

/// A queued macrotask, as the event-loop pane shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pending {
    pub due: Micros,
    pub seq: u64,
    pub task: Macrotask,
}

#[derive(Default)]
pub struct MacrotaskQueue {
    entries: BTreeMap<(Micros, u64), Macrotask>,
    next_seq: u64,
}

impl MacrotaskQueue {
    pub fn schedule(&mut self, due: Micros, task: Macrotask) {
        self.entries.insert((due, self.next_seq), task);
        self.next_seq += 1;
    }

    /// The next macrotask in (due, seq) order.
    pub fn pop(&mut self) -> Option<Pending> {
        let ((due, seq), task) = self.entries.pop_first()?;
        Some(Pending { due, seq, task })
    }

    /// Takes out the entry (due, seq), for explore mode's out-of-order
    /// delivery.
    pub fn remove(&mut self, due: Micros, seq: u64) -> Option<Pending> {
        let task = self.entries.remove(&(due, seq))?;
        Some(Pending { due, seq, task })
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Everything pending, in the order it would run.
    pub fn iter(&self) -> impl Iterator<Item = Pending> + '_ {
        self.entries
            .iter()
            .map(|(&(due, seq), &task)| Pending { due, seq, task })
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
}
