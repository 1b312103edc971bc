//! Patched (interleave): a heap budget for untrusted scripts.
//!
//! The embedder's global allocator reports every allocation and release of
//! its thread ([`allocated`], [`freed`]); the embedder sets a limit
//! ([`set_limit`]). The VM checks it where runaway code allocates: at every
//! loop iteration and call (with the loop and recursion budgets), in the
//! built-ins that fill arrays or build strings in a native loop, and before
//! building a string from its parts. Over the limit, the running code
//! stops with [`RuntimeLimitError::Heap`], uncatchable like the other
//! runtime limits, so a script cannot exhaust the process's memory (an
//! allocation failure aborts a Rust process, and kills a wasm module).
//!
//! Strings also get V8's maximum length, `2^29 - 24` code units: a longer
//! one is a catchable `RangeError: Invalid string length`, as in Node.

use std::cell::Cell;

use crate::error::RuntimeLimitError;
use crate::{JsNativeError, JsResult};

thread_local! {
    static IN_USE: Cell<isize> = const { Cell::new(0) };
    static LIMIT: Cell<isize> = const { Cell::new(isize::MAX) };
}

/// V8's maximum string length, in UTF-16 code units.
pub const MAX_STRING_LENGTH: usize = (1 << 29) - 24;

/// `bytes` were allocated on this thread (from a global allocator: it
/// must not allocate).
#[inline]
pub fn allocated(bytes: usize) {
    IN_USE.with(|in_use| in_use.set(in_use.get().wrapping_add(bytes as isize)));
}

/// `bytes` were released on this thread.
#[inline]
pub fn freed(bytes: usize) {
    IN_USE.with(|in_use| in_use.set(in_use.get().wrapping_sub(bytes as isize)));
}

/// The bytes in use on this thread, as reported (0 if nothing reports).
#[must_use]
pub fn in_use() -> usize {
    IN_USE.with(Cell::get).max(0) as usize
}

/// Code on this thread stops once more than `bytes` are in use.
pub fn set_limit(bytes: usize) {
    LIMIT.with(|limit| limit.set(isize::try_from(bytes).unwrap_or(isize::MAX)));
}

/// The heap budget: an error if `more` bytes would go over the limit.
#[inline]
pub(crate) fn check(more: usize) -> JsResult<()> {
    let in_use = IN_USE.with(Cell::get);
    let limit = LIMIT.with(Cell::get);
    if in_use.saturating_add(more as isize) > limit {
        return Err(RuntimeLimitError::Heap.into());
    }
    Ok(())
}

/// A string of `length` code units may be built.
pub(crate) fn check_string(length: usize) -> JsResult<()> {
    if length > MAX_STRING_LENGTH {
        return Err(JsNativeError::range()
            .with_message("Invalid string length")
            .into());
    }
    check(length.saturating_mul(2))
}
