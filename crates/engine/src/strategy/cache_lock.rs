//! What the two locks kept in the cache server (`get-set`, `add`) share:
//! their release and the frame of their listing. Their polling wait is
//! `sim::poll`'s.

use crate::code::Listing;
use crate::config::{Config, ReleaseMode};
use crate::sim::{Ops, Site};
use crate::world::{CacheKey, LockKey};

/// The release of both cache locks: an awaited, unconditional delete, or
/// with `release=owner` Redis's check-and-delete script in one round trip:
///
/// ```js
/// // if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end
/// await cache.deleteIfOwner(`lock:${key}`, token);
/// ```
pub async fn release<O: Ops>(cx: &O, key: LockKey) {
    let lock = CacheKey::Lock(key);
    match cx.config().release {
        ReleaseMode::Delete => {
            cx.cache_delete(lock, Site::LockDelete).await;
        }
        ReleaseMode::Owner => {
            let token = cx.token();
            cx.cache_delete_if_owner(lock, token, Site::LockDeleteIfOwner)
                .await;
        }
    }
}

/// The code pane's lines of a cache lock: its polling `acquire` around
/// `attempt` (the lines that try to take it once), and its release.
pub fn listing(code: &mut Listing, config: &Config, attempt: impl FnOnce(&mut Listing)) {
    code.line("");
    code.line("const lock = {");
    code.line("  async acquire(key) {");
    code.line("    const start = Date.now();");
    code.line("    for (;;) {");
    attempt(code);
    code.line("      if (Date.now() - start >= WAIT_TIMEOUT) return false;");
    code.at(Site::LockPoll, "      await sleep(POLL);");
    code.line("    }");
    code.line("  },");
    code.line("  async release(key) {");
    match config.release {
        ReleaseMode::Delete => code.at(Site::LockDelete, "    await cache.delete(`lock:${key}`);"),
        ReleaseMode::Owner => code.at(
            Site::LockDeleteIfOwner,
            "    await cache.deleteIfOwner(`lock:${key}`, token); // check-and-delete script",
        ),
    }
    code.line("  },");
    code.line("};");
}
