//! `keyed-mutex`: a FIFO async mutex per key, in each server's memory (like
//! async-mutex). Release hands the lock straight to the oldest waiter, who
//! resumes as a microtask; no waiter ever wakes to find it taken.

use super::Guard;
use crate::code::Listing;
use crate::sim::{Ops, Site};
use crate::world::LockKey;

pub async fn acquire<O: Ops>(cx: &O, key: LockKey) -> bool {
    cx.mutex_lock(key, Site::Acquire).await;
    true
}

pub async fn release<O: Ops>(cx: &O, key: LockKey) {
    cx.mutex_unlock(key);
}

/// The lock's code, as the code pane shows it.
pub fn listing(code: &mut Listing) {
    code.line("");
    code.line("const lock = new KeyedMutex(); // FIFO async mutex per key, per server");
}

/// A mutex in each server's memory, without a lease.
pub const GUARD: Guard = Guard::InProcess {
    noun: "mutex",
    lease: false,
};
