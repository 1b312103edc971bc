//! The allocator side of the script engine's heap budget: wraps a global
//! allocator and reports every allocation and release of the thread to
//! `boa_engine::heap`, which stops a script that goes over its budget
//! (`HEAP_BUDGET` in run.rs) before the process runs out of memory.
//! The CLI and the script edition's wasm allocate through it.

use std::alloc::{GlobalAlloc, Layout};

use boa_engine::heap;

pub struct Metered<A>(pub A);

/// The script edition's allocator in the browser: talc (as the page's, in
/// src/lib.rs), metered for the script engine's heap budget.
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics"), scripts))]
#[global_allocator]
static ALLOCATOR: Metered<talc::wasm::WasmDynamicTalc> =
    Metered(talc::wasm::new_wasm_dynamic_allocator());

// SAFETY: every call is forwarded to the wrapped allocator unchanged; the
// reports only update a thread-local counter, which never allocates.
unsafe impl<A: GlobalAlloc> GlobalAlloc for Metered<A> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        reported(unsafe { self.0.alloc(layout) }, layout.size())
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        reported(unsafe { self.0.alloc_zeroed(layout) }, layout.size())
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        unsafe { self.0.dealloc(block, layout) };
        heap::freed(layout.size());
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let moved = unsafe { self.0.realloc(block, layout, new_size) };
        if !moved.is_null() {
            heap::allocated(new_size);
            heap::freed(layout.size());
        }
        moved
    }
}

/// Reports `size` bytes as allocated if `block` is one.
#[inline]
fn reported(block: *mut u8, size: usize) -> *mut u8 {
    if !block.is_null() {
        heap::allocated(size);
    }
    block
}
