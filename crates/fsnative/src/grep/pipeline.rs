//! Scheduling a search: the calling thread walks the targets in result order (or collects and
//! sorts them by mtime or frecency), numbers each candidate file and searches it inline; past
//! a short budget it hands files to [`Workers`] instead and goes on walking (and searches what
//! is still queued when it would otherwise wait).

use std::cell::Cell;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::cursor::{Position, SortKey};
use super::indexed::Indexed;
use super::job::{Done, Job, JobSearch};
use super::page::Page;
use super::ranked::rank_by_frecency;
use super::workers::Workers;
use crate::error::Error;
use crate::index::{CacheKey, Unsearched};
use crate::rank::Frecency;
use crate::request::SortOrder;
use crate::roots::Location;
use crate::walk::{self, Target, WalkOptions, WalkedKind, Walker};

/// The most threads one grep searches with, whatever `threads` asks for (the answer does not
/// depend on the thread count; an absurd request must not exhaust memory or threads).
pub const MAX_THREADS: usize = 256;

/// How long a search runs on the calling thread alone before it hands files to workers.
/// Workers run on kept helper threads, so starting them costs microseconds; but handing
/// files over and searching on threads whose caches are cold cost about what they save in a
/// search this short (a small project's, caches cold: about 0.2–0.5 ms).
const INLINE_BUDGET: Duration = Duration::from_micros(300);

/// [`INLINE_BUDGET`] for a search that the index feeds and a limit bounds: most end within it
/// on the calling thread alone, whose caches are warm, where handing files to a helper made
/// them wait for that helper's batch, the more so when the other CPUs were busy or cold (agent
/// tree, limit 100, `def build`: 1.51-1.75 ms on one thread, 2.9-7.0 ms with a helper, after a
/// 200 ms pause or with the caches evicted; `examples/gap_cost`). A search that reads much
/// longer pays at most this before it goes parallel.
const INLINE_BUDGET_INDEXED_LIMITED: Duration = Duration::from_millis(2);

/// How much the calling thread must have searched alone, besides running for
/// [`INLINE_BUDGET`], before workers join: [`INLINE_FILES`] files or [`INLINE_BYTES`] bytes.
/// The budget is time, and time stretches when the processor is busy or its caches are cold
/// (another process ran just before, as between an agent's calls), so a small project's
/// whole search (40 files, 70 KB) would pass it and hand its last files to workers, which
/// cost more than searching them (the bench's small tree from Node, each call right after a
/// spawned `rg`: core 0.46 -> 0.32 ms for a rare literal). What was searched is the same
/// however busy the machine is. Workers no longer read ahead of a small page either.
const INLINE_FILES: u64 = 64;
const INLINE_BYTES: u64 = 1 << 20;

/// One search: what to walk, and how to search what the walk finds.
pub(super) struct Pipeline<'a> {
    pub search: JobSearch<'a>,
    pub targets: &'a [Target],
    /// The walk options of each target.
    pub walk_options: &'a [WalkOptions],
    pub resume: Option<&'a Position>,
    /// The warm index to take files from instead of walking, when it can answer.
    pub indexed: Option<Indexed<'a>>,
    /// In frecency order: the database and the instant to score at.
    pub ranked: Option<(&'a Frecency, u64)>,
    /// Why the files could not be ranked (the search then found nothing).
    pub rank_error: Cell<Option<Error>>,
}

impl<'a> Pipeline<'a> {
    /// Searches the targets and assembles the page. The calling thread walks and puts outcomes
    /// in order; it searches on its own for the first [`INLINE_BUDGET`] (or
    /// [`INLINE_BUDGET_INDEXED_LIMITED`]) and at least [`INLINE_FILES`] files or [`INLINE_BYTES`]
    /// bytes, then hands files to workers on helper threads (`threads` of them when it walks the
    /// disk, one fewer when the index feeds it), searching queued files itself while it would
    /// wait.
    pub fn run(&self, started: Instant) -> Page<'a> {
        let search = &self.search;
        let threads = search
            .request
            .threads
            .filter(|&n| n > 0)
            .unwrap_or_else(crate::control::default_threads)
            .min(MAX_THREADS);
        let mut page = Page::new(search.request, search.dirs.roots(), self.resume);
        page.truncated = search.control.interruption();
        if page.is_done() {
            return page;
        }
        // Fed by the index, the calling thread has little to do besides searching, so it counts
        // as one of the `threads`; walking the disk, it is busy listing directories.
        let helpers = if self.indexed.is_some() { threads - 1 } else { threads };
        let budget = match (&self.indexed, search.request.limit) {
            (Some(_), Some(_)) => INLINE_BUDGET_INDEXED_LIMITED,
            _ => INLINE_BUDGET,
        };
        crate::pool::scope(|scope| {
            let mut searcher = search.searcher();
            let mut workers: Option<Workers> = None;
            // Starting workers is tried once (it fails only when no thread can be started).
            let mut may_start = threads > 1;
            let mut inline_bytes = 0;
            let unsearched = self.produce(|job| match &mut workers {
                Some(workers) => workers.hand_out(job, &mut page, &mut searcher),
                None => {
                    let next = job.seq + 1;
                    let outcome = search.search(&mut searcher, &job);
                    inline_bytes += outcome.as_ref().map_or(0, |outcome| outcome.bytes);
                    if page.accept(Done { job, outcome }) {
                        return false;
                    }
                    page.truncated = search.control.interruption();
                    let enough = next >= INLINE_FILES || inline_bytes >= INLINE_BYTES;
                    if may_start && !page.is_done() && enough && started.elapsed() >= budget {
                        may_start = false;
                        workers = Workers::start(search, scope, helpers, next);
                    }
                    !page.is_done()
                }
            });
            if let Some(workers) = workers {
                workers.finish(&mut page, &mut searcher);
            }
            if !page.is_done() {
                page.add_unsearched(unsearched);
            }
            search.stop.store(true, Ordering::Relaxed);
        });
        // The walk stops quietly when the deadline passes or the search is cancelled, so a
        // page that ran out of files then may be missing some: say so (at worst a whole page
        // is flagged and its cursor finds nothing more).
        page.truncated = page.truncated.or_else(|| search.control.interruption());
        page
    }

    /// Walks the targets in result order and hands `emit` one job per candidate file (those
    /// wholly before the cursor left out), until it returns false. Returns the files the
    /// index ruled out after the last job.
    fn produce(&self, mut emit: impl FnMut(Job) -> bool) -> Unsearched {
        let mut seq = 0u64;
        let mut send = |key: SortKey,
                        root: usize,
                        at: Option<Location>,
                        cached: Option<CacheKey>,
                        unsearched: Unsearched|
         -> bool {
            if self.search.stop.load(Ordering::Relaxed) {
                return false;
            }
            let skip = match self.resume.map(|p| p.skip_for(&key)) {
                Some(None) => return true,
                Some(Some(skip)) => skip,
                None => 0,
            };
            let job = Job { seq, key, root, at, cached, skip, unsearched };
            seq += 1;
            emit(job)
        };
        match self.search.request.sort {
            SortOrder::Mtime | SortOrder::Frecency => {
                let mut all = Vec::new();
                self.walk_files(|key, root, at, _, _| {
                    all.push((key, root, at));
                    true
                });
                match self.ranked {
                    Some((frecency, as_of)) => {
                        if let Err(error) =
                            rank_by_frecency(frecency, as_of, self.search.dirs.roots(), &mut all)
                        {
                            self.rank_error.set(Some(error));
                            return Unsearched::default();
                        }
                    }
                    None => {
                        for (key, _, _) in &mut all {
                            key.rank = -walk::modified_ns(&key.path);
                            key.target = 0;
                        }
                    }
                }
                all.sort_by(|a, b| a.0.cmp(&b.0));
                for (key, root, at) in all {
                    if !send(key, root, at, None, Unsearched::default()) {
                        break;
                    }
                }
                Unsearched::default()
            }
            SortOrder::Path | SortOrder::None => self.walk_files(&mut send),
        }
    }

    /// Visits candidate files in path order, with the root each was found in, where it
    /// really lies when that differs, the key its contents may be cached under (from the
    /// index) and the files the index ruled out just before it; stops when `visit` returns
    /// false. Returns the files ruled out after the last one.
    fn walk_files(
        &self,
        mut visit: impl FnMut(SortKey, usize, Option<Location>, Option<CacheKey>, Unsearched) -> bool,
    ) -> Unsearched {
        let search = &self.search;
        let mut ruled_out = Unsearched::default();
        for (index, target) in self.targets.iter().enumerate() {
            if !target.is_dir {
                let key = SortKey { rank: 0, target: index, path: target.path.clone() };
                if !visit(key, target.root, None, None, std::mem::take(&mut ruled_out)) {
                    return Unsearched::default();
                }
                continue;
            }
            if let Some(indexed) = &self.indexed {
                let max_depth = self.walk_options[index].max_depth;
                let mut visit_file = |key: SortKey, cached: Option<CacheKey>, mut before: Unsearched| {
                    before.add(std::mem::take(&mut ruled_out));
                    !search.stop.load(Ordering::Relaxed)
                        && search.control.interruption().is_none()
                        && visit(key, target.root, None, cached, before)
                };
                match indexed.visit(target, index, max_depth, self.resume, search.skipped, &mut visit_file) {
                    Some(after) => ruled_out.add(after),
                    None => return Unsearched::default(),
                }
                continue;
            }
            let walker = Walker::new(search.dirs, &self.walk_options[index], search.skipped, search.control);
            let mut going = true;
            walker.run(target, |walked| {
                going = !search.stop.load(Ordering::Relaxed) && search.control.interruption().is_none();
                // Without follow_links a symlink arrives as itself and is not searched.
                if going && walked.kind == WalkedKind::File {
                    let key = SortKey { rank: 0, target: index, path: walked.path };
                    going = visit(key, target.root, walked.at, None, std::mem::take(&mut ruled_out));
                }
                going
            });
            if !going {
                return Unsearched::default();
            }
        }
        ruled_out
    }
}
