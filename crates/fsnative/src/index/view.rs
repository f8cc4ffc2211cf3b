//! What a search reads from the index: the entries below a target in walk order, and which
//! files a pattern rules out. A view holds the index's read lock for the search's length.

use std::sync::RwLockReadGuard;

use super::cache::{CacheKey, ContentCache};
use super::content::RuledOut;
use super::query::GramQuery;
use super::stamp::Stamp;
use super::tree::{depth_of, Content, Entry, EntryId, Kind, ListingSkips};
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
    pub fn rules_out(&self, content: &Content) -> Option<Unsearched> {
        match *content {
            Content::Text { size, slot } if self.ruled_out.contains(slot) => {
                Some(Unsearched { files: 1, bytes: size, binary: 0 })
            }
            Content::Measured { slot, bytes, binary_offset }
                if self.binary_known && self.ruled_out.contains(slot) =>
            {
                Some(Unsearched { files: 1, bytes, binary: u64::from(binary_offset.is_some()) })
            }
            _ => None,
        }
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

    /// The key the file `id` of `root` (`entry`) is cached under, when its version is known:
    /// read into the prefilter with a stamp, in a watched directory (so a change to it is
    /// heard of).
    pub fn cache_key(&self, root: usize, id: EntryId, entry: &Entry) -> Option<CacheKey> {
        let known = entry.kind == Kind::File
            && entry.stamp != Stamp::UNKNOWN
            && matches!(entry.content, Content::Text { .. } | Content::Measured { .. });
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
        tree.find(dir).map_or_else(ListingSkips::default, |id| tree.entry(id).skips)
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
        let tree = &self.state.trees[root];
        let range = tree.below(dir).unwrap_or(0..0);
        let start = from.map_or(0, |from| tree.position(from).unwrap_or_else(|at| at));
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
                entry.skips.add_to(skipped);
            }
            Some((id, entry, depth, first + at >= start))
        })
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
