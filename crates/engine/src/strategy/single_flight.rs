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
use std::pin::Pin;
use std::task::{Context, Poll};

use super::Guard;
use crate::sim::{Ops, Site};
use crate::world::LockKey;

/// Runs `work` as the leader, or waits for the running leader's result.
/// The leader's work is the critical section. `None`: the leader crashed
/// (`crash`), leaving its waiters waiting forever.
///
/// Joining happens at the call, as `flights.get(key)` does; the leader's
/// part is boxed, once per flight, so the future every joiner carries is
/// only as big as its wait.
pub fn run<'a, O: Ops, F>(
    cx: &'a O,
    key: LockKey,
    work: impl FnOnce() -> F + 'a,
) -> Flight<impl Future<Output = u64> + Unpin + 'a, impl Future<Output = Option<u64>> + 'a>
where
    F: Future<Output = u64> + 'a,
{
    match cx.flight_join(key, Site::Flight) {
        Some(shared) => Flight::Join(shared),
        None => Flight::Lead(Box::pin(lead(cx, key, work))),
    }
}

async fn lead<O: Ops, F>(cx: &O, key: LockKey, work: impl FnOnce() -> F) -> Option<u64>
where
    F: Future<Output = u64>,
{
    cx.enter(key).await;
    if cx.crashes(key) {
        return None;
    }
    cx.pause_if_due().await;
    let result = work().await;
    cx.exit(key);
    cx.flight_finish(key, result);
    Some(result)
}

/// `run`'s future: a joiner's wait for the shared result, or the leader.
pub enum Flight<J, L> {
    Join(J),
    Lead(Pin<Box<L>>),
}

impl<J: Future<Output = u64> + Unpin, L: Future<Output = Option<u64>>> Future for Flight<J, L> {
    type Output = Option<u64>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<u64>> {
        match self.get_mut() {
            Flight::Join(shared) => Pin::new(shared).poll(cx).map(Some),
            Flight::Lead(leader) => leader.as_mut().poll(cx),
        }
    }
}

/// A call shared within one server, not a lock.
pub const GUARD: Guard = Guard::SharedCall;
