//! Which request a promise job runs as. Every server's realm runs many
//! requests' code in one engine, and a job belongs to the request whose
//! code registered it (its `await` or `then`), as an `await` keeps Node's
//! `AsyncLocalStorage`: a request that resolves a promise others await (an
//! in-process single-flight's map of promises) resumes each waiter as
//! itself, not as the resolver.
//!
//! The engine keeps, with every promise reaction, the request
//! [`Host::current`] named when it was registered, and names it again as
//! the reaction's job starts: the job context of
//! `patches/rquickjs-sys-0.14.0`, through its two hooks. The order of
//! jobs is the engine's own, unchanged. The context carries the
//! `AsyncLocalStorage` frame too ([`Host::frame`], in its upper 32 bits),
//! which an `await` keeps the same way.

use std::ffi::c_void;
use std::rc::Rc;

use rquickjs::{qjs, Ctx};

use crate::script::host::Host;
use crate::sim::core::TaskId;

unsafe extern "C" {
    /// `patches/rquickjs-sys-0.14.0/0001-job-context.patch`.
    fn JS_SetJobContextHooks(
        rt: *mut qjs::JSRuntime,
        get: Option<unsafe extern "C" fn(*mut c_void) -> i64>,
        set: Option<unsafe extern "C" fn(i64, *mut c_void)>,
        opaque: *mut c_void,
    );
}

/// The hooks' link to the run, installed in one realm's runtime: the
/// realm keeps it for as long as its runtime lives.
pub struct JobContext {
    host: Rc<Host>,
}

impl JobContext {
    /// Installs the hooks in `ctx`'s runtime.
    pub fn install(ctx: &Ctx<'_>, host: &Rc<Host>) -> JobContext {
        let context = JobContext { host: host.clone() };
        let opaque = Rc::as_ptr(&context.host) as *mut c_void;
        // SAFETY: the runtime is alive (`ctx` is in it), and `opaque` is
        // the run's `Host`, which the realm keeps alive beside its runtime
        // (this `JobContext`); the runtime only calls the hooks while a
        // promise is registered or a job runs, never after the realm is
        // gone.
        unsafe {
            let runtime = qjs::JS_GetRuntime(ctx.as_raw().as_ptr());
            JS_SetJobContextHooks(runtime, Some(current), Some(resume), opaque);
        }
        context
    }
}

/// The `get` hook: the request whose code is running, and its
/// `AsyncLocalStorage` frame above it.
unsafe extern "C" fn current(opaque: *mut c_void) -> i64 {
    // SAFETY: `opaque` is the `Host` of `JobContext::install`.
    let host = unsafe { &*(opaque as *const Host) };
    (u64::from(host.frame.get()) << 32 | u64::from(host.current.get())) as i64
}

/// The `set` hook: a job starts as the request that registered it (and,
/// in explore, touches that request's state).
unsafe extern "C" fn resume(context: i64, opaque: *mut c_void) {
    // SAFETY: as in `current`.
    let host = unsafe { &*(opaque as *const Host) };
    let context = context as u64;
    host.frame.set((context >> 32) as u32);
    host.run_as(context as TaskId);
}
