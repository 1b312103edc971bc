#![cfg(target_arch = "wasm32")]
//! Browser tests, run by wasm-bindgen-test-runner in headless Chrome:
//! `cargo test --target wasm32-unknown-unknown --test web`.

use interleave::app::{format_ms, App};
use interleave::scenario::url::parse_fragment;
use interleave::Sim;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::Element;

wasm_bindgen_test_configure!(run_in_browser);

/// Fragments and the `trace_hash` the native CLI prints for each
/// (`cargo run --bin interleave -- run '<fragment>'`): every strategy, both
/// scenarios, and the random parts (uniform and exponential latencies,
/// Poisson arrivals, random routing).
const NATIVE_HASHES: [(&str, &str); 8] = [
    (
        "v=1&scenario=stampede&strategy=none&requests=50&seed=7",
        "395ea772ea24c501",
    ),
    (
        "v=1&scenario=stampede&strategy=get-set&requests=30&db_latency=uniform:1ms..30ms&seed=7",
        "08c42602c3d27a57",
    ),
    (
        "v=1&scenario=stampede&strategy=add&requests=30&db_latency=exp:5ms&seed=7",
        "cfd80a29433719ec",
    ),
    (
        "v=1&scenario=stampede&strategy=keyed-mutex&requests=40&arrival=poisson:500&servers=2&routing=random&seed=7",
        "cf851f0c9d1ff1bb",
    ),
    (
        "v=1&scenario=stampede&strategy=single-flight&requests=40&keys=3&cache_latency=exp:1ms&seed=7",
        "4c0c5a2e5ec8b6e4",
    ),
    (
        "v=1&scenario=ticket&strategy=none&users=3&db_latency=exp:5ms&seed=7",
        "eca5bc5fa740356c",
    ),
    (
        "v=1&scenario=ticket&strategy=add&users=4&clicks=3&click_gap=2ms&db_latency=uniform:1ms..30ms&seed=7",
        "7c68af3bb1512d4c",
    ),
    (
        "v=1&scenario=ticket&strategy=keyed-mutex&users=2&servers=2&seed=7",
        "940d34af1ee9518d",
    ),
];

#[wasm_bindgen_test]
fn trace_hashes_equal_the_native_ones() {
    for (fragment, native) in NATIVE_HASHES {
        let config = parse_fragment(fragment).expect(fragment);
        assert_eq!(Sim::new(&config).run().trace_hash, native, "{fragment}");
        assert_eq!(
            Sim::metrics_only(&config).run().trace_hash,
            native,
            "{fragment}"
        );
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
        yew::scheduler::flush().await;
        Mounted {
            root,
            handle: Some(handle),
        }
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

#[wasm_bindgen_test]
async fn app_shows_the_metrics_of_the_fragment() {
    let page = Mounted::with_hash("#v=1&scenario=stampede&strategy=none&requests=50&seed=7").await;
    assert_eq!(page.text("metric-db_reads"), "50");
    assert_eq!(page.text("metric-latency_p50"), "22");
    assert_eq!(page.text("metric-events"), "200");
    assert_eq!(page.text("trace-hash"), NATIVE_HASHES[0].1);
    assert_eq!(page.text("scenario"), "stampede");
    assert_eq!(
        page.text("fragment"),
        "#v=1&scenario=stampede&strategy=none&seed=7&requests=50"
    );
    assert!(page.find("error-banner").is_none());
}

#[wasm_bindgen_test]
async fn bad_fragment_shows_errors_and_default_metrics() {
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
    // Both keys fall back to the stampede defaults: 10 requests, no strategy.
    assert_eq!(page.text("strategy"), "none");
    assert_eq!(page.text("metric-db_reads"), "10");
    assert_eq!(page.text("metric-cache_misses"), "10");
}
