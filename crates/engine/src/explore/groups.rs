//! Independent groups: a story whose requests split into groups that
//! share nothing (ticket: one group per user; stampede: one per item)
//! is searched one group at a time, the other groups' requests left out
//! (`Sim::leave_out`: each still arrives, in its place in the clock's
//! order, and answers at once), and the results combine.
//!
//! Why: the groups' steps all commute, so the schedules of the whole are
//! the product of the groups' schedules. No search of the whole can run
//! fewer than that product (each is a different interleaving class), and
//! three users with 26 classes each are 17,576 runs. The groups' own
//! searches run 3 x 26. Every check is per key (a user's duplicate, a
//! key's holders, a key's loads, a request's stale answer), so a schedule
//! of the whole violates exactly when one of its groups' parts does:
//! `violating` is the product of all schedules minus the product of each
//! group's clean ones. `tests/explore_groups.rs` holds this equal to the
//! search of the whole on small cases.
//!
//! The counterexample is a violating group's schedule followed in the
//! whole run: the group's events in the order they ran, the others' in
//! the default order, earliest first. It is replayed to check it.

use std::rc::Rc;

use crate::config::schedule::Schedule;
use crate::config::url::to_fragment;
use crate::config::{Config, StrategyKind};
use crate::explore::check::{first_violation_step, violations};
use crate::run::{Run, Scheduled};
use crate::scenario;
use crate::sim::queue::Macrotask;
use crate::sim::trace::OpKind;
use crate::sim::{Sim, Target};

use super::search::{
    Counterexample, Coverage, ExploreOptions, ExploreResult, Explorer, Method, Progress,
    StrategyRow, Subject,
};

/// The request indices of each group, if `config`'s search may run group
/// by group: a DFS with the reduction and the poll collapse, no
/// preemption bound and no recording, and more than one group.
///
/// What couples groups keeps the search whole:
/// - a bounded DB pool (a query waits for another group's);
/// - a branch on elapsed time that can turn within the run: in the whole
///   search a group's reply may land late behind another group's steps,
///   so a lease (`lock_ttl`) or a cached value (`ttl`) no longer than a
///   wait (`wait_timeout`, plus a `pause`) may expire there and not in
///   the group's own search; and the strategies that decide by the clock
///   itself (`xfetch`, `stale-while-revalidate`) or poll on a ticket
///   (`ticket-lock`, already fast whole).
///
/// `tests/explore_groups.rs` finds the same counts both ways on the
/// cases allowed, and different counts on short leases, `xfetch` and a
/// `ticket-lock` stampede.
pub(crate) fn independent_groups(
    config: &Config,
    options: &ExploreOptions,
) -> Option<Vec<Vec<u32>>> {
    let wait = config.wait_timeout + config.pause.map_or(0, |pause| pause.duration);
    let clockless = !matches!(
        config.strategy,
        StrategyKind::TicketLock | StrategyKind::Xfetch | StrategyKind::StaleWhileRevalidate
    );
    let eligible = options.method == Method::Dfs
        && options.reduction
        && options.collapse_polls
        && options.max_preemptions.is_none()
        && !options.record
        && config.db_pool.is_none()
        && clockless
        && config.lock_ttl > wait
        && (config.ttl == 0 || config.ttl > wait);
    if !eligible {
        return None;
    }
    let mut keys: Vec<u32> = Vec::new();
    let mut groups: Vec<Vec<u32>> = Vec::new();
    for (index, spec) in scenario::plan(config).iter().enumerate() {
        let key = match spec.target {
            Target::Click { user, .. } => user,
            Target::Item(item) => item,
        };
        match keys.iter().position(|&k| k == key) {
            Some(group) => groups[group].push(index as u32),
            None => {
                keys.push(key);
                groups.push(vec![index as u32]);
            }
        }
    }
    (groups.len() > 1).then_some(groups)
}

/// A story with one group's requests in it, the others left out.
struct GroupSubject {
    config: Config,
    absent: Rc<[bool]>,
}

impl Subject for GroupSubject {
    fn start(&self, footprints: bool) -> Box<dyn Run> {
        let mut sim = Sim::metrics_only(&self.config);
        sim.leave_out(self.absent.clone());
        if footprints {
            sim.track_footprints();
        }
        Box::new(sim)
    }

    fn config(&self) -> &Config {
        &self.config
    }

    fn fragment(&self, config: &Config) -> String {
        to_fragment(config)
    }
}

/// A story's search: group by group when its requests split into
/// independent groups, else as one whole ([`Explorer`]).
pub enum StorySearch {
    Whole(Box<Explorer>),
    ByGroups(Box<Composite>),
}

impl StorySearch {
    /// The search of `config` (its own `schedule` ignored).
    pub fn new(config: &Config, options: ExploreOptions) -> StorySearch {
        let mut config = config.clone();
        config.schedule = Schedule::default();
        match independent_groups(&config, &options) {
            Some(groups) => {
                StorySearch::ByGroups(Box::new(Composite::new(&config, &options, groups)))
            }
            None => StorySearch::Whole(Box::new(Explorer::new(&config, options))),
        }
    }

    /// Whether it runs group by group.
    pub fn by_groups(&self) -> bool {
        matches!(self, StorySearch::ByGroups(_))
    }

    /// Runs at most `budget` more runs (see [`Explorer::run_for`]).
    pub fn run_for(&mut self, budget: u64) -> Progress {
        match self {
            StorySearch::Whole(explorer) => explorer.run_for(budget),
            StorySearch::ByGroups(groups) => groups.run_for(budget),
        }
    }

    pub fn progress(&self) -> Progress {
        match self {
            StorySearch::Whole(explorer) => explorer.progress(),
            StorySearch::ByGroups(groups) => groups.progress(),
        }
    }

    pub fn fraction(&self) -> f64 {
        match self {
            StorySearch::Whole(explorer) => explorer.fraction(),
            StorySearch::ByGroups(groups) => groups.fraction(),
        }
    }

    pub fn result(&self) -> ExploreResult {
        match self {
            StorySearch::Whole(explorer) => explorer.result(),
            StorySearch::ByGroups(groups) => groups.result(),
        }
    }

    /// Runs to the end.
    pub fn run(&mut self) -> ExploreResult {
        while !self.run_for(1024).done {}
        self.result()
    }
}

/// The search of each group, one after another.
pub struct Composite {
    config: Config,
    options: ExploreOptions,
    groups: Vec<Vec<u32>>,
    parts: Vec<Explorer>,
    current: usize,
    /// `max_schedules` ran out before every group's search began.
    stopped: bool,
}

impl Composite {
    fn new(config: &Config, options: &ExploreOptions, groups: Vec<Vec<u32>>) -> Self {
        let requests = scenario::plan(config).len();
        let parts = groups
            .iter()
            .map(|group| {
                let mut absent = vec![true; requests];
                for &request in group {
                    absent[request as usize] = false;
                }
                let subject = GroupSubject {
                    config: config.clone(),
                    absent: absent.into(),
                };
                Explorer::of(Rc::new(subject), options.clone())
            })
            .collect();
        Composite {
            config: config.clone(),
            options: options.clone(),
            groups,
            parts,
            current: 0,
            stopped: false,
        }
    }

    /// Runs at most `budget` more runs of the current group. The groups
    /// share `max_schedules`: each may run what the earlier ones left.
    fn run_for(&mut self, budget: u64) -> Progress {
        let ran: u64 = self.parts[..self.current.min(self.parts.len())]
            .iter()
            .map(|part| part.progress().explored)
            .sum();
        let left = self.options.max_schedules.saturating_sub(ran);
        if let Some(part) = self.parts.get_mut(self.current) {
            if left == 0 {
                self.stopped = true;
                self.current = self.parts.len();
            } else {
                part.limit_schedules(left);
                if part.run_for(budget).done {
                    self.current += 1;
                }
            }
        }
        self.progress()
    }

    /// The runs so far: each group's, summed (the product comes at the end).
    fn progress(&self) -> Progress {
        let mut progress = Progress {
            done: self.current >= self.parts.len(),
            ..Progress::default()
        };
        for part in &self.parts {
            let p = part.progress();
            progress.explored += p.explored;
            progress.violating += p.violating;
            progress.pruned += p.pruned;
        }
        progress
    }

    fn fraction(&self) -> f64 {
        let done = self.current.min(self.parts.len()) as f64;
        let within = self.parts.get(self.current).map_or(0.0, Explorer::fraction);
        ((done + within) / self.parts.len() as f64).min(1.0)
    }

    /// Once every group's search is complete, the whole's schedules are
    /// the product of the groups' (see the module's comment); else the
    /// runs so far, summed, as far as they went.
    fn result(&self) -> ExploreResult {
        let results: Vec<ExploreResult> = self.parts.iter().map(Explorer::result).collect();
        let product = |f: &dyn Fn(&ExploreResult) -> u64| {
            results
                .iter()
                .fold(1u64, |total, result| total.saturating_mul(f(result)))
        };
        let sum = |f: &dyn Fn(&ExploreResult) -> u64| results.iter().map(f).sum::<u64>();
        let coverage = if self.stopped {
            Coverage::StoppedAtMaxSchedules
        } else if self.current < self.parts.len() {
            Coverage::Unfinished
        } else {
            results
                .iter()
                .map(|r| r.coverage)
                .find(|&c| c != Coverage::Complete)
                .unwrap_or(Coverage::Complete)
        };
        let complete = coverage == Coverage::Complete;
        let (explored, violating) = match complete {
            true => {
                let explored = product(&|r| r.explored);
                let clean = product(&|r| r.explored - r.violating);
                (explored, explored.saturating_sub(clean))
            }
            false => (sum(&|r| r.explored), sum(&|r| r.violating)),
        };
        // A watched check, counted as `violating` is.
        let unchecked = match results.first() {
            Some(first) => (first.unchecked.iter().enumerate())
                .map(|(i, &(check, _))| {
                    let count = match complete {
                        true => {
                            explored.saturating_sub(product(&|r| r.explored - r.unchecked[i].1))
                        }
                        false => sum(&|r| r.unchecked[i].1),
                    };
                    (check, count)
                })
                .collect(),
            None => Vec::new(),
        };
        ExploreResult {
            explored,
            violating,
            pruned: sum(&|r| r.pruned),
            complete,
            complete_within_bound: complete,
            coverage,
            naive_estimate: product(&|r| r.naive_estimate).max(explored),
            counterexample: self.counterexample(&results),
            unchecked,
        }
    }

    /// The shortest of the groups' counterexamples that, followed in the
    /// whole run, violates there too.
    fn counterexample(&self, results: &[ExploreResult]) -> Option<Counterexample> {
        let mut found: Vec<(usize, &Counterexample)> = results
            .iter()
            .enumerate()
            .filter_map(|(g, r)| r.counterexample.as_ref().map(|c| (g, c)))
            .collect();
        found.sort_by_key(|(_, c)| {
            (
                c.config.schedule.len(),
                c.config.schedule.preemptions(),
                c.steps,
            )
        });
        found
            .into_iter()
            .find_map(|(g, part)| self.in_whole(g, &part.config.schedule))
    }

    /// Group `g`'s `schedule` followed in the whole run, checked by
    /// replaying it.
    fn in_whole(&self, g: usize, schedule: &Schedule) -> Option<Counterexample> {
        let group = &self.groups[g];
        let in_group = |request: u32| group.contains(&request);
        // The group's events in the order its schedule ran them.
        let requests = scenario::plan(&self.config).len() as u32;
        let part = GroupSubject {
            config: self.config.clone(),
            absent: (0..requests).map(|r| !in_group(r)).collect(),
        };
        let mut run = Scheduled::new(part.start(false), schedule);
        let mut order = Vec::new();
        loop {
            let enabled = run.enabled_pending();
            let Some(&first) = enabled.first() else { break };
            let before = run.choices_used();
            let chosen = match enabled.len() > 1 && before < schedule.len() {
                true => enabled[schedule.choices()[before] as usize],
                false => first,
            };
            let id = identity(&*run, chosen.task);
            if in_group(id.0) {
                order.push(id);
            }
            run.step().ok()??;
        }
        // The whole run: the group's next event when it is the earliest
        // eligible one, the other groups' events in their default order.
        let mut whole: Box<dyn Run> = Box::new(Sim::metrics_only(&self.config));
        let mut choices = Vec::new();
        let mut next = 0;
        loop {
            let enabled = whole.enabled_pending();
            if enabled.is_empty() {
                break;
            }
            let index = enabled.iter().position(|pending| {
                let id = identity(whole.as_ref(), pending.task);
                !in_group(id.0) || order.get(next).is_none_or(|&want| want == id)
            })?;
            if in_group(whole.request_of(enabled[index].task)) {
                next += 1;
            }
            if enabled.len() > 1 {
                choices.push(index as u32);
            }
            whole.step_pending(enabled[index].due, enabled[index].seq);
            if whole.steps() >= self.options.max_steps {
                return None;
            }
        }
        let mut config = self.config.clone();
        config.schedule = Schedule::new(choices).trimmed();
        let mut replay = Scheduled::new(
            Box::new(Sim::metrics_only(&config)) as Box<dyn Run>,
            &config.schedule,
        );
        replay.finish().ok()?;
        let violated = violations(&self.options.checks, &replay.observation());
        if violated.is_empty() {
            return None;
        }
        let steps = replay.steps();
        let again = Scheduled::new(
            Box::new(Sim::metrics_only(&config)) as Box<dyn Run>,
            &config.schedule,
        );
        let violation_step = first_violation_step(again, &violated).map_or(steps, |s| s.min(steps));
        Some(Counterexample {
            fragment: to_fragment(&config),
            config,
            steps,
            violation_step,
            violated,
        })
    }
}

/// Searches `config` under every strategy, one after another (natively;
/// the browser drives one `Explorer` per strategy in chunks instead).
pub fn compare_strategies(config: &Config, options: &ExploreOptions) -> Vec<StrategyRow> {
    crate::config::StrategyKind::ALL
        .into_iter()
        .map(|strategy| {
            let mut config = config.clone();
            config.strategy = strategy;
            StrategyRow {
                strategy,
                result: StorySearch::new(&config, options.clone()).run(),
            }
        })
        .collect()
}

/// What a queued macrotask is, across runs: its request, its kind and the
/// operation it completes.
fn identity(run: &dyn Run, task: Macrotask) -> (u32, u8, Option<OpKind>) {
    let kind = match task {
        Macrotask::Arrival(_) => 0,
        Macrotask::Complete(_) => 1,
        Macrotask::Timer(_) => 2,
        Macrotask::Cohort(_) => 3,
    };
    (run.request_of(task), kind, run.describe(task).op)
}
