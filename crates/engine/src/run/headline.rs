//! What the page shows first and large: the counters that tell a run's
//! story, then a script's own `count()` counters.

use crate::config::ScenarioKind;

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, Default)]
pub struct Headline {
    /// §5 counters, by name.
    #[serde(deserialize_with = "crate::interned::static_strs")]
    pub names: crate::interned::Names,
    /// A script's own counters, by name (none for a built-in story).
    pub own: Vec<(String, f64)>,
}

impl Headline {
    /// These counters, and none of a script's own.
    pub fn of(names: &'static [&'static str]) -> Headline {
        Headline {
            names,
            own: Vec::new(),
        }
    }
}

/// The counters that tell a built-in story.
pub fn story_headline(scenario: ScenarioKind) -> &'static [&'static str] {
    match scenario {
        ScenarioKind::Ticket => TICKETS,
        ScenarioKind::Stampede => &["db_reads", "stale_served", "latency_p99", "timeouts"],
    }
}

const TICKETS: &[&str] = &[
    "duplicate_tickets",
    "orders",
    "errors",
    "max_in_critical_section",
];

/// The counters that tell a script's story, from what it declares: an
/// `expectUnique` group makes duplicates the story (the ticket's counters;
/// `orders` counts the table of that name, so a script without one shows
/// its writes instead); otherwise its reads and writes (a stampede, an
/// oversell), with `orders` when it keeps such a table.
pub fn script_headline(expects_unique: bool, orders_table: bool) -> &'static [&'static str] {
    match (expects_unique, orders_table) {
        (true, true) => TICKETS,
        (true, false) => &[
            "duplicate_tickets",
            "db_writes",
            "errors",
            "max_in_critical_section",
        ],
        (false, true) => &["orders", "db_reads", "errors", "max_in_critical_section"],
        (false, false) => &["db_reads", "db_writes", "errors", "latency_p99"],
    }
}
