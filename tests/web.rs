#![cfg(target_arch = "wasm32")]
//! Browser tests, run by wasm-bindgen-test-runner in headless Chrome:
//! `cargo test --target wasm32-unknown-unknown --test web`.

use std::rc::Rc;

use interleave::app::{current_hash, format_ms, show_panic, Action, App, Busy, Debugger, PANIC_ID};
use interleave::config::url::parse_fragment;
use interleave::run::replay;
use interleave::Sim;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{Element, Event, EventInit, HtmlElement, HtmlInputElement, HtmlSelectElement};

mod page_support;
use page_support::settle;

wasm_bindgen_test_configure!(run_in_browser);

/// Fragments and the `trace_hash` the native CLI prints for each
/// (`cargo run --bin interleave -- run '<fragment>'`): every strategy, both
/// scenarios, the random parts (uniform and exponential latencies, Poisson
/// arrivals, random routing, XFetch's draws), faults and fixes, and a
/// schedule.
const NATIVE_HASHES: [(&str, &str); 15] = [
    (
        "v=1&scenario=stampede&strategy=none&requests=50&seed=7",
        "1217a4cff88e9be8",
    ),
    (
        "v=1&scenario=stampede&strategy=get-set&requests=30&db_latency=uniform:1ms..30ms&seed=7",
        "7d8e8fd3b3f3543c",
    ),
    (
        "v=1&scenario=stampede&strategy=add&requests=30&db_latency=exp:5ms&seed=7",
        "e11dd98e506b6022",
    ),
    (
        "v=1&scenario=stampede&strategy=keyed-mutex&requests=40&arrival=poisson:500&servers=2&routing=random&seed=7",
        "a295ad844b8ab2a7",
    ),
    (
        "v=1&scenario=stampede&strategy=single-flight&requests=40&keys=3&cache_latency=exp:1ms&seed=7",
        "c9d350545f120b22",
    ),
    (
        "v=1&scenario=ticket&strategy=none&users=3&db_latency=exp:5ms&seed=7",
        "f2e076fc89ae9d13",
    ),
    (
        "v=1&scenario=ticket&strategy=add&users=4&clicks=3&click_gap=2ms&db_latency=uniform:1ms..30ms&seed=7",
        "90b05e00d1ffb0f2",
    ),
    (
        "v=1&scenario=ticket&strategy=keyed-mutex&users=2&servers=2&seed=7",
        "14d270ccd984cc00",
    ),
    (
        "v=1&scenario=stampede&strategy=emitter-lock&requests=30&db_latency=exp:5ms&seed=7",
        "980f229ffc0c9045",
    ),
    (
        "v=1&scenario=stampede&strategy=ticket-lock&requests=20&cache_latency=uniform:1ms..3ms&seed=7",
        "59f4eb1c79b973c1",
    ),
    (
        "v=1&scenario=stampede&strategy=xfetch&requests=40&cache=warm&expire_at=50ms&beta=3&arrival=gap:2ms&seed=7",
        "cec46dde72b606d3",
    ),
    (
        "v=1&scenario=stampede&strategy=stale-while-revalidate&requests=30&cache=warm&expire_at=10ms&grace=1s&arrival=poisson:1000&seed=7",
        "e9809f87c5301d7a",
    ),
    (
        "v=1&scenario=ticket&strategy=add&lock_ttl=5ms&pause=0:30ms&fencing=true&release=owner&seed=7",
        "434e7efcf6891113",
    ),
    (
        "v=1&scenario=ticket&strategy=none&users=3&servers=2&db_unique=true&db_latency=exp:5ms&seed=7",
        "15146566906c6857",
    ),
    ("v=1&scenario=ticket&strategy=none&schedule=1", "32f7ab3950bcec98"),
];

#[wasm_bindgen_test]
fn trace_hashes_equal_the_native_ones() {
    for (fragment, native) in NATIVE_HASHES {
        let config = parse_fragment(fragment).expect(fragment);
        for keep_trace in [true, false] {
            let sim = replay(&config, keep_trace).expect(fragment);
            assert_eq!(sim.metrics().trace_hash, native, "{fragment}");
        }
    }
}

#[wasm_bindgen_test]
fn latencies_show_as_milliseconds() {
    assert_eq!(format_ms(0), "0");
    assert_eq!(format_ms(22_000), "22");
    assert_eq!(format_ms(500), "0.5");
    assert_eq!(format_ms(1_234), "1.234");
    assert_eq!(format_ms(17_420), "17.42");
    assert_eq!(format_ms(1), "0.001");
}

/// Resolves in the browser's next task (a zero-delay timer).
async fn next_task() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let window = web_sys::window().unwrap();
        window.set_timeout_with_callback(&resolve).unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}

/// Sets the page's fragment, mounts a fresh `App` into its own div, and
/// returns the div's rendered text by test id.
struct Mounted {
    root: Element,
    handle: Option<yew::AppHandle<App>>,
}

impl Mounted {
    async fn with_hash(hash: &str) -> Mounted {
        let window = web_sys::window().unwrap();
        window.location().set_hash(hash).unwrap();
        let document = window.document().unwrap();
        let root = document.create_element("div").unwrap();
        document.body().unwrap().append_child(&root).unwrap();
        let handle = yew::Renderer::<App>::with_root(root.clone()).render();
        let page = Mounted {
            root,
            handle: Some(handle),
        };
        page.started().await;
        page
    }

    /// Waits, a browser task at a time, for the page's start: it draws in
    /// stages, records, explains and fills the compare table, each a chunk
    /// of work in a task of its own.
    async fn started(&self) {
        for _ in 0..10_000 {
            yew::scheduler::flush().await;
            let compared = self.root.query_selector("[data-testid=\"compare\"] .more");
            if self.find("compare").is_some()
                && self.find("progress").is_none()
                && compared.unwrap().is_none()
            {
                return;
            }
            next_task().await;
        }
        panic!("the page never finished starting");
    }

    fn find(&self, test_id: &str) -> Option<Element> {
        let selector = format!("[data-testid=\"{test_id}\"]");
        self.root.query_selector(&selector).unwrap()
    }

    fn text(&self, test_id: &str) -> String {
        let element = self.find(test_id);
        element
            .unwrap_or_else(|| panic!("no {test_id}"))
            .text_content()
            .unwrap_or_default()
    }
}

impl Drop for Mounted {
    fn drop(&mut self) {
        if let Some(handle) = self.handle.take() {
            handle.destroy();
        }
        self.root.remove();
        let _ = web_sys::window().unwrap().location().set_hash("");
    }
}

impl Mounted {
    fn click(&self, test_id: &str) {
        let element = self.find(test_id).unwrap_or_else(|| panic!("no {test_id}"));
        element.dyn_into::<HtmlElement>().unwrap().click();
    }

    async fn click_times(&self, test_id: &str, times: usize) {
        for _ in 0..times {
            self.click(test_id);
            yew::scheduler::flush().await;
        }
    }

    fn value(&self, test_id: &str) -> String {
        let element = self.find(test_id).unwrap_or_else(|| panic!("no {test_id}"));
        match element.dyn_ref::<HtmlInputElement>() {
            Some(input) => input.value(),
            None => element.dyn_into::<HtmlSelectElement>().unwrap().value(),
        }
    }

    /// Types `value` into a text field, as the `input` event a person's
    /// typing fires.
    /// Types `value` into a field (an `input` event), without applying it.
    async fn type_only(&self, test_id: &str, value: &str) {
        let input: HtmlInputElement = self.find(test_id).unwrap().dyn_into().unwrap();
        input.set_value(value);
        self.fire(&input, "input").await;
    }

    /// Types `value` and presses Enter (a `change` event): the edit applies.
    async fn type_into(&self, test_id: &str, value: &str) {
        self.type_only(test_id, value).await;
        let input: HtmlInputElement = self.find(test_id).unwrap().dyn_into().unwrap();
        self.fire(&input, "change").await;
    }

    async fn fire(&self, target: &HtmlInputElement, name: &str) {
        let init = EventInit::new();
        init.set_bubbles(true);
        let event = Event::new_with_event_init_dict(name, &init).unwrap();
        target.dispatch_event(&event).unwrap();
        yew::scheduler::flush().await;
    }

    /// Every `metric-*` value on the page, by metric name.
    fn metrics(&self) -> Vec<(String, String)> {
        let cells = self
            .root
            .query_selector_all("[data-testid^=\"metric-\"]")
            .unwrap();
        (0..cells.length())
            .filter_map(|i| cells.item(i)?.dyn_into::<Element>().ok())
            .map(|cell| {
                let id = cell.get_attribute("data-testid").unwrap();
                (id, cell.text_content().unwrap_or_default())
            })
            .collect()
    }
}

fn expected(metrics: &interleave::Metrics) -> Vec<(&'static str, String)> {
    vec![
        ("metric-db_reads", metrics.db_reads.to_string()),
        ("metric-db_writes", metrics.db_writes.to_string()),
        (
            "metric-duplicate_tickets",
            metrics.duplicate_tickets.to_string(),
        ),
        ("metric-cache_misses", metrics.cache_misses.to_string()),
        ("metric-lock_wakeups", metrics.lock_wakeups.to_string()),
        ("metric-latency_p50", format_ms(metrics.latency_us.p50)),
        ("metric-latency_max", format_ms(metrics.latency_us.max)),
        ("metric-events", metrics.events.to_string()),
    ]
}

fn assert_shows(page: &Mounted, metrics: &interleave::Metrics) {
    for (id, value) in expected(metrics) {
        assert_eq!(page.text(id), value, "{id}");
    }
    assert_eq!(page.text("trace-hash"), metrics.trace_hash);
}

#[wasm_bindgen_test]
async fn a_fragment_restores_its_config_and_runs_to_the_native_metrics() {
    let fragment = "v=1&scenario=stampede&strategy=add&requests=12&db_latency=exp:5ms&seed=7";
    let page = Mounted::with_hash(&format!("#{fragment}")).await;
    assert_eq!(page.value("scenario-select"), "stampede");
    assert_eq!(page.value("strategy-select"), "add");
    assert_eq!(page.value("param-requests"), "12");
    assert_eq!(page.value("param-db_latency"), "exp:5ms");
    assert_eq!(page.value("param-seed"), "7");
    assert_eq!(page.text("step-index"), "0");
    assert!(page.find("error-banner").is_none());
    page.click("btn-run");
    yew::scheduler::flush().await;
    let native = Sim::new(&parse_fragment(fragment).unwrap()).run();
    assert_shows(&page, &native);
    assert_eq!(page.text("step-index"), native.events.to_string());
}

#[wasm_bindgen_test]
async fn step_and_back_return_exactly_to_the_start() {
    let page = Mounted::with_hash("#v=1&scenario=ticket&strategy=none&users=2").await;
    let start = page.metrics();
    let clock = page.text("clock");
    page.click_times("btn-step", 5).await;
    assert_eq!(page.text("step-index"), "5");
    assert_ne!(page.metrics(), start, "five steps change the counters");
    page.click_times("btn-back", 5).await;
    assert_eq!(page.text("step-index"), "0");
    assert_eq!(page.metrics(), start);
    assert_eq!(page.text("clock"), clock);
    // Stepping to the end one macrotask at a time gives the native run.
    let native = Sim::new(&parse_fragment("scenario=ticket&users=2").unwrap()).run();
    page.click_times("btn-step", native.events as usize + 3)
        .await;
    assert_shows(&page, &native);
}

#[wasm_bindgen_test]
async fn the_first_violation_button_stops_at_the_duplicate() {
    let page = Mounted::with_hash("#v=1&scenario=ticket&strategy=none").await;
    page.click("btn-first-violation");
    yew::scheduler::flush().await;
    // Right after the second insert lands, in step 5 (at 40 ms).
    assert_eq!(page.text("step-index"), "6");
    assert_eq!(page.text("clock"), "40");
    assert_eq!(page.text("metric-duplicate_tickets"), "1");
    assert!(page.text("timeline").contains("orders of user:0:event"));
    assert!(page
        .text("loop-pane")
        .contains("#1: db.insert user:0:event lands"));
}

#[wasm_bindgen_test]
async fn editing_a_parameter_reruns_and_updates_the_link() {
    let page = Mounted::with_hash("#v=1&scenario=stampede&strategy=none").await;
    page.type_into("param-requests", "3").await;
    assert!(current_hash().contains("requests=3"), "{}", current_hash());
    page.click("btn-run");
    yew::scheduler::flush().await;
    assert_eq!(page.text("metric-db_reads"), "3");
    // A bad value names the key and changes nothing.
    page.type_into("param-requests", "lots").await;
    let error = page.root.query_selector(".param-error").unwrap().unwrap();
    assert!(error.text_content().unwrap().contains("whole number"));
    assert!(current_hash().contains("requests=3"));
}

#[wasm_bindgen_test]
async fn an_edit_applies_on_enter_not_per_keystroke_and_its_error_matches_the_field() {
    let page = Mounted::with_hash("#v=1&scenario=ticket&strategy=none").await;
    // `5m` on the way to `5ms` is not applied while typing.
    page.type_only("param-click_gap", "5m").await;
    assert!(!current_hash().contains("click_gap"), "{}", current_hash());
    assert!(page.root.query_selector(".param-error").unwrap().is_none());
    page.type_into("param-click_gap", "5ms").await;
    assert!(
        current_hash().contains("click_gap=5ms"),
        "{}",
        current_hash()
    );
    // A rejected value stays in the field beside its message.
    page.type_into("param-users", "-5").await;
    let error = page.root.query_selector(".param-error").unwrap().unwrap();
    assert!(error.text_content().unwrap().contains("-5"));
    assert_eq!(page.value("param-users"), "-5");
    // Typing the running value back clears the message.
    page.type_into("param-users", "1").await;
    assert!(page.root.query_selector(".param-error").unwrap().is_none());
    assert_eq!(page.value("param-users"), "1");
}

#[wasm_bindgen_test]
async fn a_bad_fragment_shows_errors_and_runs_the_defaults() {
    let page = Mounted::with_hash("#scenario=stampede&strategy=bogus&requests=x").await;
    let items = page
        .root
        .query_selector_all("[data-testid=\"error-banner\"] li")
        .unwrap();
    let errors: Vec<String> = (0..items.length())
        .filter_map(|i| items.item(i)?.text_content())
        .collect();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(
        errors.iter().any(|e| e.starts_with("`strategy`")),
        "{errors:?}"
    );
    assert!(
        errors.iter().any(|e| e.starts_with("`requests`")),
        "{errors:?}"
    );
    assert!(page.text("error-banner").contains("bogus"));
    // The address bar holds what runs, not the bad fragment.
    assert_eq!(current_hash(), "#v=1&scenario=stampede&strategy=none");
    // Both keys fall back to the stampede defaults: 10 requests, no strategy.
    assert_eq!(page.value("strategy-select"), "none");
    page.click("btn-run");
    yew::scheduler::flush().await;
    assert_eq!(page.text("metric-db_reads"), "10");
    assert_eq!(page.text("metric-cache_misses"), "10");
}

#[wasm_bindgen_test]
fn a_panic_leaves_a_readable_error_on_the_page() {
    show_panic("index out of bounds <b>here</b>");
    let document = web_sys::window().unwrap().document().unwrap();
    let banner = document.get_element_by_id(PANIC_ID).unwrap();
    let text = banner.text_content().unwrap();
    assert!(
        text.contains("internal error") && text.contains("<b>here</b>"),
        "{text}"
    );
    assert!(
        banner.query_selector("b").unwrap().is_none(),
        "text, not markup"
    );
    assert_eq!(banner.get_attribute("role").as_deref(), Some("alert"));
    banner.remove();
}

/// An emitter lock's herd at 3,000 requests wakes about 4.5 million
/// listeners in 12,000 macrotasks: past `MAX_RECORDED_EVENTS` the page drops
/// the recording (its trace would grow with every wake-up) and counts the
/// metrics only, and says so.
#[wasm_bindgen_test]
fn a_herd_too_large_to_record_runs_metrics_only() {
    let state = settle(Rc::new(Debugger::load(
        "#v=1&scenario=stampede&strategy=emitter-lock&requests=3000",
    )));
    assert!(state.session().is_none(), "no trace to step through");
    let notice = state.notice.clone().unwrap_or_default();
    assert!(notice.starts_with("too long to record"), "{notice}");
    assert_eq!(state.metrics().db_reads, 1);
    assert_eq!(state.metrics().events, 12_002);
}

/// The page's start is work in chunks, each in a browser task of its own:
/// first the frame and the controls, then the counters, the scenario's
/// keys, the panes, explore and compare, and only then the recording. One
/// task that drew everything and ran the first chunk took 100 to 180 ms on
/// a small scenario.
#[wasm_bindgen_test]
async fn the_page_starts_in_stages_then_records() {
    let work = |state: Rc<Debugger>| {
        state.act(Action::Work {
            deadline: js_sys::Date::now() + 50.0,
        })
    };
    let state = Rc::new(Debugger::load("#v=1&scenario=ticket&strategy=none"));
    assert_eq!(state.drawn, 0);
    assert!(state.session().is_none() && state.has_work());
    let mut state = state;
    for stage in 1..=interleave::model::DRAWN {
        state = work(state);
        assert_eq!(state.drawn, stage);
        assert!(state.session().is_none(), "a stage runs nothing");
    }
    let state = work(state);
    assert!(
        state.session().is_some(),
        "then the ticket records, in one chunk"
    );

    // On the page: the first draw has the controls and no panes yet.
    let window = web_sys::window().unwrap();
    window
        .location()
        .set_hash("#v=1&scenario=ticket&strategy=none")
        .unwrap();
    let document = window.document().unwrap();
    let root = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    let handle = yew::Renderer::<App>::with_root(root.clone()).render();
    yew::scheduler::flush().await;
    let has = |id: &str| {
        root.query_selector(&format!("[data-testid=\"{id}\"]"))
            .unwrap()
            .is_some()
    };
    assert!(has("btn-step"));
    assert!(!has("scenario-select") && !has("timeline") && !has("compare"));
    handle.destroy();
    root.remove();
    let page = Mounted::with_hash("#v=1&scenario=ticket&strategy=none").await;
    assert!(page.find("timeline").is_some() && page.find("compare").is_some());
    assert_eq!(page.text("step-index"), "0");
}

/// A large run's recording ends its chunk; finishing it (the timeline's
/// holders, the violations, a live run) is the next chunk, and its first
/// draw (the timeline of 2,000 lanes) the one after: each in a browser
/// task of its own, however long the chunks may run.
#[wasm_bindgen_test]
async fn a_large_recording_is_finished_then_shown_in_chunks_of_their_own() {
    let work = |state: Rc<Debugger>| {
        state.act(Action::Work {
            deadline: js_sys::Date::now() + 60_000.0,
        })
    };
    let mut state = Rc::new(Debugger::load(
        "#v=1&scenario=stampede&strategy=none&requests=2000",
    ));
    while state.drawn < interleave::model::DRAWN {
        state = work(state);
    }
    let state = work(state);
    assert_eq!(state.busy, Busy::Recording);
    assert_eq!(state.progress, (2000, 2000), "the run is recorded");
    assert!(state.session().is_none() && state.has_work());
    let state = work(state);
    assert_eq!(state.busy, Busy::Recording, "finished, not shown yet");
    assert!(state.session().is_none() && state.has_work());
    let state = work(state);
    assert_eq!(state.busy, Busy::Idle);
    assert_eq!(
        state.session().map(|s| s.position()),
        Some(0),
        "shown at step 0"
    );
    assert_eq!(state.recording().unwrap().timeline.lanes.len(), 2000);
}
