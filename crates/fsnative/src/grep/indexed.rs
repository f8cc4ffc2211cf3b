//! A search's files from the warm index instead of a walk: the same files in the same order
//! (constraints applied as the walk applies them), less those the content prefilter rules
//! out, which are tallied as searched without a match.

use std::cell::Cell;
use std::cmp::Ordering;

use super::cursor::{Position, SortKey};
use crate::index::{CacheKey, Kind, Prefilter, Unsearched, View};
use crate::roots::Roots;
use crate::walk::{Constraints, SkipCounters, Target};

/// The index a search reads, and its pattern's prefilter.
pub(super) struct Indexed<'a> {
    pub view: &'a View<'a>,
    pub roots: &'a Roots,
    /// Files must pass these (paths relative to the search target), as in a walk.
    pub constraints: Option<&'a Constraints>,
    pub prefilter: Option<Prefilter>,
}

impl Indexed<'_> {
    /// Visits the files below the directory `target` (number `number` of the search) as a
    /// walk to `max_depth` would yield them, those before `resume` left out, handing each with
    /// the key its contents may be cached under and the files ruled out just before it; stops
    /// when `visit` returns false (then returns `None`), else returns the files ruled out after
    /// the last one visited.
    pub fn visit(
        &self,
        target: &Target,
        number: usize,
        max_depth: Option<usize>,
        resume: Option<&Position>,
        skipped: &SkipCounters,
        mut visit: impl FnMut(SortKey, Option<CacheKey>, Unsearched) -> bool,
    ) -> Option<Unsearched> {
        let root_path = &self.roots.paths()[target.root];
        let (from, wholly_before) = match resume {
            Some(position) if position.key.rank == 0 => match position.key.target.cmp(&number) {
                Ordering::Greater => (None, true),
                Ordering::Equal => (
                    position
                        .key
                        .path
                        .strip_prefix(root_path)
                        .ok()
                        .map(|p| crate::sys::slashed(p.as_os_str().as_encoded_bytes())),
                    false,
                ),
                Ordering::Less => (None, false),
            },
            _ => (None, false),
        };
        let ruled_out = Cell::new(Unsearched::default());
        let dir = &*target.below_root(self.roots);
        let base = if dir.is_empty() { 0 } else { dir.len() + 1 };
        // With nothing but the prefilter to apply, the files it rules out are skipped by their
        // sieve alone (and counted there), without reading their entries.
        let sieved = self.constraints.is_none() && max_depth.is_none() && !wholly_before;
        let entries: Box<dyn Iterator<Item = _>> = match &self.prefilter {
            Some(prefilter) if sieved => Box::new(self.view.walk_sieved(
                target.root,
                dir,
                from.as_deref(),
                skipped,
                prefilter,
                &ruled_out,
            )),
            _ => Box::new(self.view.walk(target.root, dir, max_depth, from.as_deref(), skipped)),
        };
        for (id, entry, _, after_cursor) in entries {
            if entry.kind != Kind::File || !after_cursor || wholly_before {
                continue;
            }
            if self.constraints.is_some_and(|constraints| !constraints.matches(&entry.path[base..])) {
                continue;
            }
            // A sieved walk yields only the files its prefilter let through.
            if let Some(unsearched) =
                self.prefilter.as_ref().filter(|_| !sieved).and_then(|p| p.rules_out(entry))
            {
                let mut sum = ruled_out.get();
                sum.add(unsearched);
                ruled_out.set(sum);
                continue;
            }
            let path = root_path.join(crate::sys::native_path(&entry.path));
            let cached = self.view.cache_key(target.root, id, entry);
            if !visit(SortKey { rank: 0, target: number, path }, cached, ruled_out.take()) {
                return None;
            }
        }
        Some(ruled_out.get())
    }
}
