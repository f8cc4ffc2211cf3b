//! Content search: the parallel, order-preserving grep pipeline, on the walking and roots
//! layers.
//!
//! The calling thread walks the targets in result order and numbers each candidate file. A
//! small search ends there, searched inline. Past a short budget, workers on kept helper
//! threads search batches of files in any order while the calling thread goes on walking,
//! puts their outcomes back in sequence and searches queued batches itself rather than wait.
//! It stops as soon as the page is full, so the first page of a huge tree costs only what it
//! needs.
//!
//! Its modules: `matcher` (compiled patterns and their cache), `file` (searching one open
//! file), `cursor` (where a page ends), `job` (opening and searching one candidate), `page`
//! (accepting outcomes in order), `workers` (the parallel half), `pipeline` (scheduling),
//! `indexed` (the candidates the warm index leaves, in walk order) and `ranked` (frecency
//! order, and recording the files found).

mod cursor;
mod file;
mod indexed;
mod job;
mod matcher;
mod page;
mod pipeline;
mod ranked;
mod workers;

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use crate::control::{CancelToken, Control};
use crate::error::Result;
use crate::index::Index;
use crate::request::{GrepRequest, OutputMode, SortOrder};
use crate::result::GrepResult;
use crate::roots::{RootDirs, Roots};
use crate::walk::{self, Constraints, SkipCounters, WalkOptions};

pub(crate) use file::{no_match, starts_with_bom};
pub(crate) use matcher::MatcherCache;
pub use pipeline::MAX_THREADS;
pub(crate) use ranked::Ranking;

use cursor::Position;
use indexed::Indexed;
use job::JobSearch;
use pipeline::Pipeline;

/// Runs `request` inside `roots`, compiling its patterns through `matchers`, from `index`
/// when it can answer, ranking and recording by `ranking`.
pub(crate) fn run(
    roots: &Roots,
    matchers: &MatcherCache,
    index: Option<&Index>,
    ranking: Ranking<'_>,
    request: &GrepRequest,
    cancel: &CancelToken,
) -> Result<GrepResult> {
    let started = Instant::now();
    let control = Control::new(cancel, request.timeout_ms);
    let matcher = matcher::build(matchers, request)?;
    let sections = matcher::build_sections(matchers, request)?;
    let targets = walk::targets(roots, &request.paths.0)?;
    let types = walk::types(&request.types.0, &request.types_not.0)?;
    let constraints = Constraints::parse(request.constraints.as_deref())?.map(Arc::new);
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
            constraints: constraints.clone(),
            ..WalkOptions::default()
        });
    }
    let target_paths: Vec<PathBuf> = targets.iter().map(|t| t.path.clone()).collect();
    // Needed only to read a cursor or write one (most searches do neither).
    let fingerprint = || cursor::fingerprint(request, &target_paths);
    let (resume, as_of) = match request.cursor.as_deref() {
        Some(given) => {
            let (position, as_of) = cursor::decode(given, &fingerprint())?;
            (Some(position), as_of)
        }
        None => (None, None),
    };
    let ranked = ranking.order(request, as_of)?;

    let view = index.filter(|_| index_answers(request)).and_then(Index::view);
    let view =
        view.filter(|view| targets.iter().all(|t| !t.is_dir || view.lists(t.root, &t.below_root(roots))));
    let indexed = view.as_ref().map(|view| Indexed {
        view,
        roots,
        constraints: constraints.as_deref(),
        prefilter: view.prefilter(
            &matcher::prefilter_query(matchers, request),
            !request.multiline && !request.search_binary,
        ),
    });

    let dirs = RootDirs::open(roots)?;
    let skipped = SkipCounters::default();
    let pipeline = Pipeline {
        search: JobSearch {
            dirs: &dirs,
            request,
            matcher: &matcher,
            config: JobSearch::config(request, sections),
            control: &control,
            skipped: &skipped,
            cache: view.as_ref().and_then(|view| view.cache()),
            stop: AtomicBool::new(false),
        },
        targets: &targets,
        walk_options: &walk_options,
        resume: resume.as_ref(),
        indexed,
        ranked,
        rank_error: Default::default(),
    };
    let page = pipeline.run(started);
    if let Some(error) = pipeline.rank_error.take() {
        return Err(error);
    }
    ranking.record(roots, request, &page.files, ranked.map(|(_, as_of)| as_of))?;

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
        next_cursor: page.truncated.map(|_| {
            let position = page.position.unwrap_or_else(Position::start);
            cursor::encode(&fingerprint(), &position, ranked.map(|(_, as_of)| as_of))
        }),
        mode: request.mode,
        context_enabled: request.mode == OutputMode::Content
            && (request.lines_before() > 0 || request.lines_after() > 0),
        single_file: targets.len() == 1 && !targets[0].is_dir,
        stats,
    })
}

/// The index answers searches with the walk's default options (ignore files honoured, hidden
/// entries and links left out, no glob, type or size filter; constraints it applies itself)
/// in path order; any other search (mtime and frecency order among them) walks.
fn index_answers(request: &GrepRequest) -> bool {
    !request.hidden
        && !request.follow_links
        && !request.no_ignore
        && request.globs.0.is_empty()
        && request.types.0.is_empty()
        && request.types_not.0.is_empty()
        && request.max_filesize.is_none()
        && !matches!(request.sort, SortOrder::Mtime | SortOrder::Frecency)
}
