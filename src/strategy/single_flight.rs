//! `single-flight`: the first caller for a key runs the work; callers that
//! come while it runs await its result (Go's singleflight `Do`). Nothing is
//! kept once it finishes. Per server, in process.
//!
//! ```js
//! async function singleflight(key, work) {
//!   if (flights.has(key)) return await flights.get(key);
//!   const call = work();
//!   flights.set(key, call);
//!   try { return await call; } finally { flights.delete(key); }
//! }
//! ```

use std::future::Future;

use crate::sim::{Ctx, Site};
use crate::world::LockKey;

/// Runs `work` as the leader, or waits for the running leader's result.
/// The leader's work is the critical section. `None`: the leader crashed
/// (`crash`), leaving its waiters waiting forever.
pub async fn run<F>(cx: &Ctx, key: LockKey, work: impl FnOnce() -> F) -> Option<u64>
where
    F: Future<Output = u64>,
{
    if let Some(shared) = cx.flight_join(key, Site::Flight) {
        return Some(shared.await);
    }
    cx.enter(key);
    if cx.crashes(key) {
        return None;
    }
    cx.pause_if_due().await;
    // Boxed: only the leader runs the work, once per flight, while every
    // request's future would otherwise be as big as the work's.
    let result = Box::pin(work()).await;
    cx.exit(key);
    cx.flight_finish(key, result);
    Some(result)
}
