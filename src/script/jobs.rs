//! The host-owned microtask queue of one realm. boa enqueues promise jobs
//! here; the run drains them after each macrotask, FIFO, interleaved with
//! the event loop's own microtasks (lock hand-offs), so microtasks run
//! exactly when the simulated event loop says.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::future::Future;
use std::rc::Rc;

use boa_engine::job::{Job, JobExecutor};
use boa_engine::{Context, JsResult};

use crate::sim::core::TaskId;

/// Each job remembers the request that was running when it was queued, so
/// the code it resumes is counted for that request (as Node's async
/// context follows a promise chain).
pub struct JobQueue {
    jobs: RefCell<VecDeque<(Job, TaskId)>>,
    current: RefCell<Rc<Cell<TaskId>>>,
}

impl JobQueue {
    pub fn new(current: Rc<Cell<TaskId>>) -> Self {
        JobQueue {
            jobs: RefCell::new(VecDeque::new()),
            current: RefCell::new(current),
        }
    }

    pub fn pop(&self) -> Option<(Job, TaskId)> {
        self.jobs.borrow_mut().pop_front()
    }

    pub fn is_empty(&self) -> bool {
        self.jobs.borrow().is_empty()
    }

    /// Drops every queued job (the run is over).
    pub fn clear(&self) {
        self.jobs.borrow_mut().clear();
    }

    /// Follows another run's running request (a realm reused).
    pub fn follow(&self, current: Rc<Cell<TaskId>>) {
        *self.current.borrow_mut() = current;
    }
}

/// Runs one job; an error escaping it (a promise job never lets one
/// escape; a runtime limit may) is returned.
pub fn run_job(job: Job, context: &mut Context) -> JsResult<()> {
    match job {
        Job::PromiseJob(job) => job.call(context).map(drop),
        Job::GenericJob(job) => job.call(context).map(drop),
        // The one async job a script can start is `import()`'s module load,
        // which the context's idle module loader refuses at once: polled
        // once, it rejects the import's promise.
        Job::AsyncJob(job) => {
            let context = RefCell::new(context);
            let mut load = job.call(&context);
            let mut waker = std::task::Context::from_waker(std::task::Waker::noop());
            match std::pin::Pin::new(&mut load).poll(&mut waker) {
                std::task::Poll::Ready(result) => result.map(drop),
                std::task::Poll::Pending => Ok(()),
            }
        }
        // The script cannot reach these: timers are the event loop's.
        _ => Ok(()),
    }
}

impl JobExecutor for JobQueue {
    fn enqueue_job(self: Rc<Self>, job: Job, _: &mut Context) {
        let request = self.current.borrow().get();
        self.jobs.borrow_mut().push_back((job, request));
    }

    /// Only used if the engine itself asks; the run drains jobs one by one.
    fn run_jobs(self: Rc<Self>, context: &mut Context) -> JsResult<()> {
        while let Some((job, request)) = self.pop() {
            self.current.borrow().set(request);
            run_job(job, context)?;
        }
        Ok(())
    }
}
