//! "Measured on real servers": what `interleave real` printed for a
//! fragment, summed up for one cell of the compare table. The page reads
//! the JSON with the browser's own parser (no JSON library in the page's
//! wasm); this is the part that decides what the cell says.

use crate::config::url::parse_fragment_lenient;
use crate::config::{ScenarioKind, StrategyKind};

/// One `interleave real` report, reduced to what the compare table shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Measured {
    pub scenario: ScenarioKind,
    pub strategy: StrategyKind,
    /// The fragment it was measured for.
    pub fragment: String,
    /// The headline count of each trial: duplicate tickets (ticket) or DB
    /// reads (stampede).
    pub headline: Vec<u64>,
    /// Trials that violated the scenario's headline check.
    pub violating: u32,
    /// `summary.status`: agree, timing or disagree.
    pub status: String,
}

impl Measured {
    /// Reads a report's fields (as the page's JSON parser found them).
    pub fn new(fragment: &str, headline: Vec<u64>, violating: u32, status: &str) -> Measured {
        let (config, _) = parse_fragment_lenient(fragment);
        Measured {
            scenario: config.scenario,
            strategy: config.strategy,
            fragment: fragment.to_string(),
            headline,
            violating,
            status: status.to_string(),
        }
    }

    /// The cell: "dup 3 of 3 trials (0..1 per trial), agree".
    pub fn cell(&self) -> String {
        let trials = self.headline.len();
        let range = match (self.headline.iter().min(), self.headline.iter().max()) {
            (Some(low), Some(high)) if low == high => format!("{low}"),
            (Some(low), Some(high)) => format!("{low}–{high}"),
            _ => "—".to_string(),
        };
        let what = match self.scenario {
            ScenarioKind::Ticket => "duplicates",
            ScenarioKind::Stampede => "DB reads",
        };
        format!(
            "{what} {range}; violated in {} of {trials} trial{}; {}",
            self.violating,
            if trials == 1 { "" } else { "s" },
            self.status
        )
    }
}

/// The measurement of `strategy` on `scenario`, the last one loaded.
pub fn measured_for(
    measured: &[Measured],
    scenario: ScenarioKind,
    strategy: StrategyKind,
) -> Option<&Measured> {
    measured
        .iter()
        .rev()
        .find(|m| m.scenario == scenario && m.strategy == strategy)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_says_the_headline_range_the_violating_trials_and_the_verdict() {
        let ticket = Measured::new(
            "v=1&scenario=ticket&strategy=none",
            vec![1, 1, 0],
            2,
            "timing",
        );
        assert_eq!(ticket.strategy, StrategyKind::None);
        assert_eq!(
            ticket.cell(),
            "duplicates 0–1; violated in 2 of 3 trials; timing"
        );
        let stampede = Measured::new(
            "v=1&scenario=stampede&strategy=keyed-mutex",
            vec![1],
            0,
            "agree",
        );
        assert_eq!(
            stampede.cell(),
            "DB reads 1; violated in 0 of 1 trial; agree"
        );
        let all = [ticket.clone(), stampede.clone()];
        assert_eq!(
            measured_for(&all, ScenarioKind::Ticket, StrategyKind::None),
            Some(&ticket)
        );
        assert_eq!(
            measured_for(&all, ScenarioKind::Ticket, StrategyKind::Add),
            None
        );
    }
}
