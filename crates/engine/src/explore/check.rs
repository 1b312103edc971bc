//! The properties a search looks for, and the goal text manual mode shows.

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

use crate::config::{Config, ScenarioKind};
use crate::run::{Observation, Run, Scheduled};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Check {
    /// `duplicate_tickets > 0`.
    Duplicates,
    /// A select of a key issued again within one expiry of its cache entry
    /// (see `sim::loads`).
    DbReads,
    /// `max_in_critical_section > 1`.
    Exclusion,
    /// `stale_served > 0`: a request gave up and answered with stale data.
    Stale,
    /// `errors > 0`: a request failed. Scripts only (not in `ALL`).
    Errors,
    /// A request wrote a key (or a row) from a read that another request's
    /// write had already made stale: a lost update, found in a script's
    /// data as it happens. Scripts only (not in `ALL`).
    LostUpdates,
    /// A statement ran in a transaction block another request began (its
    /// `pool.query` took that request's connection). Scripts only (not in
    /// `ALL`).
    SharedTransactions,
}

impl Check {
    pub const ALL: [Check; 4] = [
        Check::Duplicates,
        Check::DbReads,
        Check::Exclusion,
        Check::Stale,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Check::Duplicates => "duplicates",
            Check::DbReads => "db-reads",
            Check::Exclusion => "exclusion",
            Check::Stale => "stale",
            Check::Errors => "errors",
            Check::LostUpdates => "lost-updates",
            Check::SharedTransactions => "shared-transactions",
        }
    }

    /// What a script's run can be judged on (it keeps no per-key load log
    /// and serves nothing stale on its own).
    pub const SCRIPT: [Check; 5] = [
        Check::Duplicates,
        Check::Exclusion,
        Check::Errors,
        Check::LostUpdates,
        Check::SharedTransactions,
    ];

    /// What a script's search checks unless told: the harm a handler's own
    /// data shows, rows that should be unique, updates lost (a
    /// read-modify-write's race, which no other check sees) and
    /// transactions shared through a pool.
    pub const SCRIPT_DEFAULT: [Check; 3] = [
        Check::Duplicates,
        Check::LostUpdates,
        Check::SharedTransactions,
    ];

    /// The scenario's headline property: duplicates for ticket, db-reads
    /// for stampede.
    pub fn default_for(scenario: ScenarioKind) -> Check {
        match scenario {
            ScenarioKind::Ticket => Check::Duplicates,
            ScenarioKind::Stampede => Check::DbReads,
        }
    }

    pub fn violated(self, seen: &Observation) -> bool {
        let metrics = &seen.metrics;
        match self {
            Check::Duplicates => metrics.duplicate_tickets > 0,
            Check::DbReads => seen.redundant_db_reads > 0,
            Check::Exclusion => metrics.max_in_critical_section > 1,
            Check::Stale => metrics.stale_served > 0,
            Check::Errors => metrics.errors > 0,
            Check::LostUpdates => seen.lost_updates > 0,
            Check::SharedTransactions => seen.shared_transactions > 0,
        }
    }

    /// Manual mode's goal, such as "make user 0 get two tickets".
    pub fn goal(self, config: &Config) -> String {
        let unit = match config.scenario {
            ScenarioKind::Ticket => "user 0's order",
            ScenarioKind::Stampede => "item 0",
        };
        match self {
            Check::Duplicates => match config.scenario {
                ScenarioKind::Ticket => "make a user get two tickets".to_string(),
                ScenarioKind::Stampede => {
                    "duplicate tickets only happen in the ticket scenario".to_string()
                }
            },
            Check::DbReads => match config.scenario {
                ScenarioKind::Stampede => {
                    "make the DB load a key twice before its cache entry expires".to_string()
                }
                ScenarioKind::Ticket => {
                    "DB loads of a cached key only happen in the stampede scenario".to_string()
                }
            },
            Check::Exclusion => {
                format!("get two requests into the critical section of {unit} at once")
            }
            Check::Stale => "make a request give up waiting and serve stale data".to_string(),
            Check::Errors => "make a request fail".to_string(),
            Check::LostUpdates => "make a request write over an update it never read".to_string(),
            Check::SharedTransactions => {
                "make a request's statement run in another request's transaction".to_string()
            }
        }
    }

    /// The noun for a result table: "none: 3 of 10 schedules duplicate".
    pub fn verb(self) -> &'static str {
        match self {
            Check::Duplicates => "duplicate",
            Check::DbReads => "reload the DB",
            Check::Exclusion => "break exclusion",
            Check::Stale => "serve stale data",
            Check::Errors => "fail",
            Check::LostUpdates => "lose an update",
            Check::SharedTransactions => "share a transaction",
        }
    }
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What `--check` accepts, for messages.
pub const CHECK_FORMS: &str =
    "duplicates, db-reads, exclusion or stale (comma-separated for several)";

impl FromStr for Check {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        Check::ALL
            .into_iter()
            .find(|check| check.name() == text)
            .ok_or_else(|| format!("unknown check \"{text}\" (expected {CHECK_FORMS})"))
    }
}

/// Parses `duplicates,exclusion`.
pub fn parse_checks(text: &str) -> Result<Vec<Check>, String> {
    let mut checks = Vec::new();
    for name in text.split(',') {
        let check: Check = name.trim().parse()?;
        if !checks.contains(&check) {
            checks.push(check);
        }
    }
    Ok(checks)
}

/// The checks among `checks` that `seen` violates.
pub fn violations(checks: &[Check], seen: &Observation) -> Vec<Check> {
    checks
        .iter()
        .copied()
        .filter(|check| check.violated(seen))
        .collect()
}

/// The index of the first macrotask after which `run` (following its
/// schedule) violates one of `checks`: where the debugger should open.
/// `None` if it never does (or the schedule does not fit).
pub fn first_violation_step<R: Run + ?Sized>(
    mut run: Scheduled<R>,
    checks: &[Check],
) -> Option<u32> {
    while let Some(report) = run.step().ok()? {
        if !violations(checks, &run.observation()).is_empty() {
            return Some(report.index);
        }
    }
    None
}
