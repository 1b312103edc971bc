//! The app's state: one finished run of the scenario in the URL fragment.

use std::rc::Rc;

use yew::Reducible;

use crate::scenario::url::{parse_fragment_lenient, to_fragment};
use crate::{Config, Metrics, Sim};

/// Most macrotasks the page runs for one fragment (about 0.7 s natively),
/// so a huge scenario cannot freeze the tab.
pub const MAX_EVENTS: u64 = 2_000_000;

/// A fragment, parsed leniently and run to the end.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// The canonical fragment of the config that ran, without `#`.
    pub fragment: String,
    pub config: Config,
    /// Each bad key's message (key and accepted forms); those keys kept
    /// their defaults.
    pub errors: Vec<String>,
    /// Why the run stopped before its end, if it did (the metrics are partial).
    pub cut_short: Option<String>,
    pub metrics: Metrics,
}

impl Run {
    /// Parses `hash` (with or without `#`) and runs it. Never panics on bad
    /// input: bad keys are reported and fall back to their defaults.
    pub fn of(hash: &str) -> Run {
        let (config, errors) = parse_fragment_lenient(hash);
        let errors = errors.iter().map(ToString::to_string).collect();
        // Only the metrics are shown, so the trace is not kept; the trace
        // hash is the same either way.
        let mut sim = Sim::metrics_only(&config);
        let cut_short = (!sim.run_for(MAX_EVENTS)).then(|| {
            format!(
                "stopped after {MAX_EVENTS} events so the page stays responsive; \
                 the metrics below are partial (run it with the CLI for the full result)"
            )
        });
        let metrics = sim.metrics();
        Run {
            fragment: to_fragment(&config),
            errors,
            cut_short,
            config,
            metrics,
        }
    }
}

/// The action is the new `location.hash`.
impl Reducible for Run {
    type Action = String;

    fn reduce(self: Rc<Self>, hash: String) -> Rc<Self> {
        Rc::new(Run::of(&hash))
    }
}

/// Microseconds as milliseconds with at most 3 decimals and no trailing
/// zeros: `22000` is `22`, `500` is `0.5`, `1234` is `1.234`.
pub fn format_ms(us: u64) -> String {
    let (whole, fraction) = (us / 1_000, us % 1_000);
    if fraction == 0 {
        whole.to_string()
    } else {
        let text = format!("{whole}.{fraction:03}");
        text.trim_end_matches('0').to_string()
    }
}
