//! Content search: the parallel, order-preserving grep pipeline.
//!
//! The calling thread walks the targets in result order (or collects and sorts them by mtime)
//! and numbers each candidate file. A small search ends there, searched inline: starting
//! threads would cost more than it saves. Past a short budget, worker threads search batches
//! of files in any order while the calling thread goes on walking and puts their outcomes back
//! in sequence. It stops as soon as the page is full, so the first page of a huge tree costs
//! only what it needs.

mod cursor;
mod file;
mod matcher;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::Scope;
use std::time::{Duration, Instant};

use crossbeam_channel::{unbounded, Receiver, RecvTimeoutError, Sender, TryRecvError};
use grep_regex::RegexMatcher;

use crate::control::{CancelToken, Control};
use crate::error::Result;
use crate::request::{GrepRequest, OutputMode, SortOrder};
use crate::result::{FileMatches, GrepResult, GrepStats, Truncation};
use crate::roots::{Location, RootDirs, Roots};
use crate::walk::{self, SkipCounters, Target, WalkOptions, WalkedKind, Walker};

pub use file::MAX_BUFFER_BYTES;
pub(crate) use matcher::MatcherCache;
pub use matcher::{MAX_COMPILED_BYTES, MAX_PATTERN_BYTES, MAX_PATTERN_NESTING};

use cursor::{Position, SortKey};
use file::{FileOutcome, FileSearchConfig, FileSearcher};

/// One candidate file, numbered in result order.
struct Job {
    seq: u64,
    key: SortKey,
    root: usize,
    /// Where it really lies, when a followed link put it elsewhere than `key.path`.
    at: Option<Location>,
    /// Records of this file to skip (a cursor resuming inside it).
    skip: u64,
}

/// What the walk produced for one file and what searching it gave.
struct Done {
    job: Job,
    outcome: std::io::Result<FileOutcome>,
}

/// Runs `request` inside `roots`, compiling its patterns through `matchers`.
pub(crate) fn run(
    roots: &Roots,
    matchers: &MatcherCache,
    request: &GrepRequest,
    cancel: &CancelToken,
) -> Result<GrepResult> {
    let started = Instant::now();
    let control = Control::new(cancel, request.timeout_ms);
    let matcher = matcher::build(matchers, request)?;
    let sections = matcher::build_sections(matchers, request)?;
    let targets = walk::targets(roots, &request.paths.0)?;
    let types = walk::types(&request.types.0, &request.types_not.0)?;
    let mut walk_options = Vec::with_capacity(targets.len());
    for target in &targets {
        walk_options.push(WalkOptions {
            hidden: request.hidden,
            follow_links: request.follow_links,
            no_ignore: request.no_ignore,
            max_depth: request.max_depth,
            max_filesize: request.max_filesize,
            overrides: walk::overrides(&roots.paths()[target.root], &request.globs.0)?,
            types: types.clone(),
        });
    }
    let target_paths: Vec<PathBuf> = targets.iter().map(|t| t.path.clone()).collect();
    let fingerprint = cursor::fingerprint(request, &target_paths);
    let resume = request.cursor.as_deref().map(|c| cursor::decode(c, &fingerprint)).transpose()?;

    let dirs = RootDirs::open(roots)?;
    let pipeline = Pipeline {
        dirs: &dirs,
        request,
        matcher: &matcher,
        sections: sections.as_ref(),
        control: &control,
        targets: &targets,
        walk_options: &walk_options,
        resume: resume.as_ref(),
        skipped: Arc::new(SkipCounters::default()),
        stop: AtomicBool::new(false),
    };
    let page = pipeline.run(started);

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
    /// The roots, opened once: files are opened beneath these handles.
    dirs: &'a RootDirs<'a>,
    request: &'a GrepRequest,
    matcher: &'a RegexMatcher,
    /// The section-end matcher, when `section_end_patterns` were given.
    sections: Option<&'a Arc<RegexMatcher>>,
    control: &'a Control,
    targets: &'a [Target],
    walk_options: &'a [WalkOptions],
    resume: Option<&'a Position>,
    skipped: Arc<SkipCounters>,
    /// Set when the page is complete; workers skip what is left.
    stop: AtomicBool,
}

/// The most threads one grep searches with, whatever `threads` asks for (the answer does not
/// depend on the thread count; an absurd request must not exhaust memory or threads).
pub const MAX_THREADS: usize = 256;

/// How many files may be queued, searched or waiting to be put back in order at once. This
/// bounds memory: each waiting file holds at most `limit + 1` matches.
const WINDOW: u64 = 256;

/// The most files handed to a worker at once. Batches grow only while the workers are busy,
/// so an idle worker gets the next file as soon as the walk finds it.
const BATCH: usize = 8;

/// How long a search runs on the calling thread before it starts workers. Most searches an
/// agent makes end well within it, and starting threads would cost more than they save.
const INLINE_BUDGET: Duration = Duration::from_millis(1);

/// The page being assembled by the calling thread.
#[derive(Default)]
struct Page {
    files: Vec<FileMatches>,
    records: u64,
    truncated: Option<Truncation>,
    /// Where this page ends (the last file it took records from).
    position: Option<Position>,
    stats: GrepStats,
}

impl Page {
    /// The page is complete, or the search was interrupted.
    fn is_done(&self) -> bool {
        self.truncated.is_some()
    }
}

/// The parallel half of a search: worker threads searching batches of files, and the
/// outcomes waiting to be put back in sequence.
struct Workers {
    /// The job queue; `None` once closed, which lets idle workers end.
    jobs: Option<Sender<Vec<Job>>>,
    done: Receiver<Vec<Done>>,
    /// The batch being filled.
    batch: Vec<Job>,
    /// Finished batches that came back ahead of their turn, by their first sequence number.
    waiting: BTreeMap<u64, Vec<Done>>,
    /// The sequence number to accept next.
    next: u64,
    /// The sequence number of the next job handed out.
    sent: u64,
}

impl Pipeline<'_> {
    /// Searches the targets and assembles the page. The calling thread walks and puts outcomes
    /// in order; it searches on its own for the first [`INLINE_BUDGET`], then hands files to
    /// `threads` workers.
    fn run(&self, started: Instant) -> Page {
        let threads = self
            .request
            .threads
            .filter(|&n| n > 0)
            .unwrap_or_else(crate::control::default_threads)
            .min(MAX_THREADS);
        let mut page = Page { position: self.resume.cloned(), ..Page::default() };
        page.truncated = self.control.interruption();
        if page.is_done() {
            return page;
        }
        std::thread::scope(|scope| {
            let mut searcher = file::searcher(self.request);
            let config = self.file_config();
            let mut workers: Option<Workers> = None;
            // Starting workers is tried once (it fails only when no thread can be started).
            let mut may_start = threads > 1;
            self.produce(|job| match &mut workers {
                Some(workers) => workers.hand_out(self, job, &mut page),
                None => {
                    let next = job.seq + 1;
                    let outcome = self.search_job(&mut searcher, &config, &job);
                    if self.accept(Done { job, outcome }, &mut page) {
                        return false;
                    }
                    page.truncated = self.control.interruption();
                    if may_start && !page.is_done() && started.elapsed() >= INLINE_BUDGET {
                        may_start = false;
                        workers = Workers::start(self, scope, threads, next);
                    }
                    !page.is_done()
                }
            });
            if let Some(workers) = workers {
                workers.finish(self, &mut page);
            }
            self.stop.store(true, Ordering::Relaxed);
        });
        page
    }

    /// Walks the targets in result order and hands `emit` one job per candidate file (those
    /// wholly before the cursor left out), until it returns false.
    fn produce(&self, mut emit: impl FnMut(Job) -> bool) {
        let mut seq = 0u64;
        let mut send = |key: SortKey, root: usize, at: Option<Location>| -> bool {
            if self.stop.load(Ordering::Relaxed) {
                return false;
            }
            let skip = match self.resume.map(|p| p.skip_for(&key)) {
                Some(None) => return true,
                Some(Some(skip)) => skip,
                None => 0,
            };
            let job = Job { seq, key, root, at, skip };
            seq += 1;
            emit(job)
        };
        match self.request.sort {
            SortOrder::Mtime => {
                let mut all = Vec::new();
                self.walk_files(|key, root, at| {
                    all.push((key, root, at));
                    true
                });
                for (key, _, _) in &mut all {
                    key.rank = -walk::modified_ns(&key.path);
                    key.target = 0;
                }
                all.sort_by(|a, b| a.0.cmp(&b.0));
                for (key, root, at) in all {
                    if !send(key, root, at) {
                        break;
                    }
                }
            }
            SortOrder::Path | SortOrder::None => {
                self.walk_files(&mut send);
            }
        }
    }

    /// Visits candidate files in path order, with the root each was found in and where it
    /// really lies when that differs; stops when `visit` returns false.
    fn walk_files(&self, mut visit: impl FnMut(SortKey, usize, Option<Location>) -> bool) {
        for (index, target) in self.targets.iter().enumerate() {
            if !target.is_dir {
                let key = SortKey { rank: 0, target: index, path: target.path.clone() };
                if !visit(key, target.root, None) {
                    return;
                }
                continue;
            }
            let walker = Walker::new(self.dirs, &self.walk_options[index], &self.skipped, self.control);
            let mut going = true;
            walker.run(target, |walked| {
                going = !self.stop.load(Ordering::Relaxed) && self.control.interruption().is_none();
                // Without follow_links a symlink arrives as itself and is not searched.
                if going && walked.kind == WalkedKind::File {
                    let key = SortKey { rank: 0, target: index, path: walked.path };
                    going = visit(key, target.root, walked.at);
                }
                going
            });
            if !going {
                return;
            }
        }
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

    /// Searches batches until the channel closes, sending each batch's outcomes back whole.
    fn work(&self, jobs: &Receiver<Vec<Job>>, done: &Sender<Vec<Done>>) {
        let mut searcher = file::searcher(self.request);
        let config = self.file_config();
        for batch in jobs.iter() {
            if self.stop.load(Ordering::Relaxed) {
                continue;
            }
            if done.send(self.search_batch(&mut searcher, &config, batch)).is_err() {
                return;
            }
        }
    }

    /// Searches one batch, in order.
    fn search_batch(
        &self,
        searcher: &mut FileSearcher,
        config: &FileSearchConfig,
        batch: Vec<Job>,
    ) -> Vec<Done> {
        batch.into_iter().map(|job| Done { outcome: self.search_job(searcher, config, &job), job }).collect()
    }

    fn search_job(
        &self,
        searcher: &mut FileSearcher,
        config: &FileSearchConfig,
        job: &Job,
    ) -> std::io::Result<FileOutcome> {
        let whole_file_taken = job.skip > 0 && self.request.mode != OutputMode::Content;
        if whole_file_taken {
            return Ok(FileOutcome::default());
        }
        match self.open_job(job)? {
            Some((handle, size)) => {
                file::search(searcher, self.matcher, (&handle, size), config, job.skip, self.control)
            }
            None => {
                SkipCounters::add(&self.skipped.special);
                Ok(FileOutcome::default())
            }
        }
    }

    /// Opens a job's file beneath a root: where a followed link put it, else by the path the
    /// walk found it at.
    fn open_job(&self, job: &Job) -> std::io::Result<Option<(std::fs::File, u64)>> {
        let (root, relative) = self.dirs.roots().place(job.root, &job.key.path, job.at.as_ref());
        self.dirs.open_file(root, relative, self.request.follow_links)
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
        let root = &self.dirs.roots().paths()[job.root];
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

/// How often a thread waiting for workers looks at the cancel token.
const CANCEL_POLL: Duration = Duration::from_millis(20);

impl Workers {
    /// Starts up to `count` worker threads, the first job they get being number `next`; `None`
    /// when no thread could be started (the search then goes on inline).
    fn start<'scope, 'env>(
        pipeline: &'env Pipeline<'env>,
        scope: &'scope Scope<'scope, 'env>,
        count: usize,
        next: u64,
    ) -> Option<Workers> {
        let (jobs, queue) = unbounded::<Vec<Job>>();
        let (done_sender, done) = unbounded::<Vec<Done>>();
        let mut started = 0;
        for _ in 0..count {
            let queue = queue.clone();
            let done_sender = done_sender.clone();
            let spawned = std::thread::Builder::new()
                .name("fsnative-grep".to_owned())
                .spawn_scoped(scope, move || pipeline.work(&queue, &done_sender));
            if spawned.is_err() {
                break;
            }
            started += 1;
        }
        (started > 0).then(|| Workers {
            jobs: Some(jobs),
            done,
            batch: Vec::with_capacity(BATCH),
            waiting: BTreeMap::new(),
            next,
            sent: next,
        })
    }

    /// Queues `job`, takes back what is finished, and waits while [`WINDOW`] files are in
    /// flight. False when the page is done.
    fn hand_out(&mut self, pipeline: &Pipeline<'_>, job: Job, page: &mut Page) -> bool {
        self.batch.push(job);
        self.sent += 1;
        if self.batch.len() >= BATCH || self.jobs.as_ref().is_some_and(Sender::is_empty) {
            self.flush();
        }
        self.take_back(pipeline, page, false);
        while !page.is_done() && self.sent - self.next >= WINDOW {
            self.flush();
            self.take_back(pipeline, page, true);
        }
        !page.is_done()
    }

    /// Hands the batch being filled to the workers.
    fn flush(&mut self) {
        if let (false, Some(jobs)) = (self.batch.is_empty(), &self.jobs) {
            let batch = std::mem::replace(&mut self.batch, Vec::with_capacity(BATCH));
            // Sending fails only if every worker is gone (a panic, which the scope re-raises).
            let _ = jobs.send(batch);
        }
    }

    /// Takes back every outcome of the jobs handed out, until the page is done.
    fn finish(mut self, pipeline: &Pipeline<'_>, page: &mut Page) {
        self.flush();
        self.jobs = None;
        while !page.is_done() && self.next < self.sent {
            if !self.take_back(pipeline, page, true) {
                return;
            }
        }
    }

    /// Receives finished batches (waiting for one when `block`) and accepts every outcome
    /// whose turn has come. False when the workers are gone.
    fn take_back(&mut self, pipeline: &Pipeline<'_>, page: &mut Page, block: bool) -> bool {
        loop {
            let received = if block {
                let wait = pipeline.control.remaining().map_or(CANCEL_POLL, |left| left.min(CANCEL_POLL));
                self.done.recv_timeout(wait)
            } else {
                self.done.try_recv().map_err(|err| match err {
                    TryRecvError::Empty => RecvTimeoutError::Timeout,
                    TryRecvError::Disconnected => RecvTimeoutError::Disconnected,
                })
            };
            match received {
                Ok(batch) => {
                    if let Some(first) = batch.first() {
                        self.waiting.insert(first.job.seq, batch);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => return false,
                Err(RecvTimeoutError::Timeout) => {
                    page.truncated = page.truncated.or_else(|| pipeline.control.interruption());
                    return true;
                }
            }
            self.accept_in_order(pipeline, page);
            if block || page.is_done() {
                page.truncated = page.truncated.or_else(|| pipeline.control.interruption());
                return true;
            }
        }
    }

    /// Accepts the waiting outcomes whose turn has come, until the page is done.
    fn accept_in_order(&mut self, pipeline: &Pipeline<'_>, page: &mut Page) {
        while let Some(batch) = self.waiting.remove(&self.next) {
            for item in batch {
                self.next = item.job.seq + 1;
                if pipeline.accept(item, page) {
                    return;
                }
            }
        }
    }
}
