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

use std::future::Future;

use crate::code::Listing;
use crate::config::{Config, StrategyKind};
use crate::sim::Ops;
use crate::world::LockKey;

/// Enters the lock on `key`: true once held, false if the wait gave up.
///
/// The waiting loops of the polling and emitter locks are boxed: a
/// request's future is as large as its largest await, so unboxed they
/// would grow every request's future, whatever the strategy, by a third.
/// (A function returning an `async move` block, as `release` is: see
/// `scenario::stampede::get_item`.)
#[allow(
    clippy::manual_async_fn,
    reason = "an async fn keeps its parameters twice"
)]
pub fn acquire<O: Ops>(cx: &O, key: LockKey) -> impl Future<Output = bool> + '_ {
    async move {
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
}

/// Releases the lock on `key` (the caller has already left the section).
#[allow(
    clippy::manual_async_fn,
    reason = "an async fn keeps its parameters twice"
)]
pub fn release<O: Ops>(cx: &O, key: LockKey) -> impl Future<Output = ()> + '_ {
    async move {
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
}

/// Adds the lock's own code to the code pane's listing (nothing for the
/// strategies that take no lock or share a call instead).
pub fn listing(code: &mut Listing, config: &Config) {
    match config.strategy {
        StrategyKind::None
        | StrategyKind::SingleFlight
        | StrategyKind::StaleWhileRevalidate
        | StrategyKind::Xfetch => {}
        StrategyKind::GetSet => get_set::listing(code, config),
        StrategyKind::Add => add::listing(code, config),
        StrategyKind::KeyedMutex => keyed_mutex::listing(code),
        StrategyKind::EmitterLock => emitter_lock::listing(code),
        StrategyKind::TicketLock => ticket_lock::listing(code),
    }
}

/// What keeps a second request out of a strategy's critical section,
/// and what can let it in: the facts `explain` words its stories from.
/// Each strategy's file says its own (`GUARD`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Guard {
    /// Nothing: the section is only measured.
    Nothing,
    /// A lock kept in the cache server, shared by every app server, with
    /// a lease (`lock_ttl`) that can run out while its holder is inside.
    /// `split`: taken by a read and then a write, between which another
    /// client's read can land.
    CacheLock { split: bool },
    /// A lock in each app server's memory (`noun` names it): requests on
    /// different servers do not exclude each other. `lease`: a holder is
    /// skipped once it has held the lock `lock_ttl`.
    InProcess { noun: &'static str, lease: bool },
    /// One server's running call is shared by the requests that come
    /// while it runs; a request after it finished starts its own, and
    /// other servers run their own.
    SharedCall,
}

impl Guard {
    /// Whether a holder's lease (`lock_ttl`) can run out while it is inside.
    pub fn has_lease(self) -> bool {
        matches!(
            self,
            Guard::CacheLock { .. } | Guard::InProcess { lease: true, .. }
        )
    }

    /// Whether it lives in each app server's memory.
    pub fn per_server(self) -> bool {
        matches!(self, Guard::InProcess { .. } | Guard::SharedCall)
    }
}

/// The strategy's [`Guard`].
pub fn guard(strategy: StrategyKind) -> Guard {
    match strategy {
        StrategyKind::None => none::GUARD,
        StrategyKind::GetSet => get_set::GUARD,
        StrategyKind::Add => add::GUARD,
        StrategyKind::KeyedMutex => keyed_mutex::GUARD,
        StrategyKind::SingleFlight => single_flight::GUARD,
        StrategyKind::EmitterLock => emitter_lock::GUARD,
        StrategyKind::TicketLock => ticket_lock::GUARD,
        StrategyKind::StaleWhileRevalidate => stale_while_revalidate::GUARD,
        StrategyKind::Xfetch => xfetch::GUARD,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A lock strategy's guard is a lock (in the cache or in process);
    /// the others take none or share a call.
    #[test]
    fn guards_agree_with_the_kinds_of_strategy() {
        for strategy in StrategyKind::ALL {
            let guard = guard(strategy);
            let lock = matches!(guard, Guard::CacheLock { .. } | Guard::InProcess { .. });
            assert_eq!(lock, strategy.is_lock(), "{strategy:?}");
            assert_eq!(
                guard == Guard::Nothing,
                strategy == StrategyKind::None || strategy.is_cache_only(),
                "{strategy:?}"
            );
        }
        assert!(guard(StrategyKind::TicketLock).has_lease());
        assert!(!guard(StrategyKind::KeyedMutex).has_lease());
        assert!(guard(StrategyKind::SingleFlight).per_server());
        assert!(!guard(StrategyKind::Add).per_server());
    }
}
