//! The simulated world: a memcached-like cache, a database with its
//! transactions, and the
//! in-process lock tables of each app server. Plain data, no scheduling.

pub mod cache;
pub mod db;
pub mod locks;
pub mod transactions;

pub use cache::{Cache, CacheKey, Lookup};
pub use db::Db;
pub use locks::ServerLocks;

/// What a lock guards: a stampede item key, or a ticket's `user:event`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LockKey(pub u32);
