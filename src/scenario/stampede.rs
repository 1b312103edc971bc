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
//! Under single-flight the miss path is `await singleflight(key, () => load(key))`.

use crate::scenario::config::StrategyKind;
use crate::sim::{Ctx, Outcome, Site};
use crate::strategy::{self, single_flight};
use crate::world::{CacheKey, LockKey, Lookup};

pub async fn get_item(cx: Ctx, item: u32) -> Outcome {
    let key = CacheKey::Data(item);
    let cached = cx.cache_get(key, Site::Get).await;
    if cached.live().is_some() {
        return Outcome::Ok;
    }
    let lock = LockKey(item);
    if cx.config().strategy == StrategyKind::SingleFlight {
        single_flight::run(&cx, lock, || load(&cx, item)).await;
        return Outcome::Ok;
    }
    if !strategy::acquire(&cx, lock).await {
        return give_up(cached);
    }
    cx.enter(lock);
    let double_check = cx.config().double_check && cx.config().strategy.is_lock();
    if !double_check || cx.cache_get(key, Site::Recheck).await.live().is_none() {
        load(&cx, item).await;
    }
    cx.exit(lock);
    strategy::release(&cx, lock).await;
    Outcome::Ok
}

async fn load(cx: &Ctx, item: u32) -> u64 {
    let row = cx.select(item, Site::Select).await;
    let ttl = cx.config().ttl;
    cx.cache_set(CacheKey::Data(item), row, ttl, Site::Set)
        .await;
    row
}

/// A waiter that gave up serves the stale value its own first read got.
fn give_up(cached: Lookup) -> Outcome {
    match cached {
        Lookup::Stale(_) => Outcome::ServedStale,
        _ => Outcome::Failed,
    }
}
