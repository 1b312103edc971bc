//! A server's heap budget: the engine allocates through [`Budgeted`],
//! which counts what it holds and refuses what would go over the budget.
//! The engine then throws, and the run sees [`Meter::exhausted`] and fails
//! the running request with the budget's message, even when the engine
//! has no memory left to run its own error handling.

use std::cell::Cell;
use std::rc::Rc;

use rquickjs::allocator::{Allocator, RustAllocator};

/// What one server's engine holds, and whether it was refused memory.
pub struct Meter {
    used: Cell<usize>,
    budget: usize,
    exhausted: Cell<bool>,
}

impl Meter {
    pub fn new(budget: usize) -> Rc<Meter> {
        Rc::new(Meter {
            used: Cell::new(0),
            budget,
            exhausted: Cell::new(false),
        })
    }

    /// Whether an allocation was refused since the last call.
    pub fn exhausted(&self) -> bool {
        self.exhausted.replace(false)
    }

    /// Room for `more` bytes beyond `less` given back.
    fn admits(&self, more: usize, less: usize) -> bool {
        let fits = self.used.get() - less + more <= self.budget;
        if !fits {
            self.exhausted.set(true);
        }
        fits
    }

    fn track(&self, ptr: *mut u8, less: usize) -> *mut u8 {
        if !ptr.is_null() {
            // SAFETY: `ptr` was just returned by `RustAllocator`.
            let size = unsafe { RustAllocator::usable_size(ptr) };
            self.used.set(self.used.get() - less + size);
        }
        ptr
    }
}

/// The Rust allocator, counted against a [`Meter`].
pub struct Budgeted(pub Rc<Meter>);

// SAFETY: every call is forwarded to `RustAllocator` unchanged or refused
// with a null pointer, as the trait allows; the meter only counts.
unsafe impl Allocator for Budgeted {
    fn alloc(&mut self, size: usize) -> *mut u8 {
        if !self.0.admits(size, 0) {
            return std::ptr::null_mut();
        }
        let ptr = RustAllocator.alloc(size);
        self.0.track(ptr, 0)
    }

    fn calloc(&mut self, count: usize, size: usize) -> *mut u8 {
        if !self.0.admits(count.saturating_mul(size), 0) {
            return std::ptr::null_mut();
        }
        let ptr = RustAllocator.calloc(count, size);
        self.0.track(ptr, 0)
    }

    unsafe fn dealloc(&mut self, ptr: *mut u8) {
        let size = unsafe { RustAllocator::usable_size(ptr) };
        self.0.used.set(self.0.used.get() - size);
        unsafe { RustAllocator.dealloc(ptr) }
    }

    unsafe fn realloc(&mut self, ptr: *mut u8, new_size: usize) -> *mut u8 {
        if ptr.is_null() {
            return self.alloc(new_size);
        }
        if new_size == 0 {
            unsafe { self.dealloc(ptr) };
            return std::ptr::null_mut();
        }
        let old = unsafe { RustAllocator::usable_size(ptr) };
        if new_size > old && !self.0.admits(new_size, old) {
            return std::ptr::null_mut();
        }
        let moved = unsafe { RustAllocator.realloc(ptr, new_size) };
        if moved.is_null() {
            return moved;
        }
        self.0.track(moved, old)
    }

    unsafe fn usable_size(ptr: *mut u8) -> usize {
        unsafe { RustAllocator::usable_size(ptr) }
    }
}
