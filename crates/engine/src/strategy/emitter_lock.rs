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

use super::Guard;
use crate::code::Listing;
use crate::sim::{Ops, Site};
use crate::world::LockKey;

pub async fn acquire<O: Ops>(cx: &O, key: LockKey) -> bool {
    cx.emitter_lock(key, Site::Acquire).await;
    true
}

pub async fn release<O: Ops>(cx: &O, key: LockKey) {
    cx.emitter_unlock(key);
}

/// The lock's code, as the code pane shows it.
pub fn listing(code: &mut Listing) {
    code.line("");
    code.line("const locked = new Set(), emitter = new EventEmitter(); // per server");
    code.line("const lock = {");
    code.line("  async acquire(key) {");
    code.line("    while (locked.has(key)) {");
    code.at(
        Site::LockListen,
        "      await new Promise((wake) => emitter.once(key, wake));",
    );
    code.line("    }");
    code.line("    locked.add(key);");
    code.line("    return true;");
    code.line("  },");
    code.line("  release(key) {");
    code.line("    locked.delete(key);");
    code.line("    setImmediate(() => emitter.emit(key)); // wakes every waiter");
    code.line("  },");
    code.line("};");
}

/// A lock in each server's memory, without a lease.
pub const GUARD: Guard = Guard::InProcess {
    noun: "emitter lock",
    lease: false,
};
