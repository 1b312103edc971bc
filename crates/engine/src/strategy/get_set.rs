//! `get-set`: a lock in the cache, checked by the client. Racy: two clients
//! can both see no lock before either `set` lands, and both enter.
//!
//! ```js
//! async function acquire(key) {
//!   const start = Date.now();
//!   for (;;) {
//!     if (!(await cache.get(`lock:${key}`))) {
//!       await cache.set(`lock:${key}`, token, LOCK_TTL);
//!       return true;
//!     }
//!     if (Date.now() - start >= WAIT_TIMEOUT) return false;
//!     await sleep(POLL);
//!   }
//! }
//! ```

use crate::sim::poll::Attempt;
use crate::sim::{Ops, Site};
use crate::world::{CacheKey, LockKey};

use super::Guard;
use crate::code::Listing;
use crate::config::Config;

/// Polls with `get` until the lock is absent (the loop is `sim::poll`'s),
/// then sets it.
pub async fn acquire<O: Ops>(cx: &O, key: LockKey) -> bool {
    if !cx.poll_lock(key, Attempt::Get).await {
        return false;
    }
    let ttl = cx.config().lock_ttl;
    cx.cache_set(CacheKey::Lock(key), cx.token(), ttl, Site::LockSet)
        .await;
    true
}

/// The lock's code, as the code pane shows it.
pub fn listing(code: &mut Listing, config: &Config) {
    super::cache_lock::listing(code, config, |code| {
        code.at(
            Site::LockGet,
            "      if (!(await cache.get(`lock:${key}`))) {",
        );
        code.at(
            Site::LockSet,
            "        await cache.set(`lock:${key}`, token, LOCK_TTL);",
        );
        code.line("        return true;");
        code.line("      }");
    });
}

/// A cache-server lock with a lease, taken by a read then a write.
pub const GUARD: Guard = Guard::CacheLock { split: true };
