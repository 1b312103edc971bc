//! A run's requests, numbered in arrival order: when each arrives, what it
//! does and which server takes it.
//!
//! A stampede that arrives in a burst or spaced by a gap, routed round
//! robin or by key, is computed from the request's number, so a
//! 100,000-request run lists nothing up front (a one-shot CLI run pays for
//! every fresh page it touches). Any other plan is listed.

use crate::config::Micros;

/// What a request does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Target {
    /// A stampede request reading this item key.
    Item(u32),
    /// A ticket request: this user's n-th click.
    Click { user: u32, click: u32 },
}

/// A request, numbered by its position in the plan (arrival order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RequestSpec {
    pub arrival: Micros,
    pub server: u32,
    pub target: Target,
}

/// When each request arrives, in request order (so nondecreasing).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arrivals {
    /// Request `i` arrives at `start + i × gap` (a burst: `gap` 0).
    Spaced {
        count: usize,
        start: Micros,
        gap: Micros,
    },
    Listed(Vec<Micros>),
}

impl Arrivals {
    /// `count` arrivals from `start`, `gap` apart, if the last one's time
    /// fits in a `Micros`.
    pub fn spaced(count: usize, start: Micros, gap: Micros) -> Option<Arrivals> {
        let last = (count.max(1) - 1) as u64;
        last.checked_mul(gap)
            .and_then(|span| span.checked_add(start))
            .map(|_| Arrivals::Spaced { count, start, gap })
    }

    pub fn len(&self) -> usize {
        match self {
            Arrivals::Spaced { count, .. } => *count,
            Arrivals::Listed(times) => times.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// When request `request` arrives, if it is one.
    #[inline(always)]
    pub fn get(&self, request: usize) -> Option<Micros> {
        match self {
            Arrivals::Spaced { count, start, gap } => {
                (request < *count).then(|| start + request as u64 * gap)
            }
            Arrivals::Listed(times) => times.get(request).copied(),
        }
    }

    /// When request `request` arrives (panics if there is no such request,
    /// as indexing does).
    #[inline(always)]
    pub fn at(&self, request: usize) -> Micros {
        match self.get(request) {
            Some(time) => time,
            None => panic!("no request {request} of {}", self.len()),
        }
    }

    /// Moves the arrivals from request `first` on `by` later.
    pub fn delay_from(&mut self, first: usize, by: Micros) {
        if let Arrivals::Spaced { count, start, gap } = *self {
            if first == 0 {
                if let Some(spaced) = Arrivals::spaced(count, start.saturating_add(by), gap) {
                    *self = spaced;
                    return;
                }
            }
            *self = Arrivals::Listed(self.iter().collect());
        }
        if let Arrivals::Listed(times) = self {
            for due in times.iter_mut().skip(first) {
                *due = due.saturating_add(by);
            }
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = Micros> + '_ {
        (0..self.len()).map(|request| self.at(request))
    }

    pub fn is_sorted(&self) -> bool {
        match self {
            Arrivals::Spaced { .. } => true,
            Arrivals::Listed(times) => times.is_sorted(),
        }
    }

    /// The most arrivals at one instant.
    pub fn largest_burst(&self) -> usize {
        match self {
            Arrivals::Spaced { count, gap: 0, .. } => *count,
            Arrivals::Spaced { count, .. } => (*count).min(1),
            Arrivals::Listed(times) => times
                .chunk_by(|a, b| a == b)
                .map(<[Micros]>::len)
                .max()
                .unwrap_or(0),
        }
    }
}

impl Default for Arrivals {
    fn default() -> Self {
        Arrivals::Listed(Vec::new())
    }
}

impl From<Vec<Micros>> for Arrivals {
    fn from(times: Vec<Micros>) -> Self {
        Arrivals::Listed(times)
    }
}

/// How a spaced stampede routes its requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// Request `i` goes to server `i mod servers`.
    RoundRobin,
    /// Item `k` goes to server `k mod servers`.
    ByKey,
}

/// A run's requests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Requests {
    /// Request `i` reads item `i mod keys`, arriving as `arrivals` says.
    Items {
        arrivals: Arrivals,
        keys: u32,
        servers: u32,
        route: Route,
    },
    Listed(Vec<RequestSpec>),
}

impl Requests {
    pub fn len(&self) -> usize {
        match self {
            Requests::Items { arrivals, .. } => arrivals.len(),
            Requests::Listed(requests) => requests.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Request `request`, if it is one.
    #[inline(always)]
    pub fn get(&self, request: usize) -> Option<RequestSpec> {
        match self {
            Requests::Items {
                arrivals,
                keys,
                servers,
                route,
            } => {
                let arrival = arrivals.get(request)?;
                // Requests are numbered in 32 bits (`TaskId`).
                let number = request as u32;
                let item = number % keys;
                let server = match route {
                    Route::RoundRobin => number % servers,
                    Route::ByKey => item % servers,
                };
                Some(RequestSpec {
                    arrival,
                    server,
                    target: Target::Item(item),
                })
            }
            Requests::Listed(requests) => requests.get(request).copied(),
        }
    }

    /// Request `request` (panics if there is no such request, as indexing
    /// does).
    #[inline(always)]
    pub fn spec(&self, request: usize) -> RequestSpec {
        match self.get(request) {
            Some(spec) => spec,
            None => panic!("no request {request} of {}", self.len()),
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = RequestSpec> + '_ {
        (0..self.len()).map(|request| self.spec(request))
    }

    /// The arrival times, for the event loop's queue.
    pub fn arrivals(&self) -> Arrivals {
        match self {
            Requests::Items { arrivals, .. } => arrivals.clone(),
            Requests::Listed(requests) => {
                Arrivals::Listed(requests.iter().map(|request| request.arrival).collect())
            }
        }
    }

    /// Moves every arrival `by` later.
    pub fn delay(&mut self, by: Micros) {
        match self {
            Requests::Items { arrivals, .. } => arrivals.delay_from(0, by),
            Requests::Listed(requests) => {
                for request in requests {
                    request.arrival = request.arrival.saturating_add(by);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listed(plan: &Requests) -> Requests {
        Requests::Listed(plan.iter().collect())
    }

    #[test]
    fn a_spaced_plan_is_computed_from_the_request_number() {
        let plan = Requests::Items {
            arrivals: Arrivals::spaced(5, 0, 3).unwrap(),
            keys: 2,
            servers: 3,
            route: Route::RoundRobin,
        };
        let specs: Vec<(Micros, u32, Target)> = plan
            .iter()
            .map(|spec| (spec.arrival, spec.server, spec.target))
            .collect();
        assert_eq!(
            specs,
            [
                (0, 0, Target::Item(0)),
                (3, 1, Target::Item(1)),
                (6, 2, Target::Item(0)),
                (9, 0, Target::Item(1)),
                (12, 1, Target::Item(0)),
            ]
        );
        assert_eq!(plan.get(5), None);
        let by_key = Requests::Items {
            arrivals: Arrivals::spaced(3, 0, 0).unwrap(),
            keys: 3,
            servers: 2,
            route: Route::ByKey,
        };
        let servers: Vec<u32> = by_key.iter().map(|spec| spec.server).collect();
        assert_eq!(servers, [0, 1, 0]);
    }

    #[test]
    fn delays_and_bursts_read_the_same_as_a_list() {
        let mut spaced = Requests::Items {
            arrivals: Arrivals::spaced(4, 0, 0).unwrap(),
            keys: 1,
            servers: 1,
            route: Route::RoundRobin,
        };
        let mut list = listed(&spaced);
        assert_eq!(spaced.arrivals().largest_burst(), 4);
        assert_eq!(list.arrivals().largest_burst(), 4);
        spaced.delay(21_000);
        list.delay(21_000);
        assert_eq!(listed(&spaced), list);
        assert_eq!(spaced.arrivals(), Arrivals::spaced(4, 21_000, 0).unwrap());

        let mut gap = Arrivals::spaced(4, 0, 10).unwrap();
        assert_eq!(gap.largest_burst(), 1);
        gap.delay_from(2, 5);
        assert_eq!(gap, Arrivals::Listed(vec![0, 10, 25, 35]));
    }

    #[test]
    fn spacing_that_overflows_the_clock_is_refused() {
        assert!(Arrivals::spaced(3, 0, u64::MAX / 2).is_some());
        assert!(Arrivals::spaced(4, 0, u64::MAX / 2).is_none());
        assert!(Arrivals::spaced(0, 5, u64::MAX).is_some());
    }
}
