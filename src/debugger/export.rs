//! What the page exports: the trace as JSON lines (the same lines as the
//! CLI's `--trace`) and the timeline as a standalone SVG file.

use std::fmt::Write;

use crate::config::number::{shortest, Fixed};
use crate::config::Micros;
use crate::debugger::narrate::format_ms;
use crate::debugger::recording::Recording;
use crate::debugger::shared_lanes::Segment;
use crate::debugger::timeline::{Span, SpanKind};
use crate::sim::trace_line::TraceLine;
use crate::sim::What;

/// The whole trace as JSON lines, one event per line.
pub fn trace_json_lines(recording: &Recording) -> String {
    let listing = recording.program.listing(&recording.config);
    let mut out = String::new();
    for (index, event) in recording.events.iter().enumerate() {
        let position = recording.position_of(index);
        let line = TraceLine {
            line: match position {
                Some((line, _)) => Some(line),
                None => recording.line_of(index, &listing).map(|line| line as u32),
            },
            column: position.map(|(_, column)| column),
            message: (event.what == What::Log)
                .then(|| recording.keys.message(event.detail).map(str::to_string))
                .flatten(),
            ..TraceLine::of(event, recording.keys.describe(event.key))
        };
        out.push_str(&line.to_json());
        out.push('\n');
    }
    out
}

const LANE: f64 = 18.0;
const LABELS: f64 = 230.0;
const PLOT: f64 = 1000.0;
/// Most request lanes in the file; the rest are counted in a note.
const MAX_LANES: usize = 2_000;

/// The timeline as a standalone SVG document (its colours inside it), the
/// whole run: the hot key's shared lanes, then a lane per request.
pub fn timeline_svg(recording: &Recording) -> String {
    let timeline = &recording.timeline;
    let end = (recording.end + recording.end / 50).max(1_000);
    let x = |t: Micros| LABELS + t.min(end) as f64 * PLOT / end as f64;
    let shared_rows: u32 = timeline.shared.iter().map(|lane| lane.rows).sum();
    let lanes = timeline.lanes.len().min(MAX_LANES);
    let top = 24.0;
    // The lanes, a row for "… more", then the legend's row.
    let height = top + (f64::from(shared_rows) + lanes as f64 + 3.5) * LANE;
    let mut svg = String::new();
    let _ = write!(
        svg,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{height}" viewBox="0 0 {w} {height}" font-family="monospace" font-size="11">
<style>
.cache{{fill:#3b82c4}} .db-read{{fill:#d9822b}} .db-write{{fill:#b0413e}} .lock-wait{{fill:#c9b8e8}}
.critical{{fill:#9fd4a8}} .sleep{{fill:#9aa1ac}} .live{{fill:#9fd4a8}} .stale{{fill:#e8d48b}}
.held{{fill:#8fb8de}} .inside{{fill:#9fd4a8}} .conflict{{fill:#e0605a}} .violation{{fill:#d8342c}}
text{{fill:#1b1e23}} .tick{{stroke:#dde1e6}}
</style>
<title>Interleave timeline: {title}</title>
<rect width="100%" height="100%" fill="#ffffff"/>
"##,
        w = shortest(LABELS + PLOT + 10.0),
        height = shortest(height),
        title = escape(&recording.program.fragment(&recording.config)),
    );
    axis(&mut svg, end, &x, height);
    let mut y = top;
    for lane in &timeline.shared {
        let _ = writeln!(
            svg,
            r#"<text x="4" y="{}">{}</text>"#,
            shortest(y + 13.0),
            escape(&lane.label)
        );
        for segment in &lane.segments {
            shared_segment(&mut svg, segment, lane.peak, y, end, &x);
        }
        y += f64::from(lane.rows) * LANE;
    }
    y += LANE / 2.0;
    for index in timeline.order(Default::default()).into_iter().take(lanes) {
        let lane = &timeline.lanes[index];
        let _ = writeln!(
            svg,
            r#"<text x="4" y="{}">{}</text>"#,
            shortest(y + 13.0),
            escape(&timeline.label(lane))
        );
        for span in lane.spans.iter().filter(|s| s.kind.is_band()) {
            span_rect(&mut svg, span, y, end, &x);
        }
        for span in lane.spans.iter().filter(|s| !s.kind.is_band()) {
            span_rect(&mut svg, span, y, end, &x);
        }
        for violation in recording.violations_of(lane.request) {
            let _ = writeln!(
                svg,
                r#"<circle class="violation" cx="{}" cy="{}" r="3"><title>{} at {} ms</title></circle>"#,
                Fixed(x(violation.time), 1),
                Fixed(y + LANE / 2.0, 1),
                violation.kind.describe(),
                format_ms(violation.time)
            );
        }
        y += LANE;
    }
    if timeline.lanes.len() > lanes {
        let more = timeline.lanes.len() - lanes;
        let _ = writeln!(
            svg,
            r#"<text x="4" y="{}">… and {more} more requests</text>"#,
            shortest(y + 13.0)
        );
    }
    legend(&mut svg, height - LANE);
    svg.push_str("</svg>\n");
    svg
}

fn axis(svg: &mut String, end: Micros, x: &impl Fn(Micros) -> f64, height: f64) {
    let rough = (end / 10).max(1);
    let mut step = 1;
    while step * 10 <= rough {
        step *= 10;
    }
    let step = [1, 2, 5, 10]
        .into_iter()
        .map(|m| m * step)
        .find(|&s| s >= rough)
        .unwrap_or(step);
    let mut t = 0;
    while t <= end {
        let _ = writeln!(
            svg,
            r#"<line class="tick" x1="{0}" x2="{0}" y1="16" y2="{2}"/><text x="{0}" y="12" text-anchor="middle">{1}</text>"#,
            Fixed(x(t), 1),
            format_ms(t),
            shortest(height)
        );
        t += step;
    }
    let _ = writeln!(svg, r#"<text x="4" y="12">time (ms)</text>"#);
}

fn shared_segment(
    svg: &mut String,
    segment: &Segment,
    peak: u32,
    top: f64,
    end: Micros,
    x: &impl Fn(Micros) -> f64,
) {
    let full = LANE - 4.0;
    let height = if peak > 0 {
        (full * f64::from(segment.level) / f64::from(peak)).max(1.0)
    } else {
        full
    };
    let y = top + f64::from(segment.row) * LANE + 2.0 + (full - height);
    let stop = segment.end.unwrap_or(end);
    let _ = writeln!(
        svg,
        r#"<rect class="{}" x="{}" y="{}" width="{}" height="{}"><title>{}</title></rect>"#,
        segment.tone.name(),
        Fixed(x(segment.start), 1),
        Fixed(y, 1),
        Fixed((x(stop) - x(segment.start)).max(1.0), 1),
        Fixed(height, 1),
        escape(&segment.text)
    );
}

/// What each colour means, in one row along the bottom at `y`.
fn legend(svg: &mut String, y: f64) {
    let kinds = SpanKind::ALL
        .iter()
        .map(|kind| (kind.name(), kind.name().replace('-', " ")));
    let entries = kinds.chain(std::iter::once(("violation", "violation".to_string())));
    let mut x = 4.0;
    for (class, words) in entries {
        let _ = writeln!(
            svg,
            r#"<rect class="{class}" x="{}" y="{}" width="10" height="10"/><text x="{}" y="{}">{words}</text>"#,
            shortest(x),
            shortest(y - 9.0),
            shortest(x + 14.0),
            shortest(y),
        );
        x += 14.0 + 7.0 * words.len() as f64 + 16.0;
    }
}

fn span_rect(svg: &mut String, span: &Span, top: f64, end: Micros, x: &impl Fn(Micros) -> f64) {
    let (y, height) = if span.kind.is_band() {
        (top + 1.0, LANE - 2.0)
    } else {
        (top + 5.0, LANE - 10.0)
    };
    let stop = span.end.unwrap_or(end);
    let _ = writeln!(
        svg,
        r#"<rect class="{}" x="{}" y="{}" width="{}" height="{}"><title>{} {} ms to {} ms</title></rect>"#,
        span.kind.name(),
        Fixed(x(span.start), 1),
        Fixed(y, 1),
        Fixed((x(stop) - x(span.start)).max(1.0), 1),
        Fixed(height, 1),
        span.label,
        format_ms(span.start),
        format_ms(stop)
    );
}

/// Text as SVG character data.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
