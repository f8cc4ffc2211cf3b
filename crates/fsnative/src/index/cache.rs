//! The content cache: the bytes of small files that searches read again and again, kept in
//! memory under a budget of their own ([`super::IndexOptions::cache_memory`]), so that a warm
//! search of a small tree reads no file.
//!
//! A search that reads a file keeps it while the cache has room; once full, a file read from
//! disk takes the place of others only when it has been read more often than the least
//! recently used file held has been used (a one-off search of a large tree only leaves a count
//! per file in a small table, and the same large search repeated keeps the files it already
//! has instead of cycling through its candidates, each pushing out the next one needed: that
//! cost a copy and fresh pages per file and per search, with no hit). Counts are halved now
//! and then, so a new workload takes over.
//! A file is kept when it is at most an eighth of the budget, no other name links to it (a
//! write through a name outside the watched directories raises no event here), and its stamp
//! ([`super::stamp`]), taken on the open file just before the read, vouches for its version:
//! it equals the stamp the index took when it read the file into the prefilter or, when the
//! index read it within a tick of its last change (its stamp vouches for nothing), it is
//! itself taken more than a tick after that change (a file just edited is cached once its
//! change has settled). The least recently used files make room for new ones.
//!
//! Never stale: a cached file is keyed by its entry's number and generation, and the index's
//! stamp when it has one. The watcher's events, applied before every search, bump the
//! generation of a changed file and drop the entries of removed ones (dropping their bytes
//! here too), so a file changed since it was cached no longer matches its key and is read from
//! disk; a change during the read that filled the cache is such a change.

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::SystemTime;

use super::stamp::Stamp;
use super::tree::EntryId;
use crate::sys::{self, AsHandle};

/// Default of [`super::IndexOptions::cache_memory`]: 4 MiB.
pub const DEFAULT_CACHE_MEMORY: usize = 4 << 20;

/// What a cached file costs besides its bytes (its slots in the maps, the shared buffer's
/// counts), counted against the budget.
const ENTRY_OVERHEAD: usize = 96;

/// The largest share of the budget one file may take: files above `budget / MAX_SHARE` are
/// never cached.
const MAX_SHARE: usize = 8;

/// The largest file cached whatever the budget: searches read larger files in pieces, never
/// whole, so there is nothing to keep.
const MAX_FILE: usize = 1 << 20;

/// Slots of the table of files read from disk, at most (8 bytes each), and at least.
const MAX_SEEN: usize = 4096;
const MIN_SEEN: usize = 64;

/// Which version of which file a search would read: the entry's root, number and generation,
/// and the stamp the index took when it read the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CacheKey {
    pub root: u32,
    pub id: EntryId,
    pub generation: u32,
    pub stamp: Stamp,
}

/// The cache's figures, for `index_status()`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct CacheFigures {
    /// Bytes of file contents held.
    pub bytes: u64,
    /// Files held.
    pub files: u64,
    /// Searches of a file answered from the cache.
    pub hits: u64,
    /// Memory held, contents and bookkeeping.
    pub memory: u64,
}

/// See the module's documentation.
pub(crate) struct ContentCache {
    budget: usize,
    inner: Mutex<Inner>,
    hits: AtomicU64,
}

/// A cached file.
struct Cached {
    generation: u32,
    stamp: Stamp,
    bytes: Arc<[u8]>,
    /// When it was last used (the key of its place in [`Inner::by_use`]).
    used: u64,
    /// How often it was read or served (halved with the table's counts).
    uses: u32,
}

#[derive(Default)]
struct Inner {
    files: HashMap<(u32, EntryId), Cached>,
    /// The files by when they were last used, least recent first.
    by_use: BTreeMap<u64, (u32, EntryId)>,
    clock: u64,
    /// What the files held cost, bytes and overhead.
    held: usize,
    /// Content bytes held.
    bytes: usize,
    /// Files read from disk: a slot per file, overwritten by collisions, holding its
    /// fingerprint with how often it was read in the low byte; allocated at the first read.
    seen: Vec<u64>,
    /// Reads counted since the counts were last halved.
    reads: usize,
}

impl ContentCache {
    /// A cache of at most `budget` bytes; 0 keeps nothing.
    pub fn new(budget: usize) -> ContentCache {
        ContentCache { budget, inner: Mutex::default(), hits: AtomicU64::new(0) }
    }

    pub fn enabled(&self) -> bool {
        self.budget > 0
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Slots of the table of files read once.
    fn seen_slots(&self) -> usize {
        (self.budget / 256).clamp(MIN_SEEN, MAX_SEEN)
    }

    /// The largest file this cache keeps.
    fn max_file(&self) -> usize {
        (self.budget / MAX_SHARE).min(MAX_FILE)
    }

    /// What the files may cost: the budget less the table of files read once.
    fn room(&self) -> usize {
        self.budget.saturating_sub(self.seen_slots() * 8)
    }

    /// The bytes of the file `key` names, if they are cached for this version of it.
    pub fn get(&self, key: &CacheKey) -> Option<Arc<[u8]>> {
        if !self.enabled() {
            return None;
        }
        let mut inner = self.lock();
        let slot = (key.root, key.id);
        let cached = inner.files.get(&slot)?;
        let same_stamp = key.stamp == Stamp::UNKNOWN || cached.stamp == key.stamp;
        if cached.generation != key.generation || !same_stamp {
            inner.remove(slot);
            return None;
        }
        let (bytes, old) = (Arc::clone(&cached.bytes), cached.used);
        inner.clock += 1;
        let now = inner.clock;
        inner.by_use.remove(&old);
        inner.by_use.insert(now, slot);
        if let Some(cached) = inner.files.get_mut(&slot) {
            cached.used = now;
            cached.uses = cached.uses.saturating_add(1);
        }
        self.hits.fetch_add(1, Ordering::Relaxed);
        Some(bytes)
    }

    /// A search is about to read the file `key` names, `size` bytes, from disk: true when it
    /// should keep what it reads, if [`vouched`] agrees (it is small, and either the cache has
    /// room for it or it has been read more often than the least recently used file held has
    /// been used).
    pub fn admits(&self, key: &CacheKey, size: u64) -> bool {
        if !self.enabled() || size > self.max_file() as u64 {
            return false;
        }
        let slots = self.seen_slots();
        let mut inner = self.lock();
        let reads = inner.count_read(key, slots);
        if inner.held + size as usize + ENTRY_OVERHEAD <= self.room() {
            return true;
        }
        let victim = inner.by_use.first_key_value().and_then(|(_, slot)| inner.files.get(slot));
        victim.is_some_and(|victim| victim.uses < reads)
    }

    /// Keeps `bytes` as the contents of the file `key` names, read after its stamp was `stamp`
    /// (as [`vouched`] gave it), making room by dropping the least recently used files.
    pub fn insert(&self, key: &CacheKey, stamp: Stamp, bytes: &[u8]) {
        let cost = bytes.len() + ENTRY_OVERHEAD;
        if !self.enabled() || bytes.len() > self.max_file() || cost > self.room() {
            return;
        }
        let mut inner = self.lock();
        let slot = (key.root, key.id);
        inner.remove(slot);
        while inner.held + cost > self.room() {
            let Some((_, oldest)) = inner.by_use.pop_first() else { break };
            inner.remove(oldest);
        }
        inner.clock += 1;
        let used = inner.clock;
        let uses = inner.reads_of(key, self.seen_slots()).max(1);
        let cached = Cached { generation: key.generation, stamp, bytes: Arc::from(bytes), used, uses };
        inner.files.insert(slot, cached);
        inner.by_use.insert(used, slot);
        inner.held += cost;
        inner.bytes += bytes.len();
    }

    /// Drops the file `id` of `root` (changed or removed).
    pub fn invalidate(&self, root: usize, id: EntryId) {
        if self.enabled() {
            self.lock().remove((root as u32, id));
        }
    }

    /// Drops everything (the index closed or failed, or walked everything again).
    pub fn clear(&self) {
        if self.enabled() {
            let mut inner = self.lock();
            *inner = Inner::default();
        }
    }

    pub fn figures(&self) -> CacheFigures {
        let inner = self.lock();
        CacheFigures {
            bytes: inner.bytes as u64,
            files: inner.files.len() as u64,
            hits: self.hits.load(Ordering::Relaxed),
            memory: (inner.held + inner.seen.capacity() * 8) as u64,
        }
    }
}

impl Inner {
    /// Counts a read of `key` from disk in the table of `slots` slots: how often it was read.
    fn count_read(&mut self, key: &CacheKey, slots: usize) -> u32 {
        if self.seen.is_empty() {
            self.seen = vec![0; slots];
        }
        self.reads += 1;
        if self.reads >= slots * AGING_READS {
            self.reads = 0;
            for slot in &mut self.seen {
                *slot = (*slot & !COUNT) | ((*slot & COUNT) / 2);
            }
            for cached in self.files.values_mut() {
                cached.uses /= 2;
            }
        }
        let print = fingerprint(key);
        let at = slot_of(print, slots);
        let reads = if self.seen[at] & !COUNT == print { (self.seen[at] & COUNT) + 1 } else { 1 };
        self.seen[at] = print | reads.min(COUNT);
        reads.min(COUNT) as u32
    }

    /// How often `key` was read from disk, as far as the table of `slots` slots remembers.
    fn reads_of(&self, key: &CacheKey, slots: usize) -> u32 {
        let print = fingerprint(key);
        let slot = self.seen.get(slot_of(print, slots)).copied().unwrap_or(0);
        if slot & !COUNT == print {
            (slot & COUNT) as u32
        } else {
            0
        }
    }

    fn remove(&mut self, slot: (u32, EntryId)) {
        if let Some(cached) = self.files.remove(&slot) {
            self.by_use.remove(&cached.used);
            self.held -= cached.bytes.len() + ENTRY_OVERHEAD;
            self.bytes -= cached.bytes.len();
        }
    }
}

/// The low byte of a slot of [`Inner::seen`]: the count of reads.
const COUNT: u64 = 0xFF;

/// The slot of [`Inner::seen`] (of `slots`) that the fingerprint `print` takes.
fn slot_of(print: u64, slots: usize) -> usize {
    ((print >> 8) % slots as u64) as usize
}

/// The counts are halved after this many reads per slot of the table.
const AGING_READS: usize = 8;

/// A non-zero fingerprint of a file's version, its low byte clear (for the count).
fn fingerprint(key: &CacheKey) -> u64 {
    let mut hash = 0x9e37_79b9_7f4a_7c15u64;
    for part in [u64::from(key.root), u64::from(key.id), u64::from(key.generation), key.stamp.0] {
        let product = u128::from(hash ^ part) * 0xbf58_476d_1ce4_e5b9;
        hash = (product as u64) ^ ((product >> 64) as u64);
    }
    (hash & !COUNT) | 0x100
}

/// The stamp of the open file `file` when what is read from it may be cached as the file
/// `key` names: no other name links to it, and its stamp vouches for its version (it is the
/// index's, or the index has none and this one is taken a tick after the last change).
pub(crate) fn vouched(file: &File, key: &CacheKey) -> Option<Stamp> {
    let stat = sys::stat(file.handle()).ok().filter(|stat| stat.links == 1)?;
    let stamp = Stamp::of(&stat, SystemTime::now());
    let known = stamp != Stamp::UNKNOWN && (key.stamp == Stamp::UNKNOWN || key.stamp == stamp);
    known.then_some(stamp)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(id: EntryId, generation: u32) -> CacheKey {
        CacheKey { root: 0, id, generation, stamp: Stamp(7) }
    }

    impl ContentCache {
        /// Keeps `bytes` under the stamp `key` holds.
        fn insert_test(&self, key: &CacheKey, bytes: &[u8]) {
            self.insert(key, key.stamp, bytes);
        }
    }

    #[test]
    fn a_full_cache_takes_a_file_read_twice_and_serves_each_version_only() {
        let cache = ContentCache::new(64 << 10);
        assert!(cache.admits(&key(1, 0), 10), "room for it");
        for id in 10..18 {
            cache.insert_test(&key(id, 0), &vec![0; 7 << 10]);
        }
        assert!(!cache.admits(&key(2, 0), 8 << 10), "no room, read once");
        assert!(cache.admits(&key(2, 0), 8 << 10), "no room, read again");
        cache.clear();
        cache.insert_test(&key(1, 0), b"some bytes");
        assert_eq!(cache.get(&key(1, 0)).as_deref(), Some(&b"some bytes"[..]));
        assert_eq!(cache.get(&key(1, 1)), None, "another generation");
        assert_eq!(cache.figures().files, 0, "a stale file is dropped when found");
        cache.insert_test(&key(1, 1), b"new");
        assert_eq!(cache.get(&CacheKey { stamp: Stamp(8), ..key(1, 1) }), None, "another stamp");
        cache.insert_test(&key(1, 1), b"new");
        cache.invalidate(0, 1);
        assert_eq!(cache.get(&key(1, 1)), None);
        assert_eq!(cache.figures(), CacheFigures { bytes: 0, files: 0, hits: 1, memory: 0 });
        // A file the index read too soon after a change: its generation alone tells versions
        // apart, the stamp it was cached with being one taken after the change settled.
        let unstamped = CacheKey { stamp: Stamp::UNKNOWN, ..key(3, 0) };
        cache.insert(&unstamped, Stamp(9), b"settled");
        assert_eq!(cache.get(&unstamped).as_deref(), Some(&b"settled"[..]));
        assert_eq!(cache.get(&CacheKey { generation: 1, ..unstamped }), None);
    }

    #[test]
    fn the_budget_is_kept_by_dropping_the_least_recently_used() {
        let budget = 16 << 10;
        let cache = ContentCache::new(budget);
        let file = vec![b'x'; 1500];
        for id in 0..20 {
            cache.insert_test(&key(id, 0), &file);
            assert!(cache.figures().memory <= budget as u64);
            // File 0 stays in use, so it stays.
            assert!(cache.get(&key(0, 0)).is_some(), "after {id}");
        }
        let figures = cache.figures();
        assert!(figures.files < 20 && figures.files > 1, "{figures:?}");
        assert_eq!(figures.bytes, figures.files * 1500);
        assert!(cache.get(&key(1, 0)).is_none(), "the oldest went first");
        assert!(cache.get(&key(19, 0)).is_some());
        assert!(!cache.admits(&key(30, 0), budget as u64 / 4), "too large for this budget");
        cache.insert_test(&key(31, 0), &vec![0; budget / 4]);
        assert!(cache.get(&key(31, 0)).is_none());
        cache.clear();
        assert_eq!(cache.figures().files, 0);
    }

    #[test]
    fn a_repeated_search_of_more_than_fits_keeps_what_it_has() {
        let cache = ContentCache::new(64 << 10);
        let file = vec![b'x'; 6 << 10];
        let mut hits = Vec::new();
        for _round in 0..5 {
            let mut hit = 0u64;
            for id in 0..30 {
                if cache.get(&key(id, 0)).is_some() {
                    hit += 1;
                } else if cache.admits(&key(id, 0), file.len() as u64) {
                    cache.insert_test(&key(id, 0), &file);
                }
            }
            hits.push(hit);
        }
        let held = cache.figures().files;
        assert!(held >= 8, "{held}");
        assert_eq!(hits[1..], [held; 4], "the same files are served every round after the first");
        // A new workload, read again and again, takes over.
        for _round in 0..20 {
            for id in 100..108 {
                if cache.get(&key(id, 0)).is_none() && cache.admits(&key(id, 0), file.len() as u64) {
                    cache.insert_test(&key(id, 0), &file);
                }
            }
        }
        assert!((100..108).all(|id| cache.get(&key(id, 0)).is_some()), "{:?}", cache.figures());
    }

    #[test]
    fn a_budget_of_zero_keeps_nothing() {
        let cache = ContentCache::new(0);
        assert!(!cache.admits(&key(1, 0), 1));
        assert!(!cache.admits(&key(1, 0), 1));
        cache.insert_test(&key(1, 0), b"x");
        assert_eq!(cache.get(&key(1, 0)), None);
        assert_eq!(cache.figures(), CacheFigures::default());
    }
}
