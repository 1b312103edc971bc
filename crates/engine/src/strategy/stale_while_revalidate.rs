//! `stale-while-revalidate`: a request that finds the value stale (expired,
//! within `grace`) answers with it at once; if no refresh of that key runs
//! on its server, it starts one after answering, in the background. A
//! request that finds nothing to serve joins the running refresh, or leads
//! one (single-flight). Per server, in process.
//!
//! ```js
//! async function getItem(key) {
//!   const cached = await cache.get(key);
//!   if (cached.live) return cached.value;
//!   if (cached.stale) {
//!     if (!refreshing.has(key)) singleflight(key, () => load(key)); // not awaited
//!     return cached.value;
//!   }
//!   return await singleflight(key, () => load(key));
//! }
//! ```

use std::future::Future;

use super::Guard;
use crate::sim::{Ops, Outcome};
use crate::strategy::single_flight;
use crate::world::{LockKey, Lookup};

/// The miss path, after the first read found no live value. `load` is the
/// scenario's refresh (select, then set), so the strategy does not reach
/// back into the scenario that calls it.
pub async fn on_miss<'a, O: Ops, F>(
    cx: &'a O,
    item: u32,
    cached: Lookup,
    load: impl Fn() -> F + 'a,
) -> Outcome
where
    F: Future<Output = u64> + 'a,
{
    let key = LockKey(item);
    if let Lookup::Stale(_) = cached {
        cx.serve_stale(item);
        cx.respond(Outcome::ServedStale);
        if !cx.flight_running(key) {
            // The answer has gone; this handler now refreshes in the background.
            single_flight::run(cx, key, load).await;
        }
        return Outcome::ServedStale;
    }
    match single_flight::run(cx, key, load).await {
        Some(_) => Outcome::Ok,
        None => Outcome::Crashed,
    }
}

/// No lock: a stale answer is served while one refresh runs.
pub const GUARD: Guard = Guard::Nothing;
