//! `ticket-lock`: an in-process polling ticket lock with a lease, as in the
//! original story. Each caller takes a ticket and checks every `poll`
//! (setInterval) whether its number is served. A ticket served for
//! `lock_ttl` or longer is skipped by the next check (its holder may still
//! be running), and release advances the counter only for the caller's own
//! ticket.
//!
//! ```js
//! async function acquire(key) {
//!   const ticket = take(key); // next[key]++
//!   if (check(key, ticket)) return ticket;
//!   const start = Date.now();
//!   return new Promise((resolve, reject) => {
//!     const timer = setInterval(() => {
//!       if (check(key, ticket)) { clearInterval(timer); resolve(ticket); }
//!       else if (Date.now() - start >= WAIT_TIMEOUT) { clearInterval(timer); reject(); }
//!     }, POLL); // (a first failed check at `start` also gives up when WAIT_TIMEOUT is 0)
//!   });
//! }
//! function check(key, ticket) {
//!   if (held(key) && Date.now() - servedSince[key] >= LOCK_TTL) advance(key); // lease
//!   return serving[key] === ticket;
//! }
//! function release(key, ticket) { if (serving[key] === ticket) advance(key); }
//! ```

use crate::sim::{Ctx, Site};
use crate::world::LockKey;

pub async fn acquire(cx: &Ctx, key: LockKey) -> bool {
    let ticket = cx.take_ticket(key);
    if cx.check_ticket(key, ticket) {
        cx.yield_now().await;
        return true;
    }
    let start = cx.now();
    loop {
        // The last check failed.
        cx.lock_wakeup();
        if cx.now() - start >= cx.config().wait_timeout {
            // The ticket is abandoned: it blocks later tickets until its
            // lease runs out.
            cx.give_up(key);
            return false;
        }
        cx.sleep(cx.config().poll, Site::LockTick).await;
        if cx.check_ticket(key, ticket) {
            return true;
        }
    }
}

pub async fn release(cx: &Ctx, key: LockKey) {
    if let Some(ticket) = cx.ticket() {
        cx.release_ticket(key, ticket);
    }
}
