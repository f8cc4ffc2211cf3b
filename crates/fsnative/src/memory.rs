//! Giving freed memory back to the system once a burst of work is over.
//!
//! With the `mimalloc` feature, mimalloc returns the pages it no longer needs some time after
//! they are freed, and only while the process keeps allocating. An index that has just read a
//! tree then goes quiet: without a nudge, what its reading threads freed would stay resident
//! until the next search. Without the feature the host's allocator decides, and this is a no-op.

/// Returns the allocator's free pages to the system. Costs about what one small search does;
/// call it when a burst of work (a build, a batch of changes) has ended, not per request.
pub(crate) fn release_free_memory() {
    #[cfg(feature = "mimalloc")]
    {
        extern "C" {
            /// mimalloc's own: frees what the calling thread's heap no longer uses and, forced,
            /// purges the arenas' free ranges now rather than after their delay.
            fn mi_collect(force: bool);
        }
        // SAFETY: mimalloc is linked whenever the feature is on (it is the global allocator);
        // `mi_collect` takes no pointers and may be called from any thread at any time.
        unsafe { mi_collect(true) };
    }
}
