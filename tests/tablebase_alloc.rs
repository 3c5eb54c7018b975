//! A tablebase probe inside the search must not allocate (allocation takes locks and
//! time, and the search probes at many nodes). This test binary counts every allocation
//! with its own global allocator and probes all of `probes.epd` with none counted.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use tarpon::chess::Position;
use tarpon::tablebase;

/// The system allocator, counting allocations while `COUNTING` is on.
struct Counting;

static COUNTING: AtomicBool = AtomicBool::new(false);
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed unchanged to the system allocator, which upholds the
// `GlobalAlloc` contract; the counter is only an atomic increment. (`unsafe` is needed
// because implementing `GlobalAlloc` is unsafe by definition; test code only.)
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: forwarded with the caller's layout (see above).
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout (see above).
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn wdl_probes_do_not_allocate() {
    let dir = common::syzygy_dir();
    let (tables, notes) = tablebase::load(&dir);
    let tables = tables.unwrap_or_else(|| panic!("{notes:?}"));
    let positions: Vec<Position> = common::tablebase_probes(&dir)
        .iter()
        .map(|p| Position::from_fen(&p.fen, false).expect("a valid FEN"))
        .collect();
    // Loading opened every table (opening allocates); the search's probes come after.
    COUNTING.store(true, Ordering::Relaxed);
    let answered = positions
        .iter()
        .filter(|pos| tables.probe_wdl(pos).is_ok())
        .count();
    COUNTING.store(false, Ordering::Relaxed);
    assert_eq!(answered, positions.len());
    assert_eq!(ALLOCATIONS.load(Ordering::Relaxed), 0);
    // The counter does count: one small vector is one allocation.
    COUNTING.store(true, Ordering::Relaxed);
    drop(std::hint::black_box(vec![0u8; 10]));
    COUNTING.store(false, Ordering::Relaxed);
    assert_eq!(ALLOCATIONS.load(Ordering::Relaxed), 1);
}
