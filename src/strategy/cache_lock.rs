//! What the two locks kept in the cache server (`get-set`, `add`) share:
//! the polling wait and the release.

use crate::scenario::config::Micros;
use crate::sim::{Ctx, Site};
use crate::world::{CacheKey, LockKey};

/// After an attempt that found the lock held: counts the failed attempt,
/// and gives up once `wait_timeout` has passed since the first attempt.
pub fn keep_waiting(cx: &Ctx, key: LockKey, start: Micros) -> bool {
    cx.lock_wakeup();
    if cx.now() - start >= cx.config().wait_timeout {
        cx.give_up(key);
        return false;
    }
    true
}

/// The release of both cache locks: an awaited, unconditional delete.
pub async fn release(cx: &Ctx, key: LockKey) {
    cx.cache_delete(CacheKey::Lock(key), Site::LockDelete).await;
}
