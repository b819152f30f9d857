//! A counting global allocator for benchmarks (`sphincs bench` installs it to
//! report peak heap bytes per operation). It lives here, not in the CLI,
//! because implementing an allocator needs `unsafe` and this is the one
//! module where the project allows it. The library itself never installs it.
//!
//! ```ignore
//! #[global_allocator]
//! static HEAP: sphincs::hash::backend::CountingAllocator = sphincs::hash::backend::CountingAllocator;
//! ```
//!
//! Counting costs two relaxed atomic operations per allocation. The counters
//! are process-wide (every thread) and stay at zero unless the allocator is
//! installed.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

static IN_USE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

/// The system allocator, counting bytes in use and their peak.
pub struct CountingAllocator;

fn grew(bytes: usize) {
    let now = IN_USE.fetch_add(bytes, Relaxed) + bytes;
    PEAK.fetch_max(now, Relaxed);
}

fn shrank(bytes: usize) {
    IN_USE.fetch_sub(bytes, Relaxed);
}

// SAFETY: every method forwards to the system allocator with the caller's
// arguments unchanged and returns its result; the counters only observe.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller upholds `GlobalAlloc::alloc_zeroed`'s contract.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller upholds `GlobalAlloc::dealloc`'s contract.
        unsafe { System.dealloc(ptr, layout) };
        shrank(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller upholds `GlobalAlloc::realloc`'s contract.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                grew(new_size - layout.size());
            } else {
                shrank(layout.size() - new_size);
            }
        }
        p
    }
}

/// Heap bytes in use now (0 unless [`CountingAllocator`] is installed).
pub fn heap_in_use() -> usize {
    IN_USE.load(Relaxed)
}

/// The most heap bytes in use at once since the last [`reset_heap_peak`].
pub fn heap_peak() -> usize {
    PEAK.load(Relaxed)
}

/// Starts a new peak: sets it to the bytes in use now.
pub fn reset_heap_peak() {
    PEAK.store(IN_USE.load(Relaxed), Relaxed);
}
