//! The race in words (issue 12), with no web dependency: the narration of
//! a step, the causal story of a violation, the fix that would close it
//! (verified by running it) and the minimal counterexample (found by
//! shrinking). `docs/explain.md` gives the decisions.
//!
//! ```
//! use interleave::config::url::parse_fragment;
//! let config = parse_fragment("v=1&scenario=ticket&strategy=none").unwrap();
//! let explanation = interleave::explain::explain(&config);
//! let story = explanation.story.unwrap();
//! assert_eq!(story.requests, vec![0, 1]);
//! ```

#[cfg(scripts)]
pub mod data_fix;
pub mod fix;
pub mod narrate;
pub mod script_fix;
pub mod shrink;
pub mod story;

use serde::Serialize;

#[cfg(scripts)]
pub use data_fix::data_fix;
pub use fix::{fixes_for, Fix};
pub use narrate::narrate_step;
pub use script_fix::script_fix;
pub use shrink::{
    kind_of_check, minimal_counterexample, minimal_of_counterexample, shrink_candidates, Minimal,
};
pub use story::{incidents, stories, story, Cause, Moment, Story, StoryKind};

use crate::config::url::to_fragment;
use crate::config::{Config, ScenarioKind};
use crate::debugger::narrate::format_ms;
use crate::debugger::Recording;
use crate::sim::trace::Outcome;
use crate::sim::{KeyNames, TraceEvent, What};

/// Everything the "What happened" panel and `interleave explain` show.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Explanation {
    /// The explained scenario's fragment (without `#`).
    pub fragment: String,
    /// The step (0-based, as trace events count) of the story told: the
    /// first violation's (see `Recording::first_violation`), else the
    /// first incident's; `None` for a clean run.
    pub step: Option<u32>,
    /// The narration of that step ([`narrate_step`]).
    pub narration: Option<String>,
    /// The story of the first violation, else of the first incident.
    pub story: Option<Story>,
    /// Every incident of the run (fenced or refused writes, stale answers,
    /// timeouts, hung requests), the story's included if it is one.
    pub incidents: Vec<Story>,
    /// The fix of the story, verified by running it: the cheapest of
    /// those found (`fix::fixes_for`).
    pub fix: Option<Fix>,
    /// The other changes that remove the harm, each verified too.
    pub other_fixes: Vec<Fix>,
    /// The smallest config found that still shows the story's harm.
    pub minimal: Option<Minimal>,
    /// One line for a clean run, else the headline: `duplicate ticket at
    /// step 5 (40 ms): #0 and #1`.
    pub summary: String,
}

impl Explanation {
    /// The explanation as plain text, as `interleave explain` prints it.
    pub fn to_text(&self) -> String {
        let mut lines = vec![self.summary.clone()];
        if let Some(narration) = &self.narration {
            lines.push(format!("step: {narration}"));
        }
        if let Some(story) = &self.story {
            lines.push(format!("why: {}", story.text));
        }
        for incident in &self.incidents {
            if Some(incident) != self.story.as_ref() {
                lines.push(format!("also: {}", incident.text));
            }
        }
        match &self.fix {
            Some(fix) => lines.push(format!("fix: {}\n  #{}", fix.text, fix.fragment)),
            None if self.story.is_some() => {
                lines.push("fix: no single change tried removes it".to_string())
            }
            None => {}
        }
        for fix in &self.other_fixes {
            lines.push(format!(
                "other fix: {}
  #{}",
                fix.text, fix.fragment
            ));
        }
        if let Some(minimal) = &self.minimal {
            lines.push(format!(
                "minimal: {}\n  #{}",
                minimal.text, minimal.fragment
            ));
        }
        lines.join("\n")
    }
}

/// What a clean run says.
pub fn clean_message(scenario: ScenarioKind) -> &'static str {
    match scenario {
        ScenarioKind::Ticket => "no duplicate in this run; explore to search every interleaving",
        ScenarioKind::Stampede => {
            "no extra DB read in this run; explore to search every interleaving"
        }
    }
}

/// Explains the run of `config`: records it (following its schedule), then
/// builds the story of its first violation (or incident), the verified fix
/// and the minimal counterexample. A schedule that does not fit gives a
/// clean explanation whose summary says so.
pub fn explain(config: &Config) -> Explanation {
    match Recording::of(config) {
        Ok(recording) => explain_recording(&recording),
        Err(error) => Explanation {
            fragment: to_fragment(config),
            step: None,
            narration: None,
            story: None,
            incidents: Vec::new(),
            fix: None,
            other_fixes: Vec::new(),
            minimal: None,
            summary: format!("the schedule does not fit this scenario: {error}"),
        },
    }
}

/// Most requests of a script for which a fix is looked for (each
/// candidate is a run of the script).
pub const MAX_FIXED_SCRIPT: u64 = 20;

/// The story of the run's first violation and its narration, with no fix
/// and no smallest case (a large run; a script's, whose fix is its own).
pub fn story_only(recording: &Recording) -> Explanation {
    let story = recording
        .first_violation()
        .and_then(|violation| story::story(recording, violation));
    // With no story, a script's first failed request is what to look at.
    let failure = match (&story, recording.program.is_script()) {
        (None, true) => first_failure(recording),
        _ => None,
    };
    let step = match (&story, &failure) {
        (Some(story), _) => Some(story.step),
        (None, Some(failure)) => Some(failure.step),
        (None, None) => None,
    };
    let summary = match &story {
        Some(story) => format!("{} at step {}", story.kind.name(), story.step + 1),
        None if recording.program.is_script() => {
            script_summary(&recording.metrics, failure.as_ref())
        }
        None => clean_message(recording.config.scenario).to_string(),
    };
    // A failure's story, when the trace tells why.
    #[cfg(scripts)]
    let story = story.or_else(|| {
        failure
            .as_ref()
            .and_then(|failure| story::failed_request(recording, failure.request, failure.step))
    });
    Explanation {
        fragment: recording.program.fragment(&recording.config),
        step,
        narration: step.map(|step| narrate_step(recording, step)),
        summary,
        story,
        incidents: Vec::new(),
        fix: None,
        other_fixes: Vec::new(),
        minimal: None,
    }
}

/// A script's explanation: its story, and for a run of at most
/// [`MAX_FIXED_SCRIPT`] requests a fix found by running it: its SQL or
/// cache code edited for a race found in its data (`data_fix`), else a
/// lock strategy for its critical sections (`script_fix`).
fn explain_script(recording: &Recording) -> Explanation {
    let mut explanation = story_only(recording);
    if recording.config.total_requests() > MAX_FIXED_SCRIPT {
        return explanation;
    }
    explanation.minimal = explanation.story.as_ref().and_then(|story| {
        shrink::minimal_of_program(&recording.program, &recording.config, story.kind)
    });
    #[cfg(scripts)]
    if let Some(fix) = explanation
        .story
        .as_ref()
        .and_then(|story| data_fix(recording, story))
    {
        explanation.fix = Some(fix);
        return explanation;
    }
    explanation.fix = script_fix(&recording.program, &recording.config, &recording.metrics);
    explanation
}

/// A request that failed: the step it returned at, and why.
struct Failure {
    step: u32,
    request: u32,
    message: Option<String>,
}

/// The run's first failed request, with the message it failed with.
fn first_failure(recording: &Recording) -> Option<Failure> {
    let (event, message) = failures(&recording.events, &recording.keys).next()?;
    Some(Failure {
        step: event.step,
        request: event.request,
        message: message.map(str::to_string),
    })
}

/// Each failed request's return, in order, with the message it failed
/// with: its last `Log` event (a script logs why each request failed).
pub(crate) fn failures<'a>(
    events: &'a [TraceEvent],
    keys: &'a KeyNames,
) -> impl Iterator<Item = (&'a TraceEvent, Option<&'a str>)> + 'a {
    let mut said = std::collections::HashMap::new();
    events.iter().filter_map(move |event| match event.what {
        What::Log => {
            said.insert(event.request, event.detail);
            None
        }
        What::Return if event.outcome == Outcome::Failed => {
            let message = said
                .get(&event.request)
                .and_then(|&detail| keys.message(detail));
            Some((event, message))
        }
        _ => None,
    })
}

/// What a script's run did, when no critical section had two holders: its
/// counters say it (a script's stories are its critical sections), and
/// the first failure's message.
fn script_summary(metrics: &crate::Metrics, failure: Option<&Failure>) -> String {
    let mut harms = Vec::new();
    if metrics.duplicate_tickets > 0 {
        harms.push(format!(
            "{} duplicate row(s) by the tables' expectUnique",
            metrics.duplicate_tickets
        ));
    }
    if metrics.errors > 0 {
        // The headline keeps a message's first clause and line: the
        // globals an undefined name's error lists, and an assertion's diff,
        // are in the event-loop pane and the trace.
        let failure = failure.map(|failure| Failure {
            message: failure
                .message
                .as_deref()
                .map(crate::script_links::in_one_line),
            ..*failure
        });
        let failure = failure.as_ref();
        harms.push(match (failure, metrics.errors) {
            (
                Some(Failure {
                    request,
                    message: Some(message),
                    ..
                }),
                1,
            ) => {
                format!("#{request} failed with {message}")
            }
            (
                Some(Failure {
                    request,
                    message: Some(message),
                    ..
                }),
                errors,
            ) => {
                format!("{errors} requests failed, the first (#{request}) with {message}")
            }
            (_, errors) => format!("{errors} request(s) failed"),
        });
    }
    if metrics.hung > 0 {
        harms.push(format!("{} request(s) never answered", metrics.hung));
    }
    match harms.is_empty() {
        true => "no two requests held a critical section at once in this run; explore to \
                 search every interleaving"
            .to_string(),
        false => format!(
            "{}. Step through the run, or explore to find the interleavings that cause it",
            harms.join(", ")
        ),
    }
}

/// [`explain`] for a run already recorded (the page has one).
pub fn explain_recording(recording: &Recording) -> Explanation {
    if recording.program.is_script() {
        return explain_script(recording);
    }
    let config = &recording.config;
    let incidents = incidents(recording);
    let story = recording
        .first_violation()
        .and_then(|violation| story::story(recording, violation))
        .or_else(|| incidents.first().cloned());
    let Some(story) = story else {
        return Explanation {
            fragment: to_fragment(config),
            step: None,
            narration: None,
            story: None,
            incidents,
            fix: None,
            other_fixes: Vec::new(),
            minimal: None,
            summary: clean_message(config.scenario).to_string(),
        };
    };
    let requests: Vec<String> = story.requests.iter().map(|r| format!("#{r}")).collect();
    let summary = format!(
        "{} at step {} ({} ms): {}",
        story.kind.name(),
        story.step + 1,
        format_ms(story.act.time),
        requests.join(" and ")
    );
    let mut fixes = fixes_for(config, &story, &recording.metrics);
    let fix = (!fixes.is_empty()).then(|| fixes.remove(0));
    Explanation {
        fragment: to_fragment(config),
        step: Some(story.step),
        narration: Some(narrate_step(recording, story.step)),
        fix,
        other_fixes: fixes,
        minimal: minimal_counterexample(config, story.kind),
        story: Some(story),
        incidents,
        summary,
    }
}
