//! `xfetch`: probabilistic early recomputation (Vattani, Chierichetti and
//! Lowenstein, "Optimal Probabilistic Cache Stampede Prevention", VLDB
//! 2015). No lock: a request that finds a live value recomputes it anyway
//! if `now - delta * beta * ln(rand()) >= expiry`, where `delta` is how
//! long the value took to recompute, so a refresh becomes likelier as
//! expiry nears; a request that misses recomputes too.
//!
//! ```js
//! async function getItem(key) {
//!   const cached = await cache.get(key); // { value, delta, expiry }
//!   if (cached.live && !(Date.now() - cached.delta * BETA * Math.log(Math.random()) >= cached.expiry))
//!     return cached.value;
//!   const start = Date.now();
//!   const row = await db.select(key);
//!   const delta = Date.now() - start;
//!   await cache.set(key, { row, delta }, TTL);
//!   return row;
//! }
//! ```

use super::Guard;
use crate::config::Micros;
use crate::sim::{Ops, Outcome, Site};
use crate::world::{CacheKey, LockKey};

/// XFetch's test on a live entry: recompute early if
/// `now - delta * beta * ln(draw) >= expiry`, for a `draw` in `(0, 1]`.
/// The simulation and the real servers both decide by it.
///
/// A draw of 53 bits is at least 2^-53, whose logarithm is above -37;
/// and rounding keeps products and sums in order. So while `now` plus the
/// largest gap a draw can give is short of the expiry (most reads of a
/// long TTL), the answer is no without the logarithm: the same answer, to
/// the bit, for a tenth of a hit's time.
pub fn early(now: Micros, expiry: Micros, delta: Micros, beta: f64, draw: f64) -> bool {
    let scale = -(delta as f64) * beta;
    let largest_gap = (scale * -37.0).max(0.0);
    if draw >= f64::EPSILON / 2.0 && (now as f64 + largest_gap) < expiry as f64 {
        return false;
    }
    now as f64 + scale * libm::log(draw) >= expiry as f64
}

/// After a live read: whether to recompute before expiry.
/// Entries that never expire are never refreshed early (and draw
/// nothing).
pub fn refresh_early<O: Ops>(cx: &O, item: u32) -> bool {
    let key = CacheKey::Data(item);
    let Some(read) = cx.xfetch_draw(key) else {
        return false;
    };
    let refresh = early(
        read.now,
        read.expiry,
        read.delta,
        cx.config().beta,
        read.draw,
    );
    if refresh {
        cx.early_refresh(key);
    }
    refresh
}

/// Recomputes the value, remembering how long the select took.
pub async fn recompute<O: Ops>(cx: &O, item: u32) -> Outcome {
    let key = LockKey(item);
    cx.enter(key).await;
    if cx.crashes(key) {
        return Outcome::Crashed;
    }
    cx.pause_if_due().await;
    let start = cx.now();
    let row = cx.select(item, Site::Select).await;
    let delta = cx.now() - start;
    let ttl = cx.config().ttl;
    cx.cache_set_with_delta(CacheKey::Data(item), row, ttl, delta, Site::Set)
        .await;
    cx.exit(key);
    Outcome::Ok
}

/// No lock: every request that decides to recompute does.
pub const GUARD: Guard = Guard::Nothing;

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The test as written, with the logarithm every time.
    fn by_the_formula(now: Micros, expiry: Micros, delta: Micros, beta: f64, draw: f64) -> bool {
        now as f64 + -(delta as f64) * beta * libm::log(draw) >= expiry as f64
    }

    /// A draw as the RNG makes them: `1 - u` for a 53-bit `u`.
    fn draw_of(bits: u64) -> f64 {
        1.0 - (bits >> 11) as f64 / (1u64 << 53) as f64
    }

    #[test]
    fn the_extreme_draws_decide_as_the_formula_does() {
        let smallest = draw_of(u64::MAX);
        assert_eq!(smallest, f64::EPSILON / 2.0);
        // delta 20 ms, beta 1: the smallest draw reaches 734.7 ms ahead.
        let (delta, expiry) = (20_000, 60_000_000);
        for now in [expiry - 734_800, expiry - 734_700, expiry - 1, 0] {
            for draw in [smallest, 0.5, 1.0] {
                assert_eq!(
                    early(now, expiry, delta, 1.0, draw),
                    by_the_formula(now, expiry, delta, 1.0, draw),
                    "now {now}, draw {draw}"
                );
            }
        }
        assert!(early(expiry - 734_700, expiry, delta, 1.0, smallest));
        assert!(!early(expiry - 734_800, expiry, delta, 1.0, smallest));
    }

    proptest! {
        #[test]
        fn skipping_the_logarithm_never_changes_the_answer(
            expiry in 1u64..200_000_000,
            ahead in 0u64..2_000_000,
            delta in 0u64..100_000,
            beta in prop_oneof![Just(1.0), Just(0.0), 0.0f64..10.0, -2.0f64..0.0],
            bits in any::<u64>(),
            low in 0u32..64,
        ) {
            let now = expiry.saturating_sub(ahead);
            // Small draws too (the largest gaps come from them): `u`
            // near 1, down to the smallest draw, 2^-53.
            let draw = draw_of(!(bits >> low));
            prop_assert_eq!(
                early(now, expiry, delta, beta, draw),
                by_the_formula(now, expiry, delta, beta, draw)
            );
        }
    }
}
