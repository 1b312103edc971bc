//! The timeline: SVG swimlanes, one per request, plus the hot key's shared
//! state. Only the lanes scrolled into view and the spans inside the time
//! window are drawn, so 1,000 requests stay quick. Geometry is in SVG
//! attributes (the CSP forbids inline styles); x is a percentage of the
//! time window.

use std::rc::Rc;

use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::config::number::Fixed;
use crate::config::Micros;
use crate::debugger::narrate::{format_ms, outcome_name};
use crate::debugger::shared_lanes::Segment;
use crate::debugger::timeline::NEVER;
use crate::debugger::{Grouping, Lane, RunView, SharedLane, Span, SpanKind};
use crate::model::Export;
use crate::sim::trace::Outcome;
use crate::sim::KeyNames;

const LANE_HEIGHT: i32 = 18;
const VIEW_HEIGHT: i32 = 360;
const LABEL_WIDTH: i32 = 190;
/// Most segments one shared lane draws in the time window.
const MAX_SEGMENTS_DRAWN: usize = 400;

#[derive(Properties, PartialEq)]
pub struct TimelineProps {
    pub run: Rc<RunView>,
    pub position: u32,
    pub now: Micros,
    pub grouping: Grouping,
    pub on_group: Callback<Grouping>,
    /// Requests of the story "What happened" tells: their lanes stand out.
    pub highlight: Rc<Vec<u32>>,
    /// Saves the run as a file.
    pub on_export: Callback<Export>,
}

/// The time window shown, in µs.
#[derive(Clone, Copy, PartialEq)]
struct Window {
    start: Micros,
    end: Micros,
}

impl Window {
    fn x(self, t: Micros) -> f64 {
        let t = t.clamp(self.start, self.end);
        (t - self.start) as f64 * 100.0 / (self.end - self.start).max(1) as f64
    }

    fn shows(self, start: Micros, end: Micros) -> bool {
        end >= self.start && start <= self.end
    }
}

fn pct(x: f64) -> String {
    format!("{}%", Fixed(x, 3))
}

#[component]
pub fn Timeline(props: &TimelineProps) -> Html {
    let run = &props.run;
    let full = Window {
        start: 0,
        end: (run.end + run.end / 50).max(1_000),
    };
    let zoom = use_state(|| None::<Window>);
    let scroll = use_state(|| 0i32);
    let window = zoom.unwrap_or(full);

    let order = use_memo((run.clone(), props.grouping), |(run, grouping)| {
        run.timeline.order(*grouping)
    });
    let lanes = &run.timeline.lanes;
    let first = (*scroll / LANE_HEIGHT).max(0) as usize;
    let shown = (VIEW_HEIGHT / LANE_HEIGHT + 2) as usize;
    let visible = order.iter().copied().enumerate().skip(first).take(shown);
    let height = (lanes.len() as i32 * LANE_HEIGHT).max(LANE_HEIGHT);

    let onscroll = {
        let scroll = scroll.clone();
        Callback::from(move |event: Event| {
            if let Some(element) = event
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            {
                scroll.set(element.scroll_top());
            }
        })
    };
    let zoom_by = |factor: f64| {
        let (zoom, now) = (zoom.clone(), props.now);
        Callback::from(move |_: MouseEvent| {
            let current = zoom.unwrap_or(full);
            let span = ((current.end - current.start) as f64 * factor).max(50.0) as Micros;
            let span = span.min(full.end);
            let start = now.saturating_sub(span / 2).min(full.end - span);
            zoom.set((span < full.end).then_some(Window {
                start,
                end: start + span,
            }));
        })
    };
    let on_pan = {
        let zoom = zoom.clone();
        Callback::from(move |event: InputEvent| {
            let value: f64 = event
                .target_unchecked_into::<web_sys::HtmlInputElement>()
                .value()
                .parse()
                .unwrap_or(0.0);
            if let Some(current) = *zoom {
                let span = current.end - current.start;
                let start = ((full.end - span) as f64 * value / 1000.0) as Micros;
                zoom.set(Some(Window {
                    start,
                    end: start + span,
                }));
            }
        })
    };
    let pan_value = match *zoom {
        Some(w) if full.end > w.end - w.start => {
            (w.start as f64 * 1000.0 / (full.end - (w.end - w.start)) as f64).round() as u32
        }
        _ => 0,
    };
    let group = |grouping: Grouping| props.on_group.reform(move |_: MouseEvent| grouping);
    let cursor = pct(window.x(props.now));

    html! {
        <section class="panel timeline" data-testid="timeline" aria-labelledby="timeline-title">
            <div class="panel-head">
                <h2 id="timeline-title">{ "Timeline" }</h2>
                <div class="timeline-tools">
                    <span class="group-by">{ "lanes by " }
                        <button aria-pressed={(props.grouping == Grouping::Owner).to_string()}
                            onclick={group(Grouping::Owner)}>{ "user / key" }</button>
                        <button aria-pressed={(props.grouping == Grouping::Server).to_string()}
                            onclick={group(Grouping::Server)}>{ "server" }</button>
                    </span>
                    <button title="Zoom in around the cursor" aria-label="Zoom in" onclick={zoom_by(0.5)}>{ "+" }</button>
                    <button title="Zoom out" aria-label="Zoom out" onclick={zoom_by(2.0)}>{ "−" }</button>
                    <button title="Show the whole run" onclick={{
                        let zoom = zoom.clone();
                        move |_: MouseEvent| zoom.set(None)
                    }}>{ "fit" }</button>
                    <input type="range" min="0" max="1000" value={pan_value.to_string()}
                        aria-label="Pan the time window" disabled={zoom.is_none()} oninput={on_pan} />
                    <button data-testid="btn-export-trace" title="Download the trace as JSON lines (as interleave run --trace prints them)"
                        onclick={props.on_export.reform(|_: MouseEvent| Export::Trace)}>{ "trace.jsonl" }</button>
                    <button data-testid="btn-export-svg" title="Download the timeline as a standalone SVG file"
                        onclick={props.on_export.reform(|_: MouseEvent| Export::Svg)}>{ "timeline.svg" }</button>
                </div>
            </div>
            <Legend />
            <div class="lanes shared-lanes">
                <svg class="labels" role="img" aria-label="shared lanes: the cache, the locks and who holds them" width={LABEL_WIDTH.to_string()} height={(shared_height(run) + 20).to_string()}>
                    <text x="4" y="13" class="axis-label">{ "time (ms)" }</text>
                    { for shared_rows(run).map(|(y, lane)| html! {
                        <text x="4" y={(y + 13).to_string()} class="lane-label shared">{ lane.label.clone() }</text>
                    }) }
                </svg>
                <svg class="plot" role="img" aria-label="timeline of the shared lanes over time, with the step's cursor" width="100%" height={(shared_height(run) + 20).to_string()}>
                    { axis(window) }
                    { for shared_rows(run).enumerate().map(|(index, (y, lane))| {
                        shared_lane(run, index, lane, y, window, props.position)
                    }) }
                    <line class="cursor" x1={cursor.clone()} x2={cursor.clone()} y1="0" y2="100%" />
                </svg>
            </div>
            <div class="lanes request-lanes" tabindex="0" role="region" aria-label="request lanes" onscroll={onscroll}>
                <svg class="labels" role="img" aria-label="one lane per request" width={LABEL_WIDTH.to_string()} height={height.to_string()}>
                    { for visible.clone().map(|(row, index)| {
                        let lane = &lanes[index];
                        let y = row as i32 * LANE_HEIGHT;
                        let involved = props.highlight.contains(&lane.request).then_some("involved");
                        html! { <text x="4" y={(y + 13).to_string()} class={classes!("lane-label", involved)}>{ run.timeline.label(lane) }</text> }
                    }) }
                    // Grouped by server: a rule where each server's lanes start.
                    { for visible.clone().filter(|&(row, index)| {
                        props.grouping == Grouping::Server && row > 0
                            && lanes[order[row - 1]].server != lanes[index].server
                    }).map(|(row, _)| {
                        let y = (row as i32 * LANE_HEIGHT).to_string();
                        html! { <line class="server-rule" x1="0" x2="100%" y1={y.clone()} y2={y} /> }
                    }) }
                </svg>
                <svg class="plot" role="img" aria-label="timeline of each request over time: cache, DB, lock waits and violations" width="100%" height={height.to_string()}>
                    { for visible.map(|(row, index)| {
                        let position = lane_position(&lanes[index], run, props.position);
                        html! {
                            <LaneRow key={index} run={run.clone()} {index}
                                top={row as i32 * LANE_HEIGHT} {window} {position} />
                        }
                    }) }
                    <line class="cursor" x1={cursor.clone()} x2={cursor} y1="0" y2="100%" />
                </svg>
            </div>
        </section>
    }
}

#[component]
fn Legend() -> Html {
    html! {
        <ul class="legend">
            { for SpanKind::ALL.iter().map(|kind| html! {
                <li><span class={classes!("swatch", format!("span-{}", kind.name()))}></span>{ kind.name().replace('-', " ") }</li>
            }) }
            <li><span class="swatch violation"></span>{ "violation" }</li>
            <li><span class="swatch future"></span>{ "not yet run" }</li>
        </ul>
    }
}

fn shared_height(run: &RunView) -> i32 {
    run.timeline
        .shared
        .iter()
        .map(|lane| lane.rows as i32 * LANE_HEIGHT)
        .sum()
}

/// Each shared lane with its top y (below the axis).
fn shared_rows(run: &RunView) -> impl Iterator<Item = (i32, &SharedLane)> + Clone {
    run.timeline.shared.iter().scan(20, |y, lane| {
        let top = *y;
        *y += lane.rows as i32 * LANE_HEIGHT;
        Some((top, lane))
    })
}

/// A round tick spacing (1, 2 or 5 times a power of ten) giving at most
/// eight ticks over `span` µs.
fn tick_step(span: Micros) -> Micros {
    let rough = (span / 8).max(1);
    let mut power = 1;
    while power * 10 <= rough {
        power *= 10;
    }
    [1, 2, 5, 10]
        .into_iter()
        .map(|m| m * power)
        .find(|&step| step >= rough)
        .unwrap_or(10 * power)
}

fn axis(window: Window) -> Html {
    let step = tick_step(window.end - window.start);
    let first = window.start.div_ceil(step) * step;
    let ticks = (0..)
        .map(move |i| first + i * step)
        .take_while(move |&t| t <= window.end);
    html! {
        <g class="axis">
            { for ticks.map(|t| {
                let x = pct(window.x(t));
                html! {
                    <>
                        <line class="tick" x1={x.clone()} x2={x.clone()} y1="14" y2="100%" />
                        <text x={x} y="11" text-anchor="middle">{ format_ms(t) }</text>
                    </>
                }
            }) }
        </g>
    }
}

/// `future` before the step runs, `active` while it lasts, else `done`.
fn phase(start_step: u32, end_step: u32, position: u32) -> &'static str {
    if start_step >= position {
        "future"
    } else if end_step == NEVER || end_step >= position {
        "active"
    } else {
        "done"
    }
}

/// A shared lane can hold a segment per request (the holders of a mutex
/// over a whole run): each segment is its own component, so a step redraws
/// only the segment whose phase it changes.
fn shared_lane(
    run: &Rc<RunView>,
    lane_index: usize,
    lane: &SharedLane,
    top: i32,
    window: Window,
    position: u32,
) -> Html {
    let visible = lane.visible(window.start, window.end, MAX_SEGMENTS_DRAWN);
    // A count chart says its peak beside where it first reaches it (to the
    // left of that point in the right half of the window).
    let peak = (lane.peak > 1 && window.shows(lane.peak_at, lane.peak_at)).then(|| {
        let x = window.x(lane.peak_at);
        let anchor = if x > 50.0 { "end" } else { "start" };
        html! {
            <text class="peak-note" x={pct(x)} y={(top + LANE_HEIGHT - 5).to_string()}
                text-anchor={anchor}>{ lane.peak_note.clone() }</text>
        }
    });
    html! {
        <g class="shared-lane">
            { for visible.into_iter().map(|index| {
                let future = lane.segments[index].start_step >= position;
                html! {
                    <SegmentRect key={index} run={run.clone()} lane={lane_index} {index}
                        {top} {window} {future} />
                }
            }) }
            { for peak }
        </g>
    }
}

#[derive(Properties, PartialEq)]
struct SegmentRectProps {
    run: Rc<RunView>,
    lane: usize,
    index: usize,
    top: i32,
    window: Window,
    future: bool,
}

#[component]
fn SegmentRect(props: &SegmentRectProps) -> Html {
    let lane = &props.run.timeline.shared[props.lane];
    shared_segment(
        &lane.segments[props.index],
        lane.peak,
        props.top,
        props.window,
        props.future,
    )
}

fn shared_segment(segment: &Segment, peak: u32, top: i32, window: Window, future: bool) -> Html {
    let end = segment.end.unwrap_or(window.end);
    let x = window.x(segment.start);
    let width = (window.x(end) - x).max(0.2);
    let full = LANE_HEIGHT - 4;
    // A count chart's bar stands on the lane's floor, as tall as its share
    // of the peak (at least a pixel).
    let height = if peak > 0 {
        ((i64::from(full) * i64::from(segment.level)) / i64::from(peak)).max(1) as i32
    } else {
        full
    };
    let y = top + segment.row as i32 * LANE_HEIGHT + 2 + (full - height);
    let state = if future { "future" } else { "done" };
    let until = segment
        .end
        .map_or("the end".to_string(), |e| format!("{} ms", format_ms(e)));
    html! {
        <rect class={classes!("segment", format!("tone-{}", segment.tone.name()), state)}
            x={pct(x)} y={y.to_string()} width={pct(width)} height={height.to_string()} rx="2">
            <title>{ format!("{}: {} ms to {until}", segment.text, format_ms(segment.start)) }</title>
        </rect>
    }
}

#[derive(Properties, PartialEq)]
struct LaneRowProps {
    run: Rc<RunView>,
    index: usize,
    top: i32,
    window: Window,
    /// The debugger's position, clamped to the steps where this lane
    /// changes (see [`lane_position`]), so a lane redraws only when a step
    /// touches it.
    position: u32,
}

#[component]
fn LaneRow(props: &LaneRowProps) -> Html {
    let lane = &props.run.timeline.lanes[props.index];
    request_lane(lane, props.top, props.window, props.position, &props.run)
}

/// `position` clamped to `[first, last + 1]`, where first and last are the
/// lowest and highest step at which anything on the lane starts, ends or
/// is marked: outside that range every phase on the lane is the same.
fn lane_position(lane: &Lane, run: &RunView, position: u32) -> u32 {
    let spans = lane.spans.iter().flat_map(|s| [s.start_step, s.end_step]);
    let returned = lane.returned.map(|(_, step, _)| step);
    let marks = run.violations_of(lane.request).map(|v| v.step);
    let steps = spans.chain(returned).chain(marks).filter(|&s| s != NEVER);
    let (first, last) = steps.fold((u32::MAX, 0), |(lo, hi), s| (lo.min(s), hi.max(s)));
    if first > last {
        return 0;
    }
    position.clamp(first, last.saturating_add(1))
}

fn request_lane(lane: &Lane, top: i32, window: Window, position: u32, run: &RunView) -> Html {
    let end_of_run = run.end;
    let spans = lane
        .spans
        .iter()
        .filter(|s| window.shows(s.start, s.end.unwrap_or(end_of_run)));
    let marks = run
        .violations_of(lane.request)
        .filter(|v| window.shows(v.time, v.time));
    let keys = &run.keys;
    html! {
        <g class="lane">
            <rect class="lane-bg" x="0" y={top.to_string()} width="100%" height={LANE_HEIGHT.to_string()} />
            { for spans.map(|span| span_rect(span, top, window, position, end_of_run, keys)) }
            if let Some((time, step, outcome)) = lane.returned {
                if window.shows(time, time) {
                    <circle class={classes!("return", phase(step, step, position))} cx={pct(window.x(time))}
                        cy={(top + LANE_HEIGHT / 2).to_string()} r="3">
                        <title>{ format!("#{} returns at {} ms: {}{}", lane.request, format_ms(time), outcome_name(outcome),
                            failure(lane, outcome, keys)) }</title>
                    </circle>
                }
            }
            { for marks.map(|violation| html! {
                <g class={classes!("violation", phase(violation.step, violation.step, position))}>
                    <line x1={pct(window.x(violation.time))} x2={pct(window.x(violation.time))}
                        y1={top.to_string()} y2={(top + LANE_HEIGHT).to_string()} />
                    <circle cx={pct(window.x(violation.time))} cy={(top + 4).to_string()} r="4">
                        <title>{ format!("{} at {} ms ({})", violation.kind.describe(), format_ms(violation.time),
                            keys.describe(crate::sim::trace::TraceKey::Data(violation.key))) }</title>
                    </circle>
                </g>
            }) }
        </g>
    }
}

fn span_rect(
    span: &Span,
    top: i32,
    window: Window,
    position: u32,
    end_of_run: Micros,
    keys: &crate::sim::KeyNames,
) -> Html {
    let end = span.end.unwrap_or(end_of_run);
    let x = window.x(span.start);
    let width = (window.x(end) - x).max(0.25);
    let (y, height) = if span.kind.is_band() {
        (top + 1, LANE_HEIGHT - 2)
    } else {
        (top + 4, LANE_HEIGHT - 8)
    };
    let until = span
        .end
        .map_or("(still waiting at the end)".to_string(), |e| {
            format!("{} ms", format_ms(e))
        });
    let key = keys.describe(span.key);
    let result = match span.outcome {
        Outcome::None => String::new(),
        outcome => format!(" → {}", outcome_name(outcome)),
    };
    html! {
        <rect class={classes!("span", format!("span-{}", span.kind.name()), phase(span.start_step, span.end_step, position))}
            x={pct(x)} y={y.to_string()} width={pct(width)} height={height.to_string()} rx="2">
            <title>{ format!("{} {key}: {} ms to {until}{result}", span.label, format_ms(span.start)) }</title>
        </rect>
    }
}

/// Why a failed request failed, as its lane's tooltip ends: `: Error: boom
/// (line 3, column 13)`; empty for one that did not fail or a story's.
fn failure(lane: &Lane, outcome: Outcome, keys: &KeyNames) -> String {
    match (outcome, lane.said.and_then(|said| keys.message(said))) {
        (Outcome::Failed, Some(text)) => format!(": {text}"),
        _ => String::new(),
    }
}
