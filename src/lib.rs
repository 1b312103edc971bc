//! Interleave: a deterministic simulation of async backends on a JavaScript-like
//! event loop, and the playground that draws it.

#[cfg(target_arch = "wasm32")]
pub mod app;
#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
pub mod debugger;
pub mod explain;
// The page's state (the debugger, explain and explore together), with no
// web dependency: the app draws it.
pub mod model;
// What the page knows of scripts without their engine (names, links).
#[cfg(not(target_arch = "wasm32"))]
pub mod real;
pub mod script_links;
pub mod story_links;
// The script engine (QuickJS-ng): native with `script` (default), and in
// the page's script worker (`script-wasm`); the page leaves it out.
#[cfg(scripts)]
pub mod script;
// The script worker's parsers: linked natively, modules of their own in
// the browser (src/script/modules.rs).
#[cfg(any(scripts, feature = "analysis"))]
pub mod analysis;
#[cfg(any(scripts, feature = "typescript", feature = "sql", feature = "analysis"))]
pub mod boundary;
#[cfg(any(scripts, feature = "typescript"))]
pub mod typescript;
// SQL as data, and its parser: linked natively, a module of its own in
// the browser.
#[cfg(any(scripts, feature = "sql"))]
pub mod sql;

// The engine, under the names the rest of the crate uses.
pub use engine::{config, explore, interned, order, run, scenario, sim, strategy, world, Config};

/// In the browser, talc instead of dlmalloc: about 2 KB less of the page's
/// budgeted wasm, and faster (the script engine allocates through it too).
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::cell::TalcSyncCell<wasm_memory::GrowByHalf, talc::wasm::WasmBinning> =
    talc::cell::TalcSyncCell::new_wasm(wasm_memory::GrowByHalf::new());

/// Where the allocator's memory comes from in the browser.
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
mod wasm_memory {
    use core::alloc::Layout;
    use core::arch::wasm32::{memory_grow, memory_size};
    use core::ptr::NonNull;

    use talc::base::binning::Binning;
    use talc::base::{Talc, CHUNK_UNIT};

    const PAGE: usize = 64 * 1024;

    /// talc's `WasmGrowAndExtend`, except that the memory grows by half
    /// its size at least, not by what one allocation needs. Reading a
    /// 20,000-request run's lanes (3.6 MB) grew the page's memory 72
    /// times in one task, and the browser's grows took 24 to 32 ms of it;
    /// by halves, a few grows do.
    #[derive(Debug)]
    pub struct GrowByHalf {
        end: Option<NonNull<u8>>,
    }

    impl GrowByHalf {
        pub const fn new() -> Self {
            GrowByHalf { end: None }
        }
    }

    // SAFETY: `acquire` neither allocates nor touches memory it does not
    // hand to `talc`: it grows the wasm memory and gives talc the new pages,
    // extending its heap when they follow it (as talc's own wasm sources do).
    unsafe impl talc::source::Source for GrowByHalf {
        fn acquire<B: Binning>(talc: &mut Talc<Self, B>, layout: Layout) -> Result<(), ()> {
            // Enough for the allocation with talc's chunk overhead and its
            // alignment, generously.
            let needed = layout.size() + layout.align() + 4 * CHUNK_UNIT;
            let needed = needed.div_ceil(PAGE);
            let wanted = needed.max(memory_size::<0>() / 2);
            // Near the memory's limit, only what is needed.
            let (previous, pages) = match memory_grow::<0>(wanted) {
                usize::MAX => match memory_grow::<0>(needed) {
                    usize::MAX => return Err(()),
                    previous => (previous, needed),
                },
                previous => (previous, wanted),
            };
            let base = (previous * PAGE) as *mut u8;
            let bytes = pages * PAGE;
            if let Some(old_end) = talc.source.end.take() {
                if old_end.as_ptr() == base {
                    // SAFETY: the new pages follow talc's heap, which ends at
                    // `old_end`; nothing else uses them.
                    talc.source.end =
                        Some(unsafe { talc.extend(old_end, base.wrapping_add(bytes)) });
                    return Ok(());
                }
            }
            // SAFETY: the pages were just grown; nothing else uses them.
            talc.source.end = unsafe { talc.claim(base, bytes) };
            Ok(())
        }
    }
}
pub use engine::{Metrics, Sim};
