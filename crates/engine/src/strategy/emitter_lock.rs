//! `emitter-lock`: an in-process keyed lock built on an EventEmitter, as in
//! the original story. Release frees the key and emits on the next
//! macrotask; every waiter wakes, one wins, the rest listen again (a
//! thundering herd, counted in `lock_wakeups`).
//!
//! ```js
//! const locked = new Set();
//! const emitter = new EventEmitter();
//! async function acquire(key) {
//!   while (locked.has(key)) {
//!     await new Promise((resolve) => emitter.once(key, resolve));
//!   }
//!   locked.add(key);
//! }
//! function release(key) {
//!   locked.delete(key);
//!   setImmediate(() => emitter.emit(key));
//! }
//! ```

use crate::sim::{Ctx, Site};
use crate::world::LockKey;

pub async fn acquire(cx: &Ctx, key: LockKey) -> bool {
    cx.emitter_lock(key, Site::Acquire).await;
    true
}

pub async fn release(cx: &Ctx, key: LockKey) {
    cx.emitter_unlock(key);
}
