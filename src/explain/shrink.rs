//! The minimal counterexample: shrink a violating config the way
//! QuickCheck and Hypothesis shrink inputs, replaying every candidate and
//! keeping those that still show the harm.

use serde::Serialize;

use crate::config::url::{parse_fragment, to_fragment};
use crate::config::{Arrival, Config, ScenarioKind, Schedule};
use crate::debugger::Program;
use crate::explain::fix::{observe, shows};
use crate::explain::story::StoryKind;
use crate::explore::Check;

/// Most candidate runs one shrink may replay (each a small run of a few
/// dozen macrotasks): keeps `explain` within the page's budget.
pub const MAX_SHRINK_RUNS: usize = 400;

/// The smallest config found that still shows the harm.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Minimal {
    /// Its fragment (without `#`).
    pub fragment: String,
    pub users: u32,
    pub clicks: u32,
    pub requests: u32,
    pub servers: u32,
    pub keys: u32,
    /// Non-default choices left in its schedule.
    pub preemptions: usize,
    /// Candidate runs replayed to find it.
    pub runs: usize,
    /// Whether no single removal (a user, click, request, server, key or
    /// preemption) keeps the harm: false only if the run budget ran out.
    pub locally_minimal: bool,
    /// In words: `1 user, 2 clicks, 1 server, 0 preemptions`.
    pub text: String,
}

/// A config's count of requests per user (ticket) or of requests (stampede)
/// changed: an arrival list is cut to fit.
fn fit_arrivals(config: &mut Config) {
    let wanted = match config.scenario {
        ScenarioKind::Ticket => config.users as usize,
        ScenarioKind::Stampede => config.requests as usize,
    };
    if let Arrival::At(times) = &mut config.arrival {
        times.truncate(wanted);
    }
}

/// The configs one step smaller than `config`: one preemption of the
/// schedule made the default choice, or fewer users, clicks, requests,
/// keys or servers (one, half, or one fewer). Each is valid as a fragment
/// (checked by a round trip). The last candidate of each count is one
/// fewer, so a config none of them shrinks is locally minimal.
pub fn shrink_candidates(config: &Config) -> Vec<Config> {
    let mut out = Vec::new();
    let mut push = |mut candidate: Config| {
        fit_arrivals(&mut candidate);
        candidate.schedule = candidate.schedule.trimmed();
        if let Ok(parsed) = parse_fragment(&to_fragment(&candidate)) {
            if parsed != *config {
                out.push(parsed);
            }
        }
    };
    // Fewer preemptions first: each one is a choice of the schedule.
    let choices = config.schedule.choices();
    for (index, &choice) in choices.iter().enumerate() {
        if choice != 0 {
            let mut changed = choices.to_vec();
            changed[index] = 0;
            push(Config {
                schedule: Schedule::new(changed),
                ..config.clone()
            });
        }
    }
    // Counts: straight to one, then halved, then one fewer (Hypothesis
    // tries the big steps first, so a large run shrinks in few replays).
    let smaller = |n: u32| {
        let mut steps: Vec<u32> = vec![1, n / 2, n.saturating_sub(1)];
        steps.retain(|&m| m >= 1 && m < n);
        steps.dedup();
        steps
    };
    match config.scenario {
        ScenarioKind::Ticket => {
            for users in smaller(config.users) {
                push(Config {
                    users,
                    ..config.clone()
                });
            }
            for clicks in smaller(config.clicks) {
                push(Config {
                    clicks,
                    ..config.clone()
                });
            }
        }
        ScenarioKind::Stampede => {
            for requests in smaller(config.requests) {
                push(Config {
                    requests,
                    ..config.clone()
                });
            }
            for keys in smaller(config.keys) {
                push(Config {
                    keys,
                    ..config.clone()
                });
            }
        }
    }
    for servers in smaller(config.servers) {
        push(Config {
            servers,
            ..config.clone()
        });
    }
    out
}

/// Shrinks `config` while its run still shows the harm of `kind`, greedily
/// (the first smaller candidate that keeps it is taken, then its own
/// candidates are tried), within [`MAX_SHRINK_RUNS`] runs. `None` if the
/// run of `config` itself does not show it.
pub fn minimal_counterexample(config: &Config, kind: StoryKind) -> Option<Minimal> {
    let holds = |candidate: &Config| observe(candidate).is_some_and(|seen| shows(kind, &seen));
    minimal_where(config, MAX_SHRINK_RUNS, holds, to_fragment)
}

/// Most candidate runs one shrink of a script may replay: each runs the
/// script's JavaScript, so fewer than a story's.
pub const MAX_SCRIPT_SHRINK_RUNS: usize = 40;

/// Most macrotasks a candidate run of a script may take.
const MAX_SCRIPT_STEPS: u64 = 200_000;

/// [`minimal_counterexample`] of `program`'s run (a script's): each
/// candidate a run of it, its fragment the program's (`code=` kept).
pub fn minimal_of_program(program: &Program, config: &Config, kind: StoryKind) -> Option<Minimal> {
    let holds = |candidate: &Config| {
        let Ok(mut run) = program.start(candidate, false) else {
            return false;
        };
        matches!(run.run_for(MAX_SCRIPT_STEPS), Ok(true)) && shows(kind, &run.observation())
    };
    minimal_where(config, MAX_SCRIPT_SHRINK_RUNS, holds, |c| {
        program.fragment(c).trim_start_matches('#').to_string()
    })
}

/// The shrink itself: `holds` says whether a candidate still shows the
/// harm, `fragment` writes the one kept.
fn minimal_where(
    config: &Config,
    max_runs: usize,
    holds: impl Fn(&Config) -> bool,
    fragment: impl Fn(&Config) -> String,
) -> Option<Minimal> {
    if !holds(config) {
        return None;
    }
    let mut current = config.clone();
    current.schedule = current.schedule.trimmed();
    let mut runs = 1;
    let mut locally_minimal = true;
    'shrink: loop {
        for candidate in shrink_candidates(&current) {
            if runs >= max_runs {
                locally_minimal = false;
                break 'shrink;
            }
            runs += 1;
            if holds(&candidate) {
                current = candidate;
                continue 'shrink;
            }
        }
        break;
    }
    let plural = |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let preemptions = current.schedule.preemptions();
    let mut parts = Vec::new();
    match current.scenario {
        ScenarioKind::Ticket => {
            parts.push(plural(current.users.into(), "user", "users"));
            parts.push(plural(current.clicks.into(), "click", "clicks"));
        }
        ScenarioKind::Stampede => {
            parts.push(plural(current.requests.into(), "request", "requests"));
            if current.keys > 1 {
                parts.push(plural(current.keys.into(), "key", "keys"));
            }
        }
    }
    parts.push(plural(current.servers.into(), "server", "servers"));
    parts.push(plural(preemptions as u64, "preemption", "preemptions"));
    Some(Minimal {
        fragment: fragment(&current),
        users: current.users,
        clicks: current.clicks,
        requests: current.requests,
        servers: current.servers,
        keys: current.keys,
        preemptions,
        runs,
        locally_minimal,
        text: parts.join(", "),
    })
}

/// The harm a search check looks for, as a story's kind.
pub fn kind_of_check(check: Check) -> StoryKind {
    match check {
        Check::Duplicates => StoryKind::DuplicateTicket,
        Check::DbReads => StoryKind::ExtraDbRead,
        Check::Exclusion => StoryKind::TwoHolders,
        Check::Stale => StoryKind::StaleAnswer,
        Check::Errors => StoryKind::Timeout,
        Check::LostUpdates => StoryKind::LostUpdate,
        Check::SharedTransactions => StoryKind::SharedTransaction,
    }
}

/// A search's counterexample shrunk to its minimal form, and the step at
/// which its check first fails there: what explore's "open" shows. `None`
/// when it cannot be shrunk while keeping the violation (open it as is).
pub fn minimal_of_counterexample(config: &Config, checks: &[Check]) -> Option<(Config, u32)> {
    let kind = kind_of_check(*checks.first()?);
    let minimal = minimal_counterexample(config, kind)?;
    let smaller = parse_fragment(&minimal.fragment).ok()?;
    let step = crate::explore::first_violation_step(
        crate::run::ScheduledSim::story_metrics_only(&smaller),
        checks,
    )?;
    Some((smaller, step))
}
