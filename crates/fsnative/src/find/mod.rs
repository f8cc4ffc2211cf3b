//! Fuzzy path search: the files below a directory, ranked by how well their paths match a
//! typo-tolerant query, on the walking and roots layers (and the index when it can answer).
//!
//! The files are those a glob of `**` finds (the walk's default options: ignore files
//! honoured, hidden entries left out, links not followed but kept when they lead to a file
//! inside), less those the constraints leave out. They come from the warm index when it is
//! ready, else from a walk. Each relative path is matched and scored by [`score`]; the best
//! `limit` are returned.
//!
//! Its modules: `score` (the query, the matcher and the score's parts).

mod score;

use std::borrow::Cow;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use crate::control::{default_threads, CancelToken, Control};
use crate::error::{Error, ErrorCode, Result};
use crate::glob::entry_is_dir;
use crate::index::{Index, Kind, View};
use crate::request::FindRequest;
use crate::result::{FindEntry, FindResult, FindStats, Truncation};
use crate::roots::{RootDirs, Roots};
use crate::walk::{self, Constraints, SkipCounters, Target, WalkOptions, Walked, WalkedKind, Walker};

use score::{Query, Ranked};

/// A file the query is matched against.
struct Candidate<'v> {
    /// Its path relative to the directory searched: borrowed from the index, or walked.
    relative: Cow<'v, [u8]>,
    /// A link that was not followed: kept only if it leads to a file inside.
    symlink: bool,
}

/// Runs `request` inside `roots`, from `index` when it can answer.
pub(crate) fn run(
    roots: &Roots,
    index: Option<&Index>,
    request: &FindRequest,
    cancel: &CancelToken,
) -> Result<FindResult> {
    let started = Instant::now();
    let control = Control::new(cancel, request.timeout_ms);
    let query = Query::parse(&request.query)?;
    let constraints = request.constraints.as_deref().map(Constraints::parse).transpose()?.flatten();
    // No path: every root, each file relative to its root.
    let targets = walk::targets(roots, request.path.as_slice())?;
    if let Some(file) = targets.iter().find(|t| !t.is_dir) {
        return Err(Error::new(
            ErrorCode::NotADirectory,
            format!("find base {} is not a directory", file.path.display()),
        )
        .with_path(&file.path));
    }
    // What the index's listings left out is not reported by a find.
    let skipped = SkipCounters::default();
    let view = index.and_then(Index::view);
    let view = view.filter(|view| targets.iter().all(|t| view.lists(t.root, t.below_root(roots))));
    let shared = constraints.clone().map(Arc::new);
    let mut searched = Vec::with_capacity(targets.len());
    for target in targets {
        let candidates = match &view {
            Some(view) => from_index(view, roots, &target, constraints.as_ref(), &skipped),
            None => from_walk(roots, &target, shared.clone(), &control)?,
        };
        searched.push((target, candidates));
    }
    let truncated = control.interruption();
    let mut result = rank(roots, &searched, &query, request.limit);
    result.truncated = truncated.or(result.truncated);
    result.stats.indexed = view.is_some();
    result.stats.elapsed_ms = started.elapsed().as_secs_f64() * 1000.0;
    Ok(result)
}

/// The files below `target` in the index, in walk order.
fn from_index<'v>(
    view: &'v View<'_>,
    roots: &Roots,
    target: &Target,
    constraints: Option<&Constraints>,
    skipped: &'v SkipCounters,
) -> Vec<Candidate<'v>> {
    let dir = target.below_root(roots);
    let base = if dir.is_empty() { 0 } else { dir.len() + 1 };
    view.walk(target.root, dir, None, None, skipped)
        .filter(|(entry, _, _)| matches!(entry.kind, Kind::File | Kind::Symlink))
        .map(|(entry, _, _)| Candidate {
            relative: Cow::Borrowed(&entry.path[base..]),
            symlink: entry.kind == Kind::Symlink,
        })
        .filter(|candidate| constraints.is_none_or(|c| c.matches(&candidate.relative)))
        .collect()
}

/// The files below `target`, walked in path order.
fn from_walk(
    roots: &Roots,
    target: &Target,
    constraints: Option<Arc<Constraints>>,
    control: &Control,
) -> Result<Vec<Candidate<'static>>> {
    let dirs = RootDirs::open(roots)?;
    let options = WalkOptions { constraints, ..WalkOptions::default() };
    let skipped = SkipCounters::default();
    let base = target.path.as_os_str().as_bytes();
    let base = base.len() + usize::from(!base.ends_with(b"/"));
    let mut candidates = Vec::new();
    let prepare = |walked: Walked| {
        (walked.kind != WalkedKind::Dir).then(|| Candidate {
            relative: Cow::Owned(walked.path.as_os_str().as_bytes()[base..].to_vec()),
            symlink: walked.kind == WalkedKind::Symlink,
        })
    };
    Walker::new(&dirs, &options, &skipped, control).run_all(
        target,
        default_threads(),
        prepare,
        |candidate| {
            candidates.push(candidate);
            true
        },
    );
    Ok(candidates)
}

/// Scores every candidate of every searched target and keeps the best `limit`.
fn rank(
    roots: &Roots,
    searched: &[(Target, Vec<Candidate<'_>>)],
    query: &Query,
    limit: Option<u64>,
) -> FindResult {
    let all: Vec<(usize, &Candidate<'_>)> =
        searched.iter().enumerate().flat_map(|(t, (_, list))| list.iter().map(move |c| (t, c))).collect();
    let texts: Vec<Cow<'_, str>> = all.iter().map(|(_, c)| String::from_utf8_lossy(&c.relative)).collect();
    let absolute = |at: usize| {
        let (t, candidate) = all[at];
        searched[t].0.path.join(OsStr::from_bytes(&candidate.relative))
    };
    // Links count only when they lead to a file inside the sandbox, as in a glob.
    let skipped = SkipCounters::default();
    let keep = |at: usize| {
        let (_, candidate) = all[at];
        !candidate.symlink || {
            let link = Walked { path: absolute(at), kind: WalkedKind::Symlink, at: None };
            entry_is_dir(roots, &link, &skipped) == Some(false)
        }
    };
    let limit = limit.map_or(usize::MAX, |l| usize::try_from(l).unwrap_or(usize::MAX));
    let ranked = query.rank(&texts, keep, limit, default_threads());
    let entries = ranked
        .best
        .into_iter()
        .map(|Ranked { at, fuzzy, filename_bonus, exact_bonus, typos }| {
            let relative = Path::new(OsStr::from_bytes(&all[at].1.relative)).to_path_buf();
            FindEntry {
                path: absolute(at),
                relative_path: relative,
                score: fuzzy + filename_bonus + exact_bonus,
                fuzzy,
                filename_bonus,
                exact_bonus,
                typos,
            }
        })
        .collect::<Vec<_>>();
    let total = ranked.total as u64;
    let truncated = (total > entries.len() as u64).then_some(Truncation::Limit);
    FindResult {
        entries,
        total,
        truncated,
        stats: FindStats { candidates: all.len() as u64, indexed: false, elapsed_ms: 0.0 },
    }
}
