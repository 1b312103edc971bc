//! The split points' calls. In the page's script worker (feature
//! `engine-split`), `scripts/build-workers.sh` splits the code that only a
//! `wasm_split_helpers::wasm_split` function reaches into a module of its
//! own, which the worker loads before its model opens
//! (`crate::debugger::program::engine::load`): a call of a split function
//! finds its module loaded and completes at once ([`loaded`]). Elsewhere
//! (natively, and in the wasm tests) split functions are plain calls.

/// A split function's result: an error if its module did not load.
#[cfg(feature = "engine-split")]
pub type Loaded<T> = Result<T, wasm_split_helpers::SplitLoaderError>;
/// A split function's result: an error if its module did not load.
#[cfg(not(feature = "engine-split"))]
pub type Loaded<T> = Result<T, std::convert::Infallible>;

/// A split function's result, its module loaded.
#[cfg(feature = "engine-split")]
pub fn loaded<T>(call: impl std::future::Future<Output = Loaded<T>>) -> T {
    use std::task::{Context, Poll, Waker};
    let mut call = std::pin::pin!(call);
    match call.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(Ok(value)) => value,
        _ => panic!("the JavaScript engine's modules are not loaded"),
    }
}

/// A split function's result, its module loaded.
#[cfg(not(feature = "engine-split"))]
pub fn loaded<T>(value: Loaded<T>) -> T {
    match value {
        Ok(value) => value,
    }
}
