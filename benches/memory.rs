//! Memory of a 100,000-request stampede, measured by a counting allocator:
//! the heap a finished run holds (its trace included) and the peak while it
//! ran, keeping the full trace or only the metrics.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use interleave::config::url::parse_fragment;
use interleave::Sim;

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(live, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() {
            let live = LIVE.fetch_add(new_size - layout.size(), Ordering::Relaxed) + new_size
                - layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        } else {
            LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
        }
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn mib(bytes: usize) -> String {
    format!("{:.1} MiB", bytes as f64 / (1024.0 * 1024.0))
}

fn main() {
    // `cargo bench` passes `--bench`; a filter, if any, selects strategies.
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|arg| !arg.starts_with("--"))
        .collect();
    for strategy in ["none", "keyed-mutex", "single-flight"] {
        if !filter.is_empty() && !filter.iter().any(|f| strategy.contains(f.as_str())) {
            continue;
        }
        let fragment = format!("scenario=stampede&strategy={strategy}&requests=100000");
        let config = parse_fragment(&fragment).expect("a valid fragment");
        for (mode, keep_trace) in [("full", true), ("metrics", false)] {
            let before = LIVE.load(Ordering::Relaxed);
            PEAK.store(before, Ordering::Relaxed);
            let mut sim = if keep_trace {
                Sim::new(&config)
            } else {
                Sim::metrics_only(&config)
            };
            let metrics = sim.run();
            let held = LIVE.load(Ordering::Relaxed) - before;
            let peak = PEAK.load(Ordering::Relaxed) - before;
            let trace = sim.trace().heap_bytes();
            let events = sim.trace().len();
            println!(
                "memory stampede_100k/{strategy}/{mode}: trace {} ({events} events), \
                 held after the run {}, peak {} ({} macrotasks)",
                mib(trace),
                mib(held),
                mib(peak),
                metrics.events
            );
        }
    }
}
