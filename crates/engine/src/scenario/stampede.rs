//! Cache breakdown: when a hot key expires, every concurrent request misses
//! and loads it from the DB, unless a lock or single-flight stops them.
//!
//! ```js
//! async function getItem(key) {
//!   const cached = await cache.get(key);
//!   if (cached.live) return cached.value;
//!   if (!(await lock.acquire(key))) return giveUp(cached); // stale, or fail
//!   try {
//!     if (DOUBLE_CHECK) {
//!       const again = await cache.get(key);
//!       if (again.live) return again.value;
//!     }
//!     return await load(key);
//!   } finally {
//!     await lock.release(key);
//!   }
//! }
//! async function load(key) {
//!   const row = await db.select(key);
//!   await cache.set(key, row, TTL);
//!   return row;
//! }
//! ```
//! Under single-flight the miss path is `await singleflight(key, () => load(key))`;
//! stale-while-revalidate and xfetch have their own (see their files).
//! Faults: request `crash` stops right after entering the section, never
//! releasing; request `pause` sleeps there first.

use std::future::Future;

use crate::config::StrategyKind;
use crate::sim::{Ops, Outcome, Site};
use crate::strategy::{self, single_flight, stale_while_revalidate, xfetch};
use crate::world::{CacheKey, LockKey, Lookup};

// Every request's future holds `get_item`'s, so it keeps little across its
// awaits, and `get_item` and `load` are plain functions returning an
// `async move` block rather than `async fn`s: an `async fn` keeps a copy of
// each parameter beside the parameter itself for as long as the future
// lives (rust-lang/rust#62958).
#[allow(
    clippy::manual_async_fn,
    reason = "an async fn keeps its parameters twice"
)]
pub fn get_item<O: Ops>(cx: &O, item: u32) -> impl Future<Output = Outcome> + '_ {
    async move {
        let cached = cx.cache_get(CacheKey::Data(item), Site::Get).await;
        let strategy = cx.config().strategy;
        if cached.live().is_some() {
            if strategy == StrategyKind::Xfetch && xfetch::refresh_early(cx, item) {
                return Box::pin(xfetch::recompute(cx, item)).await;
            }
            return Outcome::Ok;
        }
        let lock = LockKey(item);
        match strategy {
            StrategyKind::SingleFlight => {
                return match single_flight::run(cx, lock, || load(cx, item)).await {
                    Some(_) => Outcome::Ok,
                    None => Outcome::Crashed,
                };
            }
            // Boxed: every request's future is as big as its largest await,
            // and these two would grow the common strategies' futures by half.
            StrategyKind::StaleWhileRevalidate => {
                return Box::pin(stale_while_revalidate::on_miss(cx, item, cached, || {
                    load(cx, item)
                }))
                .await;
            }
            StrategyKind::Xfetch => return Box::pin(xfetch::recompute(cx, item)).await,
            _ => {}
        }
        // What giving up answers, worked out before the wait so that the
        // future keeps one byte across it, not the 16-byte lookup.
        let gave_up = give_up(cached);
        if !strategy::acquire(cx, lock).await {
            return gave_up;
        }
        cx.enter(lock).await;
        if cx.crashes(lock) {
            return Outcome::Crashed;
        }
        cx.pause_if_due().await;
        let double_check = cx.config().double_check && strategy.is_lock();
        if !double_check
            || cx
                .cache_get(CacheKey::Data(item), Site::Recheck)
                .await
                .live()
                .is_none()
        {
            load(cx, item).await;
        }
        cx.exit(lock);
        strategy::release(cx, lock).await;
        Outcome::Ok
    }
}

/// `select` then `set`: the work a lock guards.
#[allow(
    clippy::manual_async_fn,
    reason = "an async fn keeps its parameters twice"
)]
pub fn load<O: Ops>(cx: &O, item: u32) -> impl Future<Output = u64> + '_ {
    async move {
        let row = cx.select(item, Site::Select).await;
        let ttl = cx.config().ttl;
        cx.cache_set(CacheKey::Data(item), row, ttl, Site::Set)
            .await;
        row
    }
}

/// A waiter that gave up serves the stale value its own first read got.
fn give_up(cached: Lookup) -> Outcome {
    match cached {
        Lookup::Stale(_) => Outcome::ServedStale,
        _ => Outcome::Failed,
    }
}
