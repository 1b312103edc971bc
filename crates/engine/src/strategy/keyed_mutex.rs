//! `keyed-mutex`: a FIFO async mutex per key, in each server's memory (like
//! async-mutex). Release hands the lock straight to the oldest waiter, who
//! resumes as a microtask; no waiter ever wakes to find it taken.

use crate::sim::{Ctx, Site};
use crate::world::LockKey;

pub async fn acquire(cx: &Ctx, key: LockKey) -> bool {
    cx.mutex_lock(key, Site::Acquire).await;
    true
}

pub async fn release(cx: &Ctx, key: LockKey) {
    cx.mutex_unlock(key);
}
