//! The emitter lock's herds, folded: a release emits, every listener
//! wakes, the first takes the lock and every other one finds it taken and
//! listens again. At 100,000 waiting requests that is 5 billion wake-ups,
//! each two trace events that differ only in their request. The trace
//! hash is a linear chain (`Trace::fold_cohort`), so a run that keeps no
//! events folds each herd in a few steps from the cohort of its requests:
//! the same hash, tally, listener order and slots as waking each one
//! (`tests/properties.rs` compares both ways step by step).
//!
//! Native builds only: the page's wasm must stay under its size budget
//! and bounds its work per call anyway, so there the stand-ins at the end
//! of this file never fold.

#[cfg(not(target_arch = "wasm32"))]
pub use native::Folding;
#[cfg(target_arch = "wasm32")]
pub use page::Folding;

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use std::collections::VecDeque;

    use rustc_hash::FxHashMap as HashMap;

    use crate::sim::core::{Core, Herd, Reply, SlotState, TaskId};
    use crate::sim::trace::{Cohort, Outcome, Site, TraceEvent, TraceKey, What};
    use crate::world::locks::SlotId;
    use crate::world::LockKey;

    #[derive(Default)]
    pub struct Folding {
        /// The requests of each emitter lock's listeners, per server and
        /// key, as the trace hash sees them (kept while herds fold).
        cohorts: HashMap<(u32, LockKey), Cohort>,
        /// The herd the running emit folded, until its listeners are back.
        folded: Option<FoldedHerd>,
    }

    /// An emit's herd, folded: every listener's wake-up is in the trace
    /// hash already; the first one's microtask is queued, and the others
    /// have yet to find the lock taken again and listen again.
    struct FoldedHerd {
        server: u32,
        key: LockKey,
        /// The first listener's task.
        first: TaskId,
        /// The other listeners, in order, and their requests.
        slots: VecDeque<SlotId>,
        cohort: Cohort,
        stage: FoldStage,
    }

    #[derive(Clone, Copy, PartialEq, Eq)]
    enum FoldStage {
        /// The first listener's microtask is the only one queued.
        FirstQueued,
        /// It is running: the others' microtasks come next.
        FirstRunning,
        /// The lock was held at the emit: every listener listened again
        /// at once, this many.
        AllRelistened(u64),
    }

    impl Core {
        /// A listener joined `key`'s list on `server`.
        #[inline]
        pub(in crate::sim::core) fn fold_listener(
            &mut self,
            server: u32,
            key: LockKey,
            request: TaskId,
        ) {
            if self.fold_herds {
                let cohorts = &mut self.fold.cohorts;
                cohorts.entry((server, key)).or_default().push(request);
            }
        }

        /// Whether a folded herd is on its way back to its list.
        #[inline(always)]
        pub(in crate::sim::core) fn herd_folded(&self) -> bool {
            self.fold.folded.is_some()
        }

        /// An event of an emitter lock's herd on `key`, for every request
        /// of a cohort (the request is the cohort's).
        fn herd_event(&self, what: What, key: LockKey) -> TraceEvent {
            TraceEvent {
                step: self.steps,
                time: self.now,
                request: 0,
                what,
                key: TraceKey::Lock(key.0),
                outcome: Outcome::None,
                site: Site::LockListen,
                detail: 0,
            }
        }

        /// `emit(key)` with its herd folded, if herds fold (else false:
        /// the caller wakes each listener). Every listener's wake-up goes
        /// into the trace hash at once; if the lock is held again (a
        /// request took it between the release and the emit), every
        /// listener finds it taken and listens again, at once too.
        /// Otherwise the first one's microtask runs as usual (it takes the
        /// lock), and [`Core::relisten_folded`] then has the others find
        /// it taken.
        pub(in crate::sim::core) fn fold_emit(&mut self, server: u32, key: LockKey) -> bool {
            if !self.fold_herds {
                return false;
            }
            let mut slots = self.servers[server as usize].emitter_emit(key);
            let cohorts = &mut self.fold.cohorts;
            let mut cohort = cohorts.remove(&(server, key)).unwrap_or_default();
            let Some(&first) = slots.front() else {
                return true;
            };
            self.trace
                .fold_cohort(&self.herd_event(What::Wake, key), &cohort);
            if self.servers[server as usize].emitter_held(key) {
                let herd = slots.len() as u64;
                self.trace
                    .fold_cohort(&self.herd_event(What::Listen, key), &cohort);
                self.tally.lock_wakeups += herd;
                *self.servers[server as usize].emitter_listeners(key) = slots;
                self.fold.cohorts.insert((server, key), cohort);
                self.fold.folded = Some(FoldedHerd {
                    server,
                    key,
                    first: 0,
                    slots: VecDeque::new(),
                    cohort: Cohort::default(),
                    stage: FoldStage::AllRelistened(herd),
                });
                return true;
            }
            slots.pop_front();
            let first_task = self.slot(first).request;
            cohort.pop_front(first_task);
            self.fire(first, Reply::Woke);
            self.fold.folded = Some(FoldedHerd {
                server,
                key,
                first: first_task,
                slots,
                cohort,
                stage: FoldStage::FirstQueued,
            });
            true
        }

        /// The rest of a folded herd, from the microtask loop: none while
        /// its first listener's microtask waits to run; once it ran and
        /// holds the lock, every other listener finds it taken and listens
        /// again, in order (their microtasks came before any the first one
        /// queued). Returns the microtasks so run. Should the first one
        /// not hold the lock, the others wake one by one instead.
        pub(in crate::sim::core) fn relisten_folded(&mut self) -> u64 {
            let micro = &self.micro;
            let herd = self.fold.folded.as_mut().expect("a folded herd");
            match herd.stage {
                FoldStage::AllRelistened(run) => {
                    self.fold.folded = None;
                    return run;
                }
                FoldStage::FirstQueued if micro.len() == 1 && micro[0] == herd.first => {
                    herd.stage = FoldStage::FirstRunning;
                    return 0;
                }
                FoldStage::FirstQueued => {
                    let at = micro.iter().position(|&task| task == herd.first);
                    self.unfold(at.map_or(0, |at| at + 1));
                    return 0;
                }
                FoldStage::FirstRunning => {}
            }
            let held = self.servers[herd.server as usize].emitter_held(herd.key);
            if !held {
                self.unfold(0);
                return self.relisten_herd();
            }
            let FoldedHerd {
                server,
                key,
                slots,
                cohort,
                ..
            } = self.fold.folded.take().expect("a folded herd");
            if slots.is_empty() {
                return 0;
            }
            let run = slots.len() as u64;
            self.trace
                .fold_cohort(&self.herd_event(What::Listen, key), &cohort);
            self.tally.lock_wakeups += run;
            let list = self.servers[server as usize].emitter_listeners(key);
            let listeners = self.fold.cohorts.entry((server, key)).or_default();
            if list.is_empty() {
                *list = slots;
                *listeners = cohort;
            } else {
                list.extend(slots);
                listeners.append(&cohort);
            }
            run
        }

        /// Wakes a folded herd's other listeners one by one after all:
        /// their microtasks go in at `at` (their wake-ups are in the hash
        /// already), and [`Core::relisten_herd`] takes them from there.
        /// Herds no longer fold in this run (the one-by-one path keeps no
        /// cohorts).
        fn unfold(&mut self, at: usize) {
            let herd = self.fold.folded.take().expect("a folded herd");
            self.fold_herds = false;
            let tail = self.micro.split_off(at.min(self.micro.len()));
            for &id in &herd.slots {
                let slot = self.slot(id);
                slot.state = SlotState::Resolved(Reply::Woke);
                let task = slot.request;
                self.micro.push_back(task);
            }
            self.micro.extend(tail);
            self.herd = Herd {
                server: herd.server,
                key: herd.key,
                slots: herd.slots,
                next: 0,
            };
        }
    }
}

/// The page's stand-ins: nothing folds.
#[cfg(target_arch = "wasm32")]
mod page {
    use crate::sim::core::{Core, TaskId};
    use crate::world::LockKey;

    #[derive(Default)]
    pub struct Folding {}

    impl Core {
        #[inline(always)]
        pub(in crate::sim::core) fn fold_listener(&mut self, _: u32, _: LockKey, _: TaskId) {}

        #[inline(always)]
        pub(in crate::sim::core) fn herd_folded(&self) -> bool {
            false
        }

        #[inline(always)]
        pub(in crate::sim::core) fn fold_emit(&mut self, _: u32, _: LockKey) -> bool {
            false
        }

        #[inline(always)]
        pub(in crate::sim::core) fn relisten_folded(&mut self) -> u64 {
            0
        }
    }
}
