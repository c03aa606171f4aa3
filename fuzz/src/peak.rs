//! A global allocator that counts the bytes live on the Rust heap and the
//! most there were at once, so a target can check that what one input costs
//! is bounded by the input's size, with or without a sanitizer. (libFuzzer's
//! `-malloc_limit_mb` checks single allocations, and only in a sanitizer
//! build; `-rss_limit_mb` sees the whole process, seeds and corpus included.)
//!
//! A target installs it with
//! `#[global_allocator] static ALLOC: wow_guid_fuzz::peak::Counting = wow_guid_fuzz::peak::Counting;`
//! and runs the code an input drives through [`bounded`].

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// The system allocator, counting.
pub struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(bytes: usize) {
    let now = LIVE.fetch_add(bytes, Relaxed) + bytes;
    PEAK.fetch_max(now, Relaxed);
}

fn shrank(bytes: usize) {
    LIVE.fetch_sub(bytes, Relaxed);
}

// SAFETY: every call is passed to `System` unchanged; the counting only
// reads the sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) };
        shrank(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
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

/// Runs `f` and returns its result with the most bytes the Rust heap held
/// at once during the call beyond what it held when the call began (the
/// result's own memory included). Counts every thread's allocations: call
/// it where nothing else runs.
fn peak_during<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = LIVE.load(Relaxed);
    PEAK.store(base, Relaxed);
    let out = f();
    (out, PEAK.load(Relaxed).saturating_sub(base))
}

/// Runs `f`, the code one input of `len` bytes drives, and returns its
/// result; fails the input (panics, which libFuzzer reports as a crash)
/// when the heap held more than [`bound`] for `len` at once during the
/// call. Counts every thread's allocations: call it where nothing else runs.
pub fn bounded<T>(len: usize, f: impl FnOnce() -> T) -> T {
    let (out, peak) = peak_during(f);
    let bound = bound(len);
    assert!(
        peak <= bound,
        "{peak} bytes on the heap at once for a {len}-byte input (the bound is {bound})"
    );
    out
}

/// The most one input of `len` bytes may hold on the heap at once: a fixed
/// 2 MiB, then 1 KiB per input byte.
///
/// The fixed part is for the YAML parser's own cost of nesting, which grows
/// with the square of the depth for block sequences nested under a merge
/// key (`<<:` then `- - - ...`), and which the parser caps at 64 levels:
/// 1.3 MB at most, measured, from 130 bytes. The part per byte is for the
/// tree: the worst seen over the corpora of the long runs was about 440
/// bytes per input byte, from flow mappings nested in one another. Anything
/// that grows faster than the input (an alias of an alias of a list, a long
/// scalar repeated by aliases) passes the bound within a few kilobytes.
pub const fn bound(len: usize) -> usize {
    2 * 1024 * 1024 + 1024 * len
}
