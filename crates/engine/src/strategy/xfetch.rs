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
use crate::sim::{Ops, Outcome, Site};
use crate::world::{CacheKey, LockKey};

/// After a live read: whether to recompute before expiry.
pub fn refresh_early<O: Ops>(cx: &O, item: u32) -> bool {
    cx.xfetch_early(CacheKey::Data(item))
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
