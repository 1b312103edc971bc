//! The page's exports: the trace as the CLI's `--trace` lines, and the
//! timeline as a standalone SVG file.
#![cfg(not(target_arch = "wasm32"))]

use interleave::sim::trace_line::TraceLine;
use std::io::Write;
use std::process::{Command, Stdio};

use interleave::config::url::parse_fragment;
use interleave::debugger::export::{timeline_svg, trace_json_lines};
use interleave::debugger::Recording;

const FRAGMENT: &str = "v=1&scenario=ticket&strategy=add&users=2&lock_ttl=5ms&pause=0:30ms";

#[test]
fn the_exported_trace_is_the_clis_trace() {
    let recording = Recording::of(&parse_fragment(FRAGMENT).unwrap()).unwrap();
    let exported = trace_json_lines(&recording);
    let cli = Command::new(env!("CARGO_BIN_EXE_interleave"))
        .args(["run", FRAGMENT, "--trace"])
        .output()
        .unwrap();
    let printed = String::from_utf8(cli.stdout).unwrap();
    // The CLI's last line is the metrics.
    let trace: Vec<&str> = printed.lines().collect();
    let (_, trace) = trace.split_last().unwrap();
    assert_eq!(exported.lines().collect::<Vec<_>>(), trace);
    assert_eq!(exported.lines().count(), recording.events.len());
}

#[test]
fn the_exported_timeline_is_a_standalone_svg_with_every_lane() {
    let recording = Recording::of(&parse_fragment(FRAGMENT).unwrap()).unwrap();
    let svg = timeline_svg(&recording);
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.contains("<style>"), "its colours travel with it");
    // A title naming the run, and a legend of every colour.
    let canonical = interleave::config::url::to_fragment(&recording.config);
    let title = format!(
        "<title>Interleave timeline: {}</title>",
        canonical.replace('&', "&amp;")
    );
    assert!(svg.contains(&title), "{svg}");
    for words in [
        "cache",
        "db read",
        "db write",
        "lock wait",
        "critical",
        "sleep",
        "violation",
    ] {
        assert!(svg.contains(&format!(">{words}</text>")), "legend: {words}");
    }
    let timeline = &recording.timeline;
    for lane in &timeline.lanes {
        let label = timeline.label(lane);
        assert!(svg.contains(&format!(">{label}</text>")), "{label}");
    }
    let spans: usize = recording.timeline.lanes.iter().map(|l| l.spans.len()).sum();
    assert!(svg.matches("<rect class=").count() >= spans);
    // Well-formed XML, as a browser or an image viewer would read it.
    let mut python = Command::new("python3")
        .args([
            "-c",
            "import sys, xml.dom.minidom; xml.dom.minidom.parseString(sys.stdin.read())",
        ])
        .stdin(Stdio::piped())
        .spawn()
        .expect("python3 checks the XML");
    python
        .stdin
        .take()
        .unwrap()
        .write_all(svg.as_bytes())
        .unwrap();
    assert!(python.wait().unwrap().success(), "{svg}");
}

#[test]
fn a_trace_line_is_what_serde_json_writes() {
    // Every op, outcome and site a varied run records, with a key to escape.
    for fragment in [
        FRAGMENT,
        "v=1&scenario=stampede&strategy=emitter-lock&requests=3&cache=warm&expire_at=0&grace=1s",
        "v=1&scenario=ticket&strategy=ticket-lock&release=owner&fencing=true&tx=serializable",
        "v=1&scenario=stampede&strategy=xfetch&requests=3&cache=warm&expire_at=5ms&beta=100",
    ] {
        let config = parse_fragment(fragment).unwrap();
        let recording = Recording::of(&config).unwrap();
        let listing = interleave::scenario::listing::Listing::of(&config);
        for event in &recording.events {
            let line = TraceLine {
                line: listing.line_of(event.site).map(|line| line as u32),
                message: Some("a \"log\"\n\t\u{1}\u{8}\u{c}\r".to_string()),
                ..TraceLine::of(event, event.key.describe(config.scenario))
            };
            assert_eq!(
                line.to_json(),
                serde_json::to_string(&line).unwrap(),
                "{fragment}"
            );
        }
    }
}
