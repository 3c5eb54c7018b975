//! Memory the search reads at random: the transposition table and the history tables are
//! larger than the caches, so a lookup often waits on main memory. Two remedies, both
//! hints that change no result: start loading an entry as soon as its address is known
//! ([`prefetch`]), and back the largest table with huge pages ([`advise_huge_pages`]).

/// Starts loading the cache line that holds `item`, without waiting for it.
#[inline(always)]
pub fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let address: *const T = item;
        // SAFETY: SSE, all this instruction needs, is part of every x86-64 CPU, and a
        // prefetch is only a hint: it reads nothing the program sees and cannot fault
        // (here the address is a live reference anyway).
        unsafe { _mm_prefetch::<_MM_HINT_T0>(address.cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}

/// Asks Linux to back `bytes` bytes from `start` with huge pages (2 MB instead of 4 KB),
/// for the transposition table.
///
/// Every probe lands on a random bucket, so with 4 KB pages nearly every probe also misses
/// the processor's page-address cache (the TLB covers a few megabytes) and waits for a
/// page-table walk on top of the memory access. Huge pages make the whole table a handful
/// of TLB entries. Where the system grants them only on request (transparent huge pages
/// in `madvise` mode, a common default) this is the request; elsewhere, or when it fails,
/// the table simply keeps normal pages.
pub fn advise_huge_pages(start: *mut u8, bytes: usize) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let begin = (start as usize).next_multiple_of(PAGE);
        let end = (start as usize + bytes) / PAGE * PAGE;
        if end > begin {
            // SAFETY: the range is whole pages inside the allocation the caller owns, and
            // MADV_HUGEPAGE changes only how the kernel backs them, never their contents
            // or whether they are mapped. Its result is ignored on purpose (see above).
            unsafe {
                libc::madvise(begin as *mut libc::c_void, end - begin, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, bytes);
}
