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

use super::Guard;
use crate::code::Listing;
use crate::sim::poll::Attempt;
use crate::sim::{Ops, Site};
use crate::world::LockKey;

/// Takes a ticket; if it is not served at once, polls at every tick until
/// it is (the loop is `sim::poll`'s).
pub async fn acquire<O: Ops>(cx: &O, key: LockKey) -> bool {
    let ticket = cx.take_ticket(key);
    if cx.check_ticket(key, ticket) {
        cx.yield_now().await;
        return true;
    }
    // The first check failed. A ticket abandoned by a wait that gave up
    // blocks later tickets until its lease runs out.
    let lock_ttl = cx.config().lock_ttl;
    cx.poll_lock(key, Attempt::Ticket { ticket, lock_ttl })
        .await
}

pub async fn release<O: Ops>(cx: &O, key: LockKey) {
    if let Some(ticket) = cx.ticket() {
        cx.release_ticket(key, ticket);
    }
}

/// The lock's code, as the code pane shows it.
pub fn listing(code: &mut Listing) {
    let lines = [
        "",
        "const tickets = new Map(); // per server: key -> { next, serving, servedSince }",
        "const lock = {",
        "  acquire(key) { // resolves to our ticket, or null if the wait gave up",
        "    const state = ticketsOf(key);",
        "    if (state.serving === state.next) state.servedSince = Date.now(); // free: our lease starts",
        "    const ticket = state.next++;",
        "    if (check(state, ticket)) return ticket;",
        "    const start = Date.now();",
        "    return new Promise((resolve) => {",
        "      const timer = setInterval(() => {",
    ];
    lines.into_iter().for_each(|line| code.line(line));
    code.at(
        Site::LockTick,
        "        if (check(state, ticket)) { clearInterval(timer); resolve(ticket); }",
    );
    let lines = [
        "        else if (Date.now() - start >= WAIT_TIMEOUT) { clearInterval(timer); resolve(null); }",
        "      }, POLL);",
        "    });",
        "  },",
        "  release(key, ticket) { // only if our ticket is still served",
        "    const state = ticketsOf(key);",
        "    if (state.serving === ticket) advance(state);",
        "  },",
        "};",
        "function ticketsOf(key) {",
        "  if (!tickets.has(key)) tickets.set(key, { next: 0, serving: 0, servedSince: 0 });",
        "  return tickets.get(key);",
        "}",
        "function check(state, ticket) {",
        "  if (state.serving < state.next && Date.now() - state.servedSince >= LOCK_TTL)",
        "    advance(state); // the lease ran out: skip the held ticket",
        "  return state.serving === ticket;",
        "}",
        "function advance(state) {",
        "  state.serving++;",
        "  state.servedSince = Date.now();",
        "}",
    ];
    lines.into_iter().for_each(|line| code.line(line));
}

/// A lock in each server's memory whose served ticket is skipped once
/// held `lock_ttl`.
pub const GUARD: Guard = Guard::InProcess {
    noun: "ticket lock",
    lease: true,
};
