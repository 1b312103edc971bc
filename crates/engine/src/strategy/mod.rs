//! Lock strategies, one per file. Lock strategies guard a critical section
//! with `acquire`/`release`; single-flight instead shares one call's result;
//! stale-while-revalidate and xfetch are stampede defences without a lock
//! (in the ticket scenario they take no lock, like `none`).

pub mod add;
pub mod cache_lock;
pub mod emitter_lock;
pub mod get_set;
pub mod keyed_mutex;
pub mod none;
pub mod single_flight;
pub mod stale_while_revalidate;
pub mod ticket_lock;
pub mod xfetch;

use crate::config::StrategyKind;
use crate::sim::Ctx;
use crate::world::LockKey;

/// Enters the lock on `key`: true once held, false if the wait gave up.
///
/// The waiting loops of the polling and emitter locks are boxed: a
/// request's future is as large as its largest await, so unboxed they
/// would grow every request's future, whatever the strategy, by a third.
pub async fn acquire(cx: &Ctx, key: LockKey) -> bool {
    match cx.config().strategy {
        StrategyKind::None
        | StrategyKind::SingleFlight
        | StrategyKind::StaleWhileRevalidate
        | StrategyKind::Xfetch => none::acquire(cx, key).await,
        StrategyKind::GetSet => Box::pin(get_set::acquire(cx, key)).await,
        StrategyKind::Add => Box::pin(add::acquire(cx, key)).await,
        StrategyKind::KeyedMutex => keyed_mutex::acquire(cx, key).await,
        StrategyKind::EmitterLock => Box::pin(emitter_lock::acquire(cx, key)).await,
        StrategyKind::TicketLock => Box::pin(ticket_lock::acquire(cx, key)).await,
    }
}

/// Releases the lock on `key` (the caller has already left the section).
pub async fn release(cx: &Ctx, key: LockKey) {
    match cx.config().strategy {
        StrategyKind::None
        | StrategyKind::SingleFlight
        | StrategyKind::StaleWhileRevalidate
        | StrategyKind::Xfetch => none::release(cx, key).await,
        StrategyKind::GetSet | StrategyKind::Add => cache_lock::release(cx, key).await,
        StrategyKind::KeyedMutex => keyed_mutex::release(cx, key).await,
        StrategyKind::EmitterLock => emitter_lock::release(cx, key).await,
        StrategyKind::TicketLock => ticket_lock::release(cx, key).await,
    }
}
