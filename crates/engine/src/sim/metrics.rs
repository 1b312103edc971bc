//! The counters of DESIGN.md §5. Their names are part of the CLI's JSON and
//! the UI's test ids.

use serde::Serialize;

use crate::config::Micros;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Latencies {
    pub p50: Micros,
    pub p99: Micros,
    pub max: Micros,
}

impl Latencies {
    /// Nearest-rank percentiles of the request times, by selection rather
    /// than a full sort (the page asks for them at every redraw of a
    /// million-request run).
    pub fn of(times: &[Micros]) -> Latencies {
        Latencies::of_reordering(&mut times.to_vec())
    }

    /// The same, reordering `times` in place rather than copying them
    /// (a 100,000-request run's 800 KB are fresh pages to a one-shot
    /// process).
    pub fn of_reordering(times: &mut [Micros]) -> Latencies {
        let n = times.len() as u64;
        if n == 0 {
            return Latencies::default();
        }
        let index = |p: u64| (p * n).div_ceil(100).clamp(1, n) as usize - 1;
        let (below, &mut p99, _) = times.select_nth_unstable(index(99));
        // p50's rank is at most p99's: it is among the times below p99.
        let p50 = if index(50) == index(99) {
            p99
        } else {
            *below.select_nth_unstable(index(50)).1
        };
        Latencies {
            p50,
            p99,
            max: times.iter().copied().max().unwrap_or(0),
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Metrics {
    pub db_reads: u64,
    pub db_writes: u64,
    pub orders: u64,
    pub duplicate_tickets: u64,
    pub cache_hits: u64,
    pub cache_misses: u64,
    pub stale_served: u64,
    pub timeouts: u64,
    pub errors: u64,
    pub lock_wakeups: u64,
    pub max_in_critical_section: u64,
    pub peak_db_concurrency: u64,
    /// Writes the DB refused for carrying an older fencing token.
    pub rejected_writes: u64,
    /// XFetch recomputations made before the entry expired.
    pub early_refreshes: u64,
    /// Requests still waiting when nothing is left to run (a lock that a
    /// crashed holder never releases): they would wait forever.
    pub hung: u64,
    pub latency_us: Latencies,
    pub events: u64,
    /// Empty where no trace is kept (a trial on real servers, whose report
    /// leaves it out).
    pub trace_hash: String,
}

/// The running counts behind `Metrics`, kept by the core as events happen:
/// the counters themselves are a `Metrics` being filled in (reached
/// through `Deref`, as `tally.db_reads`), beside what only the run needs.
#[derive(Default)]
pub struct Tally {
    counts: Metrics,
    /// Request times, arrival to return, of the requests that returned.
    pub latencies: Vec<Micros>,
    /// Current holders per lock key, across servers.
    holders: Vec<u32>,
    /// Per-key DB loads and cache expiries, for the `db-reads` check.
    pub loads: crate::sim::loads::LoadLog,
}

impl std::ops::Deref for Tally {
    type Target = Metrics;

    fn deref(&self) -> &Metrics {
        &self.counts
    }
}

impl std::ops::DerefMut for Tally {
    fn deref_mut(&mut self) -> &mut Metrics {
        &mut self.counts
    }
}

impl Tally {
    /// The metrics these counts give, with what the tally does not keep:
    /// the world's rows, the requests still unanswered, the trace's hash.
    /// The request times are reordered (their order means nothing).
    pub fn metrics(
        &mut self,
        orders: u64,
        duplicate_tickets: u64,
        hung: u64,
        trace_hash: String,
    ) -> Metrics {
        Metrics {
            orders,
            duplicate_tickets,
            hung,
            latency_us: Latencies::of_reordering(&mut self.latencies),
            trace_hash,
            ..self.counts.clone()
        }
    }

    pub fn enter(&mut self, key: u32) {
        let slot = key as usize;
        if slot >= self.holders.len() {
            self.holders.resize(slot + 1, 0);
        }
        self.holders[slot] += 1;
        self.max_in_critical_section = self
            .max_in_critical_section
            .max(u64::from(self.holders[slot]));
    }

    pub fn exit(&mut self, key: u32) {
        self.holders[key as usize] -= 1;
    }

    /// Holders of `key` right now.
    pub fn holders(&self, key: u32) -> u32 {
        self.holders.get(key as usize).copied().unwrap_or(0)
    }

    pub fn db_connected(&mut self, in_use: u32) {
        self.peak_db_concurrency = self.peak_db_concurrency.max(u64::from(in_use));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        let times: Vec<Micros> = (1..=10).rev().collect();
        let l = Latencies::of(&times);
        assert_eq!((l.p50, l.p99, l.max), (5, 10, 10));
        let times: Vec<Micros> = (1..=200).collect();
        let l = Latencies::of(&times);
        assert_eq!((l.p50, l.p99, l.max), (100, 198, 200));
        assert_eq!(Latencies::of(&[]), Latencies::default());
        let mut reordered: Vec<Micros> = (1..=200).rev().collect();
        assert_eq!(Latencies::of_reordering(&mut reordered), l);
        assert_eq!(reordered.len(), 200);
    }
}
