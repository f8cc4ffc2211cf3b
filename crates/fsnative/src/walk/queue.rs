//! The shared queue of directories that several threads list at once.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};

use super::entry::Listed;

/// Directories (`D`) waiting to be listed by the threads of `Walker::run_all`, how many are
/// being listed, and the finished listings, whose entries are made into items `T`.
pub(super) struct ListQueue<T, D> {
    /// Waiting directories with the number their listing is filed under, and the number of
    /// directories being listed.
    state: Mutex<(Vec<(usize, D)>, usize)>,
    changed: Condvar,
    /// The next listing number.
    next_id: AtomicUsize,
    listings: Mutex<HashMap<usize, Vec<Listed<T, usize>>>>,
}

impl<T, D> ListQueue<T, D> {
    pub(super) fn new(root: D) -> ListQueue<T, D> {
        ListQueue {
            state: Mutex::new((vec![(0, root)], 0)),
            changed: Condvar::new(),
            next_id: AtomicUsize::new(1),
            listings: Mutex::new(HashMap::new()),
        }
    }

    fn lock(&self) -> MutexGuard<'_, (Vec<(usize, D)>, usize)> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The next directory to list, waiting while others are being listed; `None` once the
    /// whole tree is listed.
    pub(super) fn pop(&self) -> Option<(usize, D)> {
        let mut state = self.lock();
        loop {
            if let Some(item) = state.0.pop() {
                state.1 += 1;
                return Some(item);
            }
            if state.1 == 0 {
                return None;
            }
            state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Files the listing `id`, each entry made into an item by `prepare`, and queues its
    /// sub-directories.
    pub(super) fn finish<W>(&self, id: usize, listing: Vec<Listed<W, D>>, prepare: impl Fn(W) -> Option<T>) {
        let mut subdirs = Vec::new();
        let listing = listing
            .into_iter()
            .map(|child| Listed {
                item: child.item.and_then(&prepare),
                descend: child.descend.map(|dir| {
                    let id = self.next_id.fetch_add(1, Ordering::Relaxed);
                    subdirs.push((id, dir));
                    id
                }),
            })
            .collect();
        self.listings.lock().unwrap_or_else(|e| e.into_inner()).insert(id, listing);
        let mut state = self.lock();
        // Last first, so the tree is listed roughly in the order it is visited.
        state.0.extend(subdirs.into_iter().rev());
        state.1 -= 1;
        self.changed.notify_all();
    }

    pub(super) fn waiting(&self) -> usize {
        self.lock().0.len()
    }

    pub(super) fn take(&self, id: usize) -> Vec<Listed<T, usize>> {
        self.listings.lock().unwrap_or_else(|e| e.into_inner()).remove(&id).unwrap_or_default()
    }
}
