//! boa's collector, tuned for bursts. boa 0.22's `boa_gc` collects the
//! whole heap whenever the bytes allocated since the last sweep pass a
//! threshold, which starts at 1 MB and only grows when a collection leaves
//! more than 70% of it live. A 10,000-request burst keeps every request's
//! suspended async function alive, so with a 1 MB start the collector
//! marks the whole live heap again and again while the heap grows (41% of
//! a stampede script's time under `perf`). Our vendored `boa_gc`
//! (`crates/boa_gc`) has a setting for the threshold: a run raises it to a
//! floor sized for its requests. The threshold is per thread and never
//! shrinks.

use boa_engine::gc;

/// The threshold floor per planned request, in boa's accounted bytes (the
/// `GcBox` headers and inline values; the real heap is more): a 10,000-
/// request burst of the stampede script peaks at about 140 MB resident
/// with this floor, and collects nothing until its requests finish.
pub const PER_REQUEST: usize = 12 << 10;

/// The largest floor `floor_for` asks for: 128 MB accounted.
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

/// Raises this thread's collection threshold to at least `floor` bytes
/// (a smaller floor than the threshold, or one under `MIN_FLOOR`, does
/// nothing).
pub fn raise_threshold(floor: usize) {
    if floor >= MIN_FLOOR {
        gc::raise_threshold(floor);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_threshold_only_rises() {
        std::thread::spawn(|| {
            let start = gc::threshold();
            raise_threshold(MIN_FLOOR / 2);
            assert_eq!(gc::threshold(), start, "below the smallest floor");
            raise_threshold(8 << 20);
            assert_eq!(gc::threshold(), 8 << 20);
            raise_threshold(4 << 20);
            assert_eq!(gc::threshold(), 8 << 20, "never lowered");
        })
        .join()
        .unwrap();
    }
}
