//! What a search reads from the index: the entries below a target in walk order, and which
//! files a pattern rules out. A view holds the index's read lock for the search's length.

use std::cell::Cell;
use std::sync::RwLockReadGuard;

use super::cache::{CacheKey, ContentCache};
use super::content::RuledOut;
use super::query::GramQuery;
use super::tree::{depth_of, Content, Entry, EntryId, Kind, ListingSkips, Sieve, SieveTag, Tree};
use super::State;
use crate::walk::SkipCounters;

/// A consistent, current view of the index.
pub(crate) struct View<'a> {
    state: RwLockReadGuard<'a, State>,
    cache: &'a ContentCache,
}

/// Files the prefilter ruled out: each counts as searched without a match, as it would have
/// been had it been searched.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Unsearched {
    pub files: u64,
    pub bytes: u64,
    /// Of them, binary files the search would have given up on.
    pub binary: u64,
}

impl Unsearched {
    #[inline]
    pub fn add(&mut self, other: Unsearched) {
        self.files += other.files;
        self.bytes += other.bytes;
        self.binary += other.binary;
    }
}

/// A pattern's prefilter for one search.
pub(crate) struct Prefilter {
    ruled_out: RuledOut,
    /// The search handles binary files as [`super::NoMatch`] describes (line by line, giving
    /// up at a NUL), so what it reads of a ruled-out binary file is known.
    binary_known: bool,
}

impl Prefilter {
    /// What searching a file with this content would have counted, when the pattern cannot
    /// match it; `None` when it must be searched.
    pub fn rules_out(&self, entry: &Entry) -> Option<Unsearched> {
        self.sifts_out(Sieve::of(entry))
    }

    /// As [`Prefilter::rules_out`], from the entry's sieve.
    #[inline]
    fn sifts_out(&self, sieve: Sieve) -> Option<Unsearched> {
        let known = match sieve.tag {
            SieveTag::Text => true,
            SieveTag::Measured => self.binary_known,
            _ => false,
        };
        (known && self.ruled_out.contains(sieve.slot)).then_some(Unsearched {
            files: 1,
            bytes: sieve.bytes,
            binary: u64::from(sieve.binary),
        })
    }
}

/// The files a walk yields that a prefilter does not rule out: see [`View::walk_sieved`].
pub(crate) struct Sifted<'v> {
    tree: &'v Tree,
    ids: std::slice::Iter<'v, EntryId>,
    /// The position in the order of the next of `ids`.
    position: usize,
    /// Files before this position are not counted.
    cursor: usize,
    /// Depth of the walked directory.
    base: usize,
    prefilter: &'v Prefilter,
    skipped: &'v SkipCounters,
    ruled_out: &'v Cell<Unsearched>,
}

impl<'v> Iterator for Sifted<'v> {
    /// As [`View::walk`]'s.
    type Item = (EntryId, &'v Entry, usize, bool);

    fn next(&mut self) -> Option<Self::Item> {
        let mut ruled_out = self.ruled_out.get();
        let found = loop {
            let Some(&id) = self.ids.next() else { break None };
            let position = self.position;
            self.position += 1;
            let sieve = self.tree.sieve(id);
            match sieve.tag {
                SieveTag::Passive => continue,
                SieveTag::Skipping => {
                    self.tree.entry(id).skips().add_to(self.skipped);
                    continue;
                }
                _ => {}
            }
            if let Some(unsearched) = self.prefilter.sifts_out(sieve) {
                if position >= self.cursor {
                    ruled_out.add(unsearched);
                }
                continue;
            }
            let entry = self.tree.entry(id);
            break Some((id, entry, usize::from(entry.depth) - self.base, position >= self.cursor));
        };
        self.ruled_out.set(ruled_out);
        found
    }
}

impl<'a> View<'a> {
    pub(super) fn new(state: RwLockReadGuard<'a, State>, cache: &'a ContentCache) -> View<'a> {
        View { state, cache }
    }

    /// The content cache, when it keeps anything.
    pub fn cache(&self) -> Option<&'a ContentCache> {
        self.cache.enabled().then_some(self.cache)
    }

    /// The key the file `id` of `root` (`entry`) is cached under, when the index knows it:
    /// read into the prefilter since its last change, in a watched directory (so a change to
    /// it is heard of).
    pub fn cache_key(&self, root: usize, id: EntryId, entry: &Entry) -> Option<CacheKey> {
        let known = entry.kind == Kind::File
            && matches!(entry.content(), Content::Text { .. } | Content::Measured { .. });
        if !known || !self.cache.enabled() {
            return None;
        }
        let watcher = self.state.watcher.as_ref()?;
        if !watcher.unwatched.is_empty() {
            let parent = super::update::parent(&entry.path);
            if watcher.unwatched.contains(&(root, parent.into())) {
                return None;
            }
        }
        Some(CacheKey { root: root as u32, id, generation: entry.generation, stamp: entry.stamp })
    }

    /// The directory `dir` of `root` ("" for the root) is in the list: a walk from it can be
    /// answered from here.
    pub fn lists(&self, root: usize, dir: &[u8]) -> bool {
        self.state.trees.get(root).is_some_and(|tree| tree.below(dir).is_some())
    }

    /// What the walk left out when it listed `dir` of `root`.
    pub fn skips(&self, root: usize, dir: &[u8]) -> ListingSkips {
        let tree = &self.state.trees[root];
        if dir.is_empty() {
            return tree.root_skips;
        }
        tree.find(dir).map_or_else(ListingSkips::default, |id| tree.entry(id).skips())
    }

    /// The entries a walk of `dir` of `root` to `max_depth` yields, in walk order, each with
    /// its number, its depth below `dir` and whether it lies at or after `from` (a cursor). Adds to
    /// `skipped` what the walk counts as left out when it lists each directory it passes.
    pub fn walk<'v>(
        &'v self,
        root: usize,
        dir: &[u8],
        max_depth: Option<usize>,
        from: Option<&[u8]>,
        skipped: &'v SkipCounters,
    ) -> impl Iterator<Item = (EntryId, &'v Entry, usize, bool)> + 'v {
        let (tree, range, start) = self.span(root, dir, from);
        let listed = move |depth: usize| max_depth.is_none_or(|max| depth < max);
        if listed(0) {
            self.skips(root, dir).add_to(skipped);
        }
        let base = depth_of(dir);
        let first = range.start;
        tree.order()[range].iter().enumerate().filter_map(move |(at, &id)| {
            let entry = tree.entry(id);
            let depth = usize::from(entry.depth) - base;
            if max_depth.is_some_and(|max| depth > max) || entry.kind == Kind::Free {
                return None;
            }
            if entry.kind == Kind::Dir && listed(depth) {
                entry.skips().add_to(skipped);
            }
            Some((id, entry, depth, first + at >= start))
        })
    }

    /// The files [`View::walk`] yields to any depth, less those `prefilter` rules out: what
    /// searching those at or after `from` would have counted is added to `ruled_out`. Read from
    /// the sieve column, so neither a file ruled out nor a directory costs a read of its entry.
    pub fn walk_sieved<'v>(
        &'v self,
        root: usize,
        dir: &[u8],
        from: Option<&[u8]>,
        skipped: &'v SkipCounters,
        prefilter: &'v Prefilter,
        ruled_out: &'v Cell<Unsearched>,
    ) -> Sifted<'v> {
        let (tree, range, cursor) = self.span(root, dir, from);
        self.skips(root, dir).add_to(skipped);
        Sifted {
            tree,
            position: range.start,
            ids: tree.order()[range].iter(),
            cursor,
            base: depth_of(dir),
            prefilter,
            skipped,
            ruled_out,
        }
    }

    /// The tree of `root`, the positions in its order of the entries below `dir`, and the
    /// position of the cursor `from` (0 without one).
    fn span(&self, root: usize, dir: &[u8], from: Option<&[u8]>) -> (&Tree, std::ops::Range<usize>, usize) {
        let tree = &self.state.trees[root];
        let range = tree.below(dir).unwrap_or(0..0);
        let cursor = from.map_or(0, |from| tree.position(from).unwrap_or_else(|at| at));
        (tree, range, cursor)
    }

    /// The live entries below the directory `dir` of `root` in walk order, each with its
    /// depth below `dir`: the `share`-th of `shares` runs of about equal length, so that
    /// threads can each take one (a find; no skips are counted).
    pub fn walk_share<'v>(
        &'v self,
        root: usize,
        dir: &[u8],
        share: usize,
        shares: usize,
    ) -> impl Iterator<Item = (&'v Entry, usize)> + 'v {
        let tree = &self.state.trees[root];
        let range = tree.below(dir).unwrap_or(0..0);
        let step = range.len().div_ceil(shares.max(1));
        let start = (range.start + share * step).min(range.end);
        let end = (start + step).min(range.end);
        let base = depth_of(dir);
        tree.order()[start..end].iter().filter_map(move |&id| {
            let entry = tree.entry(id);
            (entry.kind != Kind::Free).then(|| (entry, usize::from(entry.depth) - base))
        })
    }

    /// How many entries lie below the directory `dir` of `root`.
    pub fn count_below(&self, root: usize, dir: &[u8]) -> usize {
        self.state.trees.get(root).and_then(|tree| tree.below(dir)).map_or(0, |range| range.len())
    }

    /// The prefilter of `query`; `None` when it rules nothing out or the index holds no
    /// content.
    pub fn prefilter(&self, query: &GramQuery, binary_known: bool) -> Option<Prefilter> {
        if query.is_any() || self.state.signatures.is_empty() {
            return None;
        }
        Some(Prefilter { ruled_out: self.state.signatures.ruled_out(query), binary_known })
    }
}
