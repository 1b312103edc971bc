//! Duplicate free tickets: a double click sends two requests that both find
//! no order and both insert one.
//!
//! ```js
//! async function participate(user, event) {
//!   if (!(await lock.acquire(`${user}:${event}`))) throw new Error("busy");
//!   try {
//!     const order = await db.findOrder(user, event);
//!     if (!order) {
//!       await db.insert(user, event); // AWAIT_INSERT=false drops this await
//!     }
//!   } finally {
//!     await lock.release(`${user}:${event}`);
//!   }
//! }
//! ```
//! With `tx` other than `none`, find and insert run in one transaction
//! (`docs/transactions.md`):
//!
//! ```js
//! for (let attempt = 0; ; attempt++) {
//!   await db.query("BEGIN ISOLATION LEVEL ...");  // sent with the next statement
//!   await db.query("SELECT 1 FROM users WHERE id = $1 FOR UPDATE"); // tx=for-update
//!   const order = await db.findOrder(user, event);
//!   if (!order) await db.insert(user, event);
//!   try { await db.query("COMMIT"); return; }
//!   catch (e) { if (e.code !== "40001" || attempt === TX_RETRIES) throw e; }
//! }
//! ```
//! Under single-flight the whole body is the shared work (its waiters share
//! the leader's success or failure). A refused insert (`db_unique`, fencing)
//! fails the request. Faults as in the stampede: `crash` stops right after
//! entering the section, `pause` sleeps there first.

use crate::config::{StrategyKind, TxMode};
use crate::sim::{Ops, Outcome, Site, Written};
use crate::strategy::{self, single_flight};
use crate::world::LockKey;

pub async fn participate<O: Ops>(cx: &O, user: u32) -> Outcome {
    let lock = LockKey(user);
    if cx.config().strategy == StrategyKind::SingleFlight {
        let shared = single_flight::run(cx, lock, || async {
            u64::from(place_order(cx, user).await)
        })
        .await;
        return match shared {
            Some(1) => Outcome::Ok,
            Some(_) => Outcome::Failed,
            None => Outcome::Crashed,
        };
    }
    if !strategy::acquire(cx, lock).await {
        return Outcome::Failed;
    }
    cx.enter(lock).await;
    if cx.crashes(lock) {
        return Outcome::Crashed;
    }
    cx.pause_if_due().await;
    let placed = place_order(cx, user).await;
    cx.exit(lock);
    strategy::release(cx, lock).await;
    if placed {
        Outcome::Ok
    } else {
        Outcome::Failed
    }
}

/// False if the DB refused the awaited insert (unique constraint, fencing)
/// or, in a transaction, its commit.
async fn place_order<O: Ops>(cx: &O, user: u32) -> bool {
    if cx.config().tx != TxMode::None {
        return place_order_in_transaction(cx, user).await;
    }
    if !cx.find_order(user, Site::FindOrder).await {
        let insert = cx.insert_order(user, Site::Insert);
        if cx.config().await_insert {
            return insert.await;
        }
        // The original bug: the write is sent but not awaited, so the
        // lock is released before it lands.
        drop(insert);
    }
    true
}

/// Find and insert in one transaction, retried from BEGIN after a
/// serialization failure up to `tx_retries` times. False if it failed.
async fn place_order_in_transaction<O: Ops>(cx: &O, user: u32) -> bool {
    let config = cx.config();
    for _ in 0..=config.tx_retries {
        cx.begin();
        if config.tx == TxMode::ForUpdate {
            cx.lock_row(user, Site::LockRow).await;
        }
        if !cx.find_order(user, Site::FindOrder).await {
            match cx.insert_in_transaction(user, Site::Insert).await {
                Written::Done => {}
                Written::SerializationFailure => continue,
                Written::Refused => return false,
            }
        }
        match cx.commit(user, Site::Commit).await {
            Written::Done => return true,
            Written::SerializationFailure => continue,
            Written::Refused => return false,
        }
    }
    false
}
