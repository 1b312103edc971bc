//! boa's collector, tuned for bursts. boa 0.22's `boa_gc` collects the
//! whole heap whenever the bytes allocated since the last sweep pass a
//! threshold, which starts at 1 MB and only grows when a collection leaves
//! more than 70% of it live. A 10,000-request burst keeps every request's
//! suspended async function alive, so with a 1 MB start the collector
//! marks the whole live heap again and again while the heap grows (41% of
//! a stampede script's time under `perf`). boa 0.22 has no setting for the
//! threshold (`GcConfig` is private), but its own rule raises it: keep a
//! ballast of `floor` bytes alive through a collection, and the threshold
//! ends between `floor` and `floor / 0.7`; then drop the ballast and collect it. The
//! threshold is per thread and never shrinks, so this runs once per thread.

use std::cell::Cell;

use boa_engine::gc::{empty_trace, force_collect, Finalize, Gc, Trace};

/// The threshold floor per planned request, in boa's accounted bytes (the
/// `GcBox` headers and inline values; the real heap is about twice that):
/// a suspended request of the stampede script holds about 17 KB of real
/// heap.
pub const PER_REQUEST: usize = 12 << 10;

/// The largest floor `floor_for` asks for: 128 MB accounted, about 300 MB
/// of resident memory at the peak of a 10,000-request burst.
#[cfg(not(target_arch = "wasm32"))]
pub const MAX_FLOOR: usize = 128 << 20;
/// In a browser tab (the `script-wasm` build) the floor stays at 16 MB
/// accounted: a wasm memory never shrinks, so a 128 MB floor would keep
/// the tab's memory at the size of its largest burst.
#[cfg(target_arch = "wasm32")]
pub const MAX_FLOOR: usize = 16 << 20;

/// Below this floor boa's own 1 MB start is left alone.
const MIN_FLOOR: usize = 2 << 20;

/// The floor for a run of `requests` requests.
pub fn floor_for(requests: usize) -> usize {
    requests.saturating_mul(PER_REQUEST).min(MAX_FLOOR)
}

/// Bytes per ballast node: small enough to build on any thread's stack.
const CHUNK: usize = 16 << 10;

// The bytes are never read: they only count toward boa's threshold.
#[allow(dead_code)]
struct Ballast([u8; CHUNK]);

impl Finalize for Ballast {}

// SAFETY: a ballast holds no `Gc` pointer.
unsafe impl Trace for Ballast {
    empty_trace!();
}

thread_local!(static FLOOR: Cell<usize> = const { Cell::new(0) });

/// Raises this thread's collection threshold to at least `floor` bytes (once per thread and floor; later calls with a smaller floor do
/// nothing).
pub fn raise_threshold(floor: usize) {
    if floor < MIN_FLOOR || FLOOR.with(Cell::get) >= floor {
        return;
    }
    FLOOR.with(|f| f.set(floor));
    let ballast: Vec<Gc<Ballast>> = (0..floor / CHUNK)
        .map(|_| Gc::new(Ballast([0; CHUNK])))
        .collect();
    // The collections these allocations triggered, with the ballast live,
    // raised the threshold to between `floor` and `floor / 0.7`.
    drop(ballast);
    // The ballast is garbage now: give its memory back. `force_collect`
    // does not lower the threshold.
    force_collect();
}
