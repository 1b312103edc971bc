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
//! Under single-flight the whole body is the shared work.

use crate::scenario::config::StrategyKind;
use crate::sim::{Ctx, Outcome, Site};
use crate::strategy::{self, single_flight};
use crate::world::LockKey;

pub async fn participate(cx: Ctx, user: u32) -> Outcome {
    let lock = LockKey(user);
    if cx.config().strategy == StrategyKind::SingleFlight {
        single_flight::run(&cx, lock, || async {
            place_order(&cx, user).await;
            0
        })
        .await;
        return Outcome::Ok;
    }
    if !strategy::acquire(&cx, lock).await {
        return Outcome::Failed;
    }
    cx.enter(lock);
    place_order(&cx, user).await;
    cx.exit(lock);
    strategy::release(&cx, lock).await;
    Outcome::Ok
}

async fn place_order(cx: &Ctx, user: u32) {
    if !cx.find_order(user, Site::FindOrder).await {
        let insert = cx.insert_order(user, Site::Insert);
        if cx.config().await_insert {
            insert.await;
        } else {
            // The original bug: the write is sent but not awaited, so the
            // lock is released before it lands.
            drop(insert);
        }
    }
}
