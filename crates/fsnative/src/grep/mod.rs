//! Content search: the parallel, order-preserving grep pipeline.
//!
//! One producer thread walks the targets in result order (or collects and sorts them by
//! mtime) and numbers each candidate file. Worker threads search files as they come, in any
//! order. The calling thread puts their outcomes back in sequence and stops the pipeline as
//! soon as the page is full, so the first page of a huge tree costs only what it needs.

mod cursor;
mod file;
mod matcher;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;

use crossbeam_channel::{bounded, unbounded, RecvTimeoutError};
use grep_regex::RegexMatcher;

use crate::control::{CancelToken, Control};
use crate::error::Result;
use crate::request::{GrepRequest, OutputMode, SortOrder};
use crate::result::{FileMatches, GrepResult, GrepStats, Truncation};
use crate::sandbox::Sandbox;
use crate::walk::{self, SkipCounters, Target, WalkOptions};

pub use file::MAX_BUFFER_BYTES;
pub(crate) use matcher::MatcherCache;
pub use matcher::{MAX_COMPILED_BYTES, MAX_PATTERN_BYTES, MAX_PATTERN_NESTING};

use cursor::{Position, SortKey};
use file::{FileOutcome, FileSearchConfig};

/// One candidate file, numbered in result order.
struct Job {
    seq: u64,
    key: SortKey,
    root: usize,
    /// Records of this file to skip (a cursor resuming inside it).
    skip: u64,
}

/// What the walk produced for one file and what searching it gave.
struct Done {
    job: Job,
    outcome: std::io::Result<FileOutcome>,
}

/// Runs `request` inside `sandbox`.
pub(crate) fn run(sandbox: &Sandbox, request: &GrepRequest, cancel: &CancelToken) -> Result<GrepResult> {
    let started = Instant::now();
    let control = Control::new(cancel, request.timeout_ms);
    let matcher = matcher::build(sandbox.matchers(), request)?;
    let sections = matcher::build_sections(sandbox.matchers(), request)?;
    let targets = walk::targets(sandbox, &request.paths.0)?;
    let types = walk::types(&request.types.0, &request.types_not.0)?;
    let mut walk_options = Vec::with_capacity(targets.len());
    for target in &targets {
        walk_options.push(WalkOptions {
            hidden: request.hidden,
            follow_links: request.follow_links,
            no_ignore: request.no_ignore,
            max_depth: request.max_depth,
            max_filesize: request.max_filesize,
            overrides: walk::overrides(&sandbox.roots()[target.root], &request.globs.0)?,
            types: types.clone(),
        });
    }
    let target_paths: Vec<PathBuf> = targets.iter().map(|t| t.path.clone()).collect();
    let fingerprint = cursor::fingerprint(request, &target_paths);
    let resume = request.cursor.as_deref().map(|c| cursor::decode(c, &fingerprint)).transpose()?;

    let root_dirs = file::open_roots(sandbox)?;
    let pipeline = Pipeline {
        sandbox,
        root_dirs: &root_dirs,
        request,
        matcher: &matcher,
        sections: sections.as_ref(),
        control: &control,
        targets: &targets,
        walk_options: &walk_options,
        resume: resume.as_ref(),
        skipped: Arc::new(SkipCounters::default()),
        stop: AtomicBool::new(false),
        window: Window::default(),
    };
    let page = pipeline.run();

    let skipped = &pipeline.skipped;
    let mut stats = page.stats;
    stats.skipped_special += SkipCounters::get(&skipped.special);
    stats.skipped_outside += SkipCounters::get(&skipped.outside);
    stats.skipped_errors += SkipCounters::get(&skipped.errors);
    stats.elapsed_ms = started.elapsed().as_secs_f64() * 1000.0;
    let total_matches = page.files.iter().map(|f| f.count).sum();
    Ok(GrepResult {
        files: page.files,
        total_matches,
        truncated: page.truncated,
        next_cursor: page
            .truncated
            .map(|_| cursor::encode(&fingerprint, &page.position.unwrap_or_else(Position::start))),
        mode: request.mode,
        context_enabled: request.mode == OutputMode::Content
            && (request.lines_before() > 0 || request.lines_after() > 0),
        single_file: targets.len() == 1 && !targets[0].is_dir,
        stats,
    })
}

struct Pipeline<'a> {
    sandbox: &'a Sandbox,
    /// The roots, opened once: files are opened relative to these handles.
    root_dirs: &'a [cap_std::fs::Dir],
    request: &'a GrepRequest,
    matcher: &'a RegexMatcher,
    /// The section-end matcher, when `section_end_patterns` were given.
    sections: Option<&'a RegexMatcher>,
    control: &'a Control,
    targets: &'a [Target],
    walk_options: &'a [WalkOptions],
    resume: Option<&'a Position>,
    skipped: Arc<SkipCounters>,
    /// Set by the consumer when the page is complete; producer and workers wind down.
    stop: AtomicBool,
    /// Keeps the producer at most [`WINDOW`] files ahead of the consumer.
    window: Window,
}

/// The most worker threads one grep starts, whatever `threads` asks for (the answer does not
/// depend on the thread count; an absurd request must not exhaust memory or threads).
pub const MAX_THREADS: usize = 256;

/// How many files may be queued, searched or waiting to be put back in order at once. This
/// bounds memory: each waiting file holds at most `limit + 1` matches.
const WINDOW: u64 = 256;

/// The sequence number the consumer will take next, shared with the producer.
#[derive(Default)]
struct Window {
    next: Mutex<u64>,
    moved: Condvar,
}

impl Window {
    /// Blocks until job `seq` fits in the window, or `stop` is set.
    fn wait_for(&self, seq: u64, stop: &AtomicBool) {
        let mut next = self.next.lock().unwrap_or_else(|e| e.into_inner());
        while seq >= *next + WINDOW && !stop.load(Ordering::Relaxed) {
            next = self.moved.wait(next).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Records that the consumer now waits for `seq`, or wakes everyone to stop.
    fn advance(&self, seq: u64) {
        *self.next.lock().unwrap_or_else(|e| e.into_inner()) = seq;
        self.moved.notify_all();
    }
}

/// The page being assembled by the consumer.
#[derive(Default)]
struct Page {
    files: Vec<FileMatches>,
    records: u64,
    truncated: Option<Truncation>,
    /// Where this page ends (the last file it took records from).
    position: Option<Position>,
    stats: GrepStats,
}

impl Pipeline<'_> {
    fn run(&self) -> Page {
        let threads = self
            .request
            .threads
            .filter(|&n| n > 0)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()))
            .min(MAX_THREADS);
        let mut page = Page { position: self.resume.cloned(), ..Page::default() };
        if let Some(reason) = self.control.interruption() {
            page.truncated = Some(reason);
            return page;
        }
        if self.targets.iter().all(|target| !target.is_dir) {
            // Named files only: a handful of searches, cheaper here than starting threads.
            self.run_inline(&mut page);
            return page;
        }
        let (job_tx, job_rx) = bounded::<Job>(threads * 16);
        let (done_tx, done_rx) = unbounded::<Done>();
        std::thread::scope(|scope| {
            scope.spawn(move || {
                self.produce(|job| {
                    self.window.wait_for(job.seq, &self.stop);
                    job_tx.send(job).is_ok()
                })
            });
            for _ in 0..threads {
                let job_rx = job_rx.clone();
                let done_tx = done_tx.clone();
                scope.spawn(move || self.work(&job_rx, &done_tx));
            }
            drop(done_tx);
            drop(job_rx);
            self.consume(&done_rx, &mut page);
            self.stop.store(true, Ordering::Relaxed);
            self.window.advance(u64::MAX - WINDOW);
        });
        page
    }

    /// Walks the targets in result order and hands `emit` one job per candidate file (those
    /// wholly before the cursor left out), until it returns false.
    fn produce(&self, mut emit: impl FnMut(Job) -> bool) {
        let mut seq = 0u64;
        let mut send = |key: SortKey, root: usize| -> bool {
            if self.stop.load(Ordering::Relaxed) {
                return false;
            }
            let skip = match self.resume.map(|p| p.skip_for(&key)) {
                Some(None) => return true,
                Some(Some(skip)) => skip,
                None => 0,
            };
            let job = Job { seq, key, root, skip };
            seq += 1;
            emit(job)
        };
        match self.request.sort {
            SortOrder::Mtime => {
                let mut all = Vec::new();
                self.walk_files(|key, root| {
                    all.push((key, root));
                    true
                });
                for (key, _) in &mut all {
                    key.rank = -walk::modified_ns(&key.path);
                    key.target = 0;
                }
                all.sort_by(|a, b| a.0.cmp(&b.0));
                for (key, root) in all {
                    if !send(key, root) {
                        break;
                    }
                }
            }
            SortOrder::Path | SortOrder::None => {
                self.walk_files(&mut send);
            }
        }
    }

    /// Visits candidate files in path order; stops when `visit` returns false.
    fn walk_files(&self, mut visit: impl FnMut(SortKey, usize) -> bool) {
        for (index, target) in self.targets.iter().enumerate() {
            if !target.is_dir {
                let key = SortKey { rank: 0, target: index, path: target.path.clone() };
                if !visit(key, target.root) {
                    return;
                }
                continue;
            }
            let mut builder = walk::builder(self.sandbox, target, &self.walk_options[index], &self.skipped);
            builder.sort_by_file_name(|a, b| a.cmp(b));
            for entry in builder.build() {
                if self.stop.load(Ordering::Relaxed) || self.control.interruption().is_some() {
                    return;
                }
                let entry = match entry {
                    Ok(entry) => entry,
                    Err(_) => {
                        SkipCounters::add(&self.skipped.errors);
                        continue;
                    }
                };
                // Without follow_links a symlink arrives as itself and is not searched.
                if !entry.file_type().is_some_and(|t| t.is_file()) {
                    continue;
                }
                let key = SortKey { rank: 0, target: index, path: entry.into_path() };
                if !visit(key, target.root) {
                    return;
                }
            }
        }
    }

    /// Produces, searches and accepts every job on the calling thread, in order.
    fn run_inline(&self, page: &mut Page) {
        let mut searcher = file::searcher(self.request);
        let config = self.file_config();
        self.produce(|job| {
            let outcome = self.search_job(&mut searcher, &config, &job);
            if self.accept(Done { job, outcome }, page) {
                return false;
            }
            page.truncated = self.control.interruption();
            page.truncated.is_none()
        });
    }

    /// How each file is searched.
    fn file_config(&self) -> FileSearchConfig {
        FileSearchConfig {
            sections: self.sections.cloned(),
            mode: self.request.mode,
            max_columns: self.request.max_columns,
            record_cap: match self.request.mode {
                OutputMode::Content => self.request.limit.map(|l| l.saturating_add(1)),
                _ => None,
            },
        }
    }

    /// Searches jobs until the channel closes.
    fn work(&self, jobs: &crossbeam_channel::Receiver<Job>, done: &crossbeam_channel::Sender<Done>) {
        let mut searcher = file::searcher(self.request);
        let config = self.file_config();
        for job in jobs.iter() {
            if self.stop.load(Ordering::Relaxed) {
                continue;
            }
            let outcome = self.search_job(&mut searcher, &config, &job);
            if done.send(Done { job, outcome }).is_err() {
                return;
            }
        }
    }

    fn search_job(
        &self,
        searcher: &mut grep_searcher::Searcher,
        config: &FileSearchConfig,
        job: &Job,
    ) -> std::io::Result<FileOutcome> {
        let whole_file_taken = job.skip > 0 && self.request.mode != OutputMode::Content;
        if whole_file_taken {
            return Ok(FileOutcome::default());
        }
        let opened = match self.open_job(job) {
            Ok(opened) => opened,
            // A followed link may be absolute, or lead into another root, which a beneath-the-root
            // open refuses: open its resolved target beneath the root that holds it instead.
            Err(_) if self.request.follow_links => match self.sandbox.resolve_link_inside(&job.key.path) {
                Some(target) => self.open_beneath(&target)?,
                None => return Err(std::io::Error::from(std::io::ErrorKind::PermissionDenied)),
            },
            Err(err) => return Err(err),
        };
        match opened {
            Some(handle) => file::search(searcher, self.matcher, &handle, config, job.skip, self.control),
            None => {
                SkipCounters::add(&self.skipped.special);
                Ok(FileOutcome::default())
            }
        }
    }

    /// Opens a job's file beneath its root, by the path the walk found it at.
    fn open_job(&self, job: &Job) -> std::io::Result<Option<std::fs::File>> {
        let root = &self.sandbox.roots()[job.root];
        let relative = job.key.path.strip_prefix(root).unwrap_or(&job.key.path);
        file::open_regular(&self.root_dirs[job.root], relative, self.request.follow_links)
    }

    /// Opens a canonical path beneath the root that contains it.
    fn open_beneath(&self, canonical: &Path) -> std::io::Result<Option<std::fs::File>> {
        let root = self.sandbox.root_of(canonical).ok_or(std::io::ErrorKind::PermissionDenied)?;
        let relative = canonical.strip_prefix(&self.sandbox.roots()[root]).unwrap_or(canonical);
        file::open_regular(&self.root_dirs[root], relative, false)
    }

    /// Takes outcomes back in sequence and fills the page.
    fn consume(&self, done: &crossbeam_channel::Receiver<Done>, page: &mut Page) {
        let mut waiting: BTreeMap<u64, Done> = BTreeMap::new();
        let mut next = 0u64;
        loop {
            let received = match self.control.remaining() {
                Some(left) => done.recv_timeout(left),
                None => done.recv().map_err(|_| RecvTimeoutError::Disconnected),
            };
            match received {
                Ok(item) => {
                    waiting.insert(item.job.seq, item);
                }
                Err(RecvTimeoutError::Disconnected) => return,
                Err(RecvTimeoutError::Timeout) => {
                    page.truncated = Some(Truncation::Timeout);
                    return;
                }
            }
            while let Some(item) = waiting.remove(&next) {
                next += 1;
                if self.accept(item, page) {
                    return;
                }
                self.window.advance(next);
            }
            if let Some(reason) = self.control.interruption() {
                page.truncated = Some(reason);
                return;
            }
        }
    }

    /// Adds one file's outcome to the page; true when the page is complete.
    fn accept(&self, item: Done, page: &mut Page) -> bool {
        let Done { job, outcome } = item;
        page.stats.files_walked += 1;
        let outcome = match outcome {
            Ok(outcome) => outcome,
            Err(_) => {
                page.stats.skipped_errors += 1;
                return false;
            }
        };
        page.stats.files_searched += u64::from(outcome.searched);
        page.stats.bytes_searched += outcome.bytes;
        if outcome.binary && outcome.records == 0 {
            page.stats.skipped_binary += 1;
        }
        let content = self.request.mode == OutputMode::Content;
        if outcome.interrupted.is_some() && !content {
            // A partial count is no count: leave the file to the next page.
            page.truncated = outcome.interrupted;
            return true;
        }
        // What the limit counts: match records in content mode, files otherwise.
        let units = if content { outcome.records } else { u64::from(outcome.records > 0) };
        let limit = self.request.limit.unwrap_or(u64::MAX);
        if units > 0 {
            if page.records >= limit {
                // The page was already full; this file proves that more results exist.
                page.truncated = Some(Truncation::Limit);
                return true;
            }
            page.stats.files_matched += 1;
            let taken = units.min(limit - page.records);
            page.records += taken;
            page.position = Some(Position { key: job.key.clone(), taken: job.skip + taken });
            page.files.push(self.file_matches(&job, outcome.matches, outcome.records, taken));
            if taken < units {
                page.truncated = Some(Truncation::Limit);
                return true;
            }
        }
        if let Some(reason) = outcome.interrupted {
            page.truncated = Some(reason);
            if units == 0 {
                page.position = Some(Position { key: job.key, taken: job.skip });
            }
            return true;
        }
        false
    }

    /// The page entry for a file of which `taken` units (see `accept`) fit on the page.
    fn file_matches(
        &self,
        job: &Job,
        mut matches: Vec<crate::result::Match>,
        records: u64,
        taken: u64,
    ) -> FileMatches {
        let root = &self.sandbox.roots()[job.root];
        let relative_path = job.key.path.strip_prefix(root).unwrap_or(Path::new("")).to_path_buf();
        let count = match self.request.mode {
            OutputMode::Content => {
                matches.truncate(taken as usize);
                taken
            }
            OutputMode::Files => 1,
            OutputMode::Count => records,
        };
        FileMatches { path: job.key.path.clone(), relative_path, count, matches }
    }
}
