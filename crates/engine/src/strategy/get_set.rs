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

use crate::sim::{Ctx, Site};
use crate::world::{CacheKey, LockKey, Lookup};

use super::cache_lock::keep_waiting;
use super::Guard;
use crate::code::Listing;
use crate::config::Config;

pub async fn acquire(cx: &Ctx, key: LockKey) -> bool {
    let lock = CacheKey::Lock(key);
    let start = cx.now();
    loop {
        if cx.cache_get(lock, Site::LockGet).await == Lookup::Miss {
            let ttl = cx.config().lock_ttl;
            cx.cache_set(lock, cx.token(), ttl, Site::LockSet).await;
            return true;
        }
        if !keep_waiting(cx, key, start) {
            return false;
        }
        cx.sleep(cx.config().poll, Site::LockPoll).await;
    }
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
