//! `add`: a lock in the cache server, taken with memcached's atomic `add`
//! and a TTL (a lease). Released, like `get-set`, by an unconditional delete.
//!
//! ```js
//! async function acquire(key) {
//!   const start = Date.now();
//!   for (;;) {
//!     if (await cache.add(`lock:${key}`, token, LOCK_TTL)) return true;
//!     if (Date.now() - start >= WAIT_TIMEOUT) return false;
//!     await sleep(POLL);
//!   }
//! }
//! async function release(key) { await cache.delete(`lock:${key}`); }
//! ```

use crate::sim::poll::Attempt;
use crate::sim::{Ops, Site};
use crate::world::LockKey;

use super::Guard;
use crate::code::Listing;
use crate::config::Config;

/// Polls with `add` until it stores (the loop is `sim::poll`'s).
pub async fn acquire<O: Ops>(cx: &O, key: LockKey) -> bool {
    let attempt = Attempt::Add {
        token: cx.token(),
        lock_ttl: cx.config().lock_ttl,
    };
    cx.poll_lock(key, attempt).await
}

/// The lock's code, as the code pane shows it.
pub fn listing(code: &mut Listing, config: &Config) {
    super::cache_lock::listing(code, config, |code| {
        code.at(
            Site::LockAdd,
            "      if (await cache.add(`lock:${key}`, token, LOCK_TTL)) return true;",
        )
    });
}

/// A cache-server lock with a lease, taken atomically.
pub const GUARD: Guard = Guard::CacheLock { split: false };
